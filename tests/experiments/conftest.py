"""Fixtures shared by the run-machinery tests of this folder."""

import subprocess
import sys
from types import SimpleNamespace

import pytest

from infosets.experiments.config import repo_root

# What a run may write to in the clone: ``--out`` must leave them all as they were.
OUTPUT_PATHS = ("build", "data", "figures", "results", "reports", "notebooks")
# The xdist_group of every test reading ``quickstart_twice``: ``make test``'s workers each
# build a session fixture they are asked for, so its readers must all land on one worker.
QUICKSTART_TWICE = "quickstart_twice"


def clone_state() -> str:
    """Every file git sees under the folders a run writes to, ignored ones included."""
    return subprocess.run(
        ["git", "status", "--porcelain", "--ignored=matching", "--untracked-files=all", "--",
         *OUTPUT_PATHS], cwd=repo_root(), capture_output=True, text=True, check=True).stdout


@pytest.fixture(scope="session")
def quickstart_twice(tmp_path_factory):
    """quickstart at smoke through the runner's CLI with ``--out``, twice into one folder, as a
    user reruns it: the first run computes, the second replots from the first one's cache.
    Executed once per session for test_run_log (what a headless run writes) and test_reports
    (the reports exported from the two notebooks); mark its readers
    ``pytest.mark.xdist_group(QUICKSTART_TWICE)``.

    ``out``: the ``--out`` folder (the runs' outputs only); ``runs``: (completed process,
    notebook bytes, run log text) of each run; ``before``/``after``: the clone's state around
    the runs; ``first``/``second``: the two executed notebooks (the first one's copy is kept
    outside ``out``)."""
    out = tmp_path_factory.mktemp("out")
    kept = tmp_path_factory.mktemp("first") / "quickstart.ipynb"
    notebook = out / "notebooks" / "smoke" / "quickstart.ipynb"
    before = clone_state()
    runs = []
    with pytest.MonkeyPatch.context() as env:
        env.delenv("DASK_SCHEDULER", raising=False)
        for _ in range(2):
            proc = subprocess.run(
                [sys.executable, "-m", "infosets.experiments.run_notebooks", "--paper",
                 "quickstart", "--preset", "smoke", "--workers", "1", "--out", str(out)],
                capture_output=True, text=True, timeout=1500)
            assert proc.returncode == 0, proc.stdout + proc.stderr
            runs.append((proc, notebook.read_bytes(), notebook.with_suffix(".log").read_text()))
            if not kept.exists():
                kept.write_bytes(runs[0][1])
    return SimpleNamespace(out=out, runs=runs, before=before, after=clone_state(), first=kept,
                           second=notebook)
