"""Shared fixtures: every test writes data and figures under its own temporary folder."""

import pytest


@pytest.fixture(autouse=True)
def _isolated_outputs(tmp_path, monkeypatch):
    monkeypatch.setenv("INFOSETS_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("INFOSETS_FIGURES_DIR", str(tmp_path / "figures"))
    monkeypatch.setenv("INFOSETS_RESULTS_DIR", str(tmp_path / "results"))
    monkeypatch.delenv("DASK_SCHEDULER", raising=False)
