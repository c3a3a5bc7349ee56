"""Carry a published run's committed tables over to a new results key, once a recomputed
sample shows that the code change behind the new key leaves its rows unchanged (all papers).

A results key hashes every module a paper imports (``store.import_closure``), so a change
meant to move no number (a figure moved out of a task module, a fix to the run machinery, an
import cycle broken) makes every committed table stale, and a paper run of many CPU-hours
would start again. ``make rekey PAPER=<slug> PRESET=<preset>`` runs the notebook with
``INFOSETS_REKEY=1``. At each sweep whose committed table was written under another key,
``Session.run`` then:

1. keeps a copy of the old committed folder in this machine's store (``snapshot``), since
   publishing the first sweep under the new key removes the old tables;
2. recomputes under the current code a sample of the sweep's tasks that the old table holds
   (``covering_sample``: every value of every task parameter with few values, such as each
   game, agent, budget or D, at least once, and at least ``MIN_CHECKED`` tasks) and compares
   their rows with the old ones (``first_difference``): exactly, except that two floats
   closer than ``FLOAT_REL_TOL`` (relative) agree, since the same code rounds differently on
   another CPU (numpy's SIMD paths sum in another order, and CFR's iterations carry the
   difference on: progressive_hiding rows computed on an AMD EPYC differ from the same code's
   on an Intel Xeon by up to 2.5e-14 relative, old code and new alike); ``REKEYED.json``
   counts such cells and gives the largest relative difference;
3. if every row agrees, adopts all the old table's rows into the store under the new key,
   each task with an even share of the table's recorded CPU seconds, so the sweep finishes
   without recomputing and publishes its table, with its total CPU cost, under the new key;
   ``REKEYED.json`` beside the tables (and in the store, so that a later publish of the
   adopted rows keeps it) records the old key, the commit and the tasks checked;
4. if any row differs, stops with the task and the first differing column, puts the old
   tables back in the committed folder as they were, and adopts nothing more: the change
   moved a number, so the run must recompute (``make figures``).

Columns of measured time or memory (``MEASURED``: "seconds", "cpu_seconds", "peak_bytes", ...)
are not compared, and the adopted rows keep what was measured when they were computed.

The sample proves the change neutral only on the code paths it takes. Use this for changes
meant to move no number, never to keep results across a fix meant to move some.

A fix that moves the rows of a known part of a sweep only (one game's, say) names that part
with ``make rekey REDO=<param>=<value>[,<param>=<value>...]`` (``INFOSETS_REKEY_REDO``): the
tasks with any of those parameter values are neither checked nor adopted, so the run
recomputes them, while the rest are checked and adopted as above (``REKEYED.json`` records the
filter and how many tasks it sent back). Pairs joined by ``&`` name the tasks that have all of
them (``REDO='game=stratego&block=11'``: one block of one game, where ``game=stratego,
block=11`` would send back every Stratego task and block 11 of every game). The CPU the old
table recorded, its redone rows' included, is shared among the adopted rows: what was spent
stays counted. An entry applies to every sweep of the notebook unless it names one
(``REDO='tournament:game=stratego&block=11'``: the tournament sweep's tasks only, for a
notebook whose other sweeps have no ``block``). An entry that names a parameter a sweep it
applies to lacks, or no task of that sweep's old table, and an entry naming a sweep the old
run has not, are refused before that sweep computes anything.
"""

from __future__ import annotations

import json
import math
import os
import re
import shutil
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from infosets.experiments.committed import CommittedResults, git_state, json_bytes
from infosets.experiments.store import Store, write_if_changed
from infosets.experiments.tasks import Task, execute_timed, task_seed

REKEY_ENV = "INFOSETS_REKEY"
REDO_ENV = "INFOSETS_REKEY_REDO"
RECORD = "REKEYED.json"
SNAPSHOT_PREFIX = "rekey-from-"
MAX_LEVELS = 40  # a parameter with more distinct values (a deal index, a seed) is not covered
MIN_CHECKED = 3
# Two floats this close (relative; or both within FLOAT_ABS_TOL of each other near zero) are
# the same number rounded on another CPU, not a change of result: some 10,000 times the
# largest cross-CPU difference measured (2.5e-14), and far below any effect a code change
# meant to move a number could have.
FLOAT_REL_TOL, FLOAT_ABS_TOL = 1e-10, 1e-13
# e.g. seconds, cpu_seconds, seconds_mcmc; peak_bytes (tracemalloc's peak moves with any
# change to what the process allocates, such as one more module imported)
MEASURED = re.compile(r"(^|_)(seconds|bytes)($|_)")


class RekeyError(RuntimeError):
    """A recomputed task's rows differ from the committed ones: the change is not neutral."""


def requested() -> bool:
    """True when the run was started by ``make rekey`` (``INFOSETS_REKEY`` set, not 0)."""
    return os.environ.get(REKEY_ENV, "") not in ("", "0")


def redo_filter() -> list[tuple[str | None, dict[str, str]]]:
    """The entries of ``INFOSETS_REKEY_REDO`` ("game=hearts,tournament:game=stratego&block=11"),
    each the sweep it is for (None: every sweep) and a ``{parameter: value}`` conjunction; a
    task is redone if it has every pair of an entry that applies to its sweep. Empty when
    unset. ValueError (one line, naming REDO) on a malformed entry."""
    wanted = []
    for item in filter(None, (part.strip() for part in os.environ.get(REDO_ENV, "").split(","))):
        sweep, body = None, item
        head, colon, rest = item.partition(":")
        if colon and "=" not in head:
            sweep, body = head.strip(), rest.strip()
            if not sweep:
                raise ValueError(f"REDO: {item!r} has ':' but no sweep before it")
        entry = {}
        for pair in body.split("&"):
            key, sep, value = pair.partition("=")
            if not sep or not key.strip() or not value.strip():
                raise ValueError(f"REDO: {pair.strip()!r} is not <parameter>=<value>")
            if entry.setdefault(key.strip(), value.strip()) != value.strip():
                raise ValueError(f"REDO: {item!r} asks {key.strip()} for two values at once")
        wanted.append((sweep, entry))
    return wanted


def _for_sweep(entries: list[tuple[str | None, dict[str, str]]], name: str,
               sweeps: Sequence[str]) -> list[dict[str, str]]:
    """The entries that apply to sweep ``name``; ValueError if one names a sweep that is not
    among ``sweeps`` (the old run's tables)."""
    for sweep in sorted({sweep for sweep, _ in entries} - {None}):
        if sweep not in sweeps:
            raise ValueError(f"REDO: {sweep!r} is not a sweep of this run; its sweeps: "
                             f"{sorted(sweeps)}")
    return [entry for sweep, entry in entries if sweep in (None, name)]


def _matches(task: Task, entry: dict[str, str]) -> bool:
    return all(str(task.params.get(key)) == value for key, value in entry.items())


def _redone(task: Task, wanted: list[dict[str, str]]) -> bool:
    return any(_matches(task, entry) for entry in wanted)


def _spelled(entry: dict[str, str]) -> str:
    return "&".join(f"{key}={value}" for key, value in entry.items())


def _check_redo(tasks: Sequence[Task], old: dict, wanted: list[dict[str, str]],
                name: str) -> None:
    """ValueError unless every filtered parameter is one of sweep ``name``'s and each entry
    names a task of its old table."""
    known = {key for task in tasks for key in task.params}
    for entry in wanted:
        for key in entry:
            if key not in known:
                raise ValueError(f"REDO: {key!r} is not a parameter of sweep {name!r}; known: "
                                 f"{sorted(known)} (an entry for another sweep names it: "
                                 f"'<sweep>:{_spelled(entry)}')")
        if not any(_matches(t, entry) for t in tasks if t.task_id in old):
            raise ValueError(f"REDO: no task of the committed table has {_spelled(entry)}")


class StaleTables(CommittedResults):
    """A copy of a committed folder written under another key (``snapshot``), read as
    ``CommittedResults`` reads its own tables whatever key they were written under."""

    def __init__(self, cfg, path: Path, old_run_id: str):
        super().__init__(cfg)
        self.path, self.old_run_id = path, old_run_id

    def valid(self) -> bool:
        return True


def snapshot(cfg, committed: CommittedResults, store: Store) -> StaleTables | None:
    """The old tables of this published run, copied once into the store of the new key.

    Returns None when there is nothing to carry over: the committed folder already holds the
    new key and no earlier, interrupted rekey left a copy."""
    kept = sorted(store.path.glob(f"{SNAPSHOT_PREFIX}*"))
    if kept:  # a rekey interrupted after its first sweep was published: resume from the copy
        return StaleTables(cfg, kept[-1], kept[-1].name[len(SNAPSHOT_PREFIX):])
    old = committed.recorded_run_id()
    if old is None or committed.valid():
        return None
    target = store.path / f"{SNAPSHOT_PREFIX}{old}"
    partial = store.path / f".{target.name}.partial"
    shutil.rmtree(partial, ignore_errors=True)
    shutil.copytree(committed.path, partial)
    partial.rename(target)  # a killed copy never passes for a whole one
    return StaleTables(cfg, target, old)


def _pairs(task: Task, levels: dict[str, set]) -> set[tuple[str, str]]:
    pairs = {("fn", f"{task.fn.__module__}.{task.fn.__qualname__}")}
    for key, value in task.params.items():
        if len(levels[key]) <= MAX_LEVELS:
            pairs.add((key, json.dumps(value, sort_keys=True)))
    return pairs


def covering_sample(tasks: Sequence[Task], minimum: int = MIN_CHECKED) -> list[int]:
    """Indices of a few tasks that between them take every value of every parameter with at
    most ``MAX_LEVELS`` values (and every task function), greedily, in task order on ties;
    topped up to ``minimum`` with tasks spread evenly over the grid."""
    levels: dict[str, set] = {}
    for task in tasks:
        for key, value in task.params.items():
            levels.setdefault(key, set()).add(json.dumps(value, sort_keys=True))
    covers = [_pairs(task, levels) for task in tasks]
    todo, chosen = set().union(*covers) if covers else set(), []
    while todo:
        best = max(range(len(tasks)), key=lambda i: (len(covers[i] & todo), -i))
        chosen.append(best)
        todo -= covers[best]
    for i in np.linspace(0, len(tasks) - 1, num=min(minimum, len(tasks))).round().astype(int):
        if len(chosen) >= minimum:
            break
        if int(i) not in chosen:
            chosen.append(int(i))
    return sorted(chosen)


def _canonical(value):
    """A cell as plain Python, so that rows read from parquet compare with fresh ones:
    arrays -> lists, numpy scalars -> Python numbers, NaN and None -> None."""
    if isinstance(value, np.ndarray | list | tuple):
        return [_canonical(v) for v in value]
    if isinstance(value, np.generic):
        value = value.item()
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    return value


def _relative_gap(x, y) -> float | None:
    """|x - y| relative to the larger magnitude, or None if either is not a finite float."""
    if not (isinstance(x, float) and isinstance(y, float) and math.isfinite(x) and math.isfinite(y)):
        return None
    return abs(x - y) / max(abs(x), abs(y))


def _agree(x, y, last_bits: list[float] | None) -> bool:
    if isinstance(x, list) and isinstance(y, list):
        return len(x) == len(y) and all(_agree(a, b, last_bits) for a, b in zip(x, y))
    if x == y:
        return True
    gap = _relative_gap(x, y)
    if gap is not None and math.isclose(x, y, rel_tol=FLOAT_REL_TOL, abs_tol=FLOAT_ABS_TOL):
        if last_bits is not None:
            last_bits.append(gap)
        return True
    return False


def first_difference(old: list[dict], new: list[dict],
                     last_bits: list[float] | None = None) -> str | None:
    """None if the two row lists hold the same values, else a short description of the first
    difference. Values must be equal, except two floats within ``FLOAT_REL_TOL`` (another
    CPU's rounding), whose relative differences are appended to ``last_bits``; a column
    missing from a row counts as empty. Columns of measured time or
    memory (``MEASURED``: a name with the word "seconds" or "bytes") differ from run to run
    and are skipped."""
    if len(old) != len(new):
        return f"{len(new)} rows instead of {len(old)}"
    for k, (a, b) in enumerate(zip(old, new)):
        for column in sorted(c for c in set(a) | set(b) if not MEASURED.search(c)):
            x, y = _canonical(a.get(column)), _canonical(b.get(column))
            if not _agree(x, y, last_bits):
                return f"row {k}, column {column!r}: {y!r} instead of {x!r}"
    return None


def adopt(tasks: Sequence[Task], cfg, name: str, stale: StaleTables, store: Store,
          executor, committed: CommittedResults) -> dict:
    """Check a covering sample of the tasks in ``stale``'s table ``name`` and adopt the
    table into ``store`` (see the module docstring). Returns what ``REKEYED.json`` records
    for the table; raises RekeyError, adopting nothing, if a checked task's rows differ."""
    old = stale.load(name)
    wanted = _for_sweep(redo_filter(), name, list(stale.provenance().get("tables", {})))
    if wanted and old:
        _check_redo(tasks, old, wanted, name)
    published = committed.load(name) if committed.valid() else {}  # an interrupted rekey's
    present = [t for t in tasks if t.task_id in old and t.task_id not in published
               and store.load_record(name, t.task_id) is None]
    redo = [t for t in present if _redone(t, wanted)]
    present = [t for t in present if not _redone(t, wanted)]
    if not present:
        return {"tasks_adopted": 0, "tasks_checked": 0, "checked_cpu_seconds": 0.0}
    sample = [present[i] for i in covering_sample(present)]
    calls = [(execute_timed, (t.fn, cfg.values, t.params, task_seed(cfg.seed, t.key)))
             for t in sample]
    if not hasattr(executor, "submit_all"):
        executor = executor()
    spent, last_bits = 0.0, []
    for j, (rows, seconds) in executor.submit_all(calls):
        spent += seconds
        diff = first_difference(old[sample[j].task_id], rows, last_bits)
        if diff is not None:
            restore(committed, stale)
            raise RekeyError(f"{cfg.slug}:{name}: task {sample[j].key} no longer gives its "
                             f"committed rows ({diff}); the change moves results, so rerun "
                             "`make figures` instead of `make rekey`")
    # the old table's CPU, its redone rows' included (spent all the same), over the rows kept
    dropped = sum(1 for t in tasks if t.task_id in old and _redone(t, wanted))
    share = stale.cpu_seconds(name) / (len(old) - dropped)
    for task in present:
        store.save_task(name, task.task_id, old[task.task_id], share, adopted=True)
    entry = {"tasks_adopted": len(present), "tasks_checked": len(sample),
             "checked_cpu_seconds": round(spent, 3)}
    if last_bits:  # equal but for another CPU's rounding: say how many and how far
        entry["cells_equal_but_for_rounding"] = {"cells": len(last_bits),
                                                 "max_relative_difference": float(f"{max(last_bits):.2g}")}
    if wanted:
        entry["redo"] = [_spelled(e) for e in wanted]
        entry["tasks_recomputed"] = len(redo)
    record(committed, stale, name, entry, store)
    return entry


def restore(committed: CommittedResults, stale: StaleTables) -> None:
    """Put the old tables back in the committed folder, as they were before the rekey began
    (an earlier sweep of the notebook may already have published under the new key)."""
    shutil.rmtree(committed.path, ignore_errors=True)
    shutil.copytree(stale.path, committed.path)


def _current_record(folder: Path, run_id: str) -> dict | None:
    """``folder``'s ``REKEYED.json`` if it records a rekey to ``run_id``; ``None`` if it is
    missing, unreadable or left by an earlier key."""
    try:
        data = json.loads((folder / RECORD).read_text())
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("to_run_id") != run_id:
        return None
    return data


def record(committed: CommittedResults, stale: StaleTables, name: str, entry: dict,
           store: Store) -> None:
    """Add table ``name`` to ``REKEYED.json``, in the committed folder and in the store of the
    new key: the store's adopted rows stay marked as adopted when a later run publishes them
    (``sync_record``)."""
    kept = _current_record(store.path, committed.run_id) or {}
    tables = {**kept.get("tables", {}), name: entry}
    data = {"from_run_id": stale.old_run_id, "to_run_id": committed.run_id,
            "from_commit": stale.provenance().get("commit"), **git_state(), "tables": tables}
    for folder in (store.path, committed.path):
        folder.mkdir(parents=True, exist_ok=True)
        write_if_changed(folder / RECORD, json_bytes(data))


def sync_record(committed: CommittedResults, store: Store) -> None:
    """Once a run publishes, its committed ``REKEYED.json`` is the store's record of rows
    adopted under this key, or none: a record of an earlier key goes."""
    kept = _current_record(store.path, committed.run_id)
    if kept is not None:
        committed.path.mkdir(parents=True, exist_ok=True)
        write_if_changed(committed.path / RECORD, json_bytes(kept))
    elif _current_record(committed.path, committed.run_id) is None:
        (committed.path / RECORD).unlink(missing_ok=True)
