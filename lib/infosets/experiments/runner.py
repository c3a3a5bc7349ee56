"""The seeded task runner: grid of pure tasks -> cached, resumable, tidy table (all papers).

A ``Task`` is a module-level function and its parameters (JSON primitives, the task key).
Its seed is ``SeedSequence(entropy=notebook seed, spawn_key=hash(key))``, so a task's result
depends on nothing but the config, its own key and the code. Finished tasks are stored one
by one as they finish; a rerun skips them; a failing task stops the sweep with its key.

Each task runs with BLAS limited to one thread (threadpoolctl): OpenBLAS changes its reduction
order with its thread count, so this keeps the last digits of a result independent of the
machine and stops a process pool from oversubscribing the cores. Its CPU time is recorded
beside its rows (never inside them). A published run also reads and writes its committed
tables (``committed.CommittedResults``): finished tasks found there are not recomputed, and
the table of finished tasks is rewritten every ``flush_seconds`` and when the sweep stops.
"""

from __future__ import annotations

import hashlib
import json
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from infosets.experiments.committed import CommittedResults
from infosets.experiments.config import Config
from infosets.experiments.executors import TaskFailed, make_executor
from infosets.experiments.store import Store


class SweepError(RuntimeError):
    """A task raised: the message names the task key and the error."""


@dataclass(frozen=True)
class Task:
    """``fn(cfg_values, params, seed) -> rows``; ``params`` is the task's key."""

    fn: Callable
    params: dict = field(default_factory=dict)

    @property
    def key(self) -> str:
        name = f"{self.fn.__module__}.{self.fn.__qualname__}"
        try:
            return json.dumps({"fn": name, "params": self.params}, sort_keys=True)
        except TypeError as exc:
            raise ValueError(f"task params: must be JSON primitives ({exc}): {self.params!r}") \
                from None

    @property
    def task_id(self) -> str:
        return hashlib.sha256(self.key.encode()).hexdigest()[:24]


def task_seed(root_seed: int, key: str) -> np.random.SeedSequence:
    """The task's SeedSequence: a function of the notebook seed and the task key only."""
    words = np.frombuffer(hashlib.sha256(key.encode()).digest()[:16], dtype="<u4")
    return np.random.SeedSequence(entropy=root_seed, spawn_key=tuple(int(w) for w in words))


def execute(fn: Callable, values: dict, params: dict, seed: np.random.SeedSequence) -> list[dict]:
    """Run one task and normalise its output to tidy rows that carry the task params."""
    out = fn(values, dict(params), seed)
    if isinstance(out, pd.DataFrame):
        rows = out.to_dict("records")
    elif isinstance(out, dict):
        rows = [out]
    elif isinstance(out, (list, tuple)):
        rows = list(out)
    else:
        raise TypeError(f"task {fn.__qualname__} returned {type(out).__name__}; "
                        "expected rows (list of dicts), a dict or a DataFrame")
    return [{**params, **row} for row in rows]


def execute_timed(fn: Callable, values: dict, params: dict,
                  seed: np.random.SeedSequence) -> tuple[list[dict], float]:
    """``execute`` with BLAS on one thread; returns (rows, CPU seconds of this process)."""
    from threadpoolctl import threadpool_limits

    start = time.process_time()
    with threadpool_limits(limits=1, user_api="blas"):
        rows = execute(fn, values, params, seed)
    return rows, time.process_time() - start


@dataclass
class RunStats:
    total: int = 0
    cached: int = 0
    computed: int = 0
    seconds: float = 0.0
    from_committed: int = 0
    cpu_seconds: float = 0.0  # CPU time behind every row of the table, cached ones included


def run(tasks: Sequence[Task], cfg: Config, *, name: str = "results", store: Store | None = None,
        executor=None, workers: int | None = None, scheduler: str | None = None,
        progress: bool = True, stats: RunStats | None = None,
        committed: CommittedResults | None = None, flush_seconds: float = 60.0) -> pd.DataFrame:
    """Run (or resume) a sweep and return its tidy table in task order.

    Args:
        tasks: the grid; keys must be unique.
        cfg: the validated config (its seed is the root of every task's seed).
        name: the table's name inside the run folder.
        store: defaults to ``Store(cfg)`` (``data/<slug>/<run_id>``).
        executor: an executor from ``make_executor`` or a function returning one (called only
            if a task must run); else one is made from workers/scheduler and closed afterwards.
        committed: the published run's ``results/<slug>/<preset>/`` (None for other runs):
            read as a cache source, and kept up to date with the finished tasks.
        flush_seconds: how often the committed table is rewritten during a sweep.
    Returns:
        The concatenated rows of every task, in the order of ``tasks``.
    """
    if not name.isidentifier():
        raise ValueError(f"name: {name!r} must be an identifier")
    store = store or Store(cfg)
    ids = [t.task_id for t in tasks]
    if len(set(ids)) != len(ids):
        dup = next(t.key for t, i in zip(tasks, ids) if ids.count(i) > 1)
        raise ValueError(f"tasks: duplicate task key {dup}")
    start = time.perf_counter()
    results: dict[int, list[dict]] = {}
    cpu: dict[int, float] = {}
    shipped = committed.load(name) if committed is not None else {}
    from_committed = 0
    for i, task_id in enumerate(ids):
        record = store.load_record(name, task_id)
        if record is not None:
            results[i], cpu[i] = record["rows"], record["cpu_seconds"] or 0.0
        elif task_id in shipped:
            results[i] = shipped[task_id]
            from_committed += 1
    shipped_cpu = committed.cpu_seconds(name) if from_committed else 0.0

    def cpu_total() -> float:
        return math.fsum([shipped_cpu, *cpu.values()])

    def publish() -> None:
        done = [(ids[i], results[i]) for i in range(len(tasks)) if i in results]
        committed.save(name, done, len(tasks), cpu_total())

    todo = [i for i in range(len(tasks)) if i not in results]
    if committed is not None and not todo and set(shipped) != set(ids):
        publish()  # finished from the local cache: the committed table catches up
    if todo:
        own = executor is None
        if own:
            executor = make_executor(workers, scheduler)
        elif not hasattr(executor, "submit_all"):
            executor = executor()  # a factory (Session.executor): made only when needed
        calls = [(execute_timed, (tasks[i].fn, cfg.values, tasks[i].params,
                                  task_seed(cfg.seed, tasks[i].key))) for i in todo]
        from tqdm.auto import tqdm

        bar = tqdm(total=len(tasks), initial=len(tasks) - len(todo), desc=f"{cfg.slug}:{name}",
                   disable=not progress, unit="task", dynamic_ncols=True)
        last_flush, unflushed = time.monotonic(), False
        try:
            for j, (rows, seconds) in executor.submit_all(calls):
                i = todo[j]
                store.save_task(name, ids[i], rows, seconds)
                results[i], cpu[i], unflushed = rows, seconds, True
                bar.update(1)
                if committed is not None and time.monotonic() - last_flush >= flush_seconds:
                    publish()
                    last_flush, unflushed = time.monotonic(), False
        except TaskFailed as failure:
            key = tasks[todo[failure.index]].key
            raise SweepError(f"task {key} failed: {failure}") from failure.error
        finally:
            bar.close()
            if own:
                executor.close()
            if committed is not None and unflushed:
                publish()  # also when stopped: another machine resumes from here
    if stats is not None:
        stats.total, stats.computed = len(tasks), len(todo)
        stats.cached, stats.seconds = len(tasks) - len(todo), time.perf_counter() - start
        stats.from_committed, stats.cpu_seconds = from_committed, cpu_total()
    frame = tidy_frame([row for i in range(len(tasks)) for row in results[i]])
    store.save_table(name, frame)
    return frame


def tidy_frame(rows: list[dict]) -> pd.DataFrame:
    """The table of ``rows``; a missing value is NaN in every column (never None), so that
    rows read back from a committed parquet table give the same frame as fresh ones."""
    frame = pd.DataFrame(rows)
    for column in [c for c in frame.columns if pd.api.types.is_object_dtype(frame[c])]:
        missing = frame[column].isna()
        if missing.any():
            frame[column] = frame[column].astype(object).where(~missing, np.nan)
    return frame
