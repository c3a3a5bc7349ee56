"""Shared fixtures: every test writes data and figures under its own temporary folder.

Tests mirror ``lib/infosets`` (``tests/search/test_ismcts.py`` tests ``search/ismcts.py``);
the shared check modules (``kernel_checks``, ``tabletop_checks``, ...) stay here and are
importable from every folder.
"""

import shutil
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))


@pytest.fixture(autouse=True)
def _isolated_outputs(tmp_path, monkeypatch):
    monkeypatch.setenv("INFOSETS_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("INFOSETS_FIGURES_DIR", str(tmp_path / "figures"))
    monkeypatch.setenv("INFOSETS_RESULTS_DIR", str(tmp_path / "results"))
    monkeypatch.delenv("DASK_SCHEDULER", raising=False)


class FigureSession:
    """Stands in for a notebook session in figure tests: ``save_figure`` writes through
    ``plots.save_figure`` (so the label and unit checks run) under ``folder`` and keeps the
    figure in ``figures``."""

    def __init__(self, folder: Path, cfg=None):
        self.folder = folder
        self.figures = {}
        self.cfg = cfg  # the run's config, for figures that read it (set it in the test)

    def save_figure(self, fig, name, paper_ref=""):
        from infosets import plots

        self.figures[name] = fig
        return plots.save_figure(fig, self.folder / name)


@pytest.fixture
def figure_session(tmp_path):
    return FigureSession(tmp_path)


def git(cwd, *args) -> str:
    return subprocess.run(["git", "-C", str(cwd), *args], check=True, capture_output=True,
                          text=True).stdout


@pytest.fixture(scope="session")
def quickstart_in_checkout(tmp_path_factory):
    """One smoke run of the quickstart notebook through ``run_notebook``, its figures root a
    temporary git checkout holding a copy of the committed quickstart outputs. Executed once
    per session for tests/papers/test_notebook_quickstart.py (the numbers it wrote) and
    tests/project/test_notebook_outputs.py (it changed no tracked file); mark its readers
    ``pytest.mark.xdist_group("quickstart_in_checkout")`` so that ``make test``'s workers do
    not each run it.

    ``run``: the ``NotebookRun``; ``checkout``: the checkout; ``status``: its
    ``git status --porcelain --untracked-files=all`` right after the run."""
    from infosets.experiments.config import repo_root
    from infosets.experiments.run_notebooks import run_notebook

    tmp = tmp_path_factory.mktemp("quickstart")
    checkout = tmp / "checkout"
    shutil.copytree(repo_root() / "figures" / "quickstart", checkout / "figures" / "quickstart")
    shutil.copy(repo_root() / ".gitignore", checkout / ".gitignore")
    git(checkout, "init", "-q")
    git(checkout, "add", "-A")
    git(checkout, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "published")
    with pytest.MonkeyPatch.context() as env:
        env.setenv("INFOSETS_FIGURES_DIR", str(checkout / "figures"))
        env.setenv("INFOSETS_DATA_DIR", str(tmp / "data"))
        env.setenv("INFOSETS_RESULTS_DIR", str(tmp / "results"))
        env.delenv("DASK_SCHEDULER", raising=False)
        run = run_notebook("quickstart", tmp / "run", figures_root=checkout / "figures")
    return SimpleNamespace(run=run, checkout=checkout,
                           status=git(checkout, "status", "--porcelain", "--untracked-files=all"))
