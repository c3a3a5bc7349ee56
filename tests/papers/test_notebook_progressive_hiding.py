"""Smoke run of the progressive_hiding notebook (Heymann & Lanctot 2025)."""

import numpy as np
import pytest

from infosets.claims import COLUMNS, VERDICTS
from infosets.experiments.run_notebooks import run_notebook

pytestmark = pytest.mark.notebook


def test_smoke(tmp_path):
    # workers=1: serial, as quickstart_twice runs; no 2-process pool to start and no warm-up of
    # the numba engine of every game the paper module names
    run = run_notebook("progressive_hiding", tmp_path, workers=1)
    for name in ("trade_comm_payoff_vs_iterations", "trade_comm_final_payoff_distribution",
                 "cmp_success_rates", "tiny_bridge_payoff_vs_episodes"):
        assert (run.figures_dir / f"{name}.png").exists(), name
    claims = run.table("claims")
    assert list(claims.columns) == list(COLUMNS) and set(claims["verdict"]) <= set(VERDICTS)
    assert claims["claim"].str.contains("Trade Comm").any()
    assert claims["claim"].str.contains("CMP success rate").any()
    bridge = claims[claims["claim"] == "Tiny Bridge: PH peak within 75 episodes"]
    assert len(bridge) == 1
    peak = float(bridge["ours"].iloc[0].split()[0])
    # after a few episodes PH's projected payoff is far above the uniform policy's (-12.3)
    assert 0.0 < peak < 21.4
    rates = claims[claims["claim"].str.contains("CMP success rate")]["ours"].astype(float)
    assert np.all((rates >= 0) & (rates <= 1))
