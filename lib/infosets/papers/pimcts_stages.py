"""The stage looks and caps of the ``tag`` rerun of pimcts_aggregation (issue 56).

Ravichandran, Goodman and Lucas, "Evaluation of Perfect-Information Monte Carlo Tree Search in
Imperfect-Information Games" (docs/papers/pimcts_aggregation.md). The rerun's design is fixed
in docs/tag_agents.md section 10: each game's cells grow in stages of whole blocks of duplicate
deals (``FIRST_STAGE`` games a cell, doubling at each stage up to the game's cap); after each
stage every open per-game claim's one-sided z is compared with the O'Brien-Fleming-type boundary
of that look (``infosets.sequential``), and a claim whose z crosses is decided. A claim whose
z falls to minus the boundary or below is decided against (a non-binding futility stop, added at
the third look: it can only make a false "match" rarer), and no look funds it again.

This module reads the committed tournament of the ``tag`` preset and says, per game whose stage
is complete (every cell at the games the preset plans for it, ``planned_games``: its per-game
and per-cell caps) and per claim of that game:

* the look: the claim's z, the boundary at the stage's information fraction n / N (N the games
  per cell the claim needs), and whether it crossed (``decided``) or fell below its negative
  (``against``);
* N: the games per cell for 80% power at the paper's effect (``Claim.n_for_80_power``, from the
  observed SD), times the design's inflation for its looks (``sequential.inflation``), in whole
  blocks;
* the CPU-hours to grow the game's cells to N, from the stage's own measured CPU (``game_costs``),
  and to grow only the cells the claim reads (``claim_cells``, priced by ``cell_costs``): IS-MCTS
  and the best PI-MCTS cell for "IS-MCTS matches or beats the best PI-MCTS", every cell for the
  others. Growing its own cells, that claim keeps the deals its best cell was chosen on (the
  even deals of stage 1, ``pimcts_claims.selection_deals``) and every later deal goes to its
  test: its cap is those games plus the test's half of its ``n_for_80_power``.

It then funds the open claims, cheapest first, within the CPU-hours left of the rerun's
ceiling (``fund``), twice: with a game's cells growing together (what the preset's
``games_per_cell_by_game`` can ask for) and with each claim's own cells growing (per-cell caps,
``funded_caps``), and so says which claims stay short of 80% power and what they would cost.
It runs nothing (``--adopt`` writes the preset's caps and the look's record), and no results
key covers it. For the report, ``why_open`` says of each claim at its last look why it is
decided or still open, pricing a claim never grown with the same plan (``plans``).

The looks themselves (stage sizes, each claim's z rebuilt from its interval, the boundaries)
are ``pimcts_looks``'.

``python -m infosets.papers.pimcts_stages [--ceiling 80] [--out docs/tag_stages.csv] [--preset-entry]
[--adopt]``; ``--adopt`` writes the plan's caps into the ``tag`` preset and records the look
(``pimcts_looks.recorded_looks``), so that ``make rekey`` plays it.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import math
import sys
from pathlib import Path

import numpy as np
import pandas as pd

from infosets.claims import Claim
from infosets.papers.pimcts_costs import cell_costs
from infosets.papers.pimcts_looks import (
    ALPHA,
    CEILING_HOURS,
    IS_VS_BEST,
    LAST_LOOK,
    LOOKS_PATH,
    claim_cells,
    claim_z,
    crossing,
    last_looks,
    latest_look,
    look_sizes,
    per_game_claims,
    recorded_looks,
    taken_sizes,
)
from infosets.sequential import boundaries, inflation

POWER = 0.80
ALL_CELLS = "all cells"  # a claim's cells when a game's cells grow together



def game_costs(results: pd.DataFrame, planned: dict | None = None) -> pd.DataFrame:
    """Per game: players, cells, the games its smallest cell holds (``n``), whether the stage
    is complete, and the CPU seconds of one more game in every cell, all seats (the sum of its
    ``cell_costs``). Complete: every cell at the games ``planned`` gives it ({(game, cell):
    games}, the preset's caps, ``planned_games``), or without it every cell at ``n``."""
    per_cell = cell_costs(results)
    if planned is None:
        per_cell["full"] = per_cell.groupby("game")["n"].transform("max") == per_cell["n"]
    else:
        per_cell["full"] = [n >= planned.get((g, c), n + 1)
                            for g, c, n in zip(per_cell["game"], per_cell["cell"], per_cell["n"])]
    by_game = per_cell.groupby("game", sort=False).agg(
        players=("players", "first"), cells=("cell", "size"), n=("n", "min"),
        complete=("full", "all"), cpu_s_per_game_all_cells=("cpu_s_per_game", "sum"))
    return by_game.reset_index()[["game", "players", "cells", "n", "complete", "cpu_s_per_game_all_cells"]]


def planned_games(cfg) -> dict:
    """{(game, cell): games} the Fig. 1 tournament of ``cfg`` plays (its per-game and per-cell
    caps, in whole deals): the games of its tasks (``tournament_tasks``, ``task_deals``), the
    ``planned`` of ``game_costs``."""
    import pyspiel

    from infosets.papers.pimcts_aggregation import task_deals, tournament_tasks
    from infosets.papers.pimcts_cells import cell_label

    out: dict = {}
    players: dict = {}
    for task in tournament_tasks(cfg, ("main", "tabletop")):
        p = task.params
        if p["game"] not in players:  # one load a game, not one a task
            players[p["game"]] = pyspiel.load_game(p["game"]).num_players()
        n = players[p["game"]]
        key = (p["game"], cell_label(p["agent"], p["D"], p["aggregation"]))
        out[key] = out.get(key, 0) + n * len(task_deals(cfg, p, n))
    return out


def blocks_of(n: float, players: int, block_size: int) -> int:
    """``n`` games a cell rounded up to whole blocks of duplicate deals (``block_size`` games,
    whole deals of ``players`` seat rotations)."""
    per_block = max(1, block_size // players) * players
    return int(math.ceil(n / per_block) * per_block)


def looks(claims: list[Claim], costs: pd.DataFrame, block_size: int, cells: dict | None = None,
          per_cell: pd.DataFrame | None = None, selected: dict | None = None,
          taken: dict | None = None) -> pd.DataFrame:
    """One row per per-game claim of a game whose stage is complete (module docstring), in one
    of two plans.

    Without ``cells`` a game's cells grow together: a claim's cap is its ``n_for_80_power``
    (games per cell; the IS-MCTS claim's counts both halves, as its split half grows with every
    cell). With ``cells`` (claim text -> ``claim_cells``) and ``per_cell`` (``cell_costs``) only
    a claim's own cells grow; for a claim in ``selected`` (claim text -> the games of each cell
    its best PI-MCTS cell was chosen on, frozen from then on) the cap is those games plus the
    test's half of its ``n_for_80_power``, and the look's information fraction counts the test's
    games only. ``taken`` (claim text -> ``pimcts_looks.taken_sizes`` of the cells that plan
    grows) gives the looks already taken; by default stage 1's alone. ``cpu_hours_to_80``:
    growing the claim's cells to the cap in that plan."""
    rows = []
    by_game = costs.set_index("game")
    price, held_by_game = {}, {}
    if per_cell is not None:
        price = {(g, c): x for g, c, x in zip(per_cell["game"], per_cell["cell"], per_cell["cpu_s_per_game"])}
        for g, c, n in zip(per_cell["game"], per_cell["cell"], per_cell["n"]):
            held_by_game.setdefault(g, {})[c] = int(n)
    for claim in claims:
        game = claim.claim.split(",")[0]
        if game not in by_game.index or not by_game.loc[game, "complete"]:
            continue
        g = by_game.loc[game]
        players = int(g["players"])
        own = (cells or {}).get(claim.claim, (ALL_CELLS,))
        held = held_by_game.get(game, {})
        # the games the claim's cells hold: its smallest cell (all cells grow together) or
        # each of its own cells (per-cell caps)
        n_now = int(g["n"]) if own == (ALL_CELLS,) else min(held[c] for c in own)
        chosen_on = 0 if own == (ALL_CELLS,) else int((selected or {}).get(claim.claim, 0))
        z = claim_z(claim)
        before = (taken or {}).get(claim.claim)
        need = claim.n_for_80_power
        cap = n_now
        if need is not None and np.isfinite(need) and need > 0:
            fixed = blocks_of(chosen_on + need / 2 if chosen_on else need, players, block_size)
            if fixed > n_now:
                sizes = look_sizes(n_now, fixed, chosen_on, taken=before)
                grown = (fixed - chosen_on) * inflation(tuple(
                    (x - chosen_on) / (sizes[-1] - chosen_on) for x in sizes))
                cap = blocks_of(chosen_on + grown, players, block_size)
        sizes = look_sizes(n_now, cap, chosen_on, taken=before)
        fractions = [(x - chosen_on) / (sizes[-1] - chosen_on) for x in sizes]
        k = sizes.index(n_now)
        bound = boundaries(fractions, ALPHA)[k]
        cost = (max(cap - n_now, 0) * g["cpu_s_per_game_all_cells"] if own == (ALL_CELLS,)
                else sum(max(cap - held[c], 0) * price[(game, c)] for c in own))
        decided, against = crossing(z, bound) if np.isfinite(z) else (False, False)
        rows.append({"game": game, "claim": claim.claim, "verdict_fixed_sample": claim.verdict,
                     "n_claim": claim.n, "games_per_cell": n_now, "chosen_on": chosen_on,
                     "z": round(z, 2), "look": k + 1, "looks": len(sizes),
                     "fraction": round(fractions[k], 3), "boundary": round(bound, 2),
                     "decided": decided, "against": against, "power_now": claim.power,
                     "games_per_cell_for_80": cap, "cells": own,
                     "cpu_hours_to_80": round(cost / 3600, 2)})
    return pd.DataFrame(rows)


def fund(table: pd.DataFrame, costs: pd.DataFrame, hours_left: float) -> pd.DataFrame:
    """The open claims (neither ``decided`` nor ``against``) with a look funded within
    ``hours_left``, cheapest first.

    ``costs`` prices what grows: ``game_costs`` (a game's cells grow together, as the preset's
    ``games_per_cell_by_game`` caps them) or ``cell_costs`` (only the cells a claim reads grow,
    its ``table`` row's ``cells``, as ``games_per_cell_by_cell`` caps them), with ``table`` the
    ``looks`` of that plan. A claim costs what it adds to the caps of the cells it grows: a claim
    under caps already funded comes free. One row per open claim, in the order considered, with
    ``added_cpu_hours``, ``funded`` and ``cap``, the largest cap of its cells after it."""
    by_cell = "cell" in costs.columns
    units = costs if by_cell else costs.assign(cell=ALL_CELLS,
                                               cpu_s_per_game=costs["cpu_s_per_game_all_cells"])
    price = {(g, c): float(x) for g, c, x in zip(units["game"], units["cell"], units["cpu_s_per_game"])}
    caps = {(g, c): int(n) for g, c, n in zip(units["game"], units["cell"], units["n"])}
    rows, left = [], hours_left
    looked = table[~table["decided"] & ~table["against"] & np.isfinite(table["z"].astype(float))]
    for _, row in looked.sort_values("cpu_hours_to_80").iterrows():
        game, cap = row["game"], int(row["games_per_cell_for_80"])
        grown = [(game, c) for c in (row["cells"] if by_cell else (ALL_CELLS,))]
        added = sum(max(cap - caps[u], 0) * price[u] for u in grown) / 3600
        funded = added <= left
        if funded:
            left -= added
            _grow(caps, grown, cap)
        rows.append({"game": game, "claim": row["claim"], "games_per_cell_for_80": cap,
                     "added_cpu_hours": round(added, 2), "funded": funded,
                     "cap": max(caps[u] for u in grown)})
    return pd.DataFrame(rows)


def _grow(caps: dict, units, cap: int) -> None:
    """Raise the caps of ``units`` ((game, cell) keys of ``caps``) to at least ``cap``: how a
    funded claim grows its cells, in ``fund`` and again in ``funded_caps``."""
    caps.update({u: max(caps[u], cap) for u in units})


def funded_caps(funded: pd.DataFrame, table: pd.DataFrame, costs: pd.DataFrame) -> pd.DataFrame:
    """The caps a ``fund`` plan sets, per game and cell (``costs``: the ``cell_costs`` it
    priced), for the cells it grows beyond the games they hold."""
    held = {(g, c): int(n) for g, c, n in zip(costs["game"], costs["cell"], costs["n"])}
    cells = table.set_index("claim")["cells"]
    caps = dict(held)
    for _, row in funded[funded["funded"]].iterrows():
        _grow(caps, [(row["game"], cell) for cell in cells[row["claim"]]], int(row["games_per_cell_for_80"]))
    return pd.DataFrame([{"game": g, "cell": c, "games_now": held[(g, c)], "cap": n}
                         for (g, c), n in caps.items() if n > held[(g, c)]],
                        columns=["game", "cell", "games_now", "cap"])


def merged_caps(caps: pd.DataFrame, current: dict | None) -> dict:
    """{game: {cell: games}}: the preset's caps now (``current``, its ``games_per_cell_by_cell``)
    raised by ``funded_caps``' ``caps``, games and cells in the order first met. A cell keeps the
    larger of the two, so a look never shrinks what an earlier look planned."""
    by_game = {str(g): {str(c): int(n) for c, n in cells.items()} for g, cells in (current or {}).items()}
    for game, cell, cap in zip(caps["game"], caps["cell"], caps["cap"]):
        cells = by_game.setdefault(str(game), {})
        cells[str(cell)] = max(int(cap), cells.get(str(cell), 0))
    return by_game


def preset_entry(caps: pd.DataFrame, current: dict | None = None) -> str:
    """``merged_caps`` as the ``tag`` preset's line ``games_per_cell_by_cell: {game: {cell:
    games}}`` (flow style), to replace the preset's line when the plan is adopted
    (docs/tag_agents.md, "Stage looks and caps"): the caps it holds (``current``) stay, the funded
    ones grow."""
    by_game = merged_caps(caps, current)
    return f"games_per_cell_by_cell: {json.dumps(by_game) if by_game else 'null'}"


def next_look(record: Path = LOOKS_PATH) -> int:
    """The number of the look to come after those in ``record`` (2 after stage 1); ValueError
    past ``LAST_LOOK``, the design's last, fixed before the rerun."""
    look = latest_look(recorded_looks(record)) + 1
    if look > LAST_LOOK:
        raise ValueError(f"--adopt: look {LAST_LOOK} was the design's last ({record.name}); "
                         "a claim still open is reported inconclusive")
    return look


def adopt(caps: pd.DataFrame, current: dict | None, preset: Path, record: Path = LOOKS_PATH) -> int:
    """Adopt a look's plan: replace ``preset``'s ``games_per_cell_by_cell`` line by
    ``preset_entry`` and append the look to ``record`` (``pimcts_looks.recorded_looks``: the
    look's number, then game, cell and games of each cell whose cap it raises), both written
    atomically. Returns the look's number; a plan that raises no cap changes nothing (0)."""
    from infosets.core.files import atomic_write_text

    merged, before = merged_caps(caps, current), current or {}
    grown = [(g, c, n) for g, cells in merged.items() for c, n in cells.items()
             if n > before.get(g, {}).get(c, 0)]
    if not grown:
        return 0
    lines = preset.read_text().splitlines(keepends=True)
    at = [i for i, line in enumerate(lines) if line.startswith("games_per_cell_by_cell:")]
    if len(at) != 1:
        raise ValueError(f"preset: expected one games_per_cell_by_cell line in {preset}, found {len(at)}")
    lines[at[0]] = preset_entry(caps, current) + "\n"
    look = next_look(record)
    rows = io.StringIO()
    csv.writer(rows, lineterminator="\n").writerows((look, g, c, n) for g, c, n in grown)
    text = record.read_text()
    atomic_write_text(record, text + ("" if text.endswith("\n") else "\n") + rows.getvalue())
    atomic_write_text(preset, "".join(lines))
    return look


def plans(played: pd.DataFrame, cfg, record: pd.DataFrame | None = None) -> dict:
    """The planner's reading of the tournament ``played`` (the committed ``tag`` table) under
    ``cfg``: each game's Fig. 1 budget only (Fig. 2's slice is played at one size), the looks
    taken as ``record`` (``recorded_looks``) gives them. Returns ``costs`` (``game_costs``),
    ``per_cell`` (``cell_costs``), ``together`` and ``own`` (``looks`` with a game's cells
    growing together, and with only each claim's own cells growing)."""
    from infosets.papers import pimcts_analysis, pimcts_claims

    results = played[played["budget"] == played["game"].map(lambda g: pimcts_analysis.main_budget(cfg, g))]
    costs, per_cell = game_costs(results, planned_games(cfg)), cell_costs(results)
    done = results[results["game"].isin(costs[costs["complete"]]["game"])]
    built = pimcts_claims.build(done, pimcts_analysis.win_rates(done),
                                pimcts_analysis.claim_runs(done, cfg))
    # only the claims at the budgets ``done`` holds: a Fig. 2 row built on no games would
    # otherwise be priced with its game's Fig. 1 cells
    per_game = list(per_game_claims(built, done))
    claims = [claim for claim, _, _ in per_game]
    cells, selected, taken_together, taken_own = {}, {}, {}, {}
    for claim, (game, _), table in per_game:
        cells[claim.claim] = claim_cells(claim, table)
        taken_together[claim.claim] = taken_sizes(game, tuple(table.columns), record)
        taken_own[claim.claim] = taken_sizes(game, cells[claim.claim], record)
        if claim.claim.endswith(IS_VS_BEST):
            selected[claim.claim] = len(pimcts_claims.selection_deals(table))
    return {"costs": costs, "per_cell": per_cell,
            "together": looks(claims, costs, int(cfg["block_size"]), taken=taken_together),
            "own": looks(claims, costs, int(cfg["block_size"]), cells, per_cell, selected, taken_own)}


def one_size_prices(claims: list[Claim], results: pd.DataFrame, staged: dict[str, int],
                    block_size: int) -> dict:
    """{claim text: {"games", "need", "hours"}} for each per-game claim at a budget played at one
    size (``staged``: game -> the budget its stages grew; the others, Fig. 2's slice at
    B = 10,000, are one look, sized before its games were played): the games its cells hold (the fewest of
    ``claim_cells``), the games a cell 80% power at the paper's effect needs
    (``Claim.n_for_80_power`` in whole blocks; None where the claim has none) and the CPU-hours
    growing its cells there would add (``cell_costs`` at that budget). ``why_open`` says it."""
    out = {}
    one_size = results["budget"] != results["game"].map(staged)  # no table built for the others
    for claim, (game, budget), table in per_game_claims(claims, results[one_size]):
        cells = claim_cells(claim, table)
        held = {c: int(table[c].notna().sum()) for c in cells}
        entry = {"games": min(held.values()), "need": None, "hours": None}
        need = claim.n_for_80_power
        if need is not None and np.isfinite(need) and need > 0:
            played = results[(results["game"] == game) & (results["budget"] == budget)]
            price = cell_costs(played).set_index("cell")["cpu_s_per_game"]
            cap = blocks_of(need, int(played["players"].iloc[0]), block_size)
            entry["need"] = cap
            entry["hours"] = sum(max(cap - held[c], 0) * float(price[c]) for c in cells) / 3600
        out[claim.claim] = entry
    return out


def _one_size_reason(entry: dict, settled: bool) -> str:
    """``why_open``'s sentence for a claim at a budget played at one size (``one_size_prices``)."""
    text = (f"{'' if settled else 'open, '}one size by design: Fig. 2's slice is one look at "
            f"{entry['games']:,} games a cell, sized before its games were played (docs/tag_agents.md, "
            "\"The second look, as made\")")
    if entry["need"] is None:
        return text + "; the claim has no power at a stated size"
    if settled:
        return text
    return (text + f"; 80% power at the paper's effect would need {entry['need']:,} games a "
            f"cell, {entry['hours']:.1f} CPU-hours more")


def why_open(last: pd.DataFrame, own: pd.DataFrame, claims: list[Claim],
             one_size: dict | None = None) -> pd.Series:
    """Why each claim of ``last`` (``pimcts_looks.last_looks``) is decided or still open at its
    last look, one sentence a row, for the report (issue 56: no claim inconclusive for want of
    power unless the plan says why). The design decides on z, the claims table on each claim's
    own test, so a claim whose z settled it for the planner can still read inconclusive: the
    row says so. An open claim either had no size to plan for (the paper states none: the peak
    rows), or was looked at more than once (its cells grew) and still falls short of its
    boundary, or was never grown: the looks fund the cheapest open claims first within the
    rerun's CPU-hours, and the planner's price of one more look, from ``own`` (``plans``'
    own-cells ``looks``, on the games played now), says what it would cost.
    ``claims``: the claims ``last`` reads (a claim without ``n_for_80_power`` has no size).
    ``one_size`` (``one_size_prices``): the claims at a budget played at one size, which no
    look grows; unless z settles them, their row says so and what power would cost."""
    price = own.set_index("claim") if len(own) else pd.DataFrame()
    sized = {c.claim for c in claims if c.n_for_80_power is not None and np.isfinite(c.n_for_80_power)}
    reasons = []
    for row in last.itertuples():
        plan = price.loc[row.claim] if row.claim in price.index else None
        settled = row.verdict in ("match", "mismatch")
        fixed = (one_size or {}).get(row.claim)
        if (fixed is not None and row.verdict != "not run"
                and not (settled and (row.reaches_it is True or row.against is True))):
            reasons.append(_one_size_reason(fixed, settled))
        elif row.reaches_it is True:
            reasons.append("decided: z reaches its boundary" if settled else
                           "not grown: z reaches its boundary, but the claim's own test (its "
                           "stated size, or Holm over its cells) stays inconclusive")
        elif row.against is True:
            reasons.append("decided against: z at or below minus its boundary" if settled else
                           "not grown: z at or below minus its boundary (the design's futility "
                           "stop); the claim's own test stays inconclusive")
        elif row.z != row.z or row.reaches_it is None:
            reasons.append("no look: no interval, or no game past its selection yet")
        elif row.claim not in sized:
            reasons.append("open: the paper states no size, so no games were planned for power")
        elif len(row.looks.split(", ")) > 1:
            reasons.append(f"open: looked at on {row.looks} games a cell, z short of its boundary")
        elif plan is None:
            reasons.append("open: its game's stage is still being played (no plan yet)")
        else:
            reasons.append(f"open, never grown: one more look would need "
                           f"{int(plan['games_per_cell_for_80']):,} games a cell, "
                           f"{float(plan['cpu_hours_to_80']):.1f} CPU-hours; the looks funded "
                           f"cheaper claims first within the rerun's {CEILING_HOURS:g}")
    return pd.Series(reasons, index=last.index, name="why", dtype=object)


def save_stage_looks(results: pd.DataFrame, rates: pd.DataFrame, session) -> pd.DataFrame | None:
    """The staged design's reading of the claims (``pimcts_looks.last_looks``: each per-game
    claim's z against the boundary of its last look, the looks after stage 1 as
    ``pimcts_tag_looks.csv`` records them) and why it is decided or still open
    (``why_open``: for a claim never grown, what one more look would cost; for a Fig. 2 row,
    played at one size, what 80% power would cost, ``one_size_prices``), saved as
    ``claims_stage_looks``, for a preset whose cells grow in stages (per-cell caps,
    ``games_per_cell_by_cell``: the ``tag`` rerun); None for a preset that plays one size."""
    from infosets.papers import pimcts_analysis, pimcts_claims

    if not session.cfg.get("games_per_cell_by_cell"):
        return None
    records = pimcts_claims.build(results, rates, pimcts_analysis.claim_runs(results, session.cfg))
    staged = {g: pimcts_analysis.main_budget(session.cfg, g) for g in dict.fromkeys(results["game"])}
    record = recorded_looks()
    frame = last_looks(records, results, staged, record)
    frame["why"] = why_open(
        frame, plans(results, session.cfg, record)["own"], records,
        one_size_prices(records, results, staged, int(session.cfg["block_size"])))
    session.save_table(frame, "claims_stage_looks",
                       paper_ref="ours: the staged design's last looks (docs/tag_agents.md)")
    return frame


def main(argv=None) -> int:
    from infosets.experiments import config
    from infosets.experiments.committed import results_root

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ceiling", type=float, default=CEILING_HOURS, help="CPU-hours of the whole rerun")
    parser.add_argument("--committed-hours", type=float, default=0.0,
                        help="CPU-hours planned but not yet spent (stage 1 still running, the ablation)")
    parser.add_argument("--out", type=Path, default=None, help="write the looks as CSV here")
    parser.add_argument("--preset-entry", action="store_true",
                        help="print the per-cell plan's caps as the preset's games_per_cell_by_cell line")
    parser.add_argument("--adopt", action="store_true",
                        help="write that line into the tag preset; record the look (pimcts_tag_looks.csv)")
    args = parser.parse_args(argv)
    if args.adopt:  # before any compute: a look past the last is refused in one line
        try:
            next_look(LOOKS_PATH)
        except ValueError as error:
            parser.error(str(error))
    cfg = config.load("pimcts_aggregation", "tag")
    folder = results_root() / "pimcts_aggregation" / "tag"
    plan = plans(pd.read_parquet(folder / "tournament.parquet"), cfg, recorded_looks())
    costs, per_cell, together, own = plan["costs"], plan["per_cell"], plan["together"], plan["own"]
    provenance = pd.read_json(folder / "PROVENANCE.json", typ="series")
    spent = float(provenance["cpu_seconds"]) / 3600
    left = args.ceiling - spent - args.committed_hours
    pd.set_option("display.width", 250)
    print(costs.to_string(index=False))
    print(own.drop(columns=["verdict_fixed_sample", "cells"]).to_string(index=False))
    print(f"\nspent {spent:.1f} CPU-h, planned {args.committed_hours:.1f}, "
          f"left {left:.1f} of {args.ceiling:g}")
    print("\nThe plan with a game's cells growing together (games_per_cell_by_game):")
    print(fund(together, costs, left).to_string(index=False))
    by_cell = fund(own, per_cell, left)
    print("\nThe plan with only each claim's own cells growing (games_per_cell_by_cell):")
    print(by_cell.to_string(index=False))
    caps = funded_caps(by_cell, own, per_cell)
    print(caps.to_string(index=False))
    current = cfg.get("games_per_cell_by_cell")
    if args.preset_entry:
        print("\n" + preset_entry(caps, current))
    if args.adopt:
        preset = config.params_dir() / "pimcts_aggregation.tag.yaml"
        look = adopt(caps, current, preset)
        print(f"\nlook {look} adopted: {preset} and {LOOKS_PATH} written; `make rekey "
              "PAPER=pimcts_aggregation PRESET=tag` plays it" if look else "\nno cap grows: nothing adopted")
    if args.out is not None:
        own.assign(cells=own["cells"].map("|".join)).to_csv(args.out, index=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
