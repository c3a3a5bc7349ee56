"""Smoke run of the belote_ismcts notebook through papermill; checks the numbers it wrote."""

import pytest
from infosets.experiments.notebooks import run_notebook

pytestmark = pytest.mark.notebook


def test_belote_ismcts_smoke(tmp_path):
    run = run_notebook("belote_ismcts", tmp_path)
    names = {p.name for p in run.files}
    for stem in ["score_by_opponent", "score_by_first_leader", "trick_win_rate",
                 "heatmap_exploration_iterations"]:
        assert {f"{stem}.png", f"{stem}.svg"} <= names
    claims = run.table("claims")
    assert set(claims.columns) == {"claim", "paper", "ours", "ci95", "verdict"}
    assert claims["claim"].str.contains("vs greedy").any()
    summary = run.table("score_summary")
    assert summary.loc[0, "opponent"] == "human (paper)" and summary.loc[0, "games"] == 63
    bots = summary.iloc[1:]
    assert set(bots["opponent"]) == {"random", "greedy", "pimc", "openspiel_ismcts"}
    assert ((bots["mean_score"] >= 0) & (bots["mean_score"] <= 162)).all()
    assert ((bots["above_81_lo"] <= bots["above_81"]) & (bots["above_81"] <= bots["above_81_hi"])).all()
    tricks = run.table("trick_win_rate")
    assert sorted(tricks["trick"].unique()) == list(range(1, 17))
    human = tricks[tricks["opponent"] == "human (paper)"]
    assert list(human["win_pct"]) == [40, 41, 49, 46, 57, 56, 54, 59, 49, 56, 48, 57, 60, 73, 78, 71]
    assert list(run.data_dir.glob("*/vs_opponents.parquet"))
