"""Runner benchmark: a CPU-bound real sweep under 1 and 2 Dask workers and the local pool.

Workload: OpenSpiel C++ CFR+ on Leduc poker at several iteration counts (the quickstart
paper's task). Goals (issue 2): 2 workers >= 1.7x faster than 1 worker; runner overhead per
task < 5 ms (measured with trivial tasks through the local pool, cache writes included).
"""

from __future__ import annotations

import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))

from _harness import report, row  # noqa: E402
from infosets.experiments import config, runner  # noqa: E402
from infosets.experiments.executors import make_executor  # noqa: E402
from infosets.experiments.runner import Task  # noqa: E402
from infosets.papers import quickstart  # noqa: E402

SWEEP = {"games": ["leduc_poker"], "solvers": ["cfr_plus"],
         "iterations": list(range(100, 124)), "eval_games": 0}


def _noop(cfg, params, seed):
    return {"x": params["i"]}


def _warm(_):
    """Start every worker and import the workload's modules before timing."""
    import infosets.papers.quickstart  # noqa: F401

    return 0


def timed_sweep(executor_kwargs, seed, tasks_fn=quickstart.tasks, overrides=SWEEP) -> float:
    cfg = config.load("quickstart", "smoke", seed=seed, overrides=overrides)
    executor = make_executor(**executor_kwargs)
    try:
        for _ in executor.submit_all([(_warm, (i,)) for i in range(4 * executor.workers)]):
            pass
        with tempfile.TemporaryDirectory() as tmp:
            os.environ["INFOSETS_DATA_DIR"] = tmp
            t0 = time.perf_counter()
            runner.run(tasks_fn(cfg), cfg, executor=executor, progress=False)
            return time.perf_counter() - t0
    finally:
        executor.close()


def main() -> None:
    dask1 = timed_sweep({"workers": 1, "scheduler": "local-dask"}, seed=1)
    dask2 = timed_sweep({"workers": 2, "scheduler": "local-dask"}, seed=2)
    pool1 = timed_sweep({"workers": 1}, seed=3)
    pool2 = timed_sweep({"workers": 2}, seed=4)
    n = 400
    trivial = lambda cfg: [Task(_noop, {"i": i}) for i in range(n)]  # noqa: E731
    overhead = timed_sweep({"workers": 2}, seed=5, tasks_fn=trivial) / n
    report("runner", [
        row("dask speedup, 2 vs 1 workers (Leduc CFR+ sweep, 24 tasks)", dask1 / dask2, 1.0,
            "x", goal=">= 1.7x", sweep_seconds_1=dask1, sweep_seconds_2=dask2),
        row("local pool speedup, 2 vs 1 workers", pool1 / pool2, 1.0, "x",
            sweep_seconds_1=pool1, sweep_seconds_2=pool2),
        row("runner overhead per trivial task (pool, 2 workers, cache writes included)",
            overhead * 1e3, 5.0, "ms", goal="< 5 ms", higher_is_better=False),
    ])


if __name__ == "__main__":
    main()
