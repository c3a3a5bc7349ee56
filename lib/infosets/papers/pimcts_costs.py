"""Measured cost of the pimcts_aggregation tournaments and the CPU-hours of a preset.

Reproduces the cost planning of Ravichandran, Goodman and Lucas (pimcts_aggregation,
docs/papers/pimcts_aggregation.md): how many CPU-hours the ``default``, ``paper`` and ``full``
presets need, from per-game CPU seconds measured single-threaded with ``time.process_time``
(never wall time: the machine may be shared) through the same arena, agents and per-game TAG
settings (``pimcts_settings.csv``: short rollouts scored by a heuristic) as the notebook.

Cost model, per seat of one game (the search dominates; fitted per game and measured budget
B0, and a preset's budget B is planned from the B0 nearest it, since the cost of an iteration
changes with B: Hearts' OL-MCTS costs 7x less per iteration at 4000 than at 200):

* OL-MCTS and IS-MCTS: ``seconds = a x B`` (a: CPU-seconds per iteration, per game; OL-MCTS's
  a from every OL-MCTS seat measured, the control's focus and all cells' opponents);
* PI-MCTS with D trees: ``seconds = a x B + b x D`` (b: the per-tree overhead, from a small and
  a large D at B0);
* a game: the focus seat plus ``players - 1`` OL-MCTS opponents plus the game loop
  (``overhead``: process time outside the bots).

``python -m infosets.papers.pimcts_costs --games ... --budget B --d SMALL LARGE --deals 1
--seed 11 --out lib/infosets/papers/pimcts_costs.csv`` measures the games at budget B (a few
CPU-minutes at B = 200, about half an hour at 4000) and replaces their rows at that budget,
atomically.

The disambiguation sweep (log2 #worlds along random games, ``disambiguation_task``) is planned
too: its cost is worlds sampled x CPU seconds per world (a sampled world and every player's
information-state key), per game. ``python -m infosets.papers.pimcts_costs disambiguation
--games ... --samples 50 --decisions 40 --seed 11 --out
lib/infosets/papers/pimcts_disambiguation_costs.csv`` measures four random games per game
(about ten CPU-minutes in all; Stratego's worlds are the dearest).
"""

from __future__ import annotations

import argparse
import math
import time
from datetime import datetime
from pathlib import Path

import numpy as np
import pandas as pd
import pyspiel

import infosets.games  # noqa: F401  (registers our games)
from infosets import arena
from infosets.core.files import atomic_write_with
from infosets.experiments.committed import CommittedResults
from infosets.experiments.config import load
from infosets.experiments.store import Store, data_root, run_id
from infosets.papers.pimcts_aggregation import (
    ablation_tasks,
    agent_configs,
    deals_per_cell,
    disambiguation_task,
    disambiguation_tasks,
    make_agent,
    task_deals,
    tournament_tasks,
)
from infosets.papers.pimcts_cells import cell_label
from infosets.papers.pimcts_looks import CEILING_HOURS, LAST_LOOK, latest_look, recorded_looks

COSTS_PATH = Path(__file__).with_name("pimcts_costs.csv")
# The same measurement with TAG's own agents (``--tag-agents``), which the ``tag`` preset plays.
TAG_COSTS_PATH = Path(__file__).with_name("pimcts_tag_costs.csv")
COST_COLUMNS = ("game", "players", "engine", "budget", "agent", "D", "games", "decisions_per_game",
                "seat_cpu_s_per_game", "opponent_cpu_s_per_game", "overhead_cpu_s_per_game",
                "tuned_settings", "measured")


def _cfg(tuned: bool = True, tag_agents: bool = False) -> dict:
    """The agent settings of the notebook's presets that change cost; ``tag_agents``: TAG's own
    agent per paper game (``pimcts_tag_agents.csv``: MultiTree, SelfOnly and the rest change
    the cost of an iteration), as the ``tag`` preset plays them."""
    return {"engine": "auto", "ismcts_engine": "python", "uct_c": 1.0, "tuned_settings": tuned,
            "tag_agents": bool(tuned and tag_agents), "normalize_rewards": True, "final": "mean"}


def measure_cell(game_string: str, agent: str, budget: int, d: int, deals: int, seed: int,
                 tuned: bool = True, tag_agents: bool = False) -> dict:
    """CPU seconds of ``deals`` duplicate deals (each played once per seat rotation) of one
    cell: ``agent`` ("olmcts", "pimcts" with ``d`` trees and TotalVisits, or "ismcts") against
    OL-MCTS in every other seat, at ``budget`` iterations. Process time, single-threaded.
    ``tuned`` False: without the per-game TAG settings (full random rollouts); ``tag_agents``:
    TAG's own agents (``_cfg``)."""

    game = pyspiel.load_game(game_string)
    n = game.num_players()
    cfg = _cfg(tuned, tag_agents)
    focus = {"agent": agent, "budget": budget, "D": d, "aggregation": "TotalVisits"}
    opponent = {"agent": "olmcts", "budget": budget}
    engines = []

    def make_focus(g, p, rng):
        bot = make_agent(g, p, focus, cfg, rng, game_string)
        engines.append(bot)
        return bot

    lineup = [arena.Entrant("focus", make_focus)] + [
        arena.Entrant("olmcts", lambda g, p, rng: make_agent(g, p, opponent, cfg, rng, game_string))
    ] * (n - 1)
    start = time.process_time()
    rows = arena.duplicate_games(game, lineup, range(deals), entropy=seed, label=game_string)
    total = time.process_time() - start
    frame = pd.DataFrame(rows)
    games = deals * n
    seat = frame[frame["entrant"] == "focus"]["seconds"].sum() / games
    opp = frame[frame["entrant"] != "focus"]["seconds"].sum() / games
    used = {str(getattr(b, "engine_used", None) or "python") for b in engines}
    return {"game": game_string, "players": n, "engine": "+".join(sorted(used)), "budget": budget,
            "agent": agent, "D": d, "games": games,
            "decisions_per_game": float(frame.groupby(["deal", "rotation"])["decisions"].first().mean()),
            "seat_cpu_s_per_game": float(seat), "opponent_cpu_s_per_game": float(opp),
            "overhead_cpu_s_per_game": max(0.0, float(total / games - seat - opp)),
            "tuned_settings": bool(tuned), "measured": time.strftime("%Y-%m-%d")}


def measure_game(game_string: str, budget: int, d_small: int, d_large: int, deals: int,
                 seed: int, tuned: bool = True, tag_agents: bool = False) -> list[dict]:
    """The four cells the cost model needs: OL-MCTS, PI-MCTS at a small and a large D, and
    IS-MCTS, after a tiny warm-up deal of each agent (numba compilation is not counted)."""
    for agent, d in (("olmcts", 1), ("pimcts", 2), ("ismcts", 0)):   # warm-up: compile, import
        measure_cell(game_string, agent, 4, d, 1, seed + 1, tuned, tag_agents)
    return [measure_cell(game_string, a, budget, d, deals, seed, tuned, tag_agents)
            for a, d in (("olmcts", 1), ("pimcts", d_small), ("pimcts", d_large), ("ismcts", 0))]


DISAMBIGUATION_COSTS_PATH = Path(__file__).with_name("pimcts_disambiguation_costs.csv")
DISAMBIGUATION_COLUMNS = ("game", "samples", "decisions_measured", "game_decisions",
                          "cpu_s_per_world", "measured")


def measure_disambiguation(game_string: str, samples: int, decisions: int, seed: int,
                           games: int = 4) -> dict:
    """CPU seconds per sampled world of ``disambiguation_task`` over ``games`` random games of
    ``game_string`` (``samples`` worlds at up to ``decisions`` of each game's decisions), after
    an untimed warm-up (imports, numba compilation), and the games' mean number of decisions.
    A world costs more late in a long game (its information-state keys grow with the
    history), so one game is not enough: two random Stratego games measured 7.5 and 47 CPU-ms
    per world."""

    warm_up = np.random.SeedSequence([seed, games])  # a stream apart from the timed games'
    disambiguation_task({"disambiguation_samples": 2, "disambiguation_decisions": 2},
                        {"game": game_string, "trajectory": 0}, warm_up)
    cfg = {"disambiguation_samples": samples, "disambiguation_decisions": decisions}
    seconds, worlds, lengths, measured = 0.0, 0, [], 0
    for g in range(games):
        start = time.process_time()
        rows = disambiguation_task(cfg, {"game": game_string, "trajectory": g},
                                   np.random.SeedSequence([seed, g]))
        seconds += time.process_time() - start
        worlds += samples * len(rows)
        measured += len(rows)
        last = max(rows, key=lambda r: r["decision"]) if rows else None
        lengths.append(round(last["decision"] / last["fraction"]) + 1
                       if last and last["fraction"] > 0 else len(rows))
    return {"game": game_string, "samples": samples, "decisions_measured": measured / games,
            "game_decisions": float(np.mean(lengths)),
            "cpu_s_per_world": seconds / max(1, worlds), "measured": time.strftime("%Y-%m-%d")}


def _read_costs(path: Path, columns) -> pd.DataFrame:
    """A committed cost table (CSV with ``#`` comment lines), checked for ``columns``."""
    table = pd.read_csv(path, comment="#")
    missing = set(columns) - set(table.columns)
    if missing:
        raise ValueError(f"{path.name}: missing columns {sorted(missing)}")
    return table


def load_disambiguation_costs(path: Path = DISAMBIGUATION_COSTS_PATH) -> pd.DataFrame:
    return _read_costs(path, DISAMBIGUATION_COLUMNS)


def plan_disambiguation(cfg, costs: pd.DataFrame) -> pd.DataFrame:
    """CPU-hours of the disambiguation sweep of ``cfg``, per game: trajectories x the decisions
    measured per game (all of them, or ``disambiguation_decisions`` spread over the game) x
    samples x the measured CPU seconds per world (a mean over a few random games, so a row is
    good to about a factor of 2: games differ in length, and so does a world's cost)."""

    by_game = costs.drop_duplicates("game", keep="last").set_index("game")
    games = list(dict.fromkeys(t.params["game"] for t in disambiguation_tasks(cfg)))
    cap = int(cfg["disambiguation_decisions"])
    trajectories = int(cfg["disambiguation_trajectories"])
    rows = []
    for game in games:
        if game not in by_game.index:
            raise ValueError(f"disambiguation costs: no measured row for {game!r}; run "
                             "python -m infosets.papers.pimcts_costs disambiguation")
        row = by_game.loc[game]
        per_game = float(row["game_decisions"])
        decisions = min(cap, per_game) if cap else per_game
        worlds = round(trajectories * decisions * int(cfg["disambiguation_samples"]))
        rows.append({"game": game, "games": trajectories, "worlds": worlds,
                     "cpu_hours": worlds * float(row["cpu_s_per_world"]) / 3600})
    return pd.DataFrame(rows, columns=["game", "games", "worlds", "cpu_hours"])


def load_costs(path: Path = COSTS_PATH) -> pd.DataFrame:
    return _read_costs(path, COST_COLUMNS)


def _fit(sub: pd.DataFrame) -> dict:
    """{"a_ol", "a_is", "a_pi", "b_pi" (CPU-s per seat-game per iteration / per tree),
    "overhead", "players", "engine", "budget"} from one game's rows measured at one budget."""
    b0 = float(sub["budget"].iloc[0])
    ol = sub[sub["agent"] == "olmcts"].iloc[0]
    n = int(sub["players"].iloc[0])
    # every OL-MCTS seat measured: the control's focus and all cells' opponents
    a_ol = ((float(ol["seat_cpu_s_per_game"]) + float(sub["opponent_cpu_s_per_game"].sum()))
            / (1 + (n - 1) * len(sub)) / b0)
    ism = sub[sub["agent"] == "ismcts"]
    a_is = float(ism["seat_cpu_s_per_game"].iloc[0]) / b0 if len(ism) else a_ol
    pi = sub[sub["agent"] == "pimcts"].sort_values("D")
    if len(pi) >= 2:
        (d1, s1), (d2, s2) = [(float(r["D"]), float(r["seat_cpu_s_per_game"]))
                              for _, r in pi.iloc[[0, -1]].iterrows()]
        b_pi = max(0.0, (s2 - s1) / (d2 - d1))
        a_pi = max(0.0, (s1 - b_pi * d1) / b0)
    else:
        a_pi, b_pi = a_ol, 0.0
    return {"a_ol": a_ol, "a_is": a_is, "a_pi": a_pi, "b_pi": b_pi, "players": n,
            "overhead": float(sub["overhead_cpu_s_per_game"].mean()),
            "engine": str(sub["engine"].iloc[0]), "budget": int(b0)}


def cost_model(costs: pd.DataFrame) -> dict[str, dict[int, dict]]:
    """Per game and measured budget B0, the fit of ``_fit`` to its rows at B0. Cost per
    iteration is not constant in B (tree shape, depth limits, one-off costs per decision),
    so a game measured at several budgets is planned from the nearest (``fit_for``)."""
    return {game: {int(b): _fit(rows) for b, rows in sub.groupby("budget", sort=True)}
            for game, sub in costs.groupby("game", sort=False)}


def fit_for(model: dict, game: str, budget: int) -> dict:
    """The fit of ``game`` measured at the budget nearest ``budget`` (by ratio)."""
    fits = model[game]
    return fits[min(fits, key=lambda b0: (abs(math.log(budget / b0)), b0))]


def focus_seconds(model: dict, agent: str, budget: int, d: int) -> float:
    """Predicted CPU seconds of the focus seat's searches in one game of a cell."""
    m = model
    return {"olmcts": m["a_ol"] * budget, "ismcts": m["a_is"] * budget,
            "pimcts": m["a_pi"] * budget + m["b_pi"] * d}[agent]


def game_seconds(model: dict, agent: str, budget: int, d: int) -> float:
    """Predicted CPU seconds of one game of a cell (focus seat + OL-MCTS opponents + loop)."""
    return (focus_seconds(model, agent, budget, d)
            + (model["players"] - 1) * model["a_ol"] * budget + model["overhead"])


def plan(cfg, costs: pd.DataFrame, disambiguation_costs: pd.DataFrame | None = None) -> pd.DataFrame:
    """CPU-hours of every (game, budget) of ``cfg`` from the measured per-game costs: the
    cells of ``agent_configs`` x the games per cell (whole duplicate deals), one row per
    tournament (sweep "tournament"), one per condition of the ablation (sweep "ablation",
    ``plan_ablation``; none in a preset without it), then one per game of the disambiguation
    sweep (sweep "disambiguation", from ``disambiguation_costs``, by default the committed
    file). Every game of the preset must have a measured row (no blank rows); a TOTAL row
    closes the table (its ``games`` counts the tournament and ablation games only; a
    disambiguation row's are random-play games)."""

    model = cost_model(costs)
    rows = []
    for part in ("main", "tabletop", "high"):
        sl = cfg["slices"].get(part)
        if sl is None:
            continue
        pairs = ([tuple(p) for p in sl["pairs"]] if part == "high" else
                 [(g, b) for g in sl["games"] for b in sl["budgets"]])
        for game, budget in pairs:
            if game not in model:
                raise ValueError(f"costs: no measured row for {game!r}; run "
                                 "python -m infosets.papers.pimcts_costs")
            fit = fit_for(model, game, budget)
            players = fit["players"]
            configs = agent_configs(cfg, budget, part)
            played = [players * deals_per_cell(cfg, game, players, part,
                                               cell_label(c["agent"], c["D"], c["aggregation"]))
                      for c in configs]  # games of each cell (per-cell caps may differ)
            seconds = sum(game_seconds(fit, c["agent"], budget, c["D"]) * n
                          for c, n in zip(configs, played))
            rows.append({"sweep": "tournament", "game": game, "budget": budget,
                         "cells": len(configs), "games_per_cell": min(played),
                         "games": sum(played), "engine": fit["engine"],
                         "measured_at": fit["budget"], "cpu_hours": seconds / 3600})
    rows += plan_ablation(cfg, model)
    if disambiguation_costs is None:
        disambiguation_costs = load_disambiguation_costs()
    for r in plan_disambiguation(cfg, disambiguation_costs).itertuples():
        rows.append({"sweep": "disambiguation", "game": r.game, "budget": 0, "cells": 0,
                     "games_per_cell": 0, "games": r.games, "engine": "python",
                     "measured_at": 0, "cpu_hours": r.cpu_hours})
    frame = pd.DataFrame(rows)
    # random-play games are not tournament games; the ablation's are
    tournament = frame["sweep"].isin(["tournament", "ablation"])
    total = {"sweep": "all", "game": "TOTAL", "budget": 0, "cells": int(frame["cells"].sum()),
             "games_per_cell": 0, "games": int(frame.loc[tournament, "games"].sum()), "engine": "",
             "measured_at": 0, "cpu_hours": float(frame["cpu_hours"].sum())}
    return pd.concat([frame, pd.DataFrame([total])], ignore_index=True)


def plan_ablation(cfg, model: dict) -> list[dict]:
    """``plan`` rows of the ablation sweep (``ablation_tasks``; sweep "ablation"), one per
    (game, setting switched off): its three cells (OL-MCTS, the chosen PI-MCTS cell, IS-MCTS)
    x whole duplicate deals x the modelled seconds per game. The model is the game's with
    every setting on (``model``: ``cost_model`` of the table ``plan`` reads): switching a
    setting off changes the cost of an iteration (MultiTree's trees against one tree, MAST
    against random moves), which no table measures yet, so the row is good to the factor
    that change makes."""
    rows, cells = [], {}
    for task in ablation_tasks(cfg):
        p = task.params
        cells.setdefault((p["game"], p["budget"], p["ablate"]), []).append(p)
    for (game, budget, setting), params in cells.items():
        if game not in model:
            raise ValueError(f"costs: no measured row for {game!r}; run "
                             "python -m infosets.papers.pimcts_costs")
        fit = fit_for(model, game, budget)
        players = fit["players"]
        played = [players * len(task_deals(cfg, p, players)) for p in params]  # games of each task
        games = sum(played)
        seconds = sum(game_seconds(fit, p["agent"], budget, p["D"]) * n for p, n in zip(params, played))
        agents = len({(p["agent"], p["D"]) for p in params})
        rows.append({"sweep": "ablation", "game": f"{game} ({setting} off)", "budget": budget,
                     "cells": agents, "games_per_cell": games // agents, "games": games,
                     "engine": fit["engine"], "measured_at": fit["budget"],
                     "cpu_hours": seconds / 3600})
    return rows


def task_plan(cfg, costs: pd.DataFrame) -> pd.DataFrame:
    """Planned CPU seconds of every tournament task of ``cfg`` (one row per task: task_id,
    game, budget, planned_cpu_s, and planned_seat_cpu_s: the focus seat's part of it), by the
    cost model of ``plan``; they add up to its tournament rows."""
    model = cost_model(costs)
    rows = []
    for task in tournament_tasks(cfg):
        p = task.params
        fit = fit_for(model, p["game"], p["budget"])
        players = fit["players"]
        deals = len(task_deals(cfg, p, players))
        games = players * deals
        rows.append({"task_id": task.task_id, "game": p["game"], "budget": p["budget"],
                     "planned_cpu_s": game_seconds(fit, p["agent"], p["budget"], p["D"]) * games,
                     "planned_seat_cpu_s":
                         focus_seconds(fit, p["agent"], p["budget"], p["D"]) * games})
    return pd.DataFrame(rows)


def cell_costs(results: pd.DataFrame) -> pd.DataFrame:
    """Per game and cell (``pimcts_cells.cell_label``): players, the games the cell holds
    (``n``) and the CPU seconds of one more game in it, all seats: the cell's focus seat (its
    rows' ``cpu_seconds``) plus players - 1 OL-MCTS opponents at the control's focus cost (an
    estimate: the rows record the focus seat only)."""
    rows = []
    for game, sub in results.groupby("game", sort=False):
        players = int(sub["players"].iloc[0])
        control = float(sub[sub["agent"] == "olmcts"]["cpu_seconds"].mean())
        for (agent, d, aggregation), cell in sub.groupby(["agent", "D", "aggregation"], sort=True):
            rows.append({"game": game, "cell": cell_label(agent, d, aggregation), "players": players,
                         "n": len(cell),
                         "cpu_s_per_game": float(cell["cpu_seconds"].mean() + (players - 1) * control)})
    return pd.DataFrame(rows, columns=["game", "cell", "players", "n", "cpu_s_per_game"])


def tag_task_plan(cfg, played: pd.DataFrame, tasks=None) -> pd.DataFrame:
    """``task_plan`` for the ``tag`` preset, priced from the rerun's own rows rather than the
    cost table (``pimcts_tag_costs.csv`` measured nine of the thirteen games): each task's
    games x its cell's CPU seconds a game, all seats (``cell_costs`` of
    ``played``, the committed tournament, at the task's budget). Two reconstructions, for
    tasks no played cell matches: a D the grid never played (Fig. 2's D = 200 at B = 10,000)
    takes the same agent's nearest D on a log scale, and a budget never played takes the
    nearest budget's cost scaled by the budget ratio (an iteration's cost taken as flat in B,
    which it is not at small B: module docstring). ``tasks``: the tasks to price
    (``tournament_tasks`` by default; ``ablation_tasks`` too, priced as their cells with
    every setting on). The budget a task is priced at is the nearest one where its agent and
    aggregation and the game's OL-MCTS control have rows: a budget the run has only begun (a
    few tasks of the Fig. 2 slice) prices the cells it holds and leaves the others to the
    nearest full budget. Raises on a game with no played row."""
    costs = {}
    for budget, rows in played.groupby("budget"):
        for r in cell_costs(rows).itertuples():
            costs[(r.game, int(budget), r.cell)] = (r.cpu_s_per_game, r.players)
    focus = played.groupby(["game", "budget", "agent", "D", "aggregation"])["cpu_seconds"].mean()

    def price(p: dict) -> tuple[float, float, int]:
        game, agent, aggregation = p["game"], p["agent"], p["aggregation"]
        if not any(g == game for g, _, _ in costs):
            raise ValueError(f"tag plan: no committed row of {game!r} to price its tasks by")
        played_ds: dict[int, list] = {}
        for (g, b, a, d, x) in focus.index:
            if (g, a, x) == (game, agent, aggregation) and \
                    math.isfinite(costs[(g, int(b), cell_label(a, d, x))][0]):
                played_ds.setdefault(int(b), []).append(d)
        if not played_ds:
            raise ValueError(f"tag plan: no committed row of {agent} ({aggregation}) in {game!r} "
                             f"(with its OL-MCTS control) to price its tasks by")
        budget = min(played_ds, key=lambda b: (abs(math.log(b / p["budget"])), -b))
        ds = played_ds[budget]
        d = min(ds, key=lambda v: (abs(math.log(max(v, 1) / max(p["D"], 1))), v))
        per_game, players = costs[(game, budget, cell_label(agent, d, aggregation))]
        scale = p["budget"] / budget
        return per_game * scale, float(focus[(game, budget, agent, d, aggregation)]) * scale, players

    rows = []
    for task in tournament_tasks(cfg) if tasks is None else tasks:
        p = task.params
        per_game, per_seat, players = price(p)
        games = players * len(task_deals(cfg, p, players))
        rows.append({"task_id": task.task_id, "game": p["game"], "budget": p["budget"],
                     "planned_cpu_s": per_game * games, "planned_seat_cpu_s": per_seat * games})
    return pd.DataFrame(rows)


def run_progress(tasks: pd.DataFrame, done: set[str], spent_cpu_s: float, workers: int,
                 seat_cpu_s: dict[str, float] | None = None) -> tuple[pd.DataFrame, dict]:
    """How far a tournament run has got, against its plan. ``tasks``: ``task_plan``; ``done``:
    the task ids with committed rows; ``spent_cpu_s``: the CPU seconds the run recorded for
    them. Returns one row per (game, budget), in task order (tasks and planned CPU-hours, done
    and in all), and a summary: the plan's CPU-hours done and left, the CPU-hours spent,
    spent / planned on the finished tasks, and the hours left on ``workers`` cores at that
    ratio (None before any task has finished).

    The run records CPU per table, not per task, so that ratio averages over games. Games can
    overrun their plans very differently (a Stratego game lasts 0 to 500 decisions, and the
    plan measured two). With ``seat_cpu_s`` (the focus seat's CPU seconds in each finished
    task's rows) each game also gets its own rate: its focus seats' CPU over the plan's, scaled
    so that the finished tasks add up to ``spent_cpu_s``. The table's ``rate`` column and the
    summary's ``hours_left_by_game`` use it; a game with no finished task keeps the average."""
    tasks = tasks.assign(done=tasks["task_id"].isin(done))
    tasks["planned_done_cpu_s"] = tasks["planned_cpu_s"].where(tasks["done"], 0.0)
    planned_done = float(tasks["planned_done_cpu_s"].sum()) / 3600
    planned_left = float(tasks["planned_cpu_s"].sum()) / 3600 - planned_done
    ratio = spent_cpu_s / 3600 / planned_done if planned_done > 0 else None
    tasks["rate"] = ratio
    if seat_cpu_s is not None and ratio is not None:
        finished = tasks[tasks["done"]]
        spent_seat = finished["task_id"].map(seat_cpu_s).fillna(0.0).groupby(finished["game"]).sum()
        seat_rate = spent_seat / finished.groupby("game")["planned_seat_cpu_s"].sum()
        seat_rate = seat_rate[seat_rate > 0]
        weighted = float((finished["planned_cpu_s"] * finished["game"].map(seat_rate)).sum())
        if weighted > 0:
            per_game = tasks["game"].map(seat_rate * spent_cpu_s / weighted)
            tasks["rate"] = per_game.fillna(ratio)
    tasks["left_cpu_s"] = (tasks["planned_cpu_s"] * tasks["rate"]).where(~tasks["done"], 0.0)
    table = (tasks.groupby(["game", "budget"], sort=False)
             .agg(tasks_done=("done", "sum"), tasks=("done", "size"),
                  planned_done_cpu_h=("planned_done_cpu_s", "sum"),
                  planned_cpu_h=("planned_cpu_s", "sum"), rate=("rate", "first"))
             .reset_index())
    table[["planned_done_cpu_h", "planned_cpu_h"]] /= 3600
    if ratio is None:
        table = table.drop(columns="rate")
    summary = {"tasks_done": int(tasks["done"].sum()), "tasks": len(tasks),
               "planned_done_cpu_h": planned_done, "planned_left_cpu_h": planned_left,
               "spent_cpu_h": spent_cpu_s / 3600, "spent_over_planned": ratio,
               "hours_left": None if ratio is None else planned_left * ratio / workers,
               "hours_left_by_game": (None if ratio is None else
                                      float(tasks["left_cpu_s"].sum()) / 3600 / workers),
               "workers": workers}
    return table, summary


def local_finished(cfg, name: str = "tournament") -> dict[str, tuple[float, float]]:
    """Task id -> (finish time as a Unix time, CPU seconds) of every task computed in this
    machine's local store for ``cfg`` (``data/<slug>/<run id>/<name>/``, whose records keep
    each task's CPU; results/ keeps only a table's total). Rows a ``make rekey`` adopted are
    left out: they were computed elsewhere and earlier, and their CPU is an even share of the
    old table's. Empty on a machine that has not run it."""
    folder = data_root() / cfg.slug / run_id(cfg) / name
    if not folder.is_dir():
        return {}
    store, finished = Store(cfg), {}
    for path in folder.glob("*.pkl"):
        record = store.load_record(name, path.stem)
        if record is not None and record.get("cpu_seconds") is not None and not record.get("adopted"):
            finished[path.stem] = (path.stat().st_mtime, float(record["cpu_seconds"]))
    return finished


def recent_rates(tasks: pd.DataFrame, finished: dict[str, tuple[float, float]],
                 since: float) -> tuple[pd.Series, pd.Series]:
    """Per game, the CPU spent over the planned CPU of the tasks finished at or after
    ``since`` (a Unix time), and how many there were. ``tasks``: ``task_plan``; ``finished``:
    as ``local_finished``. For a run whose speed changed midway (keeping freed memory,
    ``core.allocator``, makes Stratego's tasks 3.1 x cheaper per decision), where a game's
    rate over all its finished tasks no longer predicts the rest."""
    recent = {task: cpu for task, (when, cpu) in finished.items() if when >= since}
    sub = tasks[tasks["task_id"].isin(recent)]
    # float even when nothing finished since: an empty map keeps the ids' string dtype
    spent = sub["task_id"].map(recent).astype(float).groupby(sub["game"]).sum()
    planned = sub.groupby("game")["planned_cpu_s"].sum()
    keep = planned > 0
    return (spent / planned)[keep], sub.groupby("game").size()[keep]


def hours_left_at(tasks: pd.DataFrame, done: set[str], rates: pd.Series,
                  fallback: pd.Series, workers: int) -> float:
    """Hours on ``workers`` cores for the tasks not ``done``, each at its game's rate in
    ``rates``, else in ``fallback``."""
    left = tasks[~tasks["task_id"].isin(done)]
    # float: mapping an empty rest keeps a string-typed game column's dtype
    rate = left["game"].map(rates).fillna(left["game"].map(fallback)).astype(float)
    return float((left["planned_cpu_s"] * rate).sum()) / 3600 / workers


def disambiguation_progress(cfg, done: set[str], spent_cpu_s: float,
                            finished: dict[str, tuple[float, float]] | None = None) -> dict:
    """The disambiguation sweep against its plan (``plan_disambiguation``), for ``progress``:
    it runs after the tournament, so its CPU-hours are part of what a run has left. Each task
    (one random game of one game) plans its game's CPU-hours over its trajectories. Returns
    tasks done and in all, the plan's CPU-hours done and left, the spent / planned ratio on
    the finished tasks (None before any), and ``left_cpu_h_by_game``: the CPU-hours left with
    each game's tasks at that game's own rate, from the per-task CPU in ``finished`` (as
    ``local_finished``; results/ keeps only the table's total), else at the average ratio.
    The sweep's games differ by a factor of 20 in cost, and the cheap ones finish first, so
    the average ratio alone overstates the rest (on the paper run: 1.4 hours projected against
    1.1 left)."""
    plan = plan_disambiguation(cfg, load_disambiguation_costs()).set_index("game")
    per_task_s = 3600 * plan["cpu_hours"] / plan["games"]
    tasks = pd.DataFrame([{"task_id": t.task_id, "game": t.params["game"]}
                          for t in disambiguation_tasks(cfg)])
    tasks["planned_cpu_s"] = tasks["game"].map(per_task_s).astype(float)
    is_done = tasks["task_id"].isin(done)
    planned_done = float(tasks.loc[is_done, "planned_cpu_s"].sum()) / 3600
    ratio = spent_cpu_s / 3600 / planned_done if planned_done > 0 else None
    # each game's rate over its finished tasks whose CPU this machine recorded (as --since)
    rates, _ = recent_rates(tasks[is_done], finished or {}, since=float("-inf"))
    average = pd.Series(ratio or 1.0, index=plan.index)
    return {"tasks_done": int(is_done.sum()), "tasks": len(tasks),
            "planned_done_cpu_h": planned_done,
            "planned_left_cpu_h": float(tasks.loc[~is_done, "planned_cpu_s"].sum()) / 3600,
            "spent_over_planned": ratio,
            "left_cpu_h_by_game": hours_left_at(tasks, set(done), rates, average, workers=1),
            "game_rates": {game: float(rate) for game, rate in rates.items()}}


def main_progress(argv=None) -> None:
    """``python -m infosets.papers.pimcts_costs progress [--preset paper] [--workers 2]``:
    a committed tournament run against its plan, per game and budget (the ``tag`` preset's
    plan priced from its own committed rows, ``tag_task_plan``, then its ablation)."""
    parser = argparse.ArgumentParser(prog="pimcts_costs progress",
                                     description=main_progress.__doc__.splitlines()[0])
    parser.add_argument("--preset", default="paper", choices=("default", "paper", "full", "tag"))
    parser.add_argument("--workers", type=int, default=2,
                        help="cores the rest will run on (default 2)")
    parser.add_argument("--since", metavar="WHEN",
                        help="also project at the rate of the tasks this machine finished since "
                             "WHEN (local time, e.g. 2026-11-27T10:29), from its local store")
    args = parser.parse_args(argv)
    if args.workers < 1:
        parser.error(f"--workers: {args.workers} is not a positive number of cores")
    since = None
    if args.since is not None:
        try:
            since = datetime.fromisoformat(args.since).timestamp()
        except ValueError:
            parser.error(f"--since: {args.since!r} is not a date and time like 2026-11-27T10:29")
    cfg = load("pimcts_aggregation", args.preset)
    results = CommittedResults(cfg)
    if not results.valid():
        recorded = results.recorded_run_id()
        print(f"pimcts_aggregation {args.preset}: no committed tables" if recorded is None else
              f"pimcts_aggregation {args.preset}: the committed tables are run {recorded}, the code "
              f"and preset give run {results.run_id}; `make rekey PAPER=pimcts_aggregation "
              f"PRESET={args.preset}` carries them over once a sample recomputes equal")
        return
    rows = results.load("tournament")
    seat = {task_id: sum(float(r["cpu_seconds"]) for r in task_rows)
            for task_id, task_rows in rows.items()}
    played = pd.DataFrame([r for task_rows in rows.values() for r in task_rows])
    tasks = tag_task_plan(cfg, played) if args.preset == "tag" else task_plan(cfg, load_costs())
    table, summary = run_progress(tasks, set(rows), results.cpu_seconds("tournament"),
                                  args.workers, seat)
    print(table.to_string(index=False, float_format=lambda v: f"{v:.2f}"))
    ratio = summary["spent_over_planned"]
    print(f"\n{summary['tasks_done']}/{summary['tasks']} tasks; planned CPU-hours "
          f"{summary['planned_done_cpu_h']:.2f} done, {summary['planned_left_cpu_h']:.2f} left; "
          f"spent {summary['spent_cpu_h']:.2f}"
          + ("" if ratio is None else
             f" ({ratio:.2f} x the plan on the finished tasks): about "
             f"{summary['hours_left_by_game']:.1f} hours left on {args.workers} cores at each "
             f"game's own rate ({summary['hours_left']:.1f} at the average rate)"))
    if args.preset == "tag":
        return _tag_ablation_progress(cfg, results, played, ratio, summary, args.workers)
    dis = disambiguation_progress(cfg, set(results.load("disambiguation")),
                                  results.cpu_seconds("disambiguation"),
                                  local_finished(cfg, "disambiguation"))
    dis_rate = dis["spent_over_planned"]
    dis_left = dis["left_cpu_h_by_game"] / args.workers
    each = ", ".join(f"{g} {r:.2f}" for g, r in dis["game_rates"].items())
    print(f"then the disambiguation sweep: {dis['tasks_done']}/{dis['tasks']} tasks; planned "
          f"CPU-hours {dis['planned_left_cpu_h']:.2f} left, about {dis_left:.1f} hours on "
          f"{args.workers} cores "
          + ("at the plan (no task measured yet)" if dis_rate is None else
             f"at {dis_rate:.2f} x the plan" if not each else
             f"at each game's own rate on this machine ({each} x the plan; the others at "
             f"{dis_rate:.2f}, the average; {dis['planned_left_cpu_h'] * dis_rate / args.workers:.1f}"
             " hours at the average alone)"))
    if ratio is not None:
        print(f"the whole run: about {summary['hours_left_by_game'] + dis_left:.1f} hours left on "
              f"{args.workers} cores")
    if since is not None and ratio is not None:
        rates, counts = recent_rates(tasks, local_finished(cfg), since)
        if rates.empty:
            print(f"since {args.since}: no task finished on this machine")
            return
        fallback = table.groupby("game", sort=False)["rate"].first()
        each = ", ".join(f"{g} {rates[g]:.2f} x its plan ({counts[g]} tasks)" for g in rates.index)
        left = hours_left_at(tasks, set(rows), rates, fallback, args.workers)
        print(f"since {args.since}, on this machine: {each}; at those rates (the other games at "
              f"their own) about {left:.1f} hours of tournament left on {args.workers} cores, "
              f"{left + dis_left:.1f} with the disambiguation sweep")


def _tag_ablation_progress(cfg, results, played: pd.DataFrame, ratio: float | None,
                           summary: dict, workers: int) -> None:
    """``progress --preset tag``'s last lines: the ablation that follows the tournament (its
    tasks priced as their cells with every setting on, ``tag_task_plan``, at the tournament's
    spent / planned ratio), then the whole run, and what the rerun's ceiling leaves for the
    third look once the committed tables and the tasks still to play are paid for (or leaves
    unspent, once the third look, the last, is adopted)."""
    tasks = tag_task_plan(cfg, played, ablation_tasks(cfg))
    done = tasks["task_id"].isin(set(results.load("ablation")))
    left = float(tasks.loc[~done, "planned_cpu_s"].sum()) / 3600 * (ratio or 1.0)
    print(f"then the ablation: {int(done.sum())}/{len(tasks)} tasks, about {left:.1f} CPU-hours "
          f"left ({left / workers:.1f} hours on {workers} cores; priced with every setting on)")
    if ratio is not None:
        print(f"the whole run: about {summary['hours_left_by_game'] + left / workers:.1f} hours "
              f"left on {workers} cores")
        to_come = summary["hours_left_by_game"] * workers + left
        spent = float(results.provenance().get("cpu_seconds", 0.0)) / 3600
        head = (f"against the rerun's {CEILING_HOURS:g} CPU-hours: {spent:.1f} spent, {to_come:.1f} "
                f"to come, about {CEILING_HOURS - spent - to_come:.1f}")
        if latest_look(recorded_looks()) >= LAST_LOOK:
            print(f"{head} unspent (look {LAST_LOOK}, the design's last, is adopted)")
        else:
            print(f"{head} left for the third look "
                  f"(`python -m infosets.papers.pimcts_stages --committed-hours {to_come:.1f}`)")


def _write_atomic(frame: pd.DataFrame, path: Path, header: str) -> None:
    """Write ``frame`` as CSV under a ``#``-commented ``header``, atomically."""
    def write(tmp):
        with open(tmp, "w") as fh:
            fh.write("".join(f"# {line}\n" for line in header.splitlines()))
            frame.to_csv(fh, index=False, float_format="%.6g")
    atomic_write_with(path, write)


HEADER = ("CPU seconds per game of pimcts_aggregation cells (infosets.papers.pimcts_costs).\n"
          "Measured single-threaded with time.process_time on one core of a shared 2-core machine;\n"
          "engine auto (numba kernels where a port has one), per-game TAG settings, TotalVisits,\n"
          "OL-MCTS opponents, duplicate deals x seat rotations; numba compile not counted.")


TAG_HEADER = HEADER.replace("per-game TAG settings", "TAG's own agent per paper game "
                            "(pimcts_tag_agents.csv, --tag-agents)")

DISAMBIGUATION_HEADER = (
    "CPU seconds per sampled world of the pimcts_aggregation disambiguation sweep\n"
    "(infosets.papers.pimcts_costs disambiguation): a few random games per game, `samples`\n"
    "worlds at up to `decisions` of each game's decisions (decisions_measured, game_decisions:\n"
    "means per game), each world drawn by sampler_for(game) and keyed by\n"
    "every player's information state; time.process_time on one core of a shared 2-core\n"
    "machine, after an untimed warm-up.")


def main_disambiguation(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="pimcts_costs disambiguation",
                                     description="measure the disambiguation sweep's cost per world")
    parser.add_argument("--games", nargs="+", required=True)
    parser.add_argument("--samples", type=int, required=True)
    parser.add_argument("--decisions", type=int, required=True)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--random-games", type=int, default=4)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    if args.samples < 2 or args.decisions < 1 or args.random_games < 1:
        parser.error("--samples must be >= 2, --decisions >= 1 and --random-games >= 1")
    old = (load_disambiguation_costs(args.out) if args.out.exists()
           else pd.DataFrame(columns=DISAMBIGUATION_COLUMNS))
    for game in args.games:
        row = pd.DataFrame([measure_disambiguation(game, args.samples, args.decisions, args.seed,
                                                   args.random_games)])
        print(row.to_string(index=False), flush=True)
        old = pd.concat([old[old["game"] != game], row], ignore_index=True)
        _write_atomic(old[list(DISAMBIGUATION_COLUMNS)], args.out, DISAMBIGUATION_HEADER)


def main(argv=None) -> None:
    import sys

    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["disambiguation"]:
        return main_disambiguation(argv[1:])
    if argv[:1] == ["progress"]:
        return main_progress(argv[1:])
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", required=True)
    parser.add_argument("--budget", type=int, required=True)
    parser.add_argument("--d", type=int, nargs=2, required=True, metavar=("SMALL", "LARGE"))
    parser.add_argument("--deals", type=int, required=True)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--untuned", action="store_true",
                        help="without the per-game TAG settings (full random rollouts)")
    parser.add_argument("--tag-agents", action="store_true",
                        help="TAG's own agents (pimcts_tag_agents.csv), as the tag preset plays them")
    args = parser.parse_args(argv)
    if args.untuned and args.tag_agents:
        parser.error("--tag-agents: TAG's agents are tuned; drop --untuned")
    old = load_costs(args.out) if args.out.exists() else pd.DataFrame(columns=COST_COLUMNS)
    for game in args.games:
        rows = pd.DataFrame(measure_game(game, args.budget, *args.d, args.deals, args.seed,
                                         not args.untuned, args.tag_agents))
        print(rows.to_string(index=False), flush=True)
        keep = (old["game"] != game) | (old["budget"].astype(int) != args.budget)
        old = pd.concat([old[keep], rows], ignore_index=True)
        _write_atomic(old[list(COST_COLUMNS)], args.out, TAG_HEADER if args.tag_agents else HEADER)


if __name__ == "__main__":
    main()
