"""PI-MCTS aggregation vs OL-MCTS and IS-MCTS: the experiment's tasks. Reproduces
Ravichandran, Goodman and Lucas, "Evaluation of Perfect-Information Monte Carlo Tree Search
in Imperfect-Information Games" (docs/papers/pimcts_aggregation.md).

Tasks: seeded tournaments (one focus agent against OL-MCTS in every other seat, seats
rotating) and the disambiguation measurement (log2 of the number of worlds consistent with
the mover's information state, at decisions of random-play games). The tables, figures and
claims built from their rows are in ``pimcts_analysis``: this module is what a run's results
key hashes (``experiments.store.code_hash``), so it holds only what can change a row, and a
figure or claims edit leaves committed runs valid.

Slices of games: ``games`` and ``tabletop_games`` (Fig. 1), each with its own budgets, D grid
and games per cell (a port may be in either: the slices only group cost), and
``high_budget_games`` (Fig. 2: the paper's 10000 iterations), which run again at
``high_budgets``. A port with a numba kernel is searched by the compiled engine; one without
on its pure-Python kernel (``state.kernel``), with worlds drawn by ``kernel.resample``.

The ablation (``ablation_tasks``, issue 56; ``pimcts_ablation`` says what is switched off and
to what): with ``tag_agents`` on, ``ablation_games`` replay their Fig. 1 deals with one TAG
setting at a time switched off for every agent at the table, for three focus agents (OL-MCTS,
IS-MCTS and one PI-MCTS cell, ``ablation_pimcts``); the "all on" condition is the tournament's
own cells. Empty by default: a preset without it plans no ablation task.
"""

from __future__ import annotations

import inspect
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pyspiel

import infosets.games  # noqa: F401  (registers our games)
from infosets import arena
from infosets.experiments.config import ConfigError, Param, Schema
from infosets.experiments.tasks import Task
from infosets.games import heuristics
from infosets.games.determinizers import determinizer_obstacle, infostate_key, sampler_for
from infosets.games.kernels import kernel_for
from infosets.papers.pimcts_ablation import (
    ABLATABLE,
    cell_obstacle,
    derive_ablation,
    switched_off,
)
from infosets.papers.pimcts_cells import cell_agent, cell_label
from infosets.papers.pimcts_tag_agents import missing_settings, tag_agent_kwargs, tag_agent_row
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
    """The per-game games-per-cell overrides of ``key`` (ints in [1, 100000], checked by its
    ``Param``), each naming a game of ``games``."""
    given = values[key] or {}
    for name in given:
        if name not in games:
            raise ConfigError(f"{key}[{name!r}]: not a game of this preset; expected one of "
                              f"{list(games)}")
    return dict(given)


def _cell_caps(values: dict, main: dict, tabletop: dict) -> dict:
    """``games_per_cell_by_cell``, checked: {game: {cell label: games}} for cells of a game's
    Fig. 1 tournament (at every budget of its slice) that grow past, or stop short of, the
    game's games per cell. Each cap is whole blocks of duplicate deals, so a block already
    played keeps its deals when a cap grows (one-line ConfigError naming the entry otherwise)."""
    given = values["games_per_cell_by_cell"] or {}
    count = Param(int, lo=1, hi=100_000)
    out = {}
    for game, cells in given.items():
        key = f"games_per_cell_by_cell[{game!r}]"
        sl = tabletop if game in tabletop["games"] else main
        if game not in sl["games"]:
            raise ConfigError(f"{key}: not a game of this preset's Fig. 1 slices; expected one of "
                              f"{main['games'] + tabletop['games']}")
        if not isinstance(cells, dict) or not cells:
            raise ConfigError(f"{key}: expected a mapping of cells to games, e.g. "
                              "{'IS-MCTS': 240, 'D=10 TotalVisits': 240}")
        players = pyspiel.load_game(game).num_players()
        per_block = max(1, values["block_size"] // players) * players
        labels = {cell_label(c["agent"], c["D"], c["aggregation"]) for b in sl["budgets"]
                  for c in _configs(values, sl["d_grid"][str(b)])}
        out[game] = {}
        for label, n in cells.items():
            try:
                cell_agent(str(label))
            except ValueError as exc:
                raise ConfigError(f"{key}[{label!r}]: {exc}") from None
            if label not in labels:
                raise ConfigError(f"{key}[{label!r}]: not a cell of the game's tournament; "
                                  f"expected one of {sorted(labels)}")
            n = count.check(f"{key}[{label!r}]", n)
            if n % per_block:
                below, above = n - n % per_block, n - n % per_block + per_block
                raise ConfigError(f"{key}[{label!r}]: {n} games is not whole blocks of "
                                  f"{per_block} ({players} players, block_size "
                                  f"{values['block_size']}); use "
                                  f"{f'{below} or {above}' if below else above}")
            out[game][str(label)] = n
    return out


def _check_tag_agents(values: dict) -> None:
    """With ``tag_agents`` on, every paper game of the preset must run as TAG's agent: refused
    in one line, before any compute, while a setting of its row is not in our engines."""
    if not values["tag_agents"]:
        return
    if not values["tuned_settings"]:
        raise ConfigError("tag_agents: needs tuned_settings true (TAG's agents are tuned per game)")
    for game in values["games"] + values["tabletop_games"]:
        row = tag_agent_row(*game_key(game))
        missing = [] if row is None else missing_settings(row)
        if missing:
            raise ConfigError(f"tag_agents: {game} needs {', '.join(missing)}, which our engines do "
                              "not have yet (docs/tag_agents.md)")


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
    by_cell = _cell_caps(values, main, tabletop)
    for sl in (main, tabletop):
        sl["games_per_cell_by_cell"] = {g: c for g, c in by_cell.items() if g in sl["games"]}
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
    _check_tag_agents(values)
    return {"d_grid": main["d_grid"],
            "slices": {"main": main, "tabletop": tabletop, "high": high},
            "n_cells": main["n_cells"] + tabletop["n_cells"] + high["n_cells"],
            "ablation": _derive_ablation(values, main, tabletop)}


def _derive_ablation(values: dict, main: dict, tabletop: dict) -> dict:
    """The ablation's conditions (``pimcts_ablation.derive_ablation``), each game at its Fig. 1
    budget (its slice's first), D grid and games per cell."""
    def fig1(game):
        return tabletop if game in values["tabletop_games"] else main

    def grid_of(game):
        sl = fig1(game)
        budget = sl["budgets"][0]
        return budget, sl["d_grid"][str(budget)]

    def games_per_cell_of(game):
        sl = fig1(game)
        return sl["games_per_cell_by_game"].get(game, sl["games_per_cell"])

    return derive_ablation(values, lambda g: tag_agent_row(*game_key(g)), grid_of,
                           games_per_cell_of)


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
        "tag_agents": Param(bool, doc="paper games play TAG's own agent (pimcts_tag_agents.csv: "
                            "tree policy, opponent trees, MAST, ...) instead of pimcts_settings.csv"),
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
        "games_per_cell_by_game": Param(dict, item=int, lo=1, hi=100_000, optional=True,
                                        doc="games per agent config of single games at their "
                                            "Fig. 1 budgets, {game: n} (null: every game takes "
                                            "its slice's games_per_cell)"),
        "games_per_cell_by_cell": Param(dict, item=dict, optional=True,
                                        doc="games of single cells at their game's Fig. 1 "
                                            "budgets, {game: {cell: n}}, a cell named as the "
                                            "claims table names it ('control', 'IS-MCTS', "
                                            "'D=10 TotalVisits'), n whole blocks (null: every "
                                            "cell takes its game's games per cell)"),
        "high_games_per_cell_by_game": Param(dict, item=int, lo=1, hi=100_000, optional=True,
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
        "ablation_games": Param(list, item=str, game=True,
                                doc="games whose TAG settings are switched off in turn (each in "
                                    "games or tabletop_games, tag_agents on; [] runs no ablation)"),
        "ablation_settings": Param(list, item=str, choices=list(ABLATABLE),
                                   doc="TAG settings switched off in turn (to TAG's default, for "
                                       "every agent at the table); one at its default in a game "
                                       "is skipped there"),
        "ablation_pimcts": Param(dict, item=str, optional=True, accept=cell_obstacle,
                                 doc="per ablation game, the PI-MCTS cell it plays, {game: "
                                     "'D=10 TotalVisits'} (chosen from the stage results)"),
        "ablation_games_per_cell": Param(int, lo=1, hi=100_000, optional=True,
                                         doc="games per agent and condition of the ablation "
                                             "(null: the game's Fig. 1 games per cell)"),
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


def tuned_kwargs(bot_class, game_string: str, cfg: dict, ablate: str | None = None) -> dict:
    """The per-game settings (K, rollout length, heuristic, depth limit, FPU, epsilon) of a
    paper game for ``bot_class``, one set for OL-MCTS, PI-MCTS and IS-MCTS alike.

    Passed only when ``cfg["tuned_settings"]`` is on, the game is in the settings table, and
    the bot's constructor takes ``rollout_length`` (an engine without per-game settings gets
    none of them, so K stays ``cfg["uct_c"]``); each keyword only if the signature has it.
    ``ablate``: a TAG setting switched off (``pimcts_ablation.switched_off``; TAG agents only)."""
    if not cfg.get("tuned_settings"):
        return {}
    if cfg.get("tag_agents"):
        return _tag_agent_kwargs(bot_class, game_string, ablate)
    if ablate is not None:
        raise ValueError(f"ablate: {ablate!r} switches a TAG agent's setting off; needs tag_agents")
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


def _tag_agent_kwargs(bot_class, game_string: str, ablate: str | None = None) -> dict:
    """TAG's agent of a paper game (``pimcts_tag_agents``) for ``bot_class``, with the setting
    ``ablate`` switched off if given; {} for a game beyond the paper or an engine without
    per-game settings."""
    row = tag_agent_row(*game_key(game_string))
    if row is None or "rollout_length" not in inspect.signature(bot_class.__init__).parameters:
        return {}
    return tag_agent_kwargs(row if ablate is None else switched_off(row, ablate), heuristics.heuristic)


def make_agent(game, player, agent: dict, cfg: dict, rng, game_string: str | None = None):
    """The bot for one seat. ``agent``: {"agent": "olmcts"|"pimcts"|"ismcts", "D", "aggregation"},
    and "ablate" (a TAG setting switched off) in the ablation. Paper games take their TAG
    settings (``tuned_kwargs``) when the engine accepts them."""
    budget = agent["budget"]
    ablate = agent.get("ablate")
    engine = engine_for(game, cfg["engine"])
    # a port with a numba kernel is searched by the compiled engine (its own determinizer);
    # the others on their Python kernel
    sampler = kernel_sampler if is_tabletop(game) and kernel_for(game) is None else None
    name = game_string if game_string is not None else str(game)
    if agent["agent"] == "ismcts":
        if cfg["ismcts_engine"] == "cpp" and not is_python_game(game):
            return make_cpp_ismcts_bot(game, iterations=budget, uct_c=cfg["uct_c"],
                                       seed=int(rng.integers(2**31 - 1)), final=cfg["final"])
        kw = {"uct_c": cfg["uct_c"], **tuned_kwargs(ISMCTSBot, name, cfg, ablate)}
        # ours: compiled where the game has a kernel (engine auto), else the Python reference
        return ISMCTSBot(game, player, iterations=budget, rng=rng, sampler=sampler,
                         normalize_rewards=cfg["normalize_rewards"], final=cfg["final"],
                         engine="python" if engine == "cpp" else engine, **kw)
    if agent["agent"] == "pimcts" and agent["D"] > 1:
        kw = {"uct_c": cfg["uct_c"], **tuned_kwargs(PIMCTSBot, name, cfg, ablate)}
        return PIMCTSBot(game, player, iterations=budget, determinizations=agent["D"],
                         aggregation=agent["aggregation"], rng=rng, sampler=sampler,
                         normalize_rewards=cfg["normalize_rewards"], engine=engine, **kw)
    kw = {"uct_c": cfg["uct_c"], **tuned_kwargs(OLMCTSBot, name, cfg, ablate)}
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


def games_per_cell(cfg, game_string: str, part: str | None = None, cell: str | None = None) -> int:
    """Games per agent config of a game in slice ``part`` (None: the game's Fig. 1 slice):
    its cell's cap if ``cell`` (a ``pimcts_cells.cell_label``) has one in a Fig. 1 slice
    (``games_per_cell_by_cell``), else its per-game override if the preset gives one, else
    the slice's games_per_cell; part "ablation": the ablation's games per agent and
    condition (``_derive_ablation``)."""
    if part == "ablation":
        return cfg["ablation"]["games_per_cell"][game_string]
    sl = slice_of(cfg, game_string) if part is None else cfg["slices"][part]
    own = sl.get("games_per_cell_by_cell", {}).get(game_string, {})
    if cell is not None and cell in own:
        return own[cell]
    return sl["games_per_cell_by_game"].get(game_string, sl["games_per_cell"])


def deals_per_cell(cfg, game_string: str, players: int, part: str | None = None,
                   cell: str | None = None) -> int:
    """Duplicate deals of a cell: each deal is played once per seat rotation, so a cell has
    ``players`` x deals >= ``games_per_cell`` games."""
    return math.ceil(games_per_cell(cfg, game_string, part, cell) / players)


def deal_block(cfg, game_string: str, players: int, block: int, part: str | None = None,
               cell: str | None = None) -> range:
    """The deals of task ``block`` (``block_size`` games, i.e. block_size // players deals)."""
    per = max(1, cfg["block_size"] // players)
    return range(block * per,
                 min((block + 1) * per, deals_per_cell(cfg, game_string, players, part, cell)))


def task_deals(cfg, params: dict, players: int) -> range:
    """The deals a tournament or ablation task plays (``deal_block`` of its game, slice, cell
    and block)."""
    return deal_block(cfg, params["game"], players, params["block"], params.get("part"),
                      cell_label(params["agent"], params["D"], params["aggregation"]))


def searched_engine(bot) -> str | None:
    """The engine that ran ``bot``'s last search, or None if it never searched (a bot's
    ``engine_used`` names the planned engine before its first search; a row records what ran)."""
    if getattr(bot, "last_search_info", None) is None:
        return None
    return getattr(bot, "engine_used", None)


def game_engine(searched, planned: str) -> str:
    """The ``engine_used`` of one game's row: the engines in ``searched`` (``searched_engine``
    after each of the focus bot's decisions in the game; None where no search was recorded),
    "+"-joined in sorted order as a bot names a search run on several ("cpp+python"), so one
    engine if every search of the game ran on it; ``planned`` if none is named (no decision)."""
    ran = sorted({part for e in searched if e for part in str(e).split("+")})
    return "+".join(ran) if ran else str(planned)


def tournament_task(cfg: dict, params: dict, seed) -> list[dict]:
    """Duplicate games of one (game, budget, agent config): the focus agent against OL-MCTS in
    every other seat, each deal played once per seat rotation. Deal i of a game draws its
    chance outcomes from ``arena.deal_seed(root seed, game, i)`` in EVERY cell, so the cells
    of a game are compared deal by deal. One row per game, with the focus agent's per-decision
    search records averaged over its decisions.

    An ablation task (``ablation_tasks``: params "ablate", a TAG setting) switches that setting
    off for the focus agent and every OL-MCTS opponent alike, and its rows record the value
    each ran it at, read from the bots' ``settings`` ("ablated_focus", "ablated_opponents": every
    value seen in the task, "|"-joined).

    A row's ``engine_used`` is its own game's (``game_engine``): the engines that ran the focus
    bot's searches in that game (deal, rotation), read after each of its decisions. Where the
    focus had no decision in the game (or its bot records no search: OpenSpiel's C++ IS-MCTS),
    the engine that game's focus bot planned when built (its ``engine_used`` before any
    search; a bot plans the engine its first search runs, ``search.engine_choice``), else
    ``cfg["ismcts_engine"]`` (a bot that names none). The plan rather than the config, because
    it is what the bot would have run, and ``cfg["ismcts_engine"]`` names no engine of an
    OL-MCTS or PI-MCTS focus. Reading the engines draws no number and moves no play."""
    game = pyspiel.load_game(params["game"])
    n = game.num_players()
    ablate = params.get("ablate")
    switch = {} if ablate is None else {"ablate": ablate}
    agent = {"agent": params["agent"], "budget": params["budget"], "D": params["D"],
             "aggregation": params["aggregation"], **switch}
    opponent = {"agent": "olmcts", "budget": params["budget"], **switch}
    current: dict = {}
    ran: dict = {"focus": set(), "opponents": set()}  # the ablated setting's values, per entrant

    def make_opponent(g, p, rng):
        bot = make_agent(g, p, opponent, cfg, rng, params["game"])
        if ablate is not None:
            ran["opponents"].add(setting_value(bot, ablate))
        return bot

    planned: list = []  # per game, in the order arena builds them: its focus bot's planned engine

    def make_focus(g, p, rng):
        bot = make_agent(g, p, agent, cfg, rng, params["game"])
        planned.append(getattr(bot, "engine_used", None))  # built, not yet searched: the plan
        current["bot"], current["box"] = bot, attach_probe(bot)
        if ablate is not None:
            ran["focus"].add(setting_value(bot, ablate))
        return bot

    records: dict = {}
    engines: dict = {}  # (deal, rotation): the engine that ran each focus decision's search

    def on_decision(info):
        if info["entrant"] == "focus":
            row = decision_info(current["bot"], current["box"], info["action"])
            records.setdefault((info["deal"], info["rotation"]), []).append(row)
            engines.setdefault((info["deal"], info["rotation"]), []).append(
                searched_engine(current["bot"]))

    lineup = [arena.Entrant("focus", make_focus)] + [arena.Entrant("olmcts", make_opponent)] * (n - 1)
    deals = task_deals(cfg, params, n)
    rows = []
    games = arena.duplicate_games(game, lineup, deals, entropy=int(seed.entropy),
                                  label=params["game"], on_decision=on_decision)
    # one focus row per game, in the order of its focus bot (arena builds a game's bots, plays
    # it, writes its rows, then goes on): the k-th focus row is the game of the k-th focus bot
    focus_rows = [r for r in games if r["entrant"] == "focus"]
    if len(focus_rows) != len(planned):
        raise RuntimeError(f"{params['game']}: {len(focus_rows)} focus rows for "
                           f"{len(planned)} focus bots built")
    for r, plan in zip(focus_rows, planned):
        searched = pd.DataFrame(records.get((r["deal"], r["rotation"]), []),
                                columns=["mean_depth", "max_depth", "visit_share", "tree_agreement"])
        rows.append({"deal": r["deal"], "rotation": r["rotation"], "focus_seat": r["seat"],
                     "game_index": r["deal"] * n + r["rotation"], "players": n,
                     "engine_used": game_engine(engines.get((r["deal"], r["rotation"]), []),
                                                plan or cfg["ismcts_engine"]),
                     "score": r["score"], "focus_return": r["return"],
                     "decisions": len(searched), "cpu_seconds": r["seconds"],
                     **{c: float(searched[c].mean()) if searched[c].notna().any() else np.nan
                        for c in searched.columns},
                     **({} if ablate is None else
                        {f"ablated_{k}": "|".join(sorted(v)) for k, v in ran.items()})})
    return rows


def setting_value(bot, setting: str) -> str:
    """The value of a TAG ``setting`` ``bot`` runs with, read from its ``settings`` ("None" for
    a bot without them); an ablation row records it for the focus bots and the opponents."""
    return str(getattr(getattr(bot, "settings", None), setting, None))


def agent_configs(cfg, budget: int, part: str = "main") -> list[dict]:
    """OL-MCTS control (D = 1), PI-MCTS for D > 1 x aggregation, and IS-MCTS, for the
    ``part`` slice ("main" or "tabletop")."""
    return _configs(cfg, cfg["slices"][part]["d_grid"][str(budget)])


def _configs(values, grid) -> list[dict]:
    configs = [{"agent": "olmcts", "D": 1, "aggregation": "none"}]
    configs += [{"agent": "pimcts", "D": d, "aggregation": a}
                for d in grid if d > 1 for a in values["aggregations"]]
    if values["include_ismcts"]:
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
            extra = {"part": "high"} if part == "high" else {}
            for a in agent_configs(cfg, b, part):
                deals = deals_per_cell(cfg, g, n, part, cell_label(a["agent"], a["D"], a["aggregation"]))
                blocks = math.ceil(deals / max(1, cfg["block_size"] // n))
                tasks += [Task(tournament_task, {"game": g, "budget": b, **a, "block": k, **extra})
                          for k in range(blocks)]
    return tasks


def ablation_tasks(cfg) -> list[Task]:
    """The ablation's tournament blocks (issue 56; ``pimcts_ablation``): per game of
    ``ablation_games`` and TAG setting switched off (``cfg["ablation"]["conditions"]``), the
    three focus agents OL-MCTS (the control), the chosen PI-MCTS cell (``ablation_pimcts``) and
    IS-MCTS, against OL-MCTS, at the game's Fig. 1 budget, on the tournament's deals and
    blocks (deal i is the same deal in every cell). Params carry "part": "ablation" and
    "ablate": the setting, so no task id meets a tournament task's; the "all on" condition is
    the tournament's own cells, never played again. Empty when the preset asks for none."""
    ablation = cfg.get("ablation") or {"conditions": []}
    tasks = []
    for game, setting in ablation["conditions"]:
        n = pyspiel.load_game(game).num_players()
        blocks = math.ceil(deals_per_cell(cfg, game, n, "ablation") / max(1, cfg["block_size"] // n))
        cell = ablation["pimcts"][game]
        agents = [{"agent": "olmcts", "D": 1, "aggregation": "none"},
                  {"agent": "pimcts", "D": cell["D"], "aggregation": cell["aggregation"]},
                  {"agent": "ismcts", "D": 0, "aggregation": "none"}]
        tasks += [Task(tournament_task, {"game": game, "budget": ablation["budgets"][game], **a,
                                         "block": k, "part": "ablation", "ablate": setting})
                  for a in agents for k in range(blocks)]
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
