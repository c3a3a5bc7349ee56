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
