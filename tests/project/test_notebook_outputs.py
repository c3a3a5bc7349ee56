"""A smoke run of a notebook changes no tracked file of a checkout (issue: exploration must
never overwrite committed results). The figures root is a temporary git checkout holding a copy
of the committed quickstart outputs; the smoke run must land in its git-ignored custom/ folder.
"""

import shutil
import subprocess

import pytest

from infosets.experiments.config import repo_root
from infosets.experiments.run_notebooks import run_notebook

pytestmark = pytest.mark.notebook


def _git(cwd, *args):
    return subprocess.run(["git", "-C", str(cwd), *args], check=True, capture_output=True,
                          text=True).stdout


def test_smoke_run_changes_no_tracked_file(tmp_path, monkeypatch):
    checkout = tmp_path / "checkout"
    shutil.copytree(repo_root() / "figures" / "quickstart", checkout / "figures" / "quickstart")
    shutil.copy(repo_root() / ".gitignore", checkout / ".gitignore")
    _git(checkout, "init", "-q")
    _git(checkout, "add", "-A")
    _git(checkout, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "published")
    monkeypatch.setenv("INFOSETS_FIGURES_DIR", str(checkout / "figures"))

    run_notebook("quickstart", tmp_path / "run", figures_root=checkout / "figures")

    assert _git(checkout, "status", "--porcelain", "--untracked-files=all") == ""
    custom = list((checkout / "figures" / "quickstart" / "custom").glob("smoke-*/claims.csv"))
    assert len(custom) == 1  # the run's outputs exist, in the ignored folder
