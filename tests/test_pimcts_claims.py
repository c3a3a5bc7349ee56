"""pimcts_aggregation: the paper's games, the settings table, and claims tested as stated."""

import inspect

import numpy as np
import pandas as pd
import pyspiel
import pytest

from infosets.claims import VERDICTS
from infosets.papers import pimcts_aggregation as pa
from infosets.papers import pimcts_claims as pc
from infosets.search.mcts import OLMCTSBot


def _results(game, budget, cells, deals, rng, players=3):
    """Synthetic per-game rows: cells {(agent, D, aggregation): win probability}; a shared
    per-deal luck term makes the cells correlated, as duplicate deals do."""
    rows = []
    luck = rng.normal(0, 0.15, size=(deals, players))
    for (agent, d, agg), p in cells.items():
        for deal in range(deals):
            for rot in range(players):
                score = float(rng.random() < np.clip(p + luck[deal, rot], 0, 1))
                rows.append({"game": game, "budget": budget, "agent": agent, "D": d,
                             "aggregation": agg, "deal": deal, "rotation": rot, "score": score})
    return pd.DataFrame(rows)


def _cells(control, pi, ismcts=None):
    cells = {("olmcts", 1, "none"): control}
    for d in (3, 10):
        for agg in ("TotalVisits", "AverageValue", "SingleVote"):
            cells[("pimcts", d, agg)] = pi
    if ismcts is not None:
        cells[("ismcts", 0, "none")] = ismcts
    return cells


def test_a_real_gain_matches_and_no_gain_does_not():
    rng = np.random.default_rng(0)
    big = pc.paired_scores(_results("g", 100, _cells(0.33, 0.50), 400, rng), "g", 100)
    claim = pc.gain_claim(big, "g", 100, "PI helps", 0.05, 3)
    assert claim.verdict == "match" and claim.ours > 0.1 and claim.n == 1200
    assert claim.power is not None and claim.n_for_80_power > 0
    flat = pc.paired_scores(_results("g", 100, _cells(0.33, 0.33), 400, rng), "g", 100)
    assert pc.gain_claim(flat, "g", 100, "PI helps", 0.05, 3).verdict == "inconclusive"
    worse = pc.paired_scores(_results("g", 100, _cells(0.50, 0.20), 400, rng), "g", 100)
    assert pc.gain_claim(worse, "g", 100, "PI helps", 0.05, 3).verdict == "mismatch"
    assert pc.loss_claim(worse, "g", 100, "PI worse", 0.05, 3).verdict == "match"


def test_no_gap_needs_equivalence_not_just_non_significance():
    rng = np.random.default_rng(1)
    small = pc.paired_scores(_results("g", 100, _cells(0.33, 0.33), 5, rng), "g", 100)
    assert pc.no_gap_claim(small, "g", 100, "no gap", 3).verdict == "inconclusive"
    large = pc.paired_scores(_results("g", 100, _cells(0.33, 0.33), 3000, rng), "g", 100)
    claim = pc.no_gap_claim(large, "g", 100, "no gap", 3)
    assert claim.verdict == "match" and claim.margin == pc.MARGIN


def test_ismcts_vs_best_pi_uses_held_out_deals():
    rng = np.random.default_rng(2)
    table = pc.paired_scores(_results("g", 100, _cells(0.33, 0.33, ismcts=0.60), 300, rng), "g", 100)
    claim = pc.ismcts_vs_best_pi(table, "g", 100, 3)
    assert claim.verdict == "match" and claim.n == 150 * 3        # the odd deals only
    table = pc.paired_scores(_results("g", 100, _cells(0.33, 0.60, ismcts=0.30), 300, rng), "g", 100)
    assert pc.ismcts_vs_best_pi(table, "g", 100, 3).verdict == "mismatch"


def test_depth_trend_is_not_run_without_records_and_tested_with_them():
    rates = pd.DataFrame({"game": "g", "budget": 100, "agent": ["olmcts"] + ["pimcts"] * 3,
                          "D": [1, 3, 10, 30], "aggregation": ["none"] + ["TotalVisits"] * 3,
                          "mean_depth": np.nan, "visit_share": [0.9, 0.6, 0.4, 0.2]})
    assert pc.falls_with_d(rates, 100, "mean_depth", "depth").verdict == "not run"
    rates["mean_depth"] = [9.0, 6.0, 4.0, 2.0]
    assert pc.falls_with_d(rates, 100, "mean_depth", "depth").verdict == "match"   # p = 1/24
    assert pc.falls_with_d(rates.iloc[:3], 100, "mean_depth", "depth").verdict == "inconclusive"
    rates["mean_depth"] = [2.0, 4.0, 6.0, 9.0]
    assert pc.falls_with_d(rates, 100, "mean_depth", "depth").verdict == "mismatch"


def test_paper_games_and_the_twelfth():
    table = pa.load_settings()
    assert len(table) == 13 and set(table["players"]) == {2, 3, 4, 5}
    assert pa.is_paper_game("tic_tac_toe") and pa.is_paper_game("sushi_go(players=5)")
    assert pa.is_paper_game("love_letter(players=3)")          # stands in for the twelfth game
    assert not pa.is_paper_game("leduc_poker") and not pa.is_paper_game("sushi_go(players=4)")
    assert not pa.is_paper_game("kuhn_poker(players=3)")


def test_tuned_settings_follow_the_bot_signature():
    cfg = {"tuned_settings": True}

    class WithSettings:
        def __init__(self, game, player, *, uct_c=1.0, rollout_length=None, heuristic=None,
                     max_depth=None, rng=None):
            pass

    kw = pa.tuned_kwargs(WithSettings, "hearts", cfg)
    assert kw["uct_c"] == pytest.approx(2 ** 0.5) and kw["rollout_length"] == 0
    assert kw["max_depth"] == 3 and "fpu" not in kw and callable(kw["heuristic"])
    # rolloutLengthPerPlayer: Love Letter's 1 becomes 1 x 3 players
    assert pa.tuned_kwargs(WithSettings, "love_letter(players=3)", cfg)["rollout_length"] == 3
    assert pa.tuned_kwargs(WithSettings, "leduc_poker", cfg) == {}
    assert pa.tuned_kwargs(WithSettings, "hearts", {"tuned_settings": False}) == {}
    accepts = "rollout_length" in inspect.signature(OLMCTSBot.__init__).parameters
    assert bool(pa.tuned_kwargs(OLMCTSBot, "hearts", cfg)) == accepts


def test_decision_info_reads_root_statistics():
    class Bot:
        last_search_info = {"mean_depth": 2.5, "max_depth": 7}

    trees = [{0: (8, 5.0), 1: (2, 0.9)}, {0: (3, 1.0), 1: (7, 6.0)}, {0: (6, 5.0), 1: (4, 1.0)}]
    info = pa.decision_info(Bot(), {"trees": trees}, 0)
    assert info["visit_share"] == pytest.approx(17 / 30)
    assert info["tree_agreement"] == pytest.approx(2 / 3)
    assert info["mean_depth"] == 2.5 and info["max_depth"] == 7
    single = pa.decision_info(object(), {"trees": {0: (3, 1.0), 1: (1, 0.0)}}, 1)
    assert single["visit_share"] == pytest.approx(0.25) and np.isnan(single["tree_agreement"])
    assert np.isnan(single["mean_depth"])


def test_claim_runs_mark_unported_games_not_run():
    cfg = {"slices": {"main": {"games": ["tic_tac_toe"], "budgets": [30]},
                      "tabletop": {"games": [], "budgets": [10]}}}
    results = pd.DataFrame({"game": ["tic_tac_toe"]})
    runs = pa.claim_runs(results, cfg)
    by_game = {r["row"]["game"]: r for r in runs}
    assert by_game["tic_tac_toe"]["game"] == "tic_tac_toe"
    registered = set(pyspiel.registered_names())
    colt = by_game["colt_express(players=3)"]
    assert colt["game"] is None
    assert ("not registered" in colt["reason"]) == ("colt_express" not in registered)
    claims = pc.build(pd.DataFrame(columns=["game", "budget", "agent", "D", "aggregation", "deal",
                                            "rotation", "score"]),
                      pd.DataFrame(columns=["game", "budget", "agent", "D", "aggregation"]),
                      [r for r in runs if r["game"] is None])
    assert {c.verdict for c in claims} == {"not run"} and len(claims) == 12
    assert set(VERDICTS) >= {c.verdict for c in claims}
