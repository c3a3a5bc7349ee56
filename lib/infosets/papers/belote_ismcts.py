"""ISMCTS for two-player Belote against machine opponents: the tasks.

Reproduces Boudier, "Information Set Monte Carlo Tree Search for Two-players Belote"
(docs/papers/belote_ismcts.md): the paper's ISMCTS (500 iterations, C = 82) plays
duplicate fair deals against random, greedy, PIMC and OpenSpiel's Python ISMCTSBot, a
C x iterations grid against itself, and void-inference determinization head to head.

This module holds what decides a row's values (the config schema, the bots, the deals and
the tasks), so it alone, with what it imports, keys the results. The tables, figures and
claims, and the published human games, are in ``belote_analysis``: editing a figure leaves
the results key alone.
"""

from __future__ import annotations

import numpy as np
import pyspiel

import infosets.games  # noqa: F401  (registers belote2p)
from infosets import arena
from infosets.core.rng import named_child
from infosets.experiments.config import ConfigError, Param, Schema
from infosets.experiments.tasks import Task
from infosets.games.belote2p import deal as deal_lib
from infosets.games.belote2p.rules import NUM_TRICKS
from infosets.search.belote_bots import BelotePIMCBot, GreedyBot, RandomBot, openspiel_ismcts_bot
from infosets.search.belote_ismcts import BeloteISMCTSBot

OPPONENTS = ["random", "greedy", "pimc", "openspiel_ismcts"]
TRICK_COLUMNS = [f"trick_{i}" for i in range(1, NUM_TRICKS + 1)]


def _derive(values: dict) -> dict:
    try:  # an impossible fair-deal constraint is a config error, before any compute
        deal_lib.DealConstraint(values["min_trumps"], values["points_lo"], values["points_hi"])
    except ValueError as exc:
        raise ConfigError(str(exc)) from None
    return {"game_string": (f"belote2p(min_trumps={values['min_trumps']},"
                            f"points_lo={values['points_lo']},points_hi={values['points_hi']})")}


SCHEMA = Schema(
    params={
        "iterations": Param(int, lo=1, hi=100_000, doc="ISMCTS iterations per move (paper 500)"),
        "exploration": Param(float, lo=0.0, hi=10_000.0, doc="UCB constant on points (paper 82)"),
        "min_trumps": Param(int, lo=0, hi=4, doc="fair deal: trumps per side (code 2, text 3)"),
        "points_lo": Param(int, lo=0, hi=152, doc="fair deal: card points per side, low end"),
        "points_hi": Param(int, lo=0, hi=152, doc="fair deal: card points per side, high end"),
        "opponents": Param(list, item=str, choices=OPPONENTS, min_len=1),
        "deals": Param(int, lo=1, hi=1_000_000, doc="duplicate deals per opponent"),
        "openspiel_deals": Param(int, lo=1, hi=100_000,
                                 doc="duplicate deals against the (slow) OpenSpiel ISMCTSBot"),
        "deals_per_task": Param(int, lo=1, hi=10_000),
        "pimc_worlds": Param(int, lo=1, hi=1000, doc="PIMC worlds per move"),
        "pimc_exact_tricks": Param(int, lo=1, hi=16, doc="PIMC solves exactly from here on"),
        "pimc_horizon_tricks": Param(int, lo=1, hi=16, doc="PIMC solve depth before that"),
        "heatmap_exploration": Param(list, item=float, lo=0.0, hi=10_000.0, min_len=1),
        "heatmap_iterations": Param(list, item=int, lo=1, hi=100_000, min_len=1),
        "heatmap_deals": Param(int, lo=1, hi=100_000, doc="duplicate deals per heatmap cell"),
        "inference_deals": Param(int, lo=1, hi=1_000_000,
                                 doc="duplicate deals, inference-aware vs plain ISMCTS"),
        "human_log": Param(str, doc="human-game log, relative to the repository root"),
    },
    derive=_derive,
)


# ---- playing -----------------------------------------------------------------------
def make_bot(kind: str, cfg: dict, seed: np.random.SeedSequence, game=None, *,
             iterations: int | None = None, exploration: float | None = None,
             inference: bool = False):
    """A bot for seat play: ``ismcts`` (the paper's) or one of ``OPPONENTS``."""
    iterations = cfg["iterations"] if iterations is None else iterations
    exploration = cfg["exploration"] if exploration is None else exploration
    if kind == "ismcts":
        return BeloteISMCTSBot(iterations, exploration, rng=seed, inference=inference)
    if kind == "random":
        return RandomBot(rng=seed)
    if kind == "greedy":
        return GreedyBot()
    if kind == "pimc":
        return BelotePIMCBot(cfg["pimc_worlds"], rng=seed, exact_tricks=cfg["pimc_exact_tricks"],
                             horizon_tricks=cfg["pimc_horizon_tricks"], inference=inference)
    if kind == "openspiel_ismcts":
        return openspiel_ismcts_bot(game, iterations, exploration, rng=seed)
    raise ValueError(f"opponent must be one of {['ismcts'] + OPPONENTS}, got {kind!r}")


def deal_for(root_seed: int, deal_index: int, constraint) -> tuple[list[int], int]:
    """The fair deal and first leader of duplicate deal ``deal_index`` (shared by all
    experiments of a run, so every opponent meets the same deals): the child "deal",
    ``deal_index`` of the root seed (``infosets.core.rng.named_child``)."""
    rng = np.random.default_rng(named_child(root_seed, "deal", deal_index))
    return deal_lib.fair_deal(rng, constraint), deal_lib.random_first_leader(rng)


def play_deal(game, deal, first_leader: int, bots, seed: np.random.SeedSequence) -> dict:
    """Play one game from a deal through ``infosets.arena`` (forced moves skipped, every bot
    informed of each move); ``bots[p]`` moves for seat p.

    Returns:
      {'scores': [s0, s1], 'trick_winners': [16 seats]}.
    """
    state = game.new_state_from_deal(deal, first_leader)  # bots are fresh for each game
    out = arena.play_game(game, bots, np.random.default_rng(seed), state=state)
    winners = [w for _, _, _, w in out["state"].plays if w >= 0]
    return {"scores": out["returns"], "trick_winners": winners}


def _duplicate_rows(cfg, seed, game, deal_indices, make_pair) -> list[dict]:
    """Play each deal twice, seats swapped. ``make_pair(seq)`` -> (ai bot, opponent bot)."""
    rows = []
    for d in deal_indices:
        deal, first = deal_for(int(seed.entropy), d, game.constraint)
        for ai_seat in (0, 1):
            seq = named_child(int(seed.entropy), "seat play", d, ai_seat)
            ai, opp = make_pair(seq)
            bots = [ai, opp] if ai_seat == 0 else [opp, ai]
            out = play_deal(game, deal, first, bots, seq)
            row = {"deal": d, "ai_seat": ai_seat, "ai_led_first": first == ai_seat,
                   "ai_score": out["scores"][ai_seat]}
            for i, w in enumerate(out["trick_winners"], start=1):
                row[f"trick_{i}"] = int(w == ai_seat)
            rows.append(row)
    return rows


def _chunks(n: int, size: int) -> list[dict]:
    """Task keys for deals 0..n-1 in chunks: {'first_deal': s, 'n_deals': k}."""
    return [{"first_deal": s, "n_deals": min(size, n - s)} for s in range(0, n, size)]


def _deal_range(params: dict) -> range:
    return range(params["first_deal"], params["first_deal"] + params["n_deals"])


def opponent_task(cfg: dict, params: dict, seed) -> list[dict]:
    """The paper's ISMCTS against one opponent on a chunk of duplicate deals."""
    game = pyspiel.load_game(cfg["game_string"])
    kind = params["opponent"]

    def pair(seq):
        a, b = seq.spawn(2)
        return make_bot("ismcts", cfg, a), make_bot(kind, cfg, b, game)

    return _duplicate_rows(cfg, seed, game, _deal_range(params), pair)


def opponent_tasks(cfg) -> list[Task]:
    tasks = []
    for kind in cfg["opponents"]:
        if kind == "openspiel_ismcts":  # ~20x slower: one deal per task
            n, size = cfg["openspiel_deals"], 1
        else:
            n, size = cfg["deals"], cfg["deals_per_task"]
        for chunk in _chunks(n, size):
            tasks.append(Task(opponent_task, {"opponent": kind, **chunk}))
    return tasks


def heatmap_task(cfg: dict, params: dict, seed) -> list[dict]:
    """ISMCTS at (C, iterations) against the paper's ISMCTS (cfg iterations / exploration)."""
    game = pyspiel.load_game(cfg["game_string"])

    def pair(seq):
        a, b = seq.spawn(2)
        return (make_bot("ismcts", cfg, a, iterations=params["iterations"],
                         exploration=params["exploration"]),
                make_bot("ismcts", cfg, b))

    return _duplicate_rows(cfg, seed, game, _deal_range(params), pair)


def heatmap_tasks(cfg) -> list[Task]:
    return [Task(heatmap_task, {"exploration": c, "iterations": n, **chunk})
            for c in cfg["heatmap_exploration"] for n in cfg["heatmap_iterations"]
            for chunk in _chunks(cfg["heatmap_deals"], cfg["deals_per_task"])]


def inference_task(cfg: dict, params: dict, seed) -> list[dict]:
    """Inference-aware ISMCTS (the 'AI') against the plain, paper ISMCTS."""
    game = pyspiel.load_game(cfg["game_string"])

    def pair(seq):
        a, b = seq.spawn(2)
        return make_bot("ismcts", cfg, a, inference=True), make_bot("ismcts", cfg, b)

    return _duplicate_rows(cfg, seed, game, _deal_range(params), pair)


def inference_tasks(cfg) -> list[Task]:
    return [Task(inference_task, dict(chunk))
            for chunk in _chunks(cfg["inference_deals"], cfg["deals_per_task"])]
