"""A task that spends some CPU and stops on demand, and a run resumed across two machines,
shared by the tests of resumed runs (``tests/experiments/test_runner.py``,
``tests/experiments/test_outputs.py``)."""

import os

import pytest

from infosets.experiments.runner import SweepError
from infosets.experiments.store import Store

STOP_AT = "INFOSETS_TEST_STOP_AT"  # the task index at which the "machine" stops


def busy_rows(cfg, params, seed):
    """One row per task after some CPU time to count; raises at task ``$INFOSETS_TEST_STOP_AT``."""
    if os.environ.get(STOP_AT) == str(params["i"]):
        raise RuntimeError("machine stopped")
    total = sum(k * k for k in range(100_000 * (params["i"] + 1)))
    return [{"i": params["i"], "total": total}]


def run_on_two_machines(run, data_dir, monkeypatch):
    """Machine a stops at task 3; machine b resumes from results/ and stops at task 5, then
    resumes again with tasks 3-4 both in its store and in results/. ``run()`` is called once
    per step, with that machine's ``INFOSETS_DATA_DIR`` (``data_dir``/a or /b); returns what
    the last, finished call returns."""
    for machine, stop_at in (("a", "3"), ("b", "5"), ("b", None)):
        monkeypatch.setenv("INFOSETS_DATA_DIR", str(data_dir / machine))
        if stop_at is None:
            monkeypatch.delenv(STOP_AT)
            return run()
        monkeypatch.setenv(STOP_AT, stop_at)
        with pytest.raises(SweepError, match="machine stopped"):
            run()


def task_cpu(data_dir, cfg, name, ids):
    """The CPU seconds each task recorded in the store of the machine that computed it."""
    records = [Store(cfg, root=data_dir).load_record(name, i) for i in ids]
    return {i: r["cpu_seconds"] for i, r in zip(ids, records) if r is not None}
