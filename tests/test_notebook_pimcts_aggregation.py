"""Smoke run of the pimcts_aggregation notebook; checks the numbers it wrote."""

import pytest

from infosets.experiments.notebooks import run_notebook

pytestmark = pytest.mark.notebook


def test_pimcts_aggregation_smoke(tmp_path):
    run = run_notebook("pimcts_aggregation", tmp_path)
    names = {p.name for p in run.files}
    assert {"win_rate_vs_d_B30.png", "disambiguation_by_fraction_played.png",
            "pimcts_gain_vs_persistence.png", "claims.csv", "game_parameters.csv",
            "win_rates.csv", "paper_preset_cpu_hours.csv"} <= names
    claims = run.table("claims")
    assert set(claims.columns) == {"claim", "paper", "ours", "ci95", "verdict"}
    assert len(claims) >= 4
    rates = run.table("win_rates")
    # 3 games x (control + 2 D x 3 aggregations + IS-MCTS) cells of 6 games each
    assert len(rates) == 3 * 8 and (rates["n"] == 6).all()
    assert ((rates["lo"] <= rates["win_rate"] + 1e-9) & (rates["win_rate"] <= rates["hi"] + 1e-9)).all()
    assert set(rates["baseline"].round(3)) == {0.333, 0.5}
    games = run.table("game_parameters")
    assert list(games["players"]) == [3, 2, 2]
