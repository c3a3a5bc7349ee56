"""Runner: identical tables under every executor, resume after kill -9, corrupt files, errors."""

import json
import os
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pandas as pd
import pytest

from busy_tasks import STOP_AT, busy_rows, run_on_two_machines, task_cpu
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


# 10 tasks of about 0.6 s each (was 16): the kill lands after 3, leaving 7 (about 4 s) as the
# margin against a run that finishes before it is killed.
RESUME = {"games": ["leduc_poker"], "solvers": ["cfr"], "iterations": list(range(8, 18)),
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


# ------------------------------------------------------------------------------------------
# The run key and the committed result tables (results/<slug>/<preset>/)
# ------------------------------------------------------------------------------------------

from infosets.experiments import store as store_mod  # noqa: E402
from infosets.experiments.committed import CommittedResults  # noqa: E402

TINY = {"games": ["kuhn_poker"], "solvers": ["cfr", "cfr_plus"], "iterations": [1, 3],
        "eval_games": 10}


def test_changed_dependency_version_recomputes(monkeypatch):
    cfg = config.load("quickstart", "smoke", seed=0, overrides=TINY)
    runner.run(quickstart.tasks(cfg), cfg, workers=1, progress=False)
    recorded = json.loads((Store(cfg).path / "config.json").read_text())["versions"]
    assert recorded["numpy"] == np.__version__ and "open-spiel" in recorded

    stats = RunStats()
    runner.run(quickstart.tasks(cfg), cfg, workers=1, progress=False, stats=stats)
    assert stats.computed == 0
    bumped = {**store_mod.dependency_versions(), "open-spiel": "9.9.9"}
    monkeypatch.setattr(store_mod, "dependency_versions", lambda: dict(bumped))
    stats = RunStats()
    runner.run(quickstart.tasks(cfg), cfg, workers=1, progress=False, stats=stats)
    assert stats.computed == stats.total == 4
    assert json.loads((Store(cfg).path / "config.json").read_text())["versions"] == bumped


def test_code_hash_covers_only_the_modules_the_paper_imports():
    files = store_mod.import_closure("infosets.papers.quickstart")
    assert {"papers/quickstart.py", "experiments/tasks.py", "plots.py",
            "games/kernels.py"} <= set(files)
    assert "filtering/mcmc.py" not in files and "papers/belief_mixtures.py" not in files
    # the shared games modules' imports of the game folders are not followed; a run's key covers
    # the folders of the games it plays (quickstart: leduc_poker's kernel) and no other
    assert not any(f.startswith("games/trick_game/") for f in files)
    run = store_mod.run_files("quickstart", config.load("quickstart", "default").values)
    assert "games/leduc_poker/kernel.py" in run and not any(
        f.startswith("games/trick_game/") for f in run)
    hf = store_mod.import_closure("infosets.papers.history_filtering")
    assert "filtering/mcmc.py" in hf and "filtering/enumerate.py" in hf


def test_prose_edits_keep_the_code_key_and_code_edits_change_it():
    """Comments and docstrings cannot change a number, so editing them must not invalidate a
    long paper run's committed tables; any executable change must."""
    base = '"""Module doc."""\nX = 1  # note\n\ndef f(a):\n    """Doc."""\n    return a + X\n'
    prose = ('"""Other words."""\n\n# a new comment\nX = 1\n\n\ndef f(a):\n'
             '    """Reworded."""\n    # why\n    return a + X\n')
    assert store_mod.executable_source(base) == store_mod.executable_source(prose)
    for edit in (base.replace("X = 1", "X = 2"), base.replace("a + X", "X + a"),
                 base.replace('"""Doc."""', '"""Doc."""\n    a = a * 1')):
        assert store_mod.executable_source(edit) != store_mod.executable_source(base)
    only_doc = 'def g():\n    """Only a docstring."""\n'
    assert "Pass" in store_mod.executable_source(only_doc)


def test_committed_tables_replot_without_compute_and_match_fresh(tmp_path, monkeypatch):
    cfg = config.load("quickstart", "smoke", seed=0, overrides=TINY)
    fresh = runner.run(quickstart.tasks(cfg), cfg, workers=1, progress=False,
                       committed=CommittedResults(cfg))
    shipped = CommittedResults(cfg)
    before = {p.name: p.read_bytes() for p in shipped.path.iterdir()}
    assert set(before) == {"RUN.json", "PROVENANCE.json", "results.parquet"}

    monkeypatch.setenv("INFOSETS_DATA_DIR", str(tmp_path / "clone"))  # a fresh clone
    stats = RunStats()
    replot = runner.run(quickstart.tasks(cfg), cfg, executor=_no_executor, progress=False,
                        stats=stats, committed=CommittedResults(cfg))
    assert stats.computed == 0 and stats.from_committed == 4
    pd.testing.assert_frame_equal(replot, fresh)
    assert {p.name: p.read_bytes() for p in shipped.path.iterdir()} == before


def _no_executor():
    raise AssertionError("nothing should be computed")


def _mixed_rows(cfg, params, seed):
    i = params["i"]
    if os.environ.get(STOP_AT) == str(i):
        raise RuntimeError("machine stopped")
    rng = np.random.default_rng(seed)
    rows = [{"x": float(rng.random()), "label": f"r{i}", "n": i, "flag": i % 2 == 0}]
    if i % 3 == 0:
        rows.append({"x": 0.5, "extra": [i, i + 1], "note": None})
    return rows


def test_stopped_run_resumes_on_another_machine_from_committed_partial_tables(
        tmp_path, monkeypatch):
    cfg = config.load("quickstart", "smoke", seed=0)
    tasks = [Task(_mixed_rows, {"i": i}) for i in range(8)]
    monkeypatch.setenv(STOP_AT, "5")
    with pytest.raises(SweepError, match="machine stopped"):
        runner.run(tasks, cfg, workers=1, progress=False, committed=CommittedResults(cfg),
                   flush_seconds=3600)
    prov = CommittedResults(cfg).provenance()["tables"]["results"]
    assert prov["tasks_done"] == 5 and prov["tasks_total"] == 8

    monkeypatch.delenv(STOP_AT)
    monkeypatch.setenv("INFOSETS_DATA_DIR", str(tmp_path / "machine_b"))
    stats = RunStats()
    resumed = runner.run(tasks, cfg, workers=1, progress=False, stats=stats,
                         committed=CommittedResults(cfg))
    assert (stats.from_committed, stats.computed) == (5, 3)

    monkeypatch.setenv("INFOSETS_DATA_DIR", str(tmp_path / "straight"))
    straight = runner.run(tasks, cfg, workers=1, progress=False)
    pd.testing.assert_frame_equal(resumed, straight)
    assert resumed.to_csv(index=False) == straight.to_csv(index=False)


def test_committed_tables_of_another_key_are_ignored_and_replaced(monkeypatch):
    cfg = config.load("quickstart", "smoke", seed=0)
    tasks = [Task(_mixed_rows, {"i": i}) for i in range(3)]
    runner.run(tasks, cfg, workers=1, progress=False, committed=CommittedResults(cfg))
    (CommittedResults(cfg).path / "other.parquet").write_bytes(b"stale table of an old run")
    bumped = {**store_mod.dependency_versions(), "numpy": "0.0.1"}
    monkeypatch.setattr(store_mod, "dependency_versions", lambda: dict(bumped))
    shipped = CommittedResults(cfg)
    assert not shipped.valid() and shipped.load("results") == {}
    stats = RunStats()
    runner.run(tasks, cfg, workers=1, progress=False, stats=stats, committed=shipped)
    assert stats.from_committed == 0 and stats.computed == 3
    assert CommittedResults(cfg).valid()
    assert not (shipped.path / "other.parquet").exists()


def test_committed_tables_are_never_unpickled(monkeypatch):
    cfg = config.load("quickstart", "smoke", seed=0)
    runner.run([Task(_mixed_rows, {"i": 0})], cfg, workers=1, progress=False,
               committed=CommittedResults(cfg))
    import pickle

    monkeypatch.setattr(pickle, "loads", lambda *a, **k: pytest.fail("unpickled"))
    monkeypatch.setattr(pickle, "load", lambda *a, **k: pytest.fail("unpickled"))
    assert CommittedResults(cfg).load("results")


def test_a_task_both_committed_and_in_the_local_store_counts_its_cpu_once(tmp_path, monkeypatch):
    """Regression (pimcts_aggregation paper run, 2026-11-27: 5,239 CPU-seconds never spent):
    ``runner.run`` added the committed total, which covers every committed task, to the CPU
    of each task it loaded from the local store, so a task computed here and then committed
    counted twice. Machine A stops after tasks 0-2; machine B resumes, stops after 3-4, and
    resumes again with 3-4 both in its store and in results/."""
    cfg = config.load("quickstart", "smoke", seed=0)
    tasks = [Task(busy_rows, {"i": i}) for i in range(6)]
    ids = [t.task_id for t in tasks]

    def run():
        stats = RunStats()
        runner.run(tasks, cfg, workers=1, progress=False, stats=stats,
                   committed=CommittedResults(cfg), flush_seconds=3600)
        return stats

    stats = run_on_two_machines(run, tmp_path, monkeypatch)
    spent = {**task_cpu(tmp_path / "a", cfg, "results", ids),
             **task_cpu(tmp_path / "b", cfg, "results", ids)}
    assert len(spent) == 6
    assert (stats.from_committed, stats.computed) == (3, 1)
    assert stats.cpu_seconds == pytest.approx(sum(spent.values()), abs=0.01)
    table = CommittedResults(cfg).provenance()["tables"]["results"]
    assert table["tasks_done"] == 6
    assert table["cpu_seconds"] == pytest.approx(sum(spent.values()), abs=0.01)
