"""PI-MCTS aggregation vs OL-MCTS and IS-MCTS tournaments. Reproduces Ravichandran, Goodman
and Lucas, "Evaluation of Perfect-Information Monte Carlo Tree Search in Imperfect-Information
Games" (docs/papers/pimcts_aggregation.md).

Tasks: seeded tournaments (one focus agent against OL-MCTS in every other seat, seats
rotating) and the disambiguation measurement (log2 of the number of worlds consistent with
the mover's information state, by fraction of the game played). Figures: win rate vs D per
aggregation with the IS-MCTS band (Fig. 1; Fig. 2 at the higher budget), the disambiguation
curves, and PI-MCTS gain vs hidden-information persistence. Tables: game parameters,
claims, CPU-hours of the paper preset.

Slices of games: ``games`` and ``tabletop_games`` (Fig. 1), each with its own budgets, D grid
and games per cell (a port may be in either: the slices only group cost), and
``high_budget_games`` (Fig. 2: the paper's 10000 iterations), which run again at
``high_budgets``. A port with a numba kernel is searched by the compiled engine; one without
on its pure-Python kernel (``state.kernel``), with worlds drawn by ``kernel.resample``.
CPU-hours of every preset come from measured costs (``pimcts_costs``).
"""

from __future__ import annotations

import inspect
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pyspiel

import infosets.games  # noqa: F401  (registers our games)
from infosets import arena, plots, stats
from infosets.claims import save as save_claims
from infosets.experiments.config import ConfigError, Param, Schema
from infosets.experiments.runner import Task
from infosets.games import heuristics
from infosets.games.determinizers import (
    AOH_GAMES,
    determinizer_label,
    determinizer_obstacle,
    infostate_key,
    sampler_for,
)
from infosets.games.kernels import kernel_for
from infosets.papers import pimcts_claims
from infosets.search.common import is_python_game
from infosets.search.ismcts import ISMCTSBot, make_cpp_ismcts_bot
from infosets.search.mcts import OLMCTSBot
from infosets.search.pimcts import AGGREGATIONS, PIMCTSBot

# Our ports of the paper's TAG games (lib/infosets/games/<name>.py); the last four are being
# ported: once registered, adding their game string to a preset runs them.
TABLETOP_PORTS = ("sushi_go", "love_letter", "exploding_kittens", "virus", "stratego", "dominion",
                  "poker_tag", "colt_express", "monopoly_deal", "seven_wonders")
SETTINGS_PATH = Path(__file__).with_name("pimcts_settings.csv")
SETTINGS_COLUMNS = ("paper_game", "game", "players", "K", "rollout_length", "rollout_per_player",
                    "heuristic", "max_tree_depth", "fpu", "explore_epsilon", "tag_file",
                    "tag_not_modelled")

def _grid(determinizations, budget) -> list[int]:
    return sorted({d for d in determinizations if d <= budget})


def _cells_per_budget(values: dict, grids: dict) -> list[int]:
    return [1 + len([d for d in g if d > 1]) * len(values["aggregations"])
            + int(values["include_ismcts"]) for g in grids.values()]


def _slice(values: dict, games, budgets, determinizations, games_per_cell,
           by_game: dict | None = None) -> dict:
    grids = {str(b): _grid(determinizations, b) for b in budgets}
    cells = sum(_cells_per_budget(values, grids))
    return {"games": list(games), "budgets": list(budgets), "d_grid": grids,
            "games_per_cell": games_per_cell, "games_per_cell_by_game": dict(by_game or {}),
            "n_cells": cells * len(games)}


def searchable(game_string: str) -> str | None:
    """Why PI-MCTS cannot play ``game_string`` (sequential moves and a determinizer are
    needed), or None when it can. Used by the SCHEMA, before any compute."""
    game = pyspiel.load_game(game_string)
    if game.get_type().dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL:
        return f"{game_string!r} has simultaneous moves; the searches need a sequential game"
    obstacle = determinizer_obstacle(game)
    if obstacle is not None:
        return f"{game_string!r} has no determinizer: {obstacle}"
    return None


def tabletop_port(game_string: str) -> str | None:
    """Why ``game_string`` is not one of our tabletop ports (searched on its kernel), or None."""
    if game_string.split("(")[0] not in TABLETOP_PORTS:
        return f"{game_string!r} is not a tabletop port; expected one of {list(TABLETOP_PORTS)}"
    return searchable(game_string)


def _check_budgets(values: dict, budgets_key: str, budgets, determinizations) -> None:
    """Every budget must leave room for a PI-MCTS cell (some D > 1 with D <= budget)."""
    for i, budget in enumerate(budgets):
        if not [d for d in _grid(determinizations, budget) if d > 1]:
            raise ConfigError(
                f"{budgets_key}[{i}]: budget {budget} admits no PI-MCTS cell (needs some D in "
                f"(1, {budget}]; determinizations are {sorted(determinizations)})")


def _per_game(values: dict, key: str, games) -> dict:
    """The per-game games-per-cell overrides of ``key``, each naming a game of ``games``."""
    given = values[key] or {}
    for name, n in given.items():
        if name not in games:
            raise ConfigError(f"{key}[{name!r}]: not a game of this preset; expected one of "
                              f"{list(games)}")
        if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= 100_000:
            raise ConfigError(f"{key}[{name!r}]: expected an int in [1, 100000], got {n!r}")
    return dict(given)


def _derive(values: dict) -> dict:
    def pick(key, fallback):
        return values[key] if values[key] is not None else values[fallback]
    fig1 = _per_game(values, "games_per_cell_by_game",
                     values["games"] + values["tabletop_games"])
    _check_budgets(values, "budgets", values["budgets"], values["determinizations"])
    if values["tabletop_games"]:
        _check_budgets(values, "tabletop_budgets" if values["tabletop_budgets"] else "budgets",
                       pick("tabletop_budgets", "budgets"),
                       pick("tabletop_determinizations", "determinizations"))
    main = _slice(values, values["games"], values["budgets"], values["determinizations"],
                  values["games_per_cell"],
                  {g: n for g, n in fig1.items() if g in values["games"]})
    tabletop = _slice(values, values["tabletop_games"], pick("tabletop_budgets", "budgets"),
                      pick("tabletop_determinizations", "determinizations"),
                      pick("tabletop_games_per_cell", "games_per_cell"),
                      {g: n for g, n in fig1.items() if g in values["tabletop_games"]})
    high_games, high_budgets = values["high_budget_games"], values["high_budgets"]
    for i, g in enumerate(high_games):
        if g not in values["games"] and g not in values["tabletop_games"]:
            raise ConfigError(f"high_budget_games[{i}]: {g!r} must also be in games or "
                              "tabletop_games (its Fig. 1 cells)")
    if high_games and len(high_budgets) not in (1, len(high_games)):
        raise ConfigError(f"high_budgets: give one budget for every high-budget game or one per "
                          f"game ({len(high_games)}), got {len(high_budgets)}")
    pairs = [(g, high_budgets[0] if len(high_budgets) == 1 else high_budgets[i])
             for i, g in enumerate(high_games)]
    if high_games:
        _check_budgets(values, "high_budgets", high_budgets,
                       pick("high_determinizations", "determinizations"))
        clash = [b for g, b in pairs
                 if b in (tabletop if g in values["tabletop_games"] else main)["budgets"]]
        if clash:
            raise ConfigError(f"high_budgets: {clash[0]} is already a Fig. 1 budget of its "
                              "high-budget game; the higher budget must differ")
    high = _slice(values, [], sorted({b for _, b in pairs}),
                  pick("high_determinizations", "determinizations"),
                  pick("high_games_per_cell", "games_per_cell"),
                  _per_game(values, "high_games_per_cell_by_game", high_games))
    high["games"], high["pairs"] = list(high_games), [list(p) for p in pairs]
    per_budget = {b: c for b, c in zip(high["budgets"], _cells_per_budget(values, high["d_grid"]))}
    high["n_cells"] = sum(per_budget[b] for _, b in pairs)
    return {"d_grid": main["d_grid"],
            "slices": {"main": main, "tabletop": tabletop, "high": high},
            "n_cells": main["n_cells"] + tabletop["n_cells"] + high["n_cells"]}


SCHEMA = Schema(
    params={
        "games": Param(list, item=str, game=True, min_len=1, accept=searchable,
                       doc="OpenSpiel game strings (3 players where the game allows)"),
        "budgets": Param(list, item=int, lo=1, hi=1_000_000, min_len=1,
                         doc="MCTS iterations per decision, B (paper: 4000, and 10000 for Fig. 2)"),
        "determinizations": Param(list, item=int, lo=1, min_len=1,
                                  doc="D grid, capped at each budget"),
        "aggregations": Param(list, item=str, choices=list(AGGREGATIONS), min_len=1),
        "include_ismcts": Param(bool, doc="also run IS-MCTS as the focus agent"),
        "games_per_cell": Param(int, lo=1, hi=100_000,
                                doc="tournament games per agent config (rounded up to whole "
                                    "duplicate deals: one game per seat rotation)"),
        "block_size": Param(int, lo=1, hi=10_000, doc="games per task (whole deals, at least one)"),
        "uct_c": Param(float, lo=0.0, hi=100.0, doc="UCT exploration constant (on [0,1] rewards)"),
        "tuned_settings": Param(bool, doc="paper games take TAG's per-game settings from "
                                          "pimcts_settings.csv when the engine accepts them"),
        "normalize_rewards": Param(bool, doc="rewards mapped to [0,1] with the game's bounds"),
        "final": Param(str, choices=["mean", "visits"],
                       doc="final move of OL-MCTS and IS-MCTS (PI-MCTS uses its aggregation)"),
        "engine": Param(str, choices=["auto", "compiled", "python", "cpp"],
                        doc="tree engine; auto = compiled where the game has a kernel, C++ "
                            "MCTSBot trees on C++ games (budget >= 10 x legal actions), else "
                            "Python; the engine that ran is recorded per game"),
        "ismcts_engine": Param(str, choices=["python", "cpp"],
                               doc="python = ours (availability counts; compiled on a game "
                                   "with a kernel when engine is auto); cpp = OpenSpiel's"),
        "tabletop_games": Param(list, item=str, game=True, accept=tabletop_port,
                                doc="our ports of the paper's TAG games (may be empty)"),
        "tabletop_budgets": Param(list, item=int, lo=1, hi=1_000_000, min_len=1, optional=True,
                                  doc="budgets for tabletop_games (null: budgets)"),
        "tabletop_determinizations": Param(list, item=int, lo=1, min_len=1, optional=True,
                                           doc="D grid for tabletop_games (null: determinizations)"),
        "tabletop_games_per_cell": Param(int, lo=1, hi=100_000, optional=True,
                                         doc="games per agent config for tabletop_games "
                                             "(null: games_per_cell)"),
        "high_budget_games": Param(list, item=str, game=True, accept=searchable,
                                   doc="games also run at high_budgets (Fig. 2: the paper's "
                                       "10000 iterations; Hearts, Stratego, Poker claims); "
                                       "each must be in games or tabletop_games"),
        "high_budgets": Param(list, item=int, lo=1, hi=1_000_000, min_len=1,
                              doc="the higher budgets of high_budget_games (paper: 10000)"),
        "high_determinizations": Param(list, item=int, lo=1, min_len=1, optional=True,
                                       doc="D grid at high_budgets (null: determinizations)"),
        "high_games_per_cell": Param(int, lo=1, hi=100_000, optional=True,
                                     doc="games per agent config at high_budgets "
                                         "(null: games_per_cell)"),
        "games_per_cell_by_game": Param(dict, optional=True,
                                        doc="games per agent config of single games at their "
                                            "Fig. 1 budgets, {game: n} (null: every game takes "
                                            "its slice's games_per_cell)"),
        "high_games_per_cell_by_game": Param(dict, optional=True,
                                             doc="games per agent config of single games at "
                                                 "high_budgets, {game: n} (null: "
                                                 "high_games_per_cell)"),
        "disambiguation_trajectories": Param(int, lo=0, hi=10_000,
                                             doc="random-play games per game for the measurement"),
        "disambiguation_samples": Param(int, lo=2, hi=100_000,
                                        doc="worlds sampled per decision (collision estimator)"),
        "disambiguation_decisions": Param(int, lo=0, hi=100_000,
                                          doc="decisions measured per game, evenly spaced "
                                              "(0: every decision)"),
    },
    derive=_derive,
)


# -- agents ---------------------------------------------------------------------------------

def is_tabletop(game) -> bool:
    """Whether ``game`` is one of our tabletop ports (searched on its kernel)."""
    return game.get_type().short_name in TABLETOP_PORTS


def kernel_sampler(state, player, rng):
    """A world for search on a tabletop port: its kernel, resampled for ``player``."""
    return state.kernel.resample(player, rng)


def engine_for(game, engine: str) -> str:
    """The tree engine passed to the bots ("auto" decides per game and tree, see
    search.mcts). C++ trees need a C++ game: "cpp" on a Python-registered game runs "auto"
    (compiled where the game has a kernel, else Python); the rows record what ran."""
    if engine == "cpp" and is_python_game(game):
        return "auto"
    return engine


def slice_of(cfg, game_string: str) -> dict:
    """The derived slice ("main" or "tabletop") of a game string's Fig. 1 budgets."""
    slices = cfg["slices"]
    return slices["tabletop"] if game_string in slices["tabletop"]["games"] else slices["main"]


def high_pairs(cfg) -> list[tuple[str, int]]:
    """(game, higher budget) of every high-budget game (Fig. 2)."""
    return [tuple(p) for p in cfg["slices"].get("high", {}).get("pairs", [])]


def game_budgets(cfg, game_string: str) -> list[int]:
    """A game's budgets: its Fig. 1 slice's, then its higher one if it is a high-budget game."""
    return list(slice_of(cfg, game_string)["budgets"]) + [
        b for g, b in high_pairs(cfg) if g == game_string]


def load_settings() -> pd.DataFrame:
    """The committed per-game MCTS settings of the paper's games (``pimcts_settings.csv``):
    K, rollout length (x players when ``rollout_per_player``), heuristic, maximum tree
    depth, first-play urgency, exploration epsilon, the TAG file they come from and the TAG
    settings we do not model."""
    table = pd.read_csv(SETTINGS_PATH)
    missing = set(SETTINGS_COLUMNS) - set(table.columns)
    if missing:
        raise ValueError(f"{SETTINGS_PATH.name}: missing columns {sorted(missing)}")
    return table


def game_key(game_string: str) -> tuple[str, int]:
    """(short name, players) of a game string (the game must be registered)."""
    game = pyspiel.load_game(game_string)
    return game.get_type().short_name, game.num_players()


def settings_key(row) -> tuple[str, int]:
    """(short name, players) of a settings-table row (its game need not be registered)."""
    return str(row["game"]).split("(")[0], int(row["players"])


def paper_settings(game_string: str) -> dict | None:
    """The settings-table row of ``game_string`` if it is one of the paper's games at the
    paper's player count, else None (a game "beyond the paper")."""
    key = game_key(game_string)
    for _, row in load_settings().iterrows():
        if settings_key(row) == key:
            return row.to_dict()
    return None


def is_paper_game(game_string: str) -> bool:
    """Whether ``game_string`` is one of the paper's twelve games at its player count."""
    return paper_settings(game_string) is not None


def tuned_kwargs(bot_class, game_string: str, cfg: dict) -> dict:
    """The per-game settings (K, rollout length, heuristic, depth limit, FPU, epsilon) of a
    paper game for ``bot_class``, one set for OL-MCTS, PI-MCTS and IS-MCTS alike.

    Passed only when ``cfg["tuned_settings"]`` is on, the game is in the settings table, and
    the bot's constructor takes ``rollout_length`` (an engine without per-game settings gets
    none of them, so K stays ``cfg["uct_c"]``); each keyword only if the signature has it."""
    if not cfg.get("tuned_settings"):
        return {}
    row = paper_settings(game_string)
    if row is None:
        return {}
    accepted = inspect.signature(bot_class.__init__).parameters
    if "rollout_length" not in accepted:
        return {}
    length = int(row["rollout_length"]) * (int(row["players"]) if row["rollout_per_player"] else 1)
    fpu = float(row["fpu"])  # TAG's default 1e9 (inf here): every untried child first, our default
    kw = {"uct_c": float(row["K"]), "rollout_length": length, "heuristic": heuristics.heuristic,
          "max_depth": int(row["max_tree_depth"]), "fpu": fpu if math.isfinite(fpu) else None,
          "explore_epsilon": float(row["explore_epsilon"])}
    return {k: v for k, v in kw.items() if k in accepted}


def make_agent(game, player, agent: dict, cfg: dict, rng, game_string: str | None = None):
    """The bot for one seat. ``agent``: {"agent": "olmcts"|"pimcts"|"ismcts", "D", "aggregation"}.
    Paper games take their TAG settings (``tuned_kwargs``) when the engine accepts them."""
    budget = agent["budget"]
    engine = engine_for(game, cfg["engine"])
    # a port with a numba kernel is searched by the compiled engine (its own determinizer);
    # the others on their Python kernel
    sampler = kernel_sampler if is_tabletop(game) and kernel_for(game) is None else None
    name = game_string if game_string is not None else str(game)
    if agent["agent"] == "ismcts":
        if cfg["ismcts_engine"] == "cpp" and not is_python_game(game):
            return make_cpp_ismcts_bot(game, iterations=budget, uct_c=cfg["uct_c"],
                                       seed=int(rng.integers(2**31 - 1)), final=cfg["final"])
        kw = {"uct_c": cfg["uct_c"], **tuned_kwargs(ISMCTSBot, name, cfg)}
        # ours: compiled where the game has a kernel (engine auto), else the Python reference
        return ISMCTSBot(game, player, iterations=budget, rng=rng, sampler=sampler,
                         normalize_rewards=cfg["normalize_rewards"], final=cfg["final"],
                         engine="python" if engine == "cpp" else engine, **kw)
    if agent["agent"] == "pimcts" and agent["D"] > 1:
        kw = {"uct_c": cfg["uct_c"], **tuned_kwargs(PIMCTSBot, name, cfg)}
        return PIMCTSBot(game, player, iterations=budget, determinizations=agent["D"],
                         aggregation=agent["aggregation"], rng=rng, sampler=sampler,
                         normalize_rewards=cfg["normalize_rewards"], engine=engine, **kw)
    kw = {"uct_c": cfg["uct_c"], **tuned_kwargs(OLMCTSBot, name, cfg)}
    return OLMCTSBot(game, player, iterations=budget, rng=rng, sampler=sampler,
                     normalize_rewards=cfg["normalize_rewards"], final=cfg["final"], engine=engine,
                     **kw)


def attach_probe(bot) -> dict:
    """Keep the root statistics of ``bot``'s last search in the returned box (the bot's own
    ``search`` is wrapped, so its move choice is untouched)."""
    box = {"trees": None}
    search = getattr(bot, "search", None)
    if callable(search):
        def recording(*args, **kwargs):
            box["trees"] = search(*args, **kwargs)
            return box["trees"]
        bot.search = recording
    return box


def decision_info(bot, box: dict, action: int) -> dict:
    """Per decision: the search's mean and max tree depth (``bot.last_search_info`` when the
    engine records it, else NaN), the root visit share of the chosen move, and the share of
    the D trees whose own best (highest mean) move is the chosen one (NaN for one tree)."""
    info = getattr(bot, "last_search_info", None) or {}
    out = {"mean_depth": float(info.get("mean_depth", np.nan)),
           "max_depth": float(info.get("max_depth", np.nan)),
           "visit_share": np.nan, "tree_agreement": np.nan}
    trees = box.get("trees")
    if isinstance(trees, dict):
        trees = [trees]
    if not trees:
        return out
    total = sum(n for t in trees for n, _ in t.values())
    if total > 0:
        out["visit_share"] = sum(t.get(action, (0, 0.0))[0] for t in trees) / total
    if len(trees) > 1:
        bests = [max((a for a, (n, _) in t.items() if n > 0), key=lambda a, t=t: t[a][1] / t[a][0])
                 for t in trees if any(n > 0 for n, _ in t.values())]
        if bests:
            out["tree_agreement"] = sum(b == action for b in bests) / len(bests)
    return out


def games_per_cell(cfg, game_string: str, part: str | None = None) -> int:
    """Games per agent config of a game in slice ``part`` (None: the game's Fig. 1 slice):
    its per-game override if the preset gives one, else the slice's games_per_cell."""
    sl = slice_of(cfg, game_string) if part is None else cfg["slices"][part]
    return sl["games_per_cell_by_game"].get(game_string, sl["games_per_cell"])


def deals_per_cell(cfg, game_string: str, players: int, part: str | None = None) -> int:
    """Duplicate deals of a cell: each deal is played once per seat rotation, so a cell has
    ``players`` x deals >= ``games_per_cell`` games."""
    return math.ceil(games_per_cell(cfg, game_string, part) / players)


def deal_block(cfg, game_string: str, players: int, block: int, part: str | None = None) -> range:
    """The deals of task ``block`` (``block_size`` games, i.e. block_size // players deals)."""
    per = max(1, cfg["block_size"] // players)
    return range(block * per, min((block + 1) * per, deals_per_cell(cfg, game_string, players, part)))


def tournament_task(cfg: dict, params: dict, seed) -> list[dict]:
    """Duplicate games of one (game, budget, agent config): the focus agent against OL-MCTS in
    every other seat, each deal played once per seat rotation. Deal i of a game draws its
    chance outcomes from ``arena.deal_seed(root seed, game, i)`` in EVERY cell, so the cells
    of a game are compared deal by deal. One row per game, with the focus agent's per-decision
    search records averaged over its decisions."""
    game = pyspiel.load_game(params["game"])
    n = game.num_players()
    agent = {"agent": params["agent"], "budget": params["budget"], "D": params["D"],
             "aggregation": params["aggregation"]}
    opponent = {"agent": "olmcts", "budget": params["budget"]}
    current: dict = {}

    def make_focus(g, p, rng):
        bot = make_agent(g, p, agent, cfg, rng, params["game"])
        current["bot"], current["box"] = bot, attach_probe(bot)
        return bot

    records: dict = {}

    def on_decision(info):
        if info["entrant"] == "focus":
            row = decision_info(current["bot"], current["box"], info["action"])
            records.setdefault((info["deal"], info["rotation"]), []).append(row)

    lineup = [arena.Entrant("focus", make_focus)] + [
        arena.Entrant("olmcts", lambda g, p, rng: make_agent(g, p, opponent, cfg, rng, params["game"]))
    ] * (n - 1)
    deals = deal_block(cfg, params["game"], n, params["block"], params.get("part"))
    rows = []
    for r in arena.duplicate_games(game, lineup, deals, entropy=int(seed.entropy),
                                   label=params["game"], on_decision=on_decision):
        if r["entrant"] != "focus":
            continue
        searched = pd.DataFrame(records.get((r["deal"], r["rotation"]), []),
                                columns=["mean_depth", "max_depth", "visit_share", "tree_agreement"])
        rows.append({"deal": r["deal"], "rotation": r["rotation"], "focus_seat": r["seat"],
                     "game_index": r["deal"] * n + r["rotation"], "players": n,
                     "engine_used": str(getattr(current["bot"], "engine_used", None)
                                        or cfg["ismcts_engine"]),
                     "score": r["score"], "focus_return": r["return"],
                     "decisions": len(searched), "cpu_seconds": r["seconds"],
                     **{c: float(searched[c].mean()) if searched[c].notna().any() else np.nan
                        for c in searched.columns}})
    return rows


def agent_configs(cfg, budget: int, part: str = "main") -> list[dict]:
    """OL-MCTS control (D = 1), PI-MCTS for D > 1 x aggregation, and IS-MCTS, for the
    ``part`` slice ("main" or "tabletop")."""
    grid = cfg["slices"][part]["d_grid"][str(budget)]
    configs = [{"agent": "olmcts", "D": 1, "aggregation": "none"}]
    configs += [{"agent": "pimcts", "D": d, "aggregation": a}
                for d in grid if d > 1 for a in cfg["aggregations"]]
    if cfg["include_ismcts"]:
        configs.append({"agent": "ismcts", "D": 0, "aggregation": "none"})
    return configs


def tournament_tasks(cfg, parts=("main", "tabletop", "high")) -> list[Task]:
    """Every tournament block of the ``parts`` slices (the main games, the ports, then the
    high-budget games of Fig. 2). Deal i of a game is the same deal in every slice."""
    tasks = []
    for part in parts:
        sl = cfg["slices"].get(part)
        if sl is None:
            continue
        pairs = (high_pairs(cfg) if part == "high" else
                 [(g, b) for b in sl["budgets"] for g in sl["games"]])
        for g, b in pairs:
            n = pyspiel.load_game(g).num_players()
            blocks = math.ceil(deals_per_cell(cfg, g, n, part) / max(1, cfg["block_size"] // n))
            extra = {"part": "high"} if part == "high" else {}
            tasks += [Task(tournament_task, {"game": g, "budget": b, **a, "block": k, **extra})
                      for a in agent_configs(cfg, b, part) for k in range(blocks)]
    return tasks


# -- disambiguation -------------------------------------------------------------------------

def world_id(world) -> tuple:
    """A world, up to what no player can tell apart: every player's information state."""
    return tuple(infostate_key(world, p) for p in range(world.get_game().num_players()))


def log2_worlds(state, player, sampler, samples: int, rng) -> tuple[float, bool]:
    """log2 of the number of consistent worlds by the collision (birthday) estimator.

    Under a uniform belief over M worlds, two samples coincide with probability 1/M, so
    M ~ pairs / collisions. With no collision the estimate is censored at log2(pairs).
    """
    ids = [world_id(sampler(state, player, rng)) for _ in range(samples)]
    counts = pd.Series(ids).value_counts().to_numpy()
    collisions = float(np.sum(counts * (counts - 1) / 2))
    pairs = samples * (samples - 1) / 2
    if len(counts) == 1:
        return 0.0, False
    if collisions == 0:
        return math.log2(pairs), True
    return max(0.0, math.log2(pairs / collisions)), False


def disambiguation_task(cfg: dict, params: dict, seed) -> list[dict]:
    """One random-play game; log2 #worlds for the mover at its decisions: every decision, or
    ``disambiguation_decisions`` of them evenly spaced over the game (long games such as
    Stratego would otherwise cost thousands of samples per decision)."""
    game = pyspiel.load_game(params["game"])
    play_rng, sample_rng = (np.random.default_rng(s) for s in seed.spawn(2))
    sampler = sampler_for(game)  # pyspiel worlds: world_id needs information-state strings
    state = game.new_initial_state()
    history = []                       # (is decision, action): the random game, played first
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            probs = np.asarray(probs)
            action = int(actions[play_rng.choice(len(actions), p=probs / probs.sum())])
            history.append((False, action))
        else:
            legal = state.legal_actions()
            action = legal[int(play_rng.integers(len(legal)))]
            history.append((True, action))
        state.apply_action(action)
    total = sum(d for d, _ in history)
    cap = cfg.get("disambiguation_decisions", 0)
    chosen = (set(range(total)) if not cap or cap >= total else
              {int(round(x)) for x in np.linspace(0, total - 1, cap)})
    state, decision, rows = game.new_initial_state(), 0, []
    for is_decision, action in history:
        if is_decision:
            if decision in chosen:
                bits, censored = log2_worlds(state, state.current_player(), sampler,
                                             cfg["disambiguation_samples"], sample_rng)
                rows.append({"decision": decision, "log2_worlds": bits, "censored": censored,
                             "fraction": decision / max(1, total - 1)})
            decision += 1
        state.apply_action(action)
    return rows


def disambiguation_tasks(cfg) -> list[Task]:
    games = list(cfg["games"]) + [g for g in cfg["tabletop_games"] if g not in cfg["games"]]
    return [Task(disambiguation_task, {"game": g, "trajectory": t})
            for g in games for t in range(cfg["disambiguation_trajectories"])]


def persistence(dis: pd.DataFrame) -> pd.DataFrame:
    """Hidden-information persistence per game, along each random-play trajectory:
    the mean over its decisions of log2 #worlds divided by the trajectory's peak (1 = the
    peak uncertainty lasts the whole game, 0 = nothing is ever hidden at a decision), and
    the fraction of the game after the peak at which log2 #worlds first falls to half of it."""
    out = []
    for game, sub in dis.groupby("game", sort=False):
        per_traj, half = [], []
        for _, traj in sub.groupby("trajectory"):
            traj = traj.sort_values("decision")
            bits = traj["log2_worlds"].to_numpy()
            peak = bits.max()
            if peak <= 0:
                per_traj.append(0.0)
                half.append(0.0)
                continue
            per_traj.append(float(np.mean(bits / peak)))
            after = np.arange(len(bits)) >= int(np.argmax(bits))
            below = np.flatnonzero(after & (bits <= peak / 2))
            half.append(float(traj["fraction"].iloc[below[0]]) if len(below) else 1.0)
        est = stats.mean_ci(per_traj)
        out.append({"game": game, "persistence": est.value, "persistence_lo": est.lo,
                    "persistence_hi": est.hi, "half_life_fraction": float(np.mean(half)),
                    "peak_bits": float(sub.groupby("trajectory")["log2_worlds"].max().mean()),
                    "censored_share": float(sub["censored"].mean()), "trajectories": len(per_traj)})
    return pd.DataFrame(out)


# -- tables and figures ---------------------------------------------------------------------

def win_rates(results: pd.DataFrame) -> pd.DataFrame:
    """Win rate with a Wilson 95% interval per (game, budget, agent, D, aggregation), whether
    the game is one of the paper's, and the focus agent's search records (per-game means of
    its decisions, with t 95% intervals over games)."""
    rows = []
    keys = ["game", "budget", "agent", "D", "aggregation"]
    paper = {g: is_paper_game(g) for g in set(results["game"])}
    for key, sub in results.groupby(keys, sort=False):
        est = stats.win_rate(sub["score"].to_numpy())
        row = {**dict(zip(keys, key)), "paper_game": paper[key[0]], "win_rate": est.value,
               "lo": est.lo, "hi": est.hi, "n": est.n,
               "baseline": 1.0 / int(sub["players"].iloc[0]),
               "cpu_s_per_game": float(sub["cpu_seconds"].mean())}
        for col, lo, hi in (("mean_depth", "depth_lo", "depth_hi"),
                            ("visit_share", "share_lo", "share_hi")):
            vals = sub[col].dropna().to_numpy() if col in sub else np.array([])
            m = stats.mean_ci(vals) if len(vals) else None
            row.update({col: m.value if m else np.nan, lo: m.lo if m else np.nan,
                        hi: m.hi if m else np.nan})
        agree = sub["tree_agreement"].dropna() if "tree_agreement" in sub else pd.Series([], dtype=float)
        row["tree_agreement"] = float(agree.mean()) if len(agree) else np.nan
        rows.append(row)
    return pd.DataFrame(rows)


D_LABEL = "determinizations D (trees; D = 1: OL-MCTS)"
WIN_LABEL = "focus win rate (fraction of games)"


def paper_gain(game: str, budget: int) -> tuple[float, float] | None:
    """The gain of PI-MCTS over OL-MCTS the paper states for ``game`` (Sec. VI), as a
    (low, high) range in win-rate points: Hearts and Stratego 5% (10% at 10000 iterations),
    Virus and Colt Express 2-5%; None where it gives no number."""
    name = game.split("(")[0]
    if name in ("hearts", "stratego"):
        g = pimcts_claims.HIGH_BUDGET_GAIN if budget >= 10_000 else pimcts_claims.DEFAULT_EFFECT
        return (g, g)
    if name in ("virus", "colt_express"):
        return (0.02, 0.05)
    return None


def plot_win_rate_vs_d(rates: pd.DataFrame, session, budget: int, name: str, paper_ref: str,
                       title: str = "the paper's games"):
    """One panel per game: win rate vs D per aggregation, IS-MCTS band, 1/players line."""
    import matplotlib.pyplot as plt

    sub_all = rates[rates["budget"] == budget]
    games = list(dict.fromkeys(sub_all["game"]))
    cols = min(4, len(games))
    rows_n = math.ceil(len(games) / cols)
    fig, axes = plt.subplots(rows_n, cols, figsize=(3.6 * cols, 3.0 * rows_n), squeeze=False)
    for ax, game in zip(axes.flat, games):
        sub = sub_all[sub_all["game"] == game]
        control = sub[sub["agent"] == "olmcts"]
        lines = []
        for agg in [a for a in AGGREGATIONS if a in set(sub["aggregation"])]:
            part = pd.concat([control.assign(aggregation=agg), sub[sub["aggregation"] == agg]])
            lines.append(part)
        if lines:
            plots.lines_ci(ax, pd.concat(lines), "D", "win_rate", "lo", "hi", hue="aggregation",
                           logx=True, xlabel=D_LABEL, ylabel=WIN_LABEL,
                           ci_label="shaded: Wilson 95% CI")
        elif len(control):
            ax.errorbar(control["D"], control["win_rate"],
                        yerr=[control["win_rate"] - control["lo"], control["hi"] - control["win_rate"]],
                        fmt="o", label="OL-MCTS (D=1)")
        ism = sub[sub["agent"] == "ismcts"]
        if len(ism):
            r = ism.iloc[0]
            ax.axhspan(r["lo"], r["hi"], color="0.5", alpha=0.2, lw=0)
            ax.axhline(r["win_rate"], color="0.3", ls="-.", lw=1, label="IS-MCTS")
        ax.axhline(sub["baseline"].iloc[0], color="k", ls=":", lw=1, label="1/players")
        stated = paper_gain(game, budget)
        if stated is not None and len(control):
            base = float(control["win_rate"].iloc[0])
            plots.paper_level(ax, tuple(base + g for g in stated) if stated[0] != stated[1]
                              else base + stated[0], label="paper: OL-MCTS + its stated gain")
        n = int(sub["n"].min())
        ax.set_title(f"{game} (n={n}/cell)", fontsize=9)
        plots.label_axes(ax, D_LABEL, WIN_LABEL)
        plots.ticks_at(ax, sub["D"])
        ax.xaxis.label.set_fontsize(8)
        ax.yaxis.label.set_fontsize(8)
        ax.set_ylim(0, 1)
        ax.legend(fontsize=6)
    for ax in list(axes.flat)[len(games):]:
        ax.axis("off")
    fig.suptitle(f"Win rate vs OL-MCTS opponents, {title}, B={budget} (bands: 95% Wilson "
                 "intervals)",
                 fontsize=10)
    fig.tight_layout()
    session.save_figure(fig, name, paper_ref=paper_ref)
    return fig


def disambiguation_bins(dis: pd.DataFrame, bins: int = 10) -> pd.DataFrame:
    """Per game and tenth of the game played: mean log2 #worlds with its t 95% interval and
    the share of censored estimates (no collision: the value sits at the cap, so a bin with
    any censored value has a mean that is only a lower bound)."""
    frame = dis.assign(bin=np.minimum((dis["fraction"] * bins).astype(int), bins - 1) / bins
                       + 0.5 / bins)
    rows = []
    for (game, b), sub in frame.groupby(["game", "bin"], sort=False):
        est = stats.mean_ci(sub["log2_worlds"].to_numpy())
        rows.append({"game": game, "fraction": b, "log2_worlds": est.value, "lo": est.lo,
                     "hi": est.hi, "n": est.n, "censored_share": float(sub["censored"].mean())})
    return pd.DataFrame(rows).sort_values(["game", "fraction"], kind="stable")


def plot_disambiguation(dis: pd.DataFrame, session):
    """log2 #worlds consistent with the mover's infostate vs fraction of the game played, one
    panel per game on a shared y axis (not in the paper). Filled points carry a t 95%
    interval over decisions; open triangles are bins where some estimates are censored at
    the cap (no collision among the samples): their mean is a lower bound, not data."""
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D

    table = disambiguation_bins(dis)
    games = list(dict.fromkeys(dis["game"]))
    samples = int(session.cfg["disambiguation_samples"])
    cap = math.log2(samples * (samples - 1) / 2)
    cols = min(3, len(games))
    rows_n = math.ceil(len(games) / cols)
    fig, axes = plt.subplots(rows_n, cols, figsize=(3.4 * cols, 2.6 * rows_n + 0.9), squeeze=False,
                             sharex=True, sharey=True, layout="constrained")
    for ax, game in zip(axes.flat, games):
        sub = table[table["game"] == game]
        clean, cens = sub[sub["censored_share"] == 0], sub[sub["censored_share"] > 0]
        ax.plot(sub["fraction"], sub["log2_worlds"], color="0.6", lw=1, zorder=1)
        ax.errorbar(clean["fraction"], clean["log2_worlds"],
                    yerr=[clean["log2_worlds"] - clean["lo"], clean["hi"] - clean["log2_worlds"]],
                    fmt="o", color="C0", ms=4, capsize=2, zorder=3)
        ax.plot(cens["fraction"], cens["log2_worlds"], "^", mfc="white", mec="C3", ms=6, zorder=3)
        ax.axhline(cap, color="C3", ls=":", lw=1)
        share = float(dis.loc[dis["game"] == game, "censored"].mean())
        ax.set_title(f"{game}\n{share:.0%} of estimates censored", fontsize=8)
        ax.set_xlim(0, 1)
    for ax in list(axes.flat)[len(games):]:
        ax.axis("off")
    fig.supxlabel("fraction of the game played (share of decisions)", fontsize=9)
    fig.supylabel("log2 #worlds consistent with the\nmover's infostate (bits)", fontsize=9)
    handles = [Line2D([], [], marker="o", color="C0", ls="none", label="mean, t 95% CI"),
               Line2D([], [], marker="^", mfc="white", mec="C3", ls="none",
                      label="≥ lower bound (some estimates censored at the cap)"),
               Line2D([], [], color="C3", ls=":", label=f"cap: log2 of the {samples} samples' pairs")]
    fig.legend(handles=handles, loc="outside upper center", ncols=3, fontsize=7, frameon=False,
               title="Disambiguation under random play (collision estimator; not in the paper)",
               title_fontsize=9)
    session.save_figure(fig, "disambiguation_by_fraction_played", paper_ref="(not in paper)")
    return fig


def main_budget(cfg, game_string: str) -> int:
    """The budget a game's claims and gain use: the first of its slice's budgets."""
    return slice_of(cfg, game_string)["budgets"][0]


def main_rates(rates: pd.DataFrame, cfg) -> pd.DataFrame:
    """The rows of ``rates`` at each game's main budget (ports may use a smaller one)."""
    keep = [b == main_budget(cfg, g) for g, b in zip(rates["game"], rates["budget"])]
    return rates[np.asarray(keep, dtype=bool)]


def gains(rates: pd.DataFrame, budget: int | None = None) -> pd.DataFrame:
    """Per game: the best PI-MCTS cell and IS-MCTS minus the OL-MCTS control (D = 1).
    ``budget`` None: ``rates`` already holds one budget per game (see ``main_rates``)."""
    out = []
    part = rates if budget is None else rates[rates["budget"] == budget]
    for game, sub in part.groupby("game", sort=False):
        control = sub[sub["agent"] == "olmcts"].iloc[0]
        pi = sub[sub["agent"] == "pimcts"]
        row = {"game": game, "budget": int(control["budget"]), "control": control["win_rate"],
               "baseline": control["baseline"]}
        if len(pi):
            best = pi.loc[pi["win_rate"].idxmax()]
            row.update({"best_D": int(best["D"]), "best_aggregation": best["aggregation"],
                        "pimcts_best": best["win_rate"], "pimcts_best_lo": best["lo"],
                        "pimcts_best_hi": best["hi"],
                        "pimcts_mean": float(pi["win_rate"].mean()),
                        "gain": best["win_rate"] - control["win_rate"],
                        "gain_mean": float(pi["win_rate"].mean()) - control["win_rate"]})
        ism = sub[sub["agent"] == "ismcts"]
        if len(ism):
            row.update({"ismcts": ism.iloc[0]["win_rate"], "ismcts_lo": ism.iloc[0]["lo"],
                        "ismcts_hi": ism.iloc[0]["hi"]})
        out.append(row)
    return pd.DataFrame(out)


def pooled_paired_gain(results: pd.DataFrame, game: str, budget: int) -> dict | None:
    """Mean over the D > 1 cells of a game, per duplicate (deal, rotation), minus the control
    on the same deal, with a t 95% interval over the deals (descriptive: it pools D)."""
    table = pimcts_claims.paired_scores(results, game, budget)
    cells = pimcts_claims.pi_cells(table)
    if "control" not in table or not cells:
        return None
    d = (table[cells].mean(axis=1) - table["control"]).dropna().to_numpy()
    if not len(d):
        return None
    est = stats.mean_ci(d)
    return {"gain": est.value, "lo": est.lo, "hi": est.hi, "n": est.n}


def plot_gain_vs_persistence(results: pd.DataFrame, rates: pd.DataFrame, dis: pd.DataFrame, session):
    """PI-MCTS gain over OL-MCTS (its D > 1 cells pooled per deal, minus the control on the
    same deal) vs hidden-information persistence, each game at its main budget; the paper's
    games as circles, the games beyond the paper as squares (descriptive, not in the paper)."""
    import matplotlib.pyplot as plt

    at_main = main_rates(rates, session.cfg)
    table = gains(at_main).merge(persistence(dis), on="game")
    pooled = {g: pooled_paired_gain(results, g, main_budget(session.cfg, g)) for g in table["game"]}
    for col in ("gain", "lo", "hi"):
        table[f"gain_pooled_{col}"] = [pooled[g][col] if pooled[g] else np.nan for g in table["game"]]
    fig, ax = plt.subplots(figsize=(7, 4.5))
    if table["gain_pooled_gain"].notna().any():
        paper = np.array([is_paper_game(g) for g in table["game"]], dtype=bool)
        for mask, marker, label in ((paper, "o", "the paper's games"), (~paper, "s", "beyond the paper")):
            part = table[mask]
            if len(part):
                ax.errorbar(part["persistence"], part["gain_pooled_gain"],
                            xerr=[part["persistence"] - part["persistence_lo"],
                                  part["persistence_hi"] - part["persistence"]],
                            yerr=[part["gain_pooled_gain"] - part["gain_pooled_lo"],
                                  part["gain_pooled_hi"] - part["gain_pooled_gain"]],
                            fmt=marker, ms=4, capsize=2, label=label)
        for _, r in table.iterrows():
            ax.annotate(f"{r['game']} (B={r['budget']})", (r["persistence"], r["gain_pooled_gain"]),
                        fontsize=6)
            stated = paper_gain(r["game"], int(r["budget"]))
            if stated is not None:
                mid, half = (stated[0] + stated[1]) / 2, (stated[1] - stated[0]) / 2
                plots.paper_overlay(ax, r["persistence"], mid, yerr=half or None,
                                    label="paper: stated gain (Sec. VI; best D, our persistence)")
        ax.legend(fontsize=7)
    ax.axhline(0, color="k", ls=":", lw=1)
    ax.set_xlabel("hidden-information persistence (fraction of the peak)\n"
                  "(mean log2 #worlds / its peak, random play; 95% CI)", fontsize=9)
    ax.set_ylabel("PI-MCTS gain over OL-MCTS (win-rate points)\n(D>1 cells pooled per deal − "
                  "control; t 95% CI)", fontsize=9)
    ax.set_xlim(-0.05, 1.1)
    ax.set_title("PI-MCTS gain vs persistence (each game at its main budget B)", fontsize=9)
    fig.tight_layout()
    session.save_figure(fig, "pimcts_gain_vs_persistence", paper_ref="(discussion, not measured in paper)")
    return fig, table


def game_table(cfg) -> pd.DataFrame:
    """Each game's parameters, players, size, how worlds are sampled, and the budgets run."""
    rows = []
    for part in ("main", "tabletop", "high"):
        sl = cfg["slices"].get(part, {"games": []})
        for name in sl["games"]:
            budgets = ([b for g, b in high_pairs(cfg) if g == name] if part == "high"
                       else sl["budgets"])
            rows.append({**_game_row(cfg, name), "slice": part,
                         "budgets": ", ".join(map(str, budgets)),
                         "games_per_cell": games_per_cell(cfg, name, part)})
    return pd.DataFrame(rows)


def _game_row(cfg, name: str) -> dict:
    game = pyspiel.load_game(name)
    return {"game": name, "parameters": str(game.get_parameters()),
            "players": game.num_players(), "max_length": game.max_game_length(),
            "actions": game.num_distinct_actions(),
            "utility": f"[{game.min_utility():g}, {game.max_utility():g}]",
            "determinizer": determinizer_label(game),
            "infostate_key": "action-observation history" if game.get_type().short_name in AOH_GAMES
            else "information_state_string",
            "tree_engine": engine_for(game, cfg["engine"]) + " (configured; rows record engine_used)"}


def preset_config(preset: str):
    """The derived config of a preset of this notebook, including ``full`` (the cluster plan)
    before the config loader knows that preset name: its file is validated by the same
    SCHEMA, as overrides of every parameter."""
    import yaml

    from infosets.experiments import config as _config

    if preset in _config.PRESETS:
        return _config.load("pimcts_aggregation", preset)
    path = _config.params_dir() / f"pimcts_aggregation.{preset}.yaml"
    if not path.exists():
        raise ConfigError(f"preset: no file {path.name} in {path.parent}")
    with open(path) as fh:
        values = yaml.safe_load(fh) or {}
    return _config.load("pimcts_aggregation", "paper", overrides=values)


PLANNED_PRESETS = ("default", "paper", "full")


def cpu_hours(presets=PLANNED_PRESETS, costs: pd.DataFrame | None = None) -> pd.DataFrame:
    """CPU-hours of each preset from the measured per-game costs (``pimcts_costs.csv``:
    CPU-seconds per game per cell, compiled engine, per-game TAG settings); a TOTAL row per
    preset. Every game of every preset has a measured row (no blank rows)."""
    from infosets.papers import pimcts_costs

    costs = pimcts_costs.load_costs() if costs is None else costs
    frames = [pimcts_costs.plan(preset_config(p), costs).assign(preset=p) for p in presets]
    frame = pd.concat(frames, ignore_index=True)
    return frame[["preset"] + [c for c in frame.columns if c != "preset"]]


def claim_runs(results: pd.DataFrame, cfg) -> list[dict]:
    """One entry per row of the settings table (the paper's games): the game string that ran
    it, its budgets, or why it did not run (not yet registered: a port in progress, whose
    game string added to ``tabletop_games`` runs it; or simply not in this preset)."""
    ran = {}
    for g in dict.fromkeys(results["game"]):
        ran.setdefault(game_key(g), g)
    registered = set(pyspiel.registered_names())
    runs = []
    for _, row in load_settings().iterrows():
        key = settings_key(row)
        game = ran.get(key)
        if game is not None:
            runs.append({"row": row, "game": game, "budgets": game_budgets(cfg, game),
                         "reason": ""})
            continue
        reason = (f"{key[0]} is not registered yet (a port in progress); add "
                  f"'{row['game']}' to tabletop_games once it is" if key[0] not in registered
                  else f"'{row['game']}' is not in this preset")
        runs.append({"row": row, "game": None, "budgets": [], "reason": reason})
    return runs


def claims(results: pd.DataFrame, rates: pd.DataFrame, session) -> pd.DataFrame:
    """The paper's claims on the paper's games only, each tested as stated
    (``pimcts_claims``), saved as ``claims``; the other games' gains go to
    ``beyond_paper_gains``."""
    records = pimcts_claims.build(results, rates, claim_runs(results, session.cfg))
    return save_claims(records, session, paper_ref="Sec. VI claims")


def gain_table(results: pd.DataFrame, cfg, games) -> pd.DataFrame:
    """Per game (at its main budget) and D > 1 cell: the paired gain over the OL-MCTS control
    on the same deals, its t 95% interval, and the two-sided p-value Holm-adjusted over the
    game's cells."""
    rows = []
    for game in games:
        budget = main_budget(cfg, game)
        table = pimcts_claims.paired_scores(results, game, budget)
        cells = pimcts_claims.pi_cells(table) + (["IS-MCTS"] if "IS-MCTS" in table else [])
        if "control" not in table or not cells:
            continue
        tests = []
        for c in cells:
            d = pimcts_claims.paired_differences(table, c, "control")
            tests.append(stats.paired_t_test(d) if len(d) >= 2 else (stats.mean_ci(d), 1.0))
        adjusted = stats.holm([p for _, p in tests])
        for c, (est, _), p in zip(cells, tests, adjusted):
            rows.append({"game": game, "budget": budget, "cell": c, "gain": est.value,
                         "lo": est.lo, "hi": est.hi, "n": est.n, "p_holm": float(p)})
    return pd.DataFrame(rows, columns=["game", "budget", "cell", "gain", "lo", "hi", "n", "p_holm"])


def save_beyond_paper(results: pd.DataFrame, session) -> pd.DataFrame:
    """The games beyond the paper's twelve: their paired gains, in a table of their own."""
    games = [g for g in dict.fromkeys(results["game"]) if not is_paper_game(g)]
    frame = gain_table(results, session.cfg, games)
    session.save_table(frame, "beyond_paper_gains", paper_ref="(beyond the paper)")
    return frame


def plot_budgets(rates: pd.DataFrame, session) -> None:
    """Per budget: the paper's games only (Fig. 1 at a slice's first budget, Fig. 2 at the
    next, the paper's 10000 iterations), the search records beside the win rates, and the
    games beyond the paper in a figure of their own (never pooled with the paper's)."""
    slices = session.cfg["slices"].values()
    paper = rates[rates["paper_game"]]
    beyond = rates[~rates["paper_game"]]
    for budget in sorted(set(rates["budget"])):
        first = any(sl["budgets"] and sl["budgets"][0] == budget for sl in slices)
        if (paper["budget"] == budget).any():
            plot_win_rate_vs_d(paper, session, budget, f"win_rate_vs_d_B{budget}",
                               paper_ref="Fig. 1" if first else "Fig. 2")
            plot_search_vs_d(paper, session, budget)
        if (beyond["budget"] == budget).any():
            plot_win_rate_vs_d(beyond, session, budget, f"beyond_paper_win_rate_vs_d_B{budget}",
                               paper_ref="(beyond the paper)", title="games beyond the paper")


def plot_search_vs_d(rates: pd.DataFrame, session, budget: int):
    """Budget fragmentation, per paper game: win rate (top), mean tree depth per decision
    (middle; blank where the engine records none) and the root visit share of the chosen
    move with the D trees' agreement (bottom), against D. Bands: 95% intervals over games."""
    import matplotlib.pyplot as plt

    sub_all = rates[(rates["budget"] == budget) & (rates["agent"] != "ismcts")]
    games = list(dict.fromkeys(sub_all["game"]))
    fig, axes = plt.subplots(3, len(games), figsize=(3.6 * len(games), 8), squeeze=False)
    for col, game in enumerate(games):
        sub = sub_all[sub_all["game"] == game]
        control = sub[sub["agent"] == "olmcts"]
        aggs = [a for a in AGGREGATIONS if a in set(sub["aggregation"])]
        frame = pd.concat([control.assign(aggregation=a) for a in aggs] +
                          [sub[sub["aggregation"] == a] for a in aggs]) if aggs else control
        hue = "aggregation" if aggs else None
        for row, (y, lo, hi, label) in enumerate((
                ("win_rate", "lo", "hi", "win rate (fraction of games)"),
                ("mean_depth", "depth_lo", "depth_hi", "mean tree depth (plies)"),
                ("visit_share", "share_lo", "share_hi", "root visit share of chosen move (fraction)"))):
            ax = axes[row, col]
            if frame[y].notna().any():
                plots.lines_ci(ax, frame.dropna(subset=[y]), "D", y, lo, hi, hue=hue, logx=True,
                               xlabel=D_LABEL, ylabel=label)
            else:
                ax.text(0.5, 0.5, "not recorded by this engine", ha="center", fontsize=7,
                        transform=ax.transAxes)
            plots.label_axes(ax, D_LABEL, label)
            ax.yaxis.label.set_fontsize(8)
            if row == 0:
                ax.set_title(f"{game} (n={int(sub['n'].min())}/cell)", fontsize=9)
        agree = sub.dropna(subset=["tree_agreement"])
        if len(agree):
            axes[2, col].plot(agree["D"], agree["tree_agreement"], "k.", ms=4,
                              label="share of trees agreeing")
            axes[2, col].legend(fontsize=6)
    fig.suptitle(f"Budget fragmentation, B={budget} (95% intervals)", fontsize=10)
    fig.tight_layout()
    session.save_figure(fig, f"search_vs_d_B{budget}", paper_ref="Sec. VI (budget fragmentation)")
    return fig


def save_game_table(session) -> pd.DataFrame:
    frame = game_table(session.cfg)
    session.save_table(frame, "game_parameters", paper_ref="Sec. V (games)")
    return frame


def save_win_rates(results: pd.DataFrame, session) -> pd.DataFrame:
    rates = win_rates(results)
    timing = ["game", "budget", "agent", "D", "aggregation", "cpu_s_per_game"]
    session.save_table(rates.drop(columns="cpu_s_per_game"), "win_rates", paper_ref="Fig. 1/2 data")
    session.save_timing_table(rates[timing], "cpu_per_game", paper_ref="(measured CPU time)")
    return rates


def save_cpu_hours(session) -> pd.DataFrame:
    """CPU-hours of the default, paper and full presets, from the committed measured costs."""
    frame = cpu_hours()
    session.save_timing_table(frame, "preset_cpu_hours", paper_ref="(budget plan)")
    return frame


def save_settings_table(session) -> pd.DataFrame:
    """The per-game MCTS settings of the paper's games, with their TAG source and the TAG
    settings we do not model, and whether this engine applies them (see ``tuned_kwargs``)."""
    frame = load_settings()
    accepted = inspect.signature(OLMCTSBot.__init__).parameters
    applied = bool(session.cfg["tuned_settings"]) and "rollout_length" in accepted
    frame = frame.assign(applied_here=applied)
    session.save_table(frame, "mcts_settings", paper_ref="Sec. V (parameters tuned per game)")
    return frame
