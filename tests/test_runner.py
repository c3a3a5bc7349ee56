"""Runner: identical tables under every executor, resume after kill -9, corrupt files, errors."""

import os
import signal
import subprocess
import sys
import textwrap
import time

import pandas as pd
import pytest

from infosets.experiments import config, runner
from infosets.experiments.executors import make_executor
from infosets.experiments.runner import RunStats, SweepError, Task
from infosets.experiments.store import Store
from infosets.papers import quickstart

pytestmark = pytest.mark.xdist_group("runner")  # keep the multi-process tests on one worker

SWEEP = {"games": ["kuhn_poker", "leduc_poker"], "solvers": ["cfr_plus"],
         "iterations": [1, 4, 8], "eval_games": 40}


def _sweep(executor_kwargs, seed=7):
    cfg = config.load("quickstart", "smoke", seed=seed, overrides=SWEEP)
    executor = make_executor(**executor_kwargs)
    try:
        return runner.run(quickstart.tasks(cfg), cfg, executor=executor, progress=False)
    finally:
        executor.close()


def test_identical_tables_under_serial_pool_and_dask(tmp_path, monkeypatch):
    tables = []
    for i, kwargs in enumerate([{"workers": 1}, {"workers": 2},
                                {"workers": 2, "scheduler": "local-dask"}]):
        monkeypatch.setenv("INFOSETS_DATA_DIR", str(tmp_path / f"data{i}"))
        tables.append(_sweep(kwargs))
    assert len(tables[0]) == 6
    assert tables[0]["sampled_value_p0"].nunique() > 1  # seeds really differ across tasks
    for other in tables[1:]:
        pd.testing.assert_frame_equal(tables[0], other)


def test_seed_changes_sampled_values_only(tmp_path):
    a, b = _sweep({"workers": 1}, seed=1), _sweep({"workers": 1}, seed=2)
    pd.testing.assert_series_equal(a["exploitability"], b["exploitability"])
    assert not a["sampled_value_p0"].equals(b["sampled_value_p0"])


def test_task_seed_depends_on_key_only():
    s1 = runner.task_seed(3, Task(quickstart.exploitability_task, {"a": 1}).key)
    s2 = runner.task_seed(3, Task(quickstart.exploitability_task, {"a": 1}).key)
    s3 = runner.task_seed(3, Task(quickstart.exploitability_task, {"a": 2}).key)
    assert s1.generate_state(4).tolist() == s2.generate_state(4).tolist()
    assert s1.generate_state(4).tolist() != s3.generate_state(4).tolist()


RESUME = {"games": ["leduc_poker"], "solvers": ["cfr"], "iterations": list(range(8, 24)),
          "eval_games": 5}

SCRIPT = textwrap.dedent("""
    import sys
    from infosets.experiments import config, runner
    from infosets.papers import quickstart
    cfg = config.load("quickstart", "smoke", seed=5, overrides={overrides!r})
    runner.run(quickstart.tasks(cfg), cfg, workers=1, progress=False)
""")


def test_killed_sweep_resumes_and_matches(tmp_path, monkeypatch):
    cfg = config.load("quickstart", "smoke", seed=5, overrides=RESUME)
    store = Store(cfg)
    task_dir = store.path / "results"
    env = {**os.environ, "INFOSETS_DATA_DIR": os.environ["INFOSETS_DATA_DIR"]}
    proc = subprocess.Popen([sys.executable, "-c", SCRIPT.format(overrides=RESUME)], env=env)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if task_dir.exists() and len(list(task_dir.glob("*.pkl"))) >= 3:
            break
        time.sleep(0.02)  # polling the store, not waiting for a result
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    done_before = len(list(task_dir.glob("*.pkl")))
    assert 3 <= done_before < len(RESUME["iterations"]), f"kill missed (rc={proc.returncode})"

    stats = RunStats()
    resumed = runner.run(quickstart.tasks(cfg), cfg, workers=1, progress=False, stats=stats)
    assert stats.cached == done_before
    assert stats.computed == len(RESUME["iterations"]) - done_before

    monkeypatch.setenv("INFOSETS_DATA_DIR", str(tmp_path / "fresh"))
    fresh = runner.run(quickstart.tasks(cfg), cfg, workers=1, progress=False)
    pd.testing.assert_frame_equal(resumed, fresh)


def test_truncated_task_file_is_recomputed_not_read(tmp_path):
    cfg = config.load("quickstart", "smoke", seed=3)
    tasks = quickstart.tasks(cfg)
    first = runner.run(tasks, cfg, workers=1, progress=False)
    victim = Store(cfg).task_file("results", tasks[1].task_id)
    victim.write_bytes(victim.read_bytes()[:-7])
    stats = RunStats()
    again = runner.run(tasks, cfg, workers=1, progress=False, stats=stats)
    assert stats.computed == 1 and stats.cached == len(tasks) - 1
    pd.testing.assert_frame_equal(first, again)
    assert (Store(cfg).path / "config.json").exists()
    assert (Store(cfg).path / "results.parquet").exists()


def _explode(cfg, params, seed):
    if params["i"] == 3:
        raise ValueError("boom at three")
    return {"ok": params["i"]}


@pytest.mark.parametrize("workers", [1, 2])
def test_failing_task_stops_sweep_naming_key_and_keeps_finished(workers):
    cfg = config.load("quickstart", "smoke")
    tasks = [Task(_explode, {"i": i}) for i in range(4)]
    with pytest.raises(SweepError, match=r'"i": 3.*ValueError: boom at three'):
        runner.run(tasks, cfg, workers=workers, progress=False)
    # Task 3 can only start once a worker has finished task 0 or 1: that result is kept.
    kept = [Store(cfg).load_task("results", t.task_id) for t in tasks]
    assert kept[0] == [{"i": 0, "ok": 0}] or kept[1] == [{"i": 1, "ok": 1}]
    assert kept[3] is None


def test_duplicate_keys_and_bad_params_rejected():
    cfg = config.load("quickstart", "smoke")
    with pytest.raises(ValueError, match="^tasks: duplicate task key"):
        runner.run([Task(_explode, {"i": 0})] * 2, cfg, workers=1, progress=False)
    with pytest.raises(ValueError, match="^task params: must be JSON primitives"):
        runner.run([Task(_explode, {"i": object()})], cfg, workers=1, progress=False)
