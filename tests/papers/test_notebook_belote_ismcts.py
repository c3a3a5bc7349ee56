"""Smoke run of the belote_ismcts notebook through papermill; checks the numbers it wrote."""

import pytest

from infosets.claims import COLUMNS, VERDICTS
from infosets.experiments.run_notebooks import run_notebook

pytestmark = pytest.mark.notebook


def test_belote_ismcts_smoke(tmp_path):
    # workers=1: serial, as quickstart_twice runs; no 2-process pool to start and no warm-up of
    # the numba engine of every game the paper module names
    run = run_notebook("belote_ismcts", tmp_path, workers=1)
    names = {p.name for p in run.files}
    for stem in ["score_by_opponent", "score_by_first_leader", "trick_win_rate",
                 "heatmap_exploration_iterations"]:
        assert {f"{stem}.png", f"{stem}.svg"} <= names
    claims = run.table("claims")
    assert list(claims.columns) == list(COLUMNS) and set(claims["verdict"]) <= set(VERDICTS)
    assert claims["claim"].str.contains("vs greedy").any()
    summary = run.table("score_summary")
    assert summary.loc[0, "opponent"] == "human (paper logs)" and summary.loc[0, "games"] == 63
    assert round(summary.loc[0, "mean_score"], 1) == 92.1    # recomputed from the raw logs
    assert summary.loc[0, "mean_lo"] < 92.1 < summary.loc[0, "mean_hi"]
    bots = summary.iloc[1:]
    assert set(bots["opponent"]) == {"random", "greedy", "pimc", "openspiel_ismcts"}
    assert ((bots["mean_score"] >= 0) & (bots["mean_score"] <= 162)).all()
    assert ((bots["above_81_lo"] <= bots["above_81"]) & (bots["above_81"] <= bots["above_81_hi"])).all()
    tricks = run.table("trick_win_rate")
    assert sorted(tricks["trick"].unique()) == list(range(1, 17))
    human = tricks[tricks["opponent"] == "human (paper logs)"]
    assert [round(p) for p in human["win_pct"]] == [40, 41, 49, 46, 57, 56, 54, 59, 49, 56, 48,
                                                    57, 60, 73, 78, 71]
    assert (human["lo"] < human["win_pct"]).all()          # intervals, from n = 63 games
    recomputed = claims[claims["claim"].str.startswith("the 63 human games")].iloc[0]
    assert recomputed["verdict"] == "match"
    gap = claims[claims["claim"].str.startswith("leading first helps against humans")].iloc[0]
    assert gap["verdict"] == "inconclusive" and float(gap["ours"]) > 9
    assert list(run.data_dir.glob("*/vs_opponents.parquet"))


def test_impossible_deal_constraint_is_a_config_error():
    from infosets.experiments.config import ConfigError, load

    with pytest.raises(ConfigError, match="admits no deal"):
        load("belote_ismcts", "smoke", overrides={"points_lo": 90, "points_hi": 100})
    with pytest.raises(ConfigError, match="min_trumps"):
        load("belote_ismcts", "smoke", overrides={"min_trumps": 9})


def test_analysis_on_known_results():
    import pandas as pd

    from infosets.papers import belote_ismcts_analysis as analysis

    rows = []
    for deal, (a, b) in enumerate([(100, 90), (70, 60)]):
        for seat, score in enumerate((a, b)):
            row = {"opponent": "x", "deal": deal, "ai_seat": seat, "ai_led_first": seat == 0,
                   "ai_score": score}
            row.update({f"trick_{t}": int(t > 8) for t in range(1, 17)})
            rows.append(row)
    results = pd.DataFrame(rows)
    summary = analysis.score_summary(results).set_index("opponent")
    assert summary.loc["x", "above_81"] == 0.5 and summary.loc["x", "mean_score"] == 80
    first = analysis.by_first_leader(results).set_index(["opponent", "first"])
    assert first.loc[("x", "AI"), "mean_score"] == 85
    assert first.loc[("x", "opponent"), "mean_score"] == 75
    tricks = analysis.trick_win_rates(results)
    ours = tricks[tricks["opponent"] == "x"].set_index("trick")["win_pct"]
    assert ours[1] == 0 and ours[16] == 100
    assert analysis.duplicate_mean(results)["mean"] == 80


def test_duplicate_deal_swaps_seats_and_is_seeded():
    import numpy as np

    from infosets.experiments.config import load
    from infosets.papers import belote_ismcts as paper

    cfg = dict(load("belote_ismcts", "smoke", overrides={"iterations": 5}).values)
    params = {"opponent": "greedy", "first_deal": 3, "n_deals": 1}
    rows = paper.opponent_task(cfg, params, np.random.SeedSequence(0))
    assert [r["ai_seat"] for r in rows] == [0, 1] and {r["deal"] for r in rows} == {3}
    assert rows[0]["ai_led_first"] != rows[1]["ai_led_first"]  # same first seat, seats swapped
    assert all(0 <= r["ai_score"] <= 162 for r in rows)
    assert rows == paper.opponent_task(cfg, params, np.random.SeedSequence(0))


def test_leading_first_gap_is_paired_per_deal():
    # Three deals of very different strength, each led once by each side: the gap is about
    # +10 on each, so the paired interval is tight around 10; an unpaired interval (the old
    # test) spans the deal-to-deal spread (40 points) and could not tell 10 from 0.
    import pandas as pd

    from infosets.papers import belote_ismcts_analysis as analysis

    def gap(pairs):
        rows = []
        for deal, (led, other) in enumerate(pairs):
            rows += [{"deal": deal, "ai_led_first": True, "ai_score": led},
                     {"deal": deal, "ai_led_first": False, "ai_score": other}]
        return analysis.leading_first_gap(pd.DataFrame(rows))

    est, p = gap([(120, 111), (60, 50), (95, 84)])
    assert est.value == 10 and 7 < est.lo < est.hi < 13 and p < 0.01
    # Three equal gaps are no certainty (they gave a zero-width interval and p = 0 until
    # 2026-11-29): an exact test within the ±162 points a gap can take.
    est, p = gap([(120, 110), (60, 50), (95, 85)])
    assert est.value == 10 and est.lo < 0 < est.hi and p == 1.0
