"""Shared fixtures: every test writes data and figures under its own temporary folder.

Tests mirror ``lib/infosets`` (``tests/search/test_ismcts.py`` tests ``search/ismcts.py``);
the shared check modules (``kernel_checks``, ``tabletop_checks``, ...) stay here and are
importable from every folder.
"""

import sys
from pathlib import Path

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
