"""pimcts_aggregation: the paper's games, the settings table, and claims tested as stated."""

import inspect

import numpy as np
import pandas as pd
import pyspiel
import pytest

from infosets.claims import VERDICTS
from infosets.papers import pimcts_aggregation as pa
from infosets.papers import pimcts_analysis as analysis
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
    # a 17-point gain where the paper states 5: the direction holds, the size does not
    assert (claim.direction, claim.size, claim.verdict) == ("match", "mismatch", "mismatch")
    assert claim.ours > 0.1 and claim.n == 1200 and claim.paper_value == 0.05
    assert claim.power is not None and claim.n_for_80_power > 0
    near = pc.paired_scores(_results("g", 100, _cells(0.33, 0.38), 3000, rng), "g", 100)
    assert pc.gain_claim(near, "g", 100, "PI helps", 0.05, 3).verdict == "match"
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
    runs = analysis.claim_runs(results, cfg)
    by_game = {r["row"]["game"]: r for r in runs}
    assert by_game["tic_tac_toe"]["game"] == "tic_tac_toe"
    registered = set(pyspiel.registered_names())
    colt = by_game["colt_express(players=3)"]
    assert colt["game"] is None
    assert ("not registered" in colt["reason"]) == ("colt_express" not in registered)
    assert by_game["hearts"]["reason"] == "'hearts' is not in this preset"
    claims = pc.build(pd.DataFrame(columns=["game", "budget", "agent", "D", "aggregation", "deal",
                                            "rotation", "score"]),
                      pd.DataFrame(columns=["game", "budget", "agent", "D", "aggregation"]),
                      [r for r in runs if r["game"] is None])
    assert {c.verdict for c in claims} == {"not run"} and len(claims) == 12
    assert set(VERDICTS) >= {c.verdict for c in claims}


def test_claim_runs_tell_a_game_without_rows_yet_from_one_outside_the_preset():
    """A paper run stopped part-way: its claims table says which games have not run yet."""
    cfg = {"slices": {"main": {"games": ["tic_tac_toe", "hearts"], "budgets": [30]},
                      "tabletop": {"games": [], "budgets": [10]}}}
    results = pd.DataFrame({"game": ["tic_tac_toe"]})
    runs = {r["row"]["game"]: r for r in analysis.claim_runs(results, cfg)}
    assert runs["hearts"]["game"] is None
    assert runs["hearts"]["reason"] == ("'hearts' is in this preset but has no rows yet "
                                        "(the run is unfinished)")
    assert runs["stratego"]["reason"] == "'stratego' is not in this preset"


def _poker_cells(control, tv, av, sv, ismcts, ds=(10, 100, 200, 300, 500)):
    cells = {("olmcts", 1, "none"): control, ("ismcts", 0, "none"): ismcts}
    for d in ds:
        for agg, p in (("TotalVisits", tv), ("AverageValue", av), ("SingleVote", sv)):
            cells[("pimcts", d, agg)] = p
    return cells


def test_poker_rows_each_scored_at_the_named_d():
    rng = np.random.default_rng(3)
    table = pc.paired_scores(_results("p", 1000, _poker_cells(0.25, 0.55, 0.10, 0.45, 0.35), 300,
                                      rng), "p", 1000)
    assert pc.poker_named_d(table) == [100, 200, 300, 500]
    rows = {c.claim.split(": ", 1)[1]: c for c in pc.poker_claims(table, "p", 1000)}
    assert len(rows) == 4 and all(c.verdict == "match" for c in rows.values())
    every_d = rows["PI-MCTS (TotalVisits) exceeds the baseline at every D in 100-500"]
    # a match by one-sided tests may show a two-sided interval touching 0: the note says so
    p_weakest = float(every_d.note.split("one-sided p ")[1].split(",")[0])
    assert p_weakest <= 0.05 and "two-sided 95%" in every_d.note
    worst = rows["AverageValue is significantly the worst aggregation"]
    assert worst.ours < -0.2 and "Holm over 5 D values" in worst.test
    best = rows["TotalVisits is the best aggregation at D 100-500"]
    assert best.ours == pytest.approx(0.10, abs=0.06) and best.test.startswith("one-sided paired t")
    # AverageValue above TotalVisits at every D: not the worst anywhere, so the claim fails
    # (it used to stop at inconclusive); and TotalVisits loses to SingleVote
    flat = pc.paired_scores(_results("p", 1000, _poker_cells(0.33, 0.30, 0.45, 0.45, 0.60), 300,
                                     rng), "p", 1000)
    rows = {c.claim.split(": ", 1)[1]: c for c in pc.poker_claims(flat, "p", 1000)}
    assert rows["AverageValue is significantly the worst aggregation"].verdict == "mismatch"
    assert rows["TotalVisits is the best aggregation at D 100-500"].verdict == "mismatch"
    assert rows["PI-MCTS (TotalVisits, D 100-500) surpasses IS-MCTS"].verdict == "mismatch"
    # tied with the others at every D: neither worst nor shown not to be
    tied = pc.paired_scores(_results("p", 1000, _poker_cells(0.33, 0.40, 0.40, 0.40, 0.40), 300,
                                     rng), "p", 1000)
    rows = {c.claim.split(": ", 1)[1]: c for c in pc.poker_claims(tied, "p", 1000)}
    assert rows["AverageValue is significantly the worst aggregation"].verdict == "inconclusive"
    # D above the budget cannot be on the grid: a grid without 100-500 is "not run", with reason
    small = pc.paired_scores(_results("p", 50, _poker_cells(0.3, 0.3, 0.3, 0.3, 0.3, ds=(3, 10)),
                                      20, rng), "p", 50)
    rows = pc.poker_claims(small, "p", 50)
    assert [c.verdict for c in rows[:3]] == ["not run"] * 3 and rows[3].verdict != "not run"


def test_poker_claims_read_a_run_in_progress():
    """On the committed tables of an unfinished run a named-D cell can share one (deal,
    rotation) with the control; that cell is no evidence yet (the claims used to raise)."""
    rows = _results("p", 1000, _poker_cells(0.25, 0.55, 0.10, 0.45, 0.35), 300,
                    np.random.default_rng(5))
    cell = (rows["D"] == 100) & (rows["aggregation"] == "TotalVisits")
    partial = rows[~cell | ((rows["deal"] == 0) & (rows["rotation"] == 0))]
    table = pc.paired_scores(partial, "p", 1000)
    claims = {c.claim.split(": ", 1)[1]: c for c in pc.poker_claims(table, "p", 1000)}
    every_d = claims["PI-MCTS (TotalVisits) exceeds the baseline at every D in 100-500"]
    assert every_d.verdict == "inconclusive" and every_d.n == 1 and every_d.ours is None
    assert claims["PI-MCTS (TotalVisits, D 100-500) surpasses IS-MCTS"].verdict == "inconclusive"
    assert claims["TotalVisits is the best aggregation at D 100-500"].n == 1
    # the other D values still decide "AverageValue is the worst" (D=100 only lacks evidence)
    assert claims["AverageValue is significantly the worst aggregation"].verdict == "match"


def _collapse_table(rng, high_p):
    cells = {("olmcts", 1, "none"): 0.33}
    for d, p in ((3, 0.40), (10, 0.45), (100, high_p)):
        for agg in ("TotalVisits", "AverageValue", "SingleVote"):
            cells[("pimcts", d, agg)] = p
    return pc.paired_scores(_results("g", 100, cells, 300, rng), "g", 100)


def test_totalvisits_collapse_is_tested_held_out_and_combined():
    rng = np.random.default_rng(4)
    tables = {("a", 3): _collapse_table(rng, 0.15), ("b", 3): _collapse_table(rng, 0.20)}
    claim = pc.totalvisits_collapse(tables, 100)
    assert claim.verdict == "match" and claim.ours < -0.15 and "Stouffer" in claim.test
    assert claim.n == 150 * 3 and "a (3p): D=100 - D=10" in claim.note
    rising = {("a", 3): _collapse_table(rng, 0.70), ("b", 3): _collapse_table(rng, 0.65)}
    assert pc.totalvisits_collapse(rising, 100).verdict == "mismatch"
    level = {("a", 3): _collapse_table(rng, 0.45)}
    assert pc.totalvisits_collapse(level, 100).verdict == "inconclusive"
    assert pc.totalvisits_collapse({}, 100).verdict == "not run"


def test_budget_below_the_papers_is_stated_in_the_note():
    claim = pc.Claim("x", "y", 0.1, "match", note="ours: D=3")
    assert pc.budget_note(claim, 200).note == "B=200, below the paper's 4000; ours: D=3"
    assert pc.budget_note(claim, 4000).note.startswith("B=4000 (the paper's 4000)")
    assert pc.budget_note(claim, 4000, pc.PAPER_HIGH_BUDGET).note.startswith(
        "B=4000, below the paper's 10000")


def test_high_budget_games_must_run_at_fig1_too():
    from infosets.experiments import config

    base = {"high_budget_games": ["tic_tac_toe"], "high_budgets": [60],
            "high_determinizations": [1, 10, 50], "high_games_per_cell": 4}
    cfg = config.load("pimcts_aggregation", "smoke", overrides=base)
    high = cfg["slices"]["high"]
    assert high["games"] == ["tic_tac_toe"] and high["d_grid"] == {"60": [1, 10, 50]}
    assert pa.game_budgets(cfg, "tic_tac_toe") == [30, 60]
    assert pa.game_budgets(cfg, "leduc_poker") == [30]
    tasks = [t for t in pa.tournament_tasks(cfg) if t.params.get("part") == "high"]
    # control + 2 D x 3 aggregations + IS-MCTS, one block of 2 deals (4 games, 2 players)
    assert len(tasks) == 8 and {t.params["budget"] for t in tasks} == {60}
    with pytest.raises(config.ConfigError, match=r"high_budget_games\[0\]"):
        config.load("pimcts_aggregation", "smoke", overrides={**base, "high_budget_games": ["hearts"]})
    with pytest.raises(config.ConfigError, match="high_budgets"):
        config.load("pimcts_aggregation", "smoke", overrides={**base, "high_budgets": [30]})
    # one higher budget per game: each game runs only at its own
    paired = config.load("pimcts_aggregation", "smoke", overrides={
        **base, "high_budget_games": ["tic_tac_toe", "leduc_poker"], "high_budgets": [60, 50]})
    assert pa.high_pairs(paired) == [("tic_tac_toe", 60), ("leduc_poker", 50)]
    assert pa.game_budgets(paired, "leduc_poker") == [30, 50]
    high = {(t.params["game"], t.params["budget"]) for t in pa.tournament_tasks(paired)
            if t.params.get("part") == "high"}
    assert high == {("tic_tac_toe", 60), ("leduc_poker", 50)}
    with pytest.raises(config.ConfigError, match="one per game"):
        config.load("pimcts_aggregation", "smoke", overrides={
            **base, "high_budget_games": ["tic_tac_toe", "leduc_poker"], "high_budgets": [60, 50, 40]})


def test_games_per_cell_can_be_set_per_game():
    """The paper preset gives cheap games with small claimed gaps (Poker) more games per cell
    than dear ones (Hearts): a per-game override changes that game's tasks and plan only."""
    from infosets.experiments import config
    from infosets.papers import pimcts_costs

    base = config.load("pimcts_aggregation", "smoke")
    cfg = config.load("pimcts_aggregation", "smoke", overrides={
        "games_per_cell_by_game": {"leduc_poker": 10},
        "high_budget_games": ["tic_tac_toe"], "high_budgets": [60],
        "high_games_per_cell_by_game": {"tic_tac_toe": 6}})
    assert pa.games_per_cell(cfg, "leduc_poker") == 10
    assert pa.games_per_cell(cfg, "tic_tac_toe") == pa.games_per_cell(base, "tic_tac_toe")
    assert pa.games_per_cell(cfg, "tic_tac_toe", "high") == 6
    assert pa.deals_per_cell(cfg, "leduc_poker", 2) == 5

    def blocks(c, game, part="main"):
        return {t.params["block"] for t in pa.tournament_tasks(c, (part,))
                if t.params["game"] == game}

    per = max(1, cfg["block_size"] // 2)
    assert len(blocks(cfg, "leduc_poker")) == -(-5 // per)
    assert blocks(cfg, "tic_tac_toe") == blocks(base, "tic_tac_toe")
    assert len(blocks(cfg, "tic_tac_toe", "high")) == -(-3 // per)
    plan = pimcts_costs.plan(cfg, pimcts_costs.load_costs()).set_index(["game", "budget"])
    assert plan.loc[("leduc_poker", 30), "games_per_cell"] == 10
    assert plan.loc[("tic_tac_toe", 60), "games_per_cell"] == 6
    assert (analysis.game_table(cfg).set_index(["game", "slice"]).loc[("leduc_poker", "main"),
                                                                   "games_per_cell"] == 10)
    # no derived count may ignore the override: the config once carried a
    # `blocks_per_cell` read from the slice's games_per_cell alone
    per_cell = [k for k in cfg.derived_keys if "per_cell" in k]
    assert per_cell == [], f"derived per-cell counts that ignore games_per_cell_by_game: {per_cell}"
    # a bad override is a one-line error naming it, before any compute
    with pytest.raises(config.ConfigError, match=r"games_per_cell_by_game\['hearts'\]"):
        config.load("pimcts_aggregation", "smoke",
                    overrides={"games_per_cell_by_game": {"hearts": 5}})
    with pytest.raises(config.ConfigError, match=r"\['leduc_poker'\]: 0 is out of range"):
        config.load("pimcts_aggregation", "smoke",
                    overrides={"games_per_cell_by_game": {"leduc_poker": 0}})
    with pytest.raises(config.ConfigError, match="high_games_per_cell_by_game"):
        config.load("pimcts_aggregation", "smoke",
                    overrides={"high_games_per_cell_by_game": {"leduc_poker": 4}})


def _tied_table(deals=3, players=3):
    """Every cell draws every game (e.g. Monopoly Deal at a tiny budget): all differences 0."""
    cells = {("olmcts", 1, "none"): 0.0, ("ismcts", 0, "none"): 0.0}
    for d in (2, 10):
        for agg in ("TotalVisits", "AverageValue", "SingleVote"):
            cells[("pimcts", d, agg)] = 0.0
    rows = [{"game": "g", "budget": 10, "agent": a, "D": d, "aggregation": agg, "deal": deal,
             "rotation": rot, "score": 0.5}
            for (a, d, agg) in cells for deal in range(deals) for rot in range(players)]
    return pc.paired_scores(pd.DataFrame(rows), "g", 10)


def test_a_gain_claim_is_not_refuted_by_a_bad_cell_when_another_cell_gains():
    """Regression (2026-11-26 default run): Stratego's best cell was +0.10 [-0.08, +0.28], yet
    the row read "mismatch" because some other D cell was significantly below the control.
    "PI-MCTS beats OL-MCTS by x" is refuted only when every cell is significantly below +x."""
    rng = np.random.default_rng(7)
    cells = {("olmcts", 1, "none"): 0.40, ("pimcts", 3, "TotalVisits"): 0.45,
             ("pimcts", 10, "TotalVisits"): 0.10}
    table = pc.paired_scores(_results("g", 100, cells, 20, rng), "g", 100)
    claim = pc.gain_claim(table, "g", 100, "PI helps", 0.05, 3)
    bad = pc.paired_differences(table, "D=10 TotalVisits", "control")
    assert pc.stats.holm([pc.stats.paired_t_test(bad, "less")[1]] * 2)[0] <= 0.05  # a cell clearly below
    assert claim.verdict == "inconclusive"
    worse = pc.paired_scores(_results("g", 100, _cells(0.50, 0.20), 400, rng), "g", 100)
    assert pc.gain_claim(worse, "g", 100, "PI helps", 0.05, 3).verdict == "mismatch"


def test_all_equal_differences_are_no_evidence():
    """Regression (2026-11-26 default run): three games whose TotalVisits cells drew every
    game entered Stouffer's z with p = 1 (z = -7 each) and turned "TotalVisits collapses" into
    a mismatch; and three tied deals made "IS-MCTS matches the best PI-MCTS" a match with the
    interval [0, 0]. A sample with no variation says nothing either way."""
    tied = _tied_table()
    assert pc.ismcts_vs_best_pi(tied, "g", 10, 3).verdict == "inconclusive"
    assert pc.loss_claim(tied, "g", 10, "PI worse", 0.05, 3).verdict == "inconclusive"
    assert pc.gain_claim(tied, "g", 10, "PI helps", 0.05, 3).verdict == "inconclusive"
    assert pc.no_gap_claim(tied, "g", 10, "no gap", 3).verdict == "inconclusive"
    rng = np.random.default_rng(8)
    falling = {("a", 3): _collapse_table(rng, 0.30)}
    alone = pc.totalvisits_collapse(falling, 100)
    with_ties = pc.totalvisits_collapse({**falling, **{(f"t{i}", 3): _tied_table() for i in range(4)}}, 100)
    assert with_ties.verdict == alone.verdict != "mismatch"
    assert "all differences equal: left out" in with_ties.note
    assert pc.totalvisits_collapse({("t", 3): _tied_table()}, 100).verdict == "inconclusive"


def test_many_tied_games_are_evidence_of_no_gap():
    """Regression (paper-preset Tic-Tac-Toe, 2026-11-27): 300 paired games all drawn gave
    "0.000 [0.000, 0.000]" and p = 1 everywhere, as if three tied deals. 300 ties pin the
    mean to about ±0.01: no gap and non-inferiority follow, and both "worse" and "gain by 5
    points" fail (since 2026-11-27 a loss claim fails on a cell shown no worse, not only on one
    shown better)."""
    tied = _tied_table(deals=100)
    assert pc.no_gap_claim(tied, "g", 10, "no gap", 3).verdict == "match"
    assert pc.ismcts_vs_best_pi(tied, "g", 10, 3).verdict == "match"
    loss = pc.loss_claim(tied, "g", 10, "PI worse", 0.05, 3)
    assert loss.verdict == "mismatch"
    lo, hi = loss.interval
    assert -0.02 < lo < -0.005 and 0.005 < hi < 0.02
    assert pc.gain_claim(tied, "g", 10, "PI helps", 0.05, 3).verdict == "mismatch"


def test_the_higher_budget_gain_is_not_run_until_its_rows_exist():
    """Regression (preview of the paper preset's partial tables, 2026-11-27): Hearts had rows at
    B = 4000 and none yet at 10000, and building the claims raised "argmin of an empty
    sequence" instead of reporting the Fig. 2 row as not run."""
    rng = np.random.default_rng(3)
    results = _results("hearts", 4000, _cells(0.20, 0.60), 20, rng, players=4)
    missing = pc.high_budget_gain(pc.paired_scores(results, "hearts", 10000), "hearts", 10000, 4)
    assert missing.verdict == "not run" and "B=10000" in missing.claim
    # rows present: the claim is tested; a 40-point gain over 80 paired games is decisive in
    # direction and, against the paper's 10 points, a mismatch of size
    present = pc.high_budget_gain(pc.paired_scores(results, "hearts", 4000), "hearts", 4000, 4)
    assert (present.direction, present.verdict) == ("match", "mismatch") and present.ours > 0.2
    assert present.note.startswith("B=4000, below the paper's 10000")


def _aggregation_table(rng, tv_gap):
    cells = {("olmcts", 1, "none"): 0.33}
    for d in (3, 10):
        cells[("pimcts", d, "TotalVisits")] = 0.40 + tv_gap
        cells[("pimcts", d, "AverageValue")] = 0.40
        cells[("pimcts", d, "SingleVote")] = 0.40
    return pc.paired_scores(_results("g", 100, cells, 300, rng), "g", 100)


def test_a_consistent_aggregation_advantage_refutes_the_equivalence_claim():
    """TotalVisits 15 points below the other two in every game is a consistent advantage:
    mismatch (the rule used to stop at inconclusive whatever the data)."""
    rng = np.random.default_rng(7)
    apart = {(g, 3): _aggregation_table(rng, -0.15) for g in "abcd"}
    claim = pc.aggregation_equivalence(apart, 100)
    assert claim.verdict == "mismatch" and claim.ours < -0.1
    assert "clearest difference TotalVisits - AverageValue" in claim.note
    assert "D > 1 cells of this preset: 3, 10" in claim.note
    together = {(g, 3): _aggregation_table(rng, 0.0) for g in "abcd"}
    assert pc.aggregation_equivalence(together, 100).verdict != "mismatch"


def test_sushi_go_five_against_three_can_match_and_fail():
    rng = np.random.default_rng(8)

    def tables(gain5, gain3):
        return {("sushi_go", 5): pc.paired_scores(_results("s", 100, _cells(0.2, 0.2 + gain5), 300,
                                                           rng, players=5), "s", 100),
                ("sushi_go", 3): pc.paired_scores(_results("s", 100, _cells(0.33, 0.33 + gain3), 300,
                                                           rng), "s", 100)}

    assert pc.five_vs_three(tables(0.25, 0.0), 100).verdict == "match"
    # a larger gain with three players at every cell refutes it (it used to stop at inconclusive)
    smaller = pc.five_vs_three(tables(0.0, 0.25), 100)
    assert smaller.verdict == "mismatch" and smaller.ours < -0.15
    assert pc.five_vs_three(tables(0.05, 0.05), 100).verdict == "inconclusive"


def test_a_loss_claim_reads_pi_mcts_as_a_whole_not_every_d():
    """"PI-MCTS performed worse than the baseline" (the paper names no D, issue 53): the mean
    over the D > 1 cells against the control. One cell equal to the control and one far
    below is worse as a whole (the old rule, "at every D", called it a mismatch); every cell
    equal to the control is shown no worse (mismatch); the note counts the cells below."""
    rng = np.random.default_rng(9)
    cells = {("olmcts", 1, "none"): 0.33}
    for d, p in ((3, 0.33), (10, 0.15)):
        for agg in ("TotalVisits", "AverageValue", "SingleVote"):
            cells[("pimcts", d, agg)] = p
    table = pc.paired_scores(_results("g", 100, cells, 1500, rng), "g", 100)
    claim = pc.loss_claim(table, "g", 100, "PI worse", 0.05, 3)
    assert claim.verdict == "match" and claim.margin == pc.MARGIN
    assert "3/6 cells individually below" in claim.note and claim.row()["bound"].startswith("<= -")
    # every game drawn everywhere: PI-MCTS ties the control exactly over 300 games: no worse
    drawn = pd.DataFrame({"control": [0.5] * 300, "D=10 TotalVisits": [0.5] * 300,
                          "D=100 TotalVisits": [0.5] * 300})
    assert pc.loss_claim(drawn, "t", 4000, "PI worse", 0.05, 2).verdict == "mismatch"
    # three tied deals say little: inconclusive
    assert pc.loss_claim(drawn.head(3), "t", 4000, "PI worse", 0.05, 2).verdict == "inconclusive"


def test_a_known_search_defect_is_stated_on_every_row_it_touches(monkeypatch):
    """A defect known in a game's committed rows (as Hearts' squashed cut-offs were until
    2026-11-28): its own rows carry the defect, a row pooling the games of its budget names
    Hearts when Hearts is among them, and rows of other games, and rows not run, stay as
    they were."""
    from infosets.claims import Claim
    from infosets.papers import pimcts_claims as pc

    monkeypatch.setitem(pc.SEARCH_DEFECTS, "hearts", "Hearts' cut-offs divided by 36")

    rows = [Claim("hearts, B=4000: PI-MCTS beats OL-MCTS by 5%", "+0.05", 0.01, "inconclusive",
                  note="B=4000 (the paper's 4000)"),
            Claim("stratego, B=4000: PI-MCTS beats OL-MCTS", "+0.05", 0.02, "match"),
            Claim("B=4000: TotalVisits collapses at high D", "Sec. VI", -0.03, "inconclusive"),
            Claim("hearts: +10% over OL-MCTS at the higher budget", "+0.10", None, "not run"),
            Claim("Sushi Go!, B=4000: PI-MCTS gain larger with 5 players", "improves", 0.4, "match")]
    rows.append(Claim("B=10: mean tree depth falls as D grows", "Sec. VI", -0.9, "match"))
    noted = pc.defect_notes(rows, {4000: ["hearts", "stratego"], 10: ["sushi_go(players=3)"]})
    assert noted[0].note == f"B=4000 (the paper's 4000); {pc.SEARCH_DEFECTS['hearts']}"
    assert noted[1] == rows[1]
    assert noted[2].note == f"pools hearts: {pc.SEARCH_DEFECTS['hearts']}"
    assert noted[3] == rows[3]
    assert noted[4] == rows[4]  # pools Sushi Go!'s two settings only
    assert noted[5] == rows[5]  # B=10 pools the games run at B=10, not Hearts
    assert pc.defect_notes(rows[1:3], {4000: ["stratego"]}) == rows[1:3]  # no Hearts in the run



def test_no_gap_with_a_cell_sharing_no_deal_with_the_control_is_inconclusive():
    """Regression (2026-11-28): in a table still filling (a run in progress), a D > 1 cell may
    share no deal with the control yet; ``no_gap_claim`` asked for the power at n = 0 (a
    ZeroDivisionError, then a refused n) instead of reporting the row as inconclusive."""
    rng = np.random.default_rng(3)
    early = _results("g", 100, _cells(0.33, 0.33), 20, rng)
    late = (early["agent"] == "pimcts") & (early["D"] == 10)
    early.loc[late, "deal"] += 100  # the D = 10 cells played other deals than the control
    table = pc.paired_scores(early, "g", 100)
    claim = pc.no_gap_claim(table, "g", 100, "no gap", 3)
    assert claim.verdict == "inconclusive" and claim.n == 0 and np.isnan(claim.power)


def test_pairing_check_sees_rotations_that_move_together():
    """Independent rotations give a standard-error ratio near 1; rotations of a deal that
    share one paired difference (a cell that wins or loses a whole deal at once) give about
    sqrt(rotations), the factor by which the claims' intervals would then be too narrow."""
    rng = np.random.default_rng(4)
    independent = pc.pairing_check(_results("g", 100, _cells(0.33, 0.40), 600, rng))
    assert independent.loc[0, "rotations_per_deal"] == 3
    assert 0.85 < independent.loc[0, "se_ratio_median"] < 1.15
    together = _results("g", 100, _cells(0.33, 0.40), 600, rng)
    together = together.sort_values("rotation", kind="stable")
    together["score"] = together.groupby(["agent", "D", "aggregation", "deal"])["score"] \
        .transform("first")  # every rotation of a deal copies rotation 0's score
    clustered = pc.pairing_check(together)
    assert 1.5 < clustered.loc[0, "se_ratio_median"] < 1.95  # sqrt(3) = 1.73
    assert clustered.loc[0, "cells"] == 6


def test_sushi_go_floor_cells_do_not_decide_the_gain():
    """Sushi Go! at D = 1000 (issue 53): PI-MCTS at 1% with 3 players and 2% with 5 'gains'
    more with 5 only because the baseline falls from 1/3 to 1/5. Cells within 5 points of 0
    or 1 leave the family: with only floor cells the row is not run; the old rule matched."""
    rng = np.random.default_rng(11)
    five = pc.paired_scores(_results("s", 100, _cells(0.2, 0.02), 300, rng, players=5), "s", 100)
    three = pc.paired_scores(_results("s", 100, _cells(0.33, 0.01), 300, rng), "s", 100)
    five = five.assign(**{c: 0.0 for c in pc.pi_cells(five)})
    three = three.assign(**{c: 0.0 for c in pc.pi_cells(three)})
    floor = pc.five_vs_three({("sushi_go", 5): five, ("sushi_go", 3): three}, 100)
    assert floor.verdict == "not run" and "within 0.05 of 0 or 1" in floor.note


def test_the_aggregation_claim_is_per_d():
    """Pooled over D the verdict was decided by one D (issue 53: D = 1000); per D each row
    reads its own cells: TotalVisits 15 points down at D = 10 only mismatches at D = 10."""
    rng = np.random.default_rng(12)

    def table():
        cells = {("olmcts", 1, "none"): 0.33}
        for d in (3, 10):
            for agg in ("TotalVisits", "AverageValue", "SingleVote"):
                cells[("pimcts", d, agg)] = 0.25 if (d, agg) == (10, "TotalVisits") else 0.40
        return pc.paired_scores(_results("g", 100, cells, 300, rng), "g", 100)

    tables = {(g, 3): table() for g in "abcd"}
    at10 = pc.aggregation_equivalence(tables, 100, 10)
    assert at10.verdict == "mismatch" and at10.claim.startswith("B=100, D=10:")
    assert "the D=10 cells only" in at10.note
    assert pc.aggregation_equivalence(tables, 100, 3).verdict != "mismatch"


def test_ismcts_against_pi_takes_the_deal_as_unit_when_rotations_correlate():
    """Rotations of a deal that move together (Dominion's standard-error ratio 1.235): the
    test runs over deals, whose standard error is the larger; independent rotations keep the
    (deal, rotation) pairs."""
    idx = pd.MultiIndex.from_product([range(40), range(3)], names=["deal", "rotation"])
    rng = np.random.default_rng(13)
    deal_effect = np.repeat(rng.normal(0, 0.4, 40), 3)
    correlated = pd.Series(deal_effect + rng.normal(0, 0.05, 120), index=idx)
    d, unit = pc._widest_unit(correlated)
    assert len(d) == 40 and unit.startswith("deal (40 deals")
    independent = pd.Series(rng.normal(0, 0.4, 120), index=idx)
    d, unit = pc._widest_unit(independent)
    assert len(d) == 120 or unit.startswith("deal")  # whichever is wider, never the narrower
    se_pairs = np.std(independent, ddof=1) / np.sqrt(120)
    se_deals = independent.groupby(level="deal").mean().std(ddof=1) / np.sqrt(40)
    assert (len(d) == 40) == (se_deals > se_pairs)



def test_ismcts_against_pi_counts_games_per_cell_for_80_power_whatever_its_unit():
    """n_for_80_power is games per cell (claims.Claim): a test over deals needs players games a
    deal, on both halves. Old code gave 2 x the deals the test needs: a third of the games of a
    3-player game, so the stage planner, which scaled it again by the cell's games over the
    claim's n, priced the claim at twice the games it needs."""
    idx = pd.MultiIndex.from_product([range(40), range(3)], names=["deal", "rotation"])
    rng = np.random.default_rng(13)
    deal_effect = np.repeat(rng.normal(0, 0.4, 40), 3)
    pi = 0.4 + deal_effect + rng.normal(0, 0.05, 120)
    table = pd.DataFrame({"control": 0.3, "D=10 TotalVisits": pi,
                          "IS-MCTS": pi + np.repeat(rng.normal(0.01, 0.3, 40), 3)
                                     + rng.normal(0, 0.05, 120)}, index=idx)
    claim = pc.ismcts_vs_best_pi(table, "g", 1, 3)
    assert "unit: deal (20 deals" in claim.note and claim.n == 20
    odd = table[table.index.get_level_values("deal") % 2 == 1]
    d, _ = pc._widest_unit(pc._paired_series(odd, "IS-MCTS", "D=10 TotalVisits"))
    _, need = pc._power(pc.MARGIN, float(np.std(d, ddof=1)), len(d), pc.ALPHA, "greater")
    assert claim.n_for_80_power == 2 * need * 3

def _d_table(rng, by_d, deals=200):
    cells = {("olmcts", 1, "none"): 0.33}
    for d, p in by_d.items():
        for agg in ("TotalVisits", "AverageValue", "SingleVote"):
            cells[("pimcts", d, agg)] = p
    return pc.paired_scores(_results("g", 100, cells, deals, rng), "g", 100)


def test_improves_then_declines_needs_an_interior_peak_in_most_games():
    """Sec. VI, "performance improves as D increases, before declining": three games peaking
    at D = 10 of (3, 10, 100) match; three rising to the largest D mismatch."""
    rng = np.random.default_rng(14)
    peaked = [pc.peak_claim(_d_table(rng, {3: 0.25, 10: 0.55, 100: 0.25}), g, 100) for g in "abc"]
    claim = pc.rises_then_falls(peaked, 100)
    assert claim.verdict == "match" and claim.ours == "3/3 games peak inside the grid"
    rising = [pc.peak_claim(_d_table(rng, {3: 0.2, 10: 0.3, 100: 0.6}), g, 100) for g in "abc"]
    assert pc.rises_then_falls(rising, 100).verdict == "mismatch"


def test_each_game_gets_its_own_improves_then_declines_row():
    """Issue 56 asks the claim per game: a game peaking at D = 10 of (3, 10, 100) reads match,
    with the peak's lead over the end it beats less surely (0.55 - 0.25) and its interval; a
    game rising to the largest D reads mismatch, with the interior's best below that end
    (0.3 - 0.6); a game whose D values play alike is inconclusive; two D values make no row."""
    rng = np.random.default_rng(15)
    peak = pc.peak_claim(_d_table(rng, {3: 0.25, 10: 0.55, 100: 0.25}), "g", 100)
    assert peak.claim == "g, B=100: PI-MCTS improves as D grows, then declines"
    assert peak.verdict == "match" and peak.interval[0] < peak.ours < peak.interval[1]
    assert abs(peak.ours - 0.30) < 0.1 and peak.interval[0] > 0
    assert peak.n == 300  # the odd deals: 100 of 200, three rotations each
    assert "peak D=10" in peak.note
    rising = pc.peak_claim(_d_table(rng, {3: 0.2, 10: 0.3, 100: 0.6}), "g", 100)
    assert rising.verdict == "mismatch" and abs(rising.ours + 0.30) < 0.1 and rising.interval[1] < 0
    assert "best D=100 at an end" in rising.note
    flat = _d_table(rng, {3: 0.4, 10: 0.4, 100: 0.4})
    flat[pc.pi_cells(flat)] = np.repeat(flat[["control"]].to_numpy(), len(pc.pi_cells(flat)), axis=1)
    assert pc.peak_claim(flat, "g", 100).verdict == "inconclusive"  # every D plays alike
    assert pc.peak_claim(_d_table(rng, {3: 0.4, 10: 0.5}), "g", 100) is None


def test_ismcts_best_everywhere_reads_the_per_game_rows():
    from infosets.claims import Claim

    rows = [Claim(f"{g}, B=100: IS-MCTS matches or beats the best PI-MCTS", "p", 0.0, v)
            for g, v in (("a", "match"), ("b", "match"))]
    assert pc.ismcts_best_everywhere(rows, 100).verdict == "match"
    rows.append(Claim("c, B=100: IS-MCTS matches or beats the best PI-MCTS", "p", 0.0, "mismatch"))
    worst = pc.ismcts_best_everywhere(rows, 100)
    assert worst.verdict == "mismatch" and worst.ours == "2/3 games" and "mismatches: c" in worst.note


def _control_rates(cells):
    """OL-MCTS control cells (win rate, n, players) as pimcts_analysis' rates table has them."""
    from infosets import stats

    rows = []
    for i, (rate, n, players) in enumerate(cells):
        est = stats.wilson_interval(rate * n, n)
        rows.append({"game": f"g{i}", "budget": 100, "agent": "olmcts", "win_rate": rate,
                     "lo": est.lo, "hi": est.hi, "n": n, "baseline": 1 / players})
    return pd.DataFrame(rows), [{"game": f"g{i}"} for i in range(len(cells))]


def test_one_control_cell_of_sixteen_outside_its_interval_is_chance_not_a_broken_harness():
    """15 of 16 sound cells inside their 95% interval happens with probability 0.46: the check
    tests every cell against 1/players with Holm, so a miss at p = 0.03 stays a match (the old
    rule read it as a mismatch: pimcts default's Hearts B = 150 control, 13.5 wins of 32)."""
    rates, run = _control_rates([(0.25, 32, 4)] * 15 + [(13.5 / 32, 32, 4)])
    claim = pc.control_claim(rates, run)
    assert claim.ours.startswith("15/16") and claim.verdict == "match"
    rates, run = _control_rates([(0.25, 32, 4)] * 15 + [(0.75, 200, 4)])
    claim = pc.control_claim(rates, run)
    assert claim.verdict == "mismatch"
    # the note names the cell that rejects, so a reader can find it without the rates table
    assert claim.note == ("1 cell(s) reject after Holm: g15 B=100: 0.750 of 200 games "
                          "(1/players 0.250, Holm-adjusted p 0.00)")


def test_games_per_cell_can_be_set_per_cell():
    """The tag rerun grows only the cells a claim reads (docs/tag_agents.md, "Growing only the
    cells a claim reads"): a per-cell cap adds that cell's blocks, keeps every other task and
    the deals of every block already played, and shows in the plan and the game table."""
    from infosets.experiments import config
    from infosets.papers import pimcts_costs

    base = config.load("pimcts_aggregation", "smoke")
    cfg = config.load("pimcts_aggregation", "smoke", overrides={
        "games_per_cell_by_cell": {"leduc_poker": {"IS-MCTS": 18, "D=3 SingleVote": 12}}})
    assert pa.games_per_cell(cfg, "leduc_poker", cell="IS-MCTS") == 18
    assert pa.games_per_cell(cfg, "leduc_poker", cell="D=3 TotalVisits") == 6
    assert pa.games_per_cell(cfg, "leduc_poker") == 6
    assert pa.games_per_cell(cfg, "tic_tac_toe", "high", cell="IS-MCTS") == 4  # Fig. 1 only

    def ids(c):
        return {t.task_id: t.params for t in pa.tournament_tasks(c)}

    old, new = ids(base), ids(cfg)
    assert set(old) <= set(new)
    added = [p for k, p in new.items() if k not in old]
    assert sorted((p["agent"], p["D"], p["aggregation"], p["block"]) for p in added) == [
        ("ismcts", 0, "none", 1), ("ismcts", 0, "none", 2), ("pimcts", 3, "SingleVote", 1)]
    assert all(p["game"] == "leduc_poker" and p.get("part") is None for p in added)
    for params in old.values():  # a block already played keeps its deals
        players = pyspiel.load_game(params["game"]).num_players()
        assert pa.task_deals(cfg, params, players) == pa.task_deals(base, params, players)
    last = next(p for p in added if p["agent"] == "ismcts" and p["block"] == 2)
    assert pa.task_deals(cfg, last, 2) == range(6, 9)
    plan = pimcts_costs.plan(cfg, pimcts_costs.load_costs()).set_index(["game", "budget"])
    before = pimcts_costs.plan(base, pimcts_costs.load_costs()).set_index(["game", "budget"])
    assert plan.loc[("leduc_poker", 30), "games"] == before.loc[("leduc_poker", 30), "games"] + 12 + 6
    assert plan.loc[("leduc_poker", 30), "games_per_cell"] == 6
    table = analysis.game_table(cfg).set_index(["game", "slice"])
    assert table.loc[("leduc_poker", "main"), "own_caps"] == "IS-MCTS 18; D=3 SingleVote 12"
    assert "own_caps" not in analysis.game_table(base).columns
    # a bad cap is a one-line error naming it, before any compute
    for bad, match in [({"leduc_poker": {"IS-MCTS": 8}}, r"\['IS-MCTS'\]: 8 games is not whole "
                                                         r"blocks of 6 .*use 6 or 12$"),
                       ({"leduc_poker": {"IS-MCTS": 4}}, r"\['IS-MCTS'\]: 4 games is not whole "
                                                         r"blocks of 6 .*use 6$"),  # not "6 or 6"
                       ({"leduc_poker": {"D=7 SingleVote": 6}}, r"'D=7 SingleVote'\]: not a cell"),
                       ({"leduc_poker": {"ISMCTS": 6}}, r"'ISMCTS'\]: .*'control' or 'IS-MCTS'"),
                       ({"hearts": {"IS-MCTS": 6}}, r"\['hearts'\]: not a game"),
                       ({"leduc_poker": {}}, r"\['leduc_poker'\]: expected a mapping")]:
        with pytest.raises(config.ConfigError, match=match):
            config.load("pimcts_aggregation", "smoke", overrides={"games_per_cell_by_cell": bad})
