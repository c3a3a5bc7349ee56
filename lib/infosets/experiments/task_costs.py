"""What a preset costs before it runs: CPU seconds per task kind, CPU-hours per sweep (all papers).

A paper's sweeps are the task grids its notebook runs (``SWEEPS``: the table name and the
builder in ``infosets.papers.<slug>``). Tasks of one sweep differ in cost only through some of
their parameters (``COST_KEYS``: the game, the opponent, the budget...); the others are
replicate indices (``chunk``, ``first_deal``, ``first_rep``, ``block``), seats or a mixing
weight, which change which games are played, not how long they take. ``measure`` runs the
first ``per_kind`` tasks of each cost kind in this process, exactly as the runner does
(``runner.execute_timed``: the task's own seed, BLAS on one thread) and times them with
``time.process_time``: CPU seconds, which the rest of the machine's load does not change.
``estimate`` multiplies each kind's mean by the number of tasks of that kind. The sizing of the
paper presets in ``docs/paper_scale.md`` comes from these tables.

Command line (one CSV row per measured kind, written as each kind finishes)::

    python -m infosets.experiments.task_costs --paper belote_ismcts --preset paper \\
        [--sweep heatmap] [--per-kind 1] [-y '{deals: 100}'] [--out costs.csv]
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import sys
from pathlib import Path

import pandas as pd

from infosets.experiments.config import PRESETS, ConfigError, load, parse_overrides
from infosets.experiments.store import atomic_write_text
from infosets.experiments.tasks import Task, execute_timed, task_seed

# slug -> {table name (as the notebook runs it): task builder in infosets.papers.<slug>}
SWEEPS = {
    "belief_mixtures": {"policies": "policy_tasks", "utilities": "utility_tasks",
                        "winrates": "winrate_tasks", "ismcts_repeats": "repeat_tasks"},
    "belote_ismcts": {"vs_opponents": "opponent_tasks", "heatmap": "heatmap_tasks",
                      "inference": "inference_tasks"},
    "progressive_hiding": {"trade_comm": "trade_tasks", "cmp": "cmp_tasks",
                           "cmp_sweep": "cmp_sweep_tasks", "tiny_bridge": "bridge_tasks"},
    "history_filtering": {"value_error": "value_error_tasks", "sparse_dense": "sparse_dense_tasks",
                          "fsat": "sat_tasks", "ismcts": "ismcts_tasks"},
    "quickstart": {"results": "tasks"},
}

# (slug, table) -> the task parameters that change a task's cost (the rest are replicates).
COST_KEYS = {
    ("belief_mixtures", "policies"): ("game", "algo"),
    ("belief_mixtures", "utilities"): ("game", "algo", "mode"),
    ("belief_mixtures", "winrates"): ("game", "algo"),
    ("belief_mixtures", "ismcts_repeats"): ("game",),
    ("belote_ismcts", "vs_opponents"): ("opponent", "n_deals"),
    ("belote_ismcts", "heatmap"): ("iterations",),
    ("belote_ismcts", "inference"): ("n_deals",),
    ("progressive_hiding", "trade_comm"): ("game", "map"),
    ("progressive_hiding", "cmp"): ("method",),
    ("progressive_hiding", "cmp_sweep"): ("method",),
    ("progressive_hiding", "tiny_bridge"): ("method",),
    ("history_filtering", "value_error"): ("state",),
    ("history_filtering", "sparse_dense"): ("deck",),
    ("history_filtering", "fsat"): ("m",),
    ("history_filtering", "ismcts"): (),
    ("quickstart", "results"): ("game", "solver", "iterations"),
}

COLUMNS = ["slug", "preset", "overrides", "sweep", "kind", "tasks_of_kind", "measured",
           "cpu_seconds_mean", "cpu_seconds_min", "cpu_seconds_max", "cpu_hours_of_kind"]


def sweep_tasks(cfg, sweep: str) -> list[Task]:
    """The task grid of ``sweep`` for the validated config ``cfg``."""
    try:
        builder = SWEEPS[cfg.slug][sweep]
    except KeyError:
        known = sorted(SWEEPS.get(cfg.slug, {}))
        raise ConfigError(f"sweep: {cfg.slug} has no sweep {sweep!r}; known: {known}") from None
    return getattr(importlib.import_module(f"infosets.papers.{cfg.slug}"), builder)(cfg)


def kind_of(slug: str, sweep: str, task: Task) -> str:
    """The task's cost kind: its cost parameters as sorted JSON."""
    keys = COST_KEYS[(slug, sweep)]
    return json.dumps({k: task.params[k] for k in keys if k in task.params}, sort_keys=True)


def kinds(slug: str, sweep: str, tasks: list[Task]) -> dict[str, list[Task]]:
    """Tasks grouped by cost kind, in grid order."""
    groups: dict[str, list[Task]] = {}
    for task in tasks:
        groups.setdefault(kind_of(slug, sweep, task), []).append(task)
    return groups


def measure(slug: str, preset: str, *, sweeps: list[str] | None = None, per_kind: int = 1,
            overrides: dict | None = None, seed: int = 0, out: Path | None = None,
            only_kinds: list[str] | None = None, warmup: bool = True,
            log=print) -> pd.DataFrame:
    """Run ``per_kind`` tasks of each cost kind and return one row per kind (see COLUMNS).

    ``out`` (a CSV) is rewritten after each kind, so an interrupted measurement keeps what it
    measured. ``only_kinds`` keeps the kinds whose JSON contains one of these strings.
    ``warmup`` runs each sweep's first task once, untimed, first: numba compiles (or loads from
    its cache) the engine on first use, a one-off cost that is not the task's.
    """
    if not isinstance(per_kind, int) or per_kind < 1:
        raise ConfigError(f"per_kind: expected an int >= 1, got {per_kind!r}")
    cfg = load(slug, preset, seed=seed, overrides=overrides)
    names = sweeps or list(SWEEPS.get(slug, {}))
    if not names:
        raise ConfigError(f"paper: no sweeps known for {slug!r}; known: {sorted(SWEEPS)}")
    rows: list[dict] = []
    for sweep in names:
        groups = {kind: group for kind, group in kinds(slug, sweep, sweep_tasks(cfg, sweep)).items()
                  if not only_kinds or any(s in kind for s in only_kinds)}
        if warmup and groups:
            first = next(iter(groups.values()))[0]
            execute_timed(first.fn, cfg.values, first.params, task_seed(cfg.seed, first.key))
        for kind, group in groups.items():
            seconds = []
            for task in group[:per_kind]:
                _, cpu = execute_timed(task.fn, cfg.values, task.params,
                                       task_seed(cfg.seed, task.key))
                seconds.append(cpu)
            mean = math.fsum(seconds) / len(seconds)
            rows.append({"slug": slug, "preset": preset,
                         "overrides": json.dumps(overrides or {}, sort_keys=True),
                         "sweep": sweep, "kind": kind, "tasks_of_kind": len(group),
                         "measured": len(seconds), "cpu_seconds_mean": round(mean, 3),
                         "cpu_seconds_min": round(min(seconds), 3),
                         "cpu_seconds_max": round(max(seconds), 3),
                         "cpu_hours_of_kind": round(mean * len(group) / 3600, 4)})
            log(f"{slug}:{sweep} {kind}: {len(group)} tasks x {mean:.2f} CPU-s "
                f"= {mean * len(group) / 3600:.3f} CPU-h")
            if out is not None:
                atomic_write_text(Path(out), pd.DataFrame(rows, columns=COLUMNS).to_csv(index=False))
    return pd.DataFrame(rows, columns=COLUMNS)


def estimate(costs: pd.DataFrame) -> pd.DataFrame:
    """CPU-hours per sweep (the sum over its kinds) of a ``measure`` table, plus a total row."""
    per_sweep = (costs.groupby(["slug", "preset", "sweep"], sort=False)
                 .agg(tasks=("tasks_of_kind", "sum"), cpu_hours=("cpu_hours_of_kind", "sum"))
                 .reset_index())
    total = per_sweep.groupby(["slug", "preset"], sort=False).agg(
        tasks=("tasks", "sum"), cpu_hours=("cpu_hours", "sum")).reset_index()
    total["sweep"] = "(total)"
    return pd.concat([per_sweep, total[per_sweep.columns]], ignore_index=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--paper", required=True, choices=sorted(SWEEPS))
    parser.add_argument("--preset", default="paper", choices=PRESETS)
    parser.add_argument("--sweep", action="append", default=None, help="repeatable")
    parser.add_argument("--kind", action="append", default=None,
                        help="measure only kinds whose JSON contains this text (repeatable)")
    parser.add_argument("--per-kind", type=int, default=1)
    parser.add_argument("-y", "--overrides", default=None, metavar="YAML")
    parser.add_argument("--out", default=None, help="CSV written after each kind")
    parser.add_argument("--no-warmup", action="store_true",
                        help="do not run each sweep's first task untimed before measuring")
    args = parser.parse_args(argv)
    try:
        overrides = parse_overrides(args.overrides) if args.overrides else None
        costs = measure(args.paper, args.preset, sweeps=args.sweep, per_kind=args.per_kind,
                        overrides=overrides, out=Path(args.out) if args.out else None,
                        only_kinds=args.kind, warmup=not args.no_warmup)
    except ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if len(costs):
        print(estimate(costs).to_string(index=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
