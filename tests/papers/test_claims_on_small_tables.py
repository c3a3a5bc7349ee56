"""The papers' analysis modules on tables a valid config or a run in progress can give: one
duplicate deal, one run, one logged game, one iteration count, cells not yet paired with their
control. Nothing raises, and no verdict rests on an interval of zero width (``mean_ci`` of
one value is [x, x])."""

from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from infosets.claims import frame
from infosets.papers import belote_ismcts_analysis as belote
from infosets.papers import history_filtering_analysis as filtering
from infosets.papers import pimcts_analysis, play_belote, quickstart
from infosets.papers import progressive_hiding_analysis as hiding


def _unsaved(monkeypatch, module):
    monkeypatch.setattr(module, "save_claims", lambda rows, session, **kw: frame(rows))


def test_one_duplicate_deal_per_heatmap_cell_decides_nothing():
    """The smoke preset's heatmap_deals = 1: "15 iterations lose" read [75, 75] as a match."""
    heat = pd.DataFrame([{"exploration": c, "iterations": it, "deal": 0, "ai_seat": s,
                          "ai_score": sc} for c in (20.0, 82.0) for it in (15, 30)
                         for s, sc in ((0, 70), (1, 80))])
    rows = belote._heatmap_claims(heat, {"iterations": 30, "exploration": 82.0})
    assert [c.verdict for c in rows] == ["inconclusive", "inconclusive"]
    assert all(c.n == 1 and np.isnan(c.interval[0]) for c in rows)


def test_one_logged_human_game_gives_no_mean_score_verdict(monkeypatch):
    """One game scored 100 read as "mismatch" against the paper's 92.1 with [100, 100]."""
    monkeypatch.setattr(play_belote.game_log, "read_games",
                        lambda path: pd.DataFrame({"ai_score": [100.0], "ai_led_first": [True]}))
    table = play_belote.claims(SimpleNamespace(cfg={"log": "unused"})).set_index("claim")
    mean = table.loc["AI mean score against humans"]
    assert mean["verdict"] == "inconclusive" and mean["n"] == 1


def test_one_paired_ismcts_game_gives_no_verdict(monkeypatch):
    _unsaved(monkeypatch, filtering)
    ismcts = pd.DataFrame({"block": [0], "game": [0], "score_mcmc": [1.0], "seconds_mcmc": [1.0],
                           "score_uniform": [0.0], "seconds_uniform": [1.0]})
    cfg = SimpleNamespace(headline_burn_in=20, headline_samples=400)
    table = filtering.claims(pd.DataFrame(columns=["kind", "state"]), pd.DataFrame(),
                             pd.DataFrame(), ismcts, SimpleNamespace(cfg=cfg))
    row = table.set_index("claim").loc["policy-aware MCMC resampling helps IS-MCTS vs uniform "
                                       "resampling"]
    assert row["verdict"] == "inconclusive"


def test_one_run_has_no_error_band():
    """runs = 1 is valid (the tasks store se = NaN): the band helper raised on it."""
    band = filtering._with_t95(pd.DataFrame({"error": [0.1, 0.2], "se": [np.nan, 0.01],
                                             "runs": [1, 5]}))
    assert np.isnan(band["lo"].iloc[0]) and np.isnan(band["hi"].iloc[0])
    assert band["lo"].iloc[1] < 0.2 < band["hi"].iloc[1]


def _pimcts_rows(agent, d, aggregation, deals, scores):
    return [{"game": "g", "budget": 100, "agent": agent, "D": d, "aggregation": aggregation,
             "deal": deal, "rotation": 0, "score": s, "players": 2}
            for deal, s in zip(deals, scores)]


def test_gain_table_on_a_run_in_progress(monkeypatch):
    monkeypatch.setattr(pimcts_analysis, "main_budget", lambda cfg, game: 100)
    # all differences equal: tested exactly (as the claims do), not a zero-width interval
    tied = pd.DataFrame(_pimcts_rows("olmcts", 1, "none", [0, 1], [0.5, 0.5])
                        + _pimcts_rows("pimcts", 5, "TotalVisits", [0, 1], [1.0, 1.0]))
    row = pimcts_analysis.gain_table(tied, None, ["g"]).iloc[0]
    assert row["gain"] == 0.5 and row["lo"] < 0 < row["hi"] and row["p_holm"] > 0.05
    # the cell's deals not yet shared with the control: no row (it raised)
    apart = pd.DataFrame(_pimcts_rows("olmcts", 1, "none", [0, 1], [0.5, 0.0])
                         + _pimcts_rows("pimcts", 5, "TotalVisits", [2, 3], [1.0, 0.0]))
    assert pimcts_analysis.gain_table(apart, None, ["g"]).empty


def test_gains_skip_a_game_without_control_rows():
    rates = pd.DataFrame([{"game": "g", "budget": 100, "agent": "pimcts", "D": 5,
                           "aggregation": "TotalVisits", "win_rate": 0.6, "lo": 0.4, "hi": 0.8,
                           "baseline": 0.5}])
    assert pimcts_analysis.gains(rates).empty


def test_the_capi_claim_reads_progressive_hiding_only(monkeypatch):
    """It took the best payoff of any method, so independent_rm at 21.5 failed PH's claim."""
    _unsaved(monkeypatch, hiding)
    bridge = pd.DataFrame({"method": ["hiding"] * 2 + ["independent_rm"] * 2,
                           "episode": [1, 2] * 2, "payoff": [19.0, 20.0, 19.0, 21.5]})
    cmp_results = pd.DataFrame(columns=["method", "pass_payoff", "rho", "success", "payoff"])
    trade = pd.DataFrame({"game": ["g"], "map": ["team"], "iteration": [1], "payoff": [0.5]})
    table = hiding.claims(trade, cmp_results, bridge, None).set_index("claim")
    capi = table.loc["Tiny Bridge: CAPI's ~21 not reached by PH"]
    assert capi["verdict"] == "match" and "20.000" in capi["ours"]


def test_one_iteration_count_shows_no_trend(monkeypatch):
    """np.diff of one value is empty and all([]) is True: "falls with iterations" matched."""
    _unsaved(monkeypatch, quickstart)
    results = pd.DataFrame({"game": ["leduc_poker"], "solver": ["cfr"], "iterations": [1],
                            "exploitability": [2.37], "value_p0": [-0.078]})
    assert list(quickstart.claims(results, None)["verdict"]) == ["not run"]


@pytest.mark.parametrize("value_error, verdict", [(0.07, "match"), (0.08, "mismatch")])
def test_the_kuhn_value_is_bounded_by_nash_conv(monkeypatch, value_error, verdict):
    """|v(profile) - v*| <= NashConv, twice OpenSpiel's two-player exploitability; the check
    used the exploitability itself and failed a profile 0.0555 off at exploitability 0.037."""
    _unsaved(monkeypatch, quickstart)
    results = pd.DataFrame({"game": ["kuhn_poker"] * 2, "solver": ["cfr+"] * 2,
                            "iterations": [1, 10], "exploitability": [0.5, 0.0375],
                            "value_p0": [0.0, quickstart.KUHN_VALUE + value_error]})
    table = quickstart.claims(results, None).set_index("claim")
    assert table.loc["Kuhn poker value for player 0", "verdict"] == verdict
