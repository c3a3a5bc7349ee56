"""Smoke run of the quickstart notebook through the runner and papermill; checks the numbers
it wrote."""

import pytest

from infosets.claims import COLUMNS, VERDICTS

pytestmark = pytest.mark.notebook


@pytest.mark.xdist_group("quickstart_twice")
def test_quickstart_smoke(quickstart_twice):
    """The run is the session's ``quickstart_twice`` (tests/conftest.py), shared with
    tests/project/test_notebook_outputs.py and tests/experiments' run-log and report tests."""
    run = quickstart_twice.run
    names = {p.name for p in run.files}
    assert {"exploitability_vs_iterations.png", "exploitability_vs_iterations.svg",
            "claims.csv", "claims.md", "outputs.csv"} <= names
    claims = run.table("claims")
    assert list(claims.columns) == list(COLUMNS) and set(claims["verdict"]) <= set(VERDICTS)
    assert (claims["verdict"] == "match").all()
    kuhn = claims[claims["claim"].str.startswith("Kuhn")].iloc[0]
    assert abs(float(kuhn["ours"]) + 1 / 18) < 2e-3
    assert list(run.data_dir.glob("*/results.parquet"))
