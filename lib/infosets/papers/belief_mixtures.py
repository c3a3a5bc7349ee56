"""Mixture of public and private beliefs for PIMC and IS-MCTS: the tasks.

Reproduces Arjonilla, Saffidine and Cazenave, "Mixture of public and private beliefs"
(2024, arXiv 2405.14346; docs/papers/belief_mixtures.md): TSSR vs λ (Figs 2, 5),
best-responder utility vs λ (Tables 1, 3), first-action × later-action λ heatmaps
(Figs 3, 6) and win rates against PIMC with λ = 0 (Tables 2, 4), at both seats.

Every policy is tabulated at EVERY infostate of our seat (the bot's policy = the
distribution of what it plays, re-run until stable), then scored with OpenSpiel's exact
best response and with TSSR. A bot's policy at an infostate depends only on the λ used at
that decision, so the heatmap cell (λ_first, λ_later) is assembled from the constant-λ
tables: first-action infostates from λ_first, the rest from λ_later (``heatmaps``, a table
the notebook derives through ``Session.derive``, so its code stays in the results key).

The paper's numbers, the tables, figures and claims live in ``belief_mixtures_analysis``,
which only reads the rows these tasks make: an edit there leaves this paper's results key,
and its committed runs, valid (tests/papers/test_analysis_keys.py).
"""
from __future__ import annotations

import re
import time

import numpy as np
import pandas as pd
import pyspiel

import infosets.games  # noqa: F401  (registers trick_game)
from infosets import beliefs, metrics
from infosets.experiments.config import Param, Schema
from infosets.experiments.tasks import Task
from infosets.search.pimc import PerfectInfoValues, PIMCBot

ALGOS = ("PIMC", "IS-MCTS")
LAMBDAS = [round(0.1 * k, 1) for k in range(11)]


def label(game_string: str) -> str:
    """The paper's name of a game: LD kD (one k-sided die each), LP, CG nC; ``LD_2D_GAME``
    is the paper's "LD 2D", and the literal one 2-sided die each is "LD 2D (2 sides)"."""
    game = pyspiel.load_game(game_string)
    name, params = game.get_type().short_name, game.get_parameters()
    if name == "liars_dice":
        if params == pyspiel.load_game(LD_2D_GAME).get_parameters():
            return "LD 2D"
        sides = params["dice_sides"]
        return "LD 2D (2 sides)" if sides == 2 else f"LD {sides}D"
    if name == "leduc_poker":
        return "LP"
    if name == "trick_game":  # "(all dealt)": the reading where every card is in a hand
        all_dealt = 2 * params["hand_size"] == params["num_cards"]
        return f"CG {params['num_cards']}C" + (" (all dealt)" if all_dealt else "")
    return game_string


def reading_game(sides: int, rule: str) -> str:
    return f"liars_dice(numdice=1,dice_sides={sides},bidding_rule={rule})"


# The game the headline tables and heatmaps play where the paper says "LD 2D" (Tables 1 and 3,
# Figs 3 and 6): one 6-sided die each under OpenSpiel's reset-face bidding rule (its default).
# - The bidding rule is the paper's text (Sec. 4.1.2): a player "must at least bid more dice
#   than the previous player's bid, or the same number of dice, but with a higher value". That
#   is OpenSpiel's kResetFace (open_spiel 2.0.2, games/liars_dice/liars_dice.h: "a higher
#   quantity of any particular face, or the same quantity of a higher face"); kResetQuantity is
#   "a higher quantity of the same face, or any particular quantity of a higher face". The
#   highest face is wild in both the text and OpenSpiel.
# - The number of sides is a reading: as one 2-sided die each, PIMC is unexploitable at every λ
#   (the heatmap panels are constant at ±0.50) while Table 1's row varies with λ, so "2D" is not
#   the die; among the sides scored in ``table1_readings`` (2, 3, 6), the 6-sided die is the
#   nearest to Table 1's row in shape.
# The choice is the game only: PIMC's mode, tie-break and every budget stay as configured.
LD_2D_GAME = reading_game(6, "reset-face")

READING = re.compile(r"^(\d+):(reset-face|reset-quantity):(exact|protocol):(uniform|first)$")


def parse_reading(text: str) -> dict:
    """'sides:bidding_rule:mode:tie_break' -> dict; ValueError naming the allowed form."""
    m = READING.match(text)
    if not m or not 2 <= int(m.group(1)) <= 6:
        raise ValueError(f"readings: each item must be 'sides:rule:mode:tie_break' with sides "
                         f"in [2, 6], rule reset-face|reset-quantity, mode exact|protocol, "
                         f"tie_break uniform|first; got {text!r}")
    return {"game": reading_game(int(m.group(1)), m.group(2)), "mode": m.group(3),
            "tie_break": m.group(4)}


def belief_game(game_string: str) -> str | None:
    """Why the bots cannot play ``game_string`` (its beliefs need a world model: liars_dice
    with one die or leduc_poker, two players, or the trick game), or None when they can.
    Used by the SCHEMA, before any compute."""
    try:
        beliefs.world_model(pyspiel.load_game(game_string))
    except ValueError as exc:
        return f"{game_string!r} has no belief model here ({exc})"
    return None


def _derive(values: dict) -> dict:
    for r in values["readings"]:
        parse_reading(r)
    return {"n_policy_tables": len(values["seats"]) * len(values["lambdas"]) * (
        len(values["table_games_pimc"]) + len(values["table_games_ismcts"]))}


SCHEMA = Schema(
    params={
        "seats": Param(list, item=int, lo=0, hi=1, min_len=1, doc="our seat(s): 0 = Table 1, 1 = Table 3"),
        "lambdas": Param(list, item=float, lo=0.0, hi=1.0, min_len=1, doc="λ grid (paper: 0, 0.1, ..., 1)"),
        "table_games_pimc": Param(list, item=str, game=True, accept=belief_game,
                                  doc="games for PIMC TSSR / best responder"),
        "table_games_ismcts": Param(list, item=str, game=True, accept=belief_game,
                                    doc="games for IS-MCTS TSSR / best responder"),
        "heatmap_games_pimc": Param(list, item=str, game=True, accept=belief_game,
              doc="subset of table_games_pimc with 11x11 heatmaps"),
        "heatmap_games_ismcts": Param(list, item=str, game=True, accept=belief_game,
              doc="subset of table_games_ismcts with heatmaps"),
        "readings": Param(list, item=str,
              doc="Table 1 'LD 2D' readings, 'sides:rule:mode:tie_break' (PIMC, seat 0)"),
        "pimc_mode": Param(str, choices=["protocol", "exact"],
              doc="protocol (paper) or exact (infinite samples)"),
        "pimc_worlds": Param(int, lo=1, doc="worlds per PIMC run (paper: 1000)"),
        "pimc_batch": Param(int, lo=1, doc="PIMC runs between stability checks"),
        "pimc_max_runs": Param(int, lo=1, doc="cap on PIMC runs per infostate"),
        "tie_break": Param(str, choices=["uniform", "first"], doc="PIMC ties between best actions"),
        "stability_tol": Param(float, lo=1e-6, hi=0.5,
              doc="stop re-running when the policy moves less (paper: 0.01)"),
        "ismcts_iterations": Param(int, lo=1, doc="IS-MCTS iterations per run (paper: 1000)"),
        "ismcts_uct_c": Param(float, lo=0.0, doc="UCT constant (paper: 0.7)"),
        "ismcts_availability": Param(bool, doc="availability counts in UCB (OpenSpiel's IS-MCTS: no)"),
        "ismcts_batch": Param(int, lo=1, doc="IS-MCTS runs between stability checks"),
        "ismcts_max_runs": Param(int, lo=1, doc="cap on IS-MCTS runs per infostate"),
        "winrate_games_pimc": Param(list, item=str, game=True, accept=belief_game,
                                    doc="games for PIMC win rates (Tables 2, 4)"),
        "winrate_games_ismcts": Param(list, item=str, game=True, accept=belief_game,
                                      doc="games for IS-MCTS win rates"),
        "winrate_lambdas": Param(list, item=float, lo=0.0, hi=1.0, min_len=1, doc="λ grid of the win rates"),
        "winrate_n_games": Param(int, lo=1, doc="games per (game, algo, seat, λ) (paper: 1000)"),
        "winrate_chunk": Param(int, lo=1, doc="games per task"),
        "winrate_worlds": Param(int, lo=1, doc="worlds per PIMC decision in games (paper: 1000)"),
        "ismcts_repeats": Param(int, lo=1, doc="independent IS-MCTS runs of the λ = 0 and λ = 1 "
                                "tables of each heatmap game and seat, for the claims that "
                                "compare IS-MCTS cells (1: a single sample, no interval)"),
    },
    derive=_derive,
)


# ------------------------------------------------------------------ policy tabulation
def _ismcts_bot(game, seat, lam, cfg, rng):
    from infosets.search.ismcts import ISMCTSBot  # noqa: PLC0415
    return ISMCTSBot(game, seat, iterations=int(cfg["ismcts_iterations"]),
                     uct_c=float(cfg["ismcts_uct_c"]), rng=rng,
                     sampler=beliefs.belief_sampler(game, lam),
                     availability=bool(cfg["ismcts_availability"]), normalize_rewards=False,
                     final="visits")


def tabulate(cfg: dict, game_string: str, algo: str, seat: int, lam: float,
             seed: np.random.SeedSequence, mode: str | None = None,
             tie_break: str | None = None) -> tuple[metrics.PolicyTable, float]:
    """The bot's policy at every infostate of `seat` (constant λ); returns (table, mean runs)."""
    game = pyspiel.load_game(game_string)
    rng = np.random.default_rng(seed)
    if algo == "PIMC":
        bot = PIMCBot(game, seat, lam, rng=rng, mode=mode or cfg["pimc_mode"],
                      num_worlds=cfg["pimc_worlds"], tol=cfg["stability_tol"],
                      batch=cfg["pimc_batch"],
                      max_runs=max(cfg["pimc_max_runs"], cfg["pimc_batch"]),
                      tie_break=tie_break or cfg["tie_break"])
        return metrics.tabulate_policy(game, seat, bot.policy), float("nan")
    if algo == "IS-MCTS":
        bot = _ismcts_bot(game, seat, lam, cfg, rng)
        runs = []

        def policy(state):
            pol, n = metrics.rerun_until_stable(
                bot.policy, state, batch=cfg["ismcts_batch"], tol=cfg["stability_tol"],
                max_runs=max(cfg["ismcts_max_runs"], cfg["ismcts_batch"]))
            runs.append(n)
            return pol

        return metrics.tabulate_policy(game, seat, policy), float(np.mean(runs))
    raise ValueError(f"algo must be one of {ALGOS}, got {algo!r}")


def policy_task(cfg: dict, params: dict, seed) -> list[dict]:
    """Policy rows (infostate, action, prob) of one (game, algo, seat, λ)."""
    table, _ = tabulate(cfg, params["game"], params["algo"], params["seat"], params["lam"], seed)
    return metrics.policy_rows(table)


def utility_task(cfg: dict, params: dict, seed) -> dict:
    """Best-responder utility and TSSR of one (game, algo, seat, λ[, mode, tie_break])."""
    start = time.perf_counter()
    table, runs = tabulate(cfg, params["game"], params["algo"], params["seat"], params["lam"],
                           seed, params.get("mode"), params.get("tie_break"))
    game = pyspiel.load_game(params["game"])
    return {"br": metrics.best_response_value(game, params["seat"], table),
            "tssr": metrics.tssr(game, params["seat"], table), "n_infostates": len(table),
            "mean_runs": runs, "seconds": time.perf_counter() - start}


def _heatmap_pairs(cfg) -> list[tuple[str, str]]:
    return ([(g, "PIMC") for g in cfg["heatmap_games_pimc"]]
            + [(g, "IS-MCTS") for g in cfg["heatmap_games_ismcts"]])


def _table_pairs(cfg) -> list[tuple[str, str]]:
    return ([(g, "PIMC") for g in cfg["table_games_pimc"]]
            + [(g, "IS-MCTS") for g in cfg["table_games_ismcts"]])


def policy_tasks(cfg) -> list[Task]:
    """Policy tables for the heatmap games (their utilities are derived in-process)."""
    return [Task(policy_task, {"game": g, "algo": a, "seat": s, "lam": lam})
            for g, a in _heatmap_pairs(cfg) for s in cfg["seats"] for lam in cfg["lambdas"]]


def utility_tasks(cfg) -> list[Task]:
    """Best responder / TSSR for the other table games, and Table 1's LD readings."""
    heat = set(_heatmap_pairs(cfg))
    tasks = [Task(utility_task, {"game": g, "algo": a, "seat": s, "lam": lam})
             for g, a in _table_pairs(cfg) if (g, a) not in heat
             for s in cfg["seats"] for lam in cfg["lambdas"]]
    for text in cfg["readings"]:
        r = parse_reading(text)
        tasks += [Task(utility_task, {"game": r["game"], "algo": "PIMC", "seat": 0, "lam": lam,
                                      "mode": r["mode"], "tie_break": r["tie_break"],
                                      "reading": text})
                  for lam in cfg["lambdas"]]
    return tasks


REPEAT_LAMBDAS = (0.0, 1.0)


def repeat_task(cfg: dict, params: dict, seed) -> list[dict]:
    """One more independent run of IS-MCTS's λ = 0 and λ = 1 policy tables of (game, seat):
    the best-responder utility of the four (λ first action, λ later actions) pairs they make,
    the cells that "private beats public" and "public belief costs more in later actions"
    compare. Repeat 0 is the main run's heatmap."""
    game = pyspiel.load_game(params["game"])
    seat = params["seat"]
    seeds = dict(zip(REPEAT_LAMBDAS, seed.spawn(len(REPEAT_LAMBDAS))))
    tables = {lam: tabulate(cfg, params["game"], "IS-MCTS", seat, lam, seeds[lam])[0]
              for lam in REPEAT_LAMBDAS}
    first = _first_action_keys(game, seat)
    return [{"lam_first": l1, "lam_later": l2,
             "br": metrics.best_response_value(game, seat, {k: (tables[l1][k] if k in first
                                                                else tables[l2][k])
                                                            for k in tables[l2]})}
            for l1 in REPEAT_LAMBDAS for l2 in REPEAT_LAMBDAS]


def repeat_tasks(cfg) -> list[Task]:
    """Repeats 1 .. ismcts_repeats - 1 of IS-MCTS's λ = 0 and λ = 1 tables per heatmap game and
    seat (only where the grid has both λ)."""
    if not set(REPEAT_LAMBDAS) <= set(cfg["lambdas"]):
        return []
    return [Task(repeat_task, {"game": g, "algo": "IS-MCTS", "seat": s, "repeat": r})
            for g in cfg["heatmap_games_ismcts"] for s in cfg["seats"]
            for r in range(1, cfg["ismcts_repeats"])]


def _first_action_keys(game, seat) -> set[str]:
    return {k for k, s in metrics.infostates_of(game, seat).items()
            if sum(1 for item in s.full_history() if item.player == seat) == 0}


def heatmaps(policies: pd.DataFrame, cfg) -> pd.DataFrame:
    """Best-responder utility for every (λ_first, λ_later) pair from constant-λ tables."""
    rows = []
    for (g, a, s), sub in policies.groupby(["game", "algo", "seat"], sort=False):
        game = pyspiel.load_game(g)
        first = _first_action_keys(game, s)
        tables = {lam: metrics.table_from_rows(t) for lam, t in sub.groupby("lam")}
        for l1, t1 in tables.items():
            for l2, t2 in tables.items():
                mixed = {k: (t1[k] if k in first else t2[k]) for k in t2}
                rows.append({"game": g, "label": label(g), "algo": a, "seat": s,
                             "lam_first": l1, "lam_later": l2,
                             "br": metrics.best_response_value(game, s, mixed)})
    return pd.DataFrame(rows)


# ------------------------------------------------------------------ win rates
class _SampleVisits(pyspiel.Bot):
    """Plays an action drawn from a bot's policy (IS-MCTS: its normalised visits)."""

    def __init__(self, bot, rng):
        pyspiel.Bot.__init__(self)
        self.bot, self.rng = bot, rng

    def step(self, state):
        pol = self.bot.policy(state)
        acts = list(pol)
        p = np.array([pol[a] for a in acts])
        return int(acts[self.rng.choice(len(acts), p=p / p.sum())])

    def restart_at(self, state):
        pass


def winrate_task(cfg: dict, params: dict, seed) -> list[dict]:
    """`chunk` games of our bot (algo, λ, seat) against PIMC with λ = 0, one row per game.

    Duplicate deals: game i of a (game, algo, seat) draws its chance outcomes from
    ``arena.deal_seed(root seed, "<game>/<algo>/seat<seat>", i)`` whatever λ, so the λ cells
    are compared game by game (paired)."""
    game = pyspiel.load_game(params["game"])
    seat, lam = params["seat"], params["lam"]
    ours_seed, theirs_seed = seed.spawn(2)
    values = PerfectInfoValues(game) if beliefs.world_model(game).__class__ is beliefs.WorldModel else None
    evaluator = None
    if values is None:
        from infosets.search import solvers  # noqa: PLC0415
        evaluator = solvers.PerfectInfoSolver().action_values
    pimc_kw = dict(mode="protocol", num_worlds=cfg["winrate_worlds"], values=values,
                   evaluator=evaluator)
    if params["algo"] == "PIMC":
        ours = PIMCBot(game, seat, lam, rng=np.random.default_rng(ours_seed), **pimc_kw)
    else:
        rng = np.random.default_rng(ours_seed)
        ours = _SampleVisits(_ismcts_bot(game, seat, lam, cfg, rng), rng)
    theirs = PIMCBot(game, 1 - seat, 0.0, rng=np.random.default_rng(theirs_seed), **pimc_kw)
    bots = [ours, theirs] if seat == 0 else [theirs, ours]
    start = params["chunk"] * cfg["winrate_chunk"]
    n = min(cfg["winrate_chunk"], cfg["winrate_n_games"] - start)
    return metrics.outcomes(game, lambda _seed: bots, seat, range(start, start + n),
                            entropy=int(seed.entropy),
                            label=f"{params['game']}/{params['algo']}/seat{seat}")


def winrate_tasks(cfg) -> list[Task]:
    chunks = -(-cfg["winrate_n_games"] // cfg["winrate_chunk"])
    pairs = ([(g, "PIMC") for g in cfg["winrate_games_pimc"]]
             + [(g, "IS-MCTS") for g in cfg["winrate_games_ismcts"]])
    return [Task(winrate_task, {"game": g, "algo": a, "seat": s, "lam": lam, "chunk": c})
            for g, a in pairs for s in cfg["seats"] for lam in cfg["winrate_lambdas"]
            for c in range(chunks)]
