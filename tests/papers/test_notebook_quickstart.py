"""Smoke run of the quickstart notebook through papermill; checks the numbers it wrote."""

import pytest

from infosets.claims import COLUMNS, VERDICTS
from infosets.experiments.run_notebooks import run_notebook

pytestmark = pytest.mark.notebook


def test_quickstart_smoke(tmp_path):
    run = run_notebook("quickstart", tmp_path)
    names = {p.name for p in run.files}
    assert {"exploitability_vs_iterations.png", "exploitability_vs_iterations.svg",
            "claims.csv", "claims.md", "outputs.csv"} <= names
    claims = run.table("claims")
    assert list(claims.columns) == list(COLUMNS) and set(claims["verdict"]) <= set(VERDICTS)
    assert (claims["verdict"] == "match").all()
    kuhn = claims[claims["claim"].str.startswith("Kuhn")].iloc[0]
    assert abs(float(kuhn["ours"]) + 1 / 18) < 2e-3
    assert list(run.data_dir.glob("*/results.parquet"))
