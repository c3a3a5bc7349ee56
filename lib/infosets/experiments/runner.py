"""The seeded task runner: grid of pure tasks -> cached, resumable, tidy table (all papers).

A ``Task``, its seed and how it runs are defined in ``tasks`` (the part of the machinery a
results key hashes; this module is outside every key). Finished tasks are stored one by one
as they finish; a rerun skips them; a failing task stops the sweep with its key.

Each task runs with BLAS limited to one thread (``tasks.execute_timed``), which also stops a
process pool from oversubscribing the cores. Its CPU time is recorded
beside its rows (never inside them). A published run also reads and writes its committed
tables (``committed.CommittedResults``): finished tasks found there are not recomputed, and
the table of finished tasks is rewritten every ``flush_seconds`` and when the sweep stops.

In a notebook executed by ``run_notebooks`` (headless, ``runlog``) no progress bar is drawn:
a line of progress goes to the run log every ``LOG_EVERY_S`` seconds instead, and what the
tasks print goes there too, so that the executed notebook holds the same outputs whether its
tables were computed or read from a cache.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass

import pandas as pd

from infosets.experiments import runlog
from infosets.experiments.committed import CommittedResults
from infosets.experiments.config import Config
from infosets.experiments.executors import TaskFailed, make_executor
from infosets.experiments.store import Store
from infosets.experiments.tasks import Task, execute_timed, task_seed, tidy_frame

__all__ = ["RunStats", "SweepError", "Task", "run", "task_seed", "tidy_frame"]

LOG_EVERY_S = 60.0  # a headless sweep's progress line in the run log


class SweepError(RuntimeError):
    """A task raised: the message names the task key and the error."""


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
    # The committed total covers every shipped task, some of which this machine's store also
    # holds (computed here, then committed): their CPU is in ``cpu`` already, so it leaves the
    # committed share, and each task counts once.
    counted_here = math.fsum(cpu[i] for i in cpu if ids[i] in shipped)
    shipped_cpu = max(0.0, committed.cpu_seconds(name) - counted_here) if from_committed else 0.0

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

        headless = runlog.headless()
        bar = tqdm(total=len(tasks), initial=len(tasks) - len(todo), desc=f"{cfg.slug}:{name}",
                   disable=not progress or headless, unit="task", dynamic_ncols=True)
        last_flush, unflushed = time.monotonic(), False
        last_log = time.monotonic()
        try:
            for j, (rows, seconds) in _quietly(executor.submit_all(calls), headless):
                i = todo[j]
                store.save_task(name, ids[i], rows, seconds)
                results[i], cpu[i], unflushed = rows, seconds, True
                bar.update(1)
                if headless and time.monotonic() - last_log >= LOG_EVERY_S:
                    runlog.info(f"[{cfg.slug}:{name}] {len(results)}/{len(tasks)} tasks")
                    last_log = time.monotonic()
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


def _quietly(results, headless: bool):
    """Yield from ``results`` with this process's prints going to the run log while a task
    runs here (the serial executor), when headless."""
    iterator = iter(results)
    while True:
        with runlog.captured(headless):
            try:
                item = next(iterator)
            except StopIteration:
                return
        yield item
