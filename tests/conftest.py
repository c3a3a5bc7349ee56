"""Shared fixtures: every test writes data and figures under its own temporary folder.

Tests mirror ``lib/infosets`` (``tests/search/test_ismcts.py`` tests ``search/ismcts.py``);
the shared check modules (``kernel_checks``, ``tabletop_checks``, ...) stay here (the ports'
``oracle_checks`` in ``tests/games``), importable from every folder.
"""

import shutil
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
# tests/games/oracle_checks.py (the ports' oracle checks) is importable from every game's folder
sys.path.insert(1, str(Path(__file__).resolve().parent / "games"))

import numba_env  # noqa: E402

# every test runs numba bounds-checked, from the tests' own cache (tests/numba_env.py)
numba_env.apply()

# The files holding `make test`'s slowest tests (seconds a test on a fresh clone of the 2-core
# machine, pytest's --durations), run first and slowest first: pytest-xdist hands the workers
# their tests in collection order (its groups first), so a long test collected late (the
# notebook smoke runs in tests/papers) could leave one worker running it alone at the end. The
# rest keep their order. (Files other changes are rewriting now stay out of the list: a listed
# file must exist, tests/project/test_xdist_groups.py.)
SLOW_FILES = (
    "tests/papers/test_notebook_pimcts_aggregation.py",  # 27 s
    "tests/papers/test_notebook_belief_mixtures.py",  # 19 s
    "tests/papers/test_notebook_history_filtering.py",  # 13 s
    "tests/papers/test_notebook_belote_ismcts.py",  # 12 s
    "tests/games/test_determinizer_audit.py",  # 11 s, 8.5 s
    "tests/papers/test_notebook_progressive_hiding.py",  # 11 s
    "tests/games/test_determinizers.py",  # 10 s
    "tests/experiments/test_notebooks_cli.py",  # 8 s
    "tests/games/hearts/test_hearts_kernel.py",  # 8 s
    "tests/papers/test_history_filtering.py",  # 8 s
)


def pytest_collection_modifyitems(config, items):
    """``SLOW_FILES`` first, in their order; every other test after them, in collection order
    (a stable sort: each worker collects and sorts alike, as pytest-xdist requires)."""
    rank = {path: i for i, path in enumerate(SLOW_FILES)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::")[0], len(rank)))


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
    return subprocess.run(["git", "-C", str(cwd), *args], check=True, capture_output=True, text=True).stdout


# What a run may write to in the clone: ``--out`` must leave them all as they were.
OUTPUT_PATHS = ("build", "data", "figures", "results", "reports", "notebooks")
# The xdist_group of every test reading ``quickstart_twice``: ``make test``'s workers each
# build a session fixture they are asked for, so its readers must all land on one worker.
QUICKSTART_TWICE = "quickstart_twice"


def clone_state() -> str:
    """Every file git sees under the folders a run writes to, ignored ones included."""
    from infosets.experiments.config import repo_root

    return git(
        repo_root(),
        "status",
        "--porcelain",
        "--ignored=matching",
        "--untracked-files=all",
        "--",
        *OUTPUT_PATHS,
    )


def _figures_checkout(figures: Path) -> None:
    """``figures`` as a git checkout of the committed quickstart outputs, ignoring what the
    clone's .gitignore ignores under figures/ (its ``figures/`` patterns, made relative)."""
    from infosets.experiments.config import repo_root

    shutil.copytree(repo_root() / "figures" / "quickstart", figures / "quickstart")
    lines = (repo_root() / ".gitignore").read_text().splitlines()
    patterns = [ln[len("figures/") :] for ln in lines if ln.startswith("figures/")]
    assert patterns, "the clone's .gitignore ignores nothing under figures/"
    (figures / ".gitignore").write_text("\n".join(patterns) + "\n")
    git(figures, "init", "-q")
    git(figures, "add", "-A")
    git(figures, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "published")


@pytest.fixture(scope="session")
def quickstart_twice(tmp_path_factory):
    """quickstart at smoke through the runner's CLI with ``--out``, twice into one folder, as a
    user reruns it: the first run computes, the second replots from the first one's cache.
    ``--out``'s figures folder starts as a git checkout of the committed quickstart outputs.
    Executed once per session (three quickstart runs were two) for
    tests/experiments/test_run_log.py (what a headless run writes), test_reports.py (the
    reports exported from the two notebooks), tests/papers/test_notebook_quickstart.py (the
    numbers it wrote) and tests/project/test_notebook_outputs.py (it changed no tracked file);
    mark its readers ``pytest.mark.xdist_group(QUICKSTART_TWICE)``.

    ``out``: the ``--out`` folder (the runs' outputs only); ``runs``: (completed process,
    notebook bytes, run log text) of each run; ``before``/``after``: the clone's state around
    the runs; ``first``/``second``: the two executed notebooks (the first one's copy is kept
    outside ``out``); ``status``: ``git status --porcelain --untracked-files=all`` of the
    figures checkout after both runs; ``run``: the first run's ``NotebookRun`` (its figures
    folder, data folder and files)."""
    from infosets.experiments.run_notebooks import NotebookRun

    out = tmp_path_factory.mktemp("out")
    kept = tmp_path_factory.mktemp("first") / "quickstart.ipynb"
    notebook = out / "notebooks" / "smoke" / "quickstart.ipynb"
    _figures_checkout(out / "figures")
    before = clone_state()
    runs = []
    with pytest.MonkeyPatch.context() as env:
        env.delenv("DASK_SCHEDULER", raising=False)
        for _ in range(2):
            proc = subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "infosets.experiments.run_notebooks",
                    "--paper",
                    "quickstart",
                    "--preset",
                    "smoke",
                    "--workers",
                    "1",
                    "--out",
                    str(out),
                ],
                capture_output=True,
                text=True,
                timeout=1500,
            )
            assert proc.returncode == 0, proc.stdout + proc.stderr
            runs.append((proc, notebook.read_bytes(), notebook.with_suffix(".log").read_text()))
            if not kept.exists():
                kept.write_bytes(runs[0][1])
    (folder,) = (out / "figures" / "quickstart" / "custom").glob("smoke-*")
    run = NotebookRun(
        kept, folder, out / "data" / "quickstart", sorted(p for p in folder.rglob("*") if p.is_file())
    )
    return SimpleNamespace(
        out=out,
        runs=runs,
        before=before,
        after=clone_state(),
        first=kept,
        second=notebook,
        run=run,
        status=git(out / "figures", "status", "--porcelain", "--untracked-files=all"),
    )
