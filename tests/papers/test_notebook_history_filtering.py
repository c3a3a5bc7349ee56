"""Smoke run of notebooks/history_filtering.ipynb (papermill, preset=smoke)."""

import pytest

from infosets.claims import COLUMNS, VERDICTS
from infosets.experiments.run_notebooks import run_notebook


@pytest.mark.notebook
def test_smoke(tmp_path):
    # workers=1: serial, as quickstart_twice runs; no 2-process pool to start and no warm-up of
    # the numba engine of every game the paper module names
    run = run_notebook("history_filtering", tmp_path, workers=1)
    for name in ("value_error_vs_samples", "burn_in_at_equal_transitions",
                 "enumeration_vs_mcmc_cost", "public_state_size_sparse_vs_dense",
                 "fsat_construction_cost"):
        assert (run.figures_dir / f"{name}.png").exists(), name
    claims = run.table("claims")
    assert list(claims.columns) == list(COLUMNS) and set(claims["verdict"]) <= set(VERDICTS)
    assert len(claims) >= 5
    states = run.table("public_states")
    assert list(states["histories"]) == [90, 1350]
    assert states["exact_values"].all()
    ismcts = run.table("ismcts_resampling")
    assert int(ismcts.loc[0, "n"]) == 2
