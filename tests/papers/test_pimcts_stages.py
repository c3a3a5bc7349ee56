"""The tag rerun's stage planner (infosets.papers.pimcts_stages): stage sizes, the looks'
inflation, each claim's z rebuilt from its interval, the looks and the funding, on hand-made
claims and costs."""

import json
import math
from pathlib import Path

import pandas as pd
import pytest

from infosets.claims import Claim
from infosets.papers import pimcts_looks as looks
from infosets.papers import pimcts_stages as ps
from infosets.sequential import boundaries, inflation


def test_stages_double_from_sixty_and_end_at_the_cap():
    assert looks.stage_sizes(60) == [60]
    assert looks.stage_sizes(1000) == [60, 120, 240, 480, 960, 1000]
    assert looks.stage_sizes(480) == [60, 120, 240, 480]
    with pytest.raises(ValueError, match="cap"):
        looks.stage_sizes(59)


def test_one_look_costs_nothing_and_five_looks_a_few_percent():
    assert inflation((1.0,)) == 1.0
    # O'Brien-Fleming type, five equal looks, one-sided 0.05, power 0.8: a few percent more
    # games than the fixed design (Jennison and Turnbull's tables: 1.02-1.03)
    assert 1.005 < inflation((0.2, 0.4, 0.6, 0.8, 1.0), paths=100_000) < 1.06


def _claim(text, ours, interval, n, **kw):
    return Claim(text, "paper", ours, "inconclusive", interval=interval, n=n, **kw)


def test_z_is_rebuilt_from_the_interval_on_the_claims_side():
    se = 0.1 / (2 * 1.962)  # t quantile at n - 1 = 999
    gain = _claim("g, B=1: PI-MCTS beats OL-MCTS by 5%", 0.1, (0.0, 0.2), 1000)
    assert looks.claim_z(gain) == pytest.approx(0.1 / (2 * se), rel=1e-3)
    loss = _claim("g, B=1: worse", -0.1, (-0.2, 0.0), 1000, alternative="less")
    assert looks.claim_z(loss) == pytest.approx(looks.claim_z(gain), rel=1e-9)
    inferior = _claim("g, B=1: IS-MCTS matches or beats the best PI-MCTS", 0.0, (-0.1, 0.1), 1000,
                      margin=0.03)
    assert looks.claim_z(inferior) == pytest.approx(0.03 / (2 * se), rel=1e-3)
    tost = _claim("g, B=1: no gap", 0.01, (-0.01, 0.03), 1000, margin=0.03, test="paired TOST")
    assert looks.claim_z(tost) == pytest.approx(0.02 / (0.02 / 1.6464), rel=1e-3)
    assert math.isnan(looks.claim_z(_claim("g, B=1: no number", "3/9", None, 9)))


COSTS = pd.DataFrame([
    {"game": "a", "players": 2, "cells": 3, "n": 60, "complete": True, "cpu_s_per_game_all_cells": 36.0},
    {"game": "b", "players": 3, "cells": 3, "n": 60, "complete": True, "cpu_s_per_game_all_cells": 360.0},
    {"game": "c", "players": 3, "cells": 3, "n": 12, "complete": False, "cpu_s_per_game_all_cells": 1.0},
])


def test_a_look_decides_a_large_z_and_sizes_the_cap_for_the_rest():
    claims = [
        _claim("a, B=1: decided", 0.3, (0.25, 0.35), 60, power=1.0, n_for_80_power=10),
        _claim("a, B=1: open", 0.02, (-0.1, 0.14), 60, power=0.1, n_for_80_power=500),
        # on half the deals, one unit a deal of 2 games: 300 units the test needs are 600
        # games a cell on the test's half, 1200 with the half the best cell is chosen on
        _claim("a, B=1: IS-MCTS matches or beats the best PI-MCTS", 0.0, (-0.2, 0.2), 15,
               margin=0.03, power=0.1, n_for_80_power=1200),
        _claim("c, B=1: stage not complete", 0.0, (-0.2, 0.2), 12, n_for_80_power=300),
    ]
    table = ps.looks(claims, COSTS, block_size=12).set_index("claim")
    assert "c, B=1: stage not complete" not in table.index
    decided = table.loc["a, B=1: decided"]
    assert decided["decided"] and decided["z"] > decided["boundary"]
    assert decided["games_per_cell_for_80"] == 60 and decided["cpu_hours_to_80"] == 0
    opened = table.loc["a, B=1: open"]
    assert not opened["decided"] and opened["look"] == 1
    sizes = looks.stage_sizes(opened["games_per_cell_for_80"])
    assert opened["looks"] == len(sizes)
    assert opened["boundary"] == pytest.approx(boundaries([s / sizes[-1] for s in sizes])[0], abs=0.01)
    # 500 games, inflated for its looks, in whole blocks of 12 games
    assert 500 < opened["games_per_cell_for_80"] <= 540 and opened["games_per_cell_for_80"] % 12 == 0
    added = (opened["games_per_cell_for_80"] - 60) * 36 / 3600
    assert opened["cpu_hours_to_80"] == pytest.approx(added, abs=0.01)
    scaled = table.loc["a, B=1: IS-MCTS matches or beats the best PI-MCTS"]
    # games a cell as the claims table gives them, inflated; not scaled again by the claim's n
    # (old code: 15 units for 60 games, so x 4: 4,800 games)
    assert 1200 < scaled["games_per_cell_for_80"] <= 1300


def test_funding_takes_the_cheapest_claims_and_a_claim_under_a_funded_cap_is_free():
    rows = [("a", "a1", False, 1.0, 460, 4.0), ("a", "a2", False, 1.0, 260, 2.0),
            ("b", "b1", False, 1.0, 160, 10.0), ("a", "done", True, 9.0, 60, 0.0),
            ("a", "no look", False, float("nan"), 60, 0.0)]
    table = pd.DataFrame(rows, columns=["game", "claim", "decided", "z", "games_per_cell_for_80",
                                        "cpu_hours_to_80"]).assign(against=False)
    funded = ps.fund(table, COSTS, hours_left=5.0).set_index("claim")
    assert list(funded.index) == ["a2", "a1", "b1"]
    assert funded.loc["a2", "added_cpu_hours"] == 2.0 and funded.loc["a2", "funded"]
    # a1 adds only its 200 games beyond a2's 260 (2 CPU-h), within the 3 left
    assert funded.loc["a1", "added_cpu_hours"] == 2.0 and funded.loc["a1", "funded"]
    assert funded.loc["a1", "cap"] == 460
    assert not funded.loc["b1", "funded"] and funded.loc["b1", "cap"] == 60


def _results(cells: dict, players: int = 2) -> pd.DataFrame:
    """Tournament rows of one game "g": per cell (agent, D, aggregation) its score on every
    (deal, rotation) and the focus seat's CPU seconds of each game."""
    rows = []
    for (agent, d, aggregation), (scores, cpu) in cells.items():
        for i, score in enumerate(scores):
            rows.append({"game": "g", "players": players, "agent": agent, "D": d,
                         "aggregation": aggregation, "deal": i // players, "rotation": i % players,
                         "budget": 1, "score": score, "cpu_seconds": cpu})
    return pd.DataFrame(rows)


# 60 games a cell (30 deals of 2 rotations), each pattern an even deal then an odd one
CELLS = {("olmcts", 1, "none"): ([0.5] * 60, 2.0),
         ("pimcts", 10, "TotalVisits"): ([1, 0, 0, 0] * 15, 4.0),   # 0.5 on the even deals
         ("pimcts", 100, "TotalVisits"): ([1, 1, 0, 0] * 15, 10.0),  # 1.0 on the even deals
         ("ismcts", 0, "none"): ([0, 1, 0, 1] * 15, 6.0)}


def test_a_cell_costs_its_focus_seat_and_its_opponents_and_a_game_every_cell():
    results = _results(CELLS)
    per_cell = ps.cell_costs(results).set_index("cell")
    # focus seat + one OL-MCTS opponent at the control's focus cost (2 CPU-s)
    assert per_cell.loc["IS-MCTS", "cpu_s_per_game"] == 8.0
    assert per_cell.loc["control", "cpu_s_per_game"] == 4.0
    assert set(per_cell["n"]) == {60}
    game = ps.game_costs(results).iloc[0]
    assert game["cells"] == 4 and game["n"] == 60 and game["complete"]
    assert game["cpu_s_per_game_all_cells"] == 4 + 6 + 12 + 8
    short = ps.game_costs(results.iloc[:-1]).iloc[0]
    assert short["n"] == 59 and not short["complete"]


def test_is_mcts_against_the_best_cell_reads_two_cells_and_the_other_claims_every_cell():
    from infosets.papers.pimcts_claims import paired_scores

    table = paired_scores(_results(CELLS), "g", 1)
    versus = _claim("g, B=1: IS-MCTS matches or beats the best PI-MCTS", 0.0, (-0.2, 0.2), 30)
    assert ps.claim_cells(versus, table) == ("IS-MCTS", "D=100 TotalVisits")
    gain = _claim("g, B=1: PI-MCTS beats OL-MCTS by 5%", 0.1, (0.0, 0.2), 60)
    assert set(ps.claim_cells(gain, table)) == {"control", "D=10 TotalVisits", "D=100 TotalVisits"}
    surpass = _claim("g, B=1: PI-MCTS (TotalVisits, D 100-500) surpasses IS-MCTS", 0.1, (0.0, 0.2), 60)
    assert "IS-MCTS" in ps.claim_cells(surpass, table)


def test_growing_a_claims_own_cells_costs_those_cells_only_and_shared_cells_come_free():
    results = _results(CELLS)
    per_cell, costs = ps.cell_costs(results), ps.game_costs(results)
    every = tuple(per_cell["cell"])
    versus = _claim("g, B=1: IS-MCTS matches or beats the best PI-MCTS", 0.0, (-0.2, 0.2), 30,
                    n_for_80_power=400)
    gain = _claim("g, B=1: PI-MCTS beats OL-MCTS by 5%", 0.0, (-0.2, 0.2), 60, n_for_80_power=200)
    cells = {versus.claim: ("IS-MCTS", "D=100 TotalVisits"), gain.claim: every}
    together = ps.looks([versus, gain], costs, block_size=2).set_index("claim")
    own = ps.looks([versus, gain], costs, block_size=2, cells=cells, per_cell=per_cell,
                   selected={versus.claim: 30}).set_index("claim")
    # cells growing together: the split half grows too, so the cap is the claims table's 400
    # games (both halves), inflated for the looks, and every cell pays (30 CPU-s a game)
    wide = together.loc[versus.claim, "games_per_cell_for_80"]
    assert 400 < wide <= 440
    assert together.loc[versus.claim, "cpu_hours_to_80"] == pytest.approx((wide - 60) * 30 / 3600, abs=0.01)
    # own cells: the 30 games the best cell was chosen on stay; the test needs its half, 200
    # games, inflated; two cells pay (8 + 12 CPU-s a game); the look's fraction counts test games
    mine = own.loc[versus.claim]
    assert 230 < mine["games_per_cell_for_80"] <= 250 and mine["chosen_on"] == 30
    assert mine["cpu_hours_to_80"] == pytest.approx(
        (mine["games_per_cell_for_80"] - 60) * 20 / 3600, abs=0.01)
    assert mine["fraction"] == pytest.approx(30 / (mine["games_per_cell_for_80"] - 30), abs=1e-3)
    assert own.loc[gain.claim, "games_per_cell_for_80"] == together.loc[gain.claim, "games_per_cell_for_80"]
    assert own.loc[gain.claim, "cpu_hours_to_80"] == together.loc[gain.claim, "cpu_hours_to_80"]
    plan = ps.fund(own.reset_index(), per_cell, hours_left=100.0).set_index("claim")
    assert plan["funded"].all()
    # the cheaper IS-MCTS claim first; the gain claim then grows every cell to its cap, its
    # two cells already beyond that come free
    cap = own.loc[gain.claim, "games_per_cell_for_80"]
    first = mine["games_per_cell_for_80"]
    assert cap < first
    assert list(plan.index) == [versus.claim, gain.claim]
    assert plan.loc[gain.claim, "added_cpu_hours"] == pytest.approx((cap - 60) * 10 / 3600, abs=0.01)
    caps = ps.funded_caps(plan.reset_index(), own.reset_index(), per_cell).set_index("cell")["cap"]
    assert caps.to_dict() == {"IS-MCTS": first, "D=100 TotalVisits": first, "control": cap,
                              "D=10 TotalVisits": cap}


def test_the_best_cell_is_chosen_on_the_shared_deals_and_later_deals_all_go_to_the_test():
    """With IS-MCTS and the chosen cell grown beyond the others (per-cell caps), the choice is
    still the shared deals' and the test reads every deal not chosen on, even or odd."""
    from infosets.papers.pimcts_claims import ismcts_vs_best_pi, paired_scores, selection_deals

    grown = {**CELLS, ("pimcts", 100, "TotalVisits"): ([1, 1, 0, 0] * 15 + [0, 0, 0, 0] * 15, 10.0),
             ("ismcts", 0, "none"): ([0, 1, 0, 1] * 30, 6.0)}
    table = paired_scores(_results(grown), "g", 1)
    assert len(table) == 120
    chosen_on = set(selection_deals(table).index.get_level_values("deal"))
    assert chosen_on == set(range(0, 30, 2))
    claim = ismcts_vs_best_pi(table, "g", 1, 2)
    assert "D=100 TotalVisits" in claim.note  # the shared deals' choice, not undone by deals 30-59
    assert claim.n == 120 - 30  # the 15 odd shared deals and the 30 later ones, 2 rotations each
    same = ismcts_vs_best_pi(paired_scores(_results(CELLS), "g", 1), "g", 1, 2)
    assert same.n == 30  # cells that hold the same deals: the odd deals, as before


def test_a_look_waits_for_the_planned_caps_and_reads_a_claims_own_cells():
    """With per-cell caps (``games_per_cell_by_cell``) a game's cells hold different numbers
    of games: the stage is complete once every cell holds what the preset plans for it, and a
    claim's look counts the games of its own cells. Old code: a game whose cells differ was
    never complete, so no claim of it was looked at again."""
    grown = {**CELLS, ("pimcts", 100, "TotalVisits"): ([1, 1, 0, 0] * 30, 10.0),
             ("ismcts", 0, "none"): ([0, 1, 0, 1] * 30, 6.0)}
    results, per_cell = _results(grown), ps.cell_costs(_results(grown))
    planned = {("g", c): 60 for c in ("control", "D=10 TotalVisits")}
    planned.update({("g", "IS-MCTS"): 120, ("g", "D=100 TotalVisits"): 120})
    assert ps.game_costs(results, planned).iloc[0]["complete"]
    assert not ps.game_costs(results).iloc[0]["complete"]  # without the plan: cells differ
    short = {**planned, ("g", "IS-MCTS"): 180}
    assert not ps.game_costs(results, short).iloc[0]["complete"]
    versus = _claim("g, B=1: IS-MCTS matches or beats the best PI-MCTS", 0.0, (-0.2, 0.2), 90,
                    n_for_80_power=400)
    gain = _claim("g, B=1: PI-MCTS beats OL-MCTS by 5%", 0.0, (-0.2, 0.2), 60, n_for_80_power=200)
    cells = {versus.claim: ("IS-MCTS", "D=100 TotalVisits"), gain.claim: tuple(per_cell["cell"])}
    table = ps.looks([versus, gain], ps.game_costs(results, planned), block_size=2, cells=cells,
                     per_cell=per_cell).set_index("claim")
    assert table.loc[versus.claim, "games_per_cell"] == 120
    assert table.loc[versus.claim, "look"] == 2  # 60 then 120 games: its second look
    assert table.loc[gain.claim, "games_per_cell"] == 60
    cap = table.loc[gain.claim, "games_per_cell_for_80"]
    # the gain claim grows the two cells at 60 from 60, and the two at 120 from 120
    assert table.loc[gain.claim, "cpu_hours_to_80"] == pytest.approx(
        ((cap - 60) * (4 + 6) + max(cap - 120, 0) * (12 + 8)) / 3600, abs=0.01)


def test_planned_games_follow_the_presets_per_game_and_per_cell_caps():
    from infosets.experiments import config

    cfg = config.load("pimcts_aggregation", "smoke", overrides={
        "games_per_cell_by_game": {"tic_tac_toe": 12},
        "games_per_cell_by_cell": {"leduc_poker": {"IS-MCTS": 18}}})
    planned = ps.planned_games(cfg)
    assert planned[("leduc_poker", "IS-MCTS")] == 18
    assert planned[("leduc_poker", "control")] == 6
    assert planned[("tic_tac_toe", "D=3 SingleVote")] == 12
    assert planned[("kuhn_poker(players=3)", "control")] == 6  # 2 deals of 3 rotations


def test_the_preset_entry_is_a_line_the_preset_loads_with_the_plans_caps():
    """``--preset-entry`` prints the per-cell plan as the preset's line; loaded as an override,
    the tournament plans exactly those caps (a cap not in whole blocks would be refused)."""
    import yaml

    from infosets.experiments import config

    caps = pd.DataFrame({"game": ["leduc_poker", "leduc_poker"], "cell": ["IS-MCTS", "D=3 SingleVote"],
                         "games_now": [6, 6], "cap": [18, 12]})
    line = ps.preset_entry(caps)
    assert line.startswith("games_per_cell_by_cell: {")
    cfg = config.load("pimcts_aggregation", "smoke", overrides=yaml.safe_load(line))
    planned = ps.planned_games(cfg)
    assert planned[("leduc_poker", "IS-MCTS")] == 18 and planned[("leduc_poker", "D=3 SingleVote")] == 12
    assert planned[("leduc_poker", "control")] == 6
    assert ps.preset_entry(caps.iloc[:0]) == "games_per_cell_by_cell: null"


def test_a_look_after_stage_two_counts_the_looks_taken_past_the_selection():
    """The rerun went from stage 1 (60 games a cell) straight to its caps. In Hearts every cell
    grew to 1,260 for the +5% claim, so "IS-MCTS matches or beats the best PI-MCTS" chose its
    cell on 632 games (the even deals every cell played), more than stage 1 held, and its
    cells (IS-MCTS and the chosen cell) hold 1,260. Old code: the looks were stage 1's
    doublings from 60 whatever the selection, their information fractions came out negative
    and ``sequential.boundaries`` raised, so ``python -m infosets.papers.pimcts_stages`` failed
    on the committed tables once Hearts' stage 2 was in."""
    assert looks.look_sizes(60, 60) == [60]
    assert looks.look_sizes(60, 500) == [60, 120, 240, 480, 500]  # stage 1: the doublings to come
    assert looks.look_sizes(1260, 1260) == [60, 1260]  # stage 2 in: the two looks taken
    # after stage 1 the next look is the cap itself: the rerun goes straight to its caps
    assert looks.look_sizes(1260, 2232, chosen_on=632) == [1260, 2232]
    costs = pd.DataFrame([{"game": "h", "players": 4, "cells": 2, "n": 1260, "complete": True,
                           "cpu_s_per_game_all_cells": 10.0}])
    per_cell = pd.DataFrame([{"game": "h", "cell": c, "players": 4, "n": 1260, "cpu_s_per_game": 5.0}
                             for c in ("IS-MCTS", "D=30 SingleVote")])
    versus = _claim("h, B=1: IS-MCTS matches or beats the best PI-MCTS", -0.02, (-0.06, 0.014), 628,
                    margin=0.03, n_for_80_power=3200)
    gain = _claim("h, B=1: PI-MCTS beats OL-MCTS by 5%", 0.05, (0.02, 0.08), 1260, n_for_80_power=1000)
    cells = {versus.claim: ("IS-MCTS", "D=30 SingleVote"), gain.claim: ("IS-MCTS", "D=30 SingleVote")}
    table = ps.looks([versus, gain], costs, block_size=12, cells=cells, per_cell=per_cell,
                     selected={versus.claim: 632}).set_index("claim")
    assert table.loc[gain.claim, "look"] == 2 and table.loc[gain.claim, "looks"] == 2
    assert table.loc[gain.claim, "fraction"] == 1.0 and table.loc[gain.claim, "decided"]
    # the selection's 632 games leave 628 a cell to the test now; the cap gives it 3200 / 2
    looked = table.loc[versus.claim]
    assert looked["look"] == 1 and looked["games_per_cell_for_80"] > 632 + 1600
    cap = looked["games_per_cell_for_80"]
    assert looked["fraction"] == pytest.approx((1260 - 632) / (cap - 632), abs=1e-3)


def test_the_last_look_reads_a_grown_claim_against_the_boundary_of_two_looks():
    """A game whose cells grew from 60 to 120 games: its gain claim was looked at twice, so its
    last boundary is O'Brien-Fleming's at fractions (0.5, 1), above the fixed sample's 1.645,
    and a "match" with z between the two is open under the design. A budget the stages did not
    grow had one look; the IS-MCTS row counts only the games past its selection."""
    from infosets.papers import pimcts_looks
    from infosets.papers.pimcts_claims import paired_scores, selection_deals

    grown = {cell: (scores * 2, cpu) for cell, (scores, cpu) in CELLS.items()}
    results = _results(grown)
    z_between = 1.655  # between 1.645 and the two-look boundary, 1.662
    se = 0.1
    half = se * pimcts_looks.sps.t.ppf(0.975, 119)
    gain = Claim("g, B=1: PI-MCTS beats OL-MCTS by 5%", "paper", z_between * se, "match",
                 interval=(z_between * se - half, z_between * se + half), n=120)
    versus = _claim("g, B=1: IS-MCTS matches or beats the best PI-MCTS", 0.0, (-0.2, 0.2), 60,
                    margin=0.03)
    table = pimcts_looks.last_looks([gain, versus], results, {"g": 1}).set_index("claim")
    row = table.loc[gain.claim]
    assert row["games_per_cell"] == 120 and row["looks"] == "60, 120"
    assert row["last_boundary"] == pytest.approx(boundaries([0.5, 1.0])[-1], abs=1e-3)
    assert row["last_boundary"] > z_between and row["z"] == pytest.approx(z_between, abs=0.01)
    assert row["verdict"] == "match" and not row["reaches_it"]
    chosen_on = len(selection_deals(paired_scores(results, "g", 1)))
    assert table.loc[versus.claim, "chosen_on"] == chosen_on == 60  # even deals: 30 x 2 games
    assert table.loc[versus.claim, "looks"] == "120"  # the look at 60 held no test game
    once = pimcts_looks.last_looks([gain], results, {"g": 2}).iloc[0]  # not a staged budget
    assert once["looks"] == "120" and once["last_boundary"] == pytest.approx(1.645, abs=1e-3)


def test_the_tag_report_reads_its_committed_games_at_their_last_looks(monkeypatch):
    """``save_stage_looks`` on the tag rerun's committed tournament (whatever stage it has
    reached), as the notebook calls it: one row per per-game claim of the games it holds, a z
    and a boundary between the fixed sample's 1.645 and 1.662 for each row with an interval,
    saved as ``claims_stage_looks``; nothing for a preset that plays one size. Hearts' Fig. 2
    row (B = 10,000, one size) says so and what power would cost, and the planner prices no
    Fig. 2 row (it priced them with the game's Fig. 1 cells: 1,428 games, 0.0 CPU-hours)."""
    from infosets.experiments import config
    from infosets.papers import pimcts_analysis

    saved, planned = {}, {}
    plans = ps.plans
    monkeypatch.setattr(ps, "plans", lambda *a, **k: planned.setdefault("plan", plans(*a, **k)))

    class Session:
        def __init__(self, cfg):
            self.cfg = cfg

        def save_table(self, frame, name, paper_ref=""):
            saved[name] = frame

    repo = Path(__file__).resolve().parents[2]  # the committed table (the tests' results root is empty)
    results = pd.read_parquet(repo / "results" / "pimcts_aggregation" / "tag" / "tournament.parquet")
    results = results[results["game"].isin(["tic_tac_toe", "hearts"])]
    rates = pimcts_analysis.win_rates(results)
    tag = Session(config.load("pimcts_aggregation", "tag"))
    frame = ps.save_stage_looks(results, rates, tag)
    assert saved["claims_stage_looks"] is frame
    assert set(frame["claim"].str.split(",").str[0]) == {"tic_tac_toe", "hearts"}
    looked = frame.dropna(subset=["z"])
    assert len(looked) >= 4
    assert looked["last_boundary"].between(1.6448, 1.6622).all()
    assert (looked["reaches_it"] == (looked["z"] >= looked["last_boundary"])).all()
    assert (looked["against"] == (looked["z"] <= -looked["last_boundary"])).all()
    decided = looked["reaches_it"].astype(bool) & looked["verdict"].isin(["match", "mismatch"])
    assert (frame.loc[decided.index[decided], "why"] == "decided: z reaches its boundary").all()
    assert frame["why"].str.len().gt(0).all()
    assert not planned["plan"]["own"]["claim"].str.contains("B=10000").any()
    fig2 = frame.set_index("claim").loc["hearts, B=10000: PI-MCTS beats OL-MCTS by 10%"]
    assert fig2["games_per_cell"] == 60 and fig2["looks"] == "60"
    assert "still being played" not in fig2["why"]
    if fig2["verdict"] == "inconclusive":
        assert fig2["why"].startswith("open, one size by design: Fig. 2's slice is one look at 60 ")
        assert "80% power at the paper's effect would need" in fig2["why"]
    assert ps.save_stage_looks(results, rates, Session(config.load(
        "pimcts_aggregation", "paper"))) is None


def test_the_tag_report_states_the_plan_and_the_spent_cpu_per_game():
    """Issue 56: "state the plan and the spent figure per game". On the committed tag
    tournament: one row per game and budget of the preset (Fig. 2's three at B = 10,000
    too), every one planned; the games' all-seat CPU adds up to the recorded total; nothing
    for a preset that plays one size."""
    from infosets.experiments import config
    from infosets.papers import pimcts_analysis

    repo = Path(__file__).resolve().parents[2]
    results = pd.read_parquet(repo / "results" / "pimcts_aggregation" / "tag" / "tournament.parquet")
    cfg = config.load("pimcts_aggregation", "tag")
    table = pimcts_analysis.staged_costs(results, cfg, recorded_cpu_s=36_000.0)
    games = table[table["game"] != "TOTAL"]
    assert len(games) == 13 + 3 and (games["planned_cpu_h"] > 0).all()
    assert set(games.loc[games["budget"] == 10_000, "game"]) == {"hearts", "stratego",
                                                                  "poker_tag(players=3)"}
    total = table[table["game"] == "TOTAL"].iloc[0]
    assert total["spent_cpu_h"] == pytest.approx(10.0)  # the recorded 36,000 CPU-s
    assert total["tasks"] == results["task_id"].nunique() and total["games"] == len(results)
    # The notebook gets the runner's frame, which has no task_id column (only the committed
    # parquet does): the first complete run's report failed on it (KeyError 'task_id').
    runner_frame = results.drop(columns="task_id")
    pd.testing.assert_frame_equal(
        pimcts_analysis.staged_costs(runner_frame, cfg, recorded_cpu_s=36_000.0), table)
    played = games[games["games"] > 0]
    assert (played["spent_cpu_h"] > 0).all() and (played["focus_cpu_h"] > 0).all()

    class Session:
        cfg = config.load("pimcts_aggregation", "paper")
        committed = None

    assert pimcts_analysis.save_staged_costs(results, Session()) is None


def test_a_claim_with_no_game_past_its_selection_has_no_look():
    """On a run in progress an IS-MCTS cell can hold only even deals, all of them the
    selection's: its row has no boundary (NaN) rather than a division by zero."""
    from infosets.papers import pimcts_looks

    even_only = _results({cell: (scores[:2], cpu) for cell, (scores, cpu) in CELLS.items()})
    versus = _claim("g, B=1: IS-MCTS matches or beats the best PI-MCTS", 0.0, (-0.2, 0.2), 2,
                    margin=0.03)
    row = pimcts_looks.last_looks([versus], even_only, {"g": 1}).iloc[0]
    assert row["chosen_on"] == row["games_per_cell"] == 2
    assert math.isnan(row["last_boundary"]) and row["reaches_it"] is None and row["looks"] == ""


HEARTS_LOOKS = pd.DataFrame(
    [{"look": 2, "game": "h", "cell": c, "games": n} for c, n in
     (("IS-MCTS", 1656), ("D=300 SingleVote", 1656), ("D=30 SingleVote", 1260), ("control", 1260))]
    + [{"look": 3, "game": "h", "cell": c, "games": 2232} for c in ("IS-MCTS", "D=30 SingleVote")])


def test_the_looks_taken_are_read_from_the_record_per_claims_cells():
    """The third look grows Hearts' IS-MCTS row past the 1,260 games its cells held at the
    second look. Old code: the looks taken were always 60 and the size now, so the row's
    last look at 2,232 games forgot its look at 1,260 and was read against one look's boundary
    (1.645) rather than two's. A look that grew none of a claim's cells is none of its looks."""
    assert looks.taken_sizes("h", ("IS-MCTS", "D=30 SingleVote"), HEARTS_LOOKS) == [60, 1260, 2232]
    assert looks.taken_sizes("h", ("IS-MCTS", "D=300 SingleVote"), HEARTS_LOOKS) == [60, 1656]  # D=300 stays
    assert looks.taken_sizes("h", ("control", "D=30 SingleVote"), HEARTS_LOOKS) == [60, 1260]
    assert looks.taken_sizes("h", ("control", "D=10 TotalVisits"), HEARTS_LOOKS) == [60]
    assert looks.taken_sizes("other", ("IS-MCTS",), HEARTS_LOOKS) == [60]
    assert looks.taken_sizes("h", ("IS-MCTS",), None) == [60]
    taken = [60, 1260, 2232]
    assert looks.look_sizes(2232, 2232, chosen_on=632, taken=taken) == [1260, 2232]
    # the third look being played: the games in so far are read as the size now
    assert looks.look_sizes(1800, 1800, chosen_on=632, taken=taken) == [1260, 1800]
    # planning from the second look: one look to come, at the cap
    assert looks.look_sizes(1260, 2232, chosen_on=632, taken=[60, 1260]) == [1260, 2232]
    two = boundaries([(1260 - 632) / 1600, 1.0])[-1]
    assert two > 1.6455  # the one-look boundary is 1.645


def test_the_committed_record_names_the_presets_cells_and_their_caps():
    """``pimcts_tag_looks.csv`` records each look's caps as the preset set them: its last look
    of each cell is the preset's cap now, and every game and cell it names is one the preset
    plays (a misspelt cell would silently count as no look)."""
    from infosets.experiments import config

    record = looks.recorded_looks()
    assert list(record.columns) == ["look", "game", "cell", "games"] and record["look"].min() == 2
    last = record.sort_values("look").groupby(["game", "cell"])["games"].last()
    caps = config.load("pimcts_aggregation", "tag")["games_per_cell_by_cell"]
    assert {(g, c): n for g, cells in caps.items() for c, n in cells.items()} == last.to_dict()
    planned = ps.planned_games(config.load("pimcts_aggregation", "tag"))
    assert set(last.index) <= set(planned)


def test_adopting_a_look_keeps_the_caps_the_preset_holds_and_records_the_look(tmp_path):
    """``--adopt`` at the third look. The planner's caps name only the cells it grows; the old
    ``preset_entry`` printed those alone, so pasting it over the preset's line would have sent
    every other grown cell back to 60 games (and the tournament would have dropped their
    committed blocks). Merged, a cell keeps the larger cap; the look goes to the record."""
    import yaml

    current = {"h": {"IS-MCTS": 1656, "D=30 SingleVote": 1260, "control": 1260}}
    caps = pd.DataFrame({"game": ["h", "h"], "cell": ["IS-MCTS", "D=30 SingleVote"],
                         "games_now": [1656, 1260], "cap": [1500, 2232]})
    assert ps.merged_caps(caps, current) == {"h": {"IS-MCTS": 1656, "D=30 SingleVote": 2232,
                                                   "control": 1260}}
    line = ps.preset_entry(caps, current)
    assert yaml.safe_load(line)["games_per_cell_by_cell"]["h"]["control"] == 1260
    preset = tmp_path / "p.yaml"
    preset.write_text("a: 1\ngames_per_cell_by_cell: " + json.dumps(current) + "\nb: 2\n")
    record = tmp_path / "looks.csv"
    record.write_text("# a note\nlook,game,cell,games\n2,h,IS-MCTS,1656\n")
    assert ps.adopt(caps, current, preset, record) == 3
    loaded = yaml.safe_load(preset.read_text())
    assert loaded["a"] == 1 and loaded["b"] == 2
    assert loaded["games_per_cell_by_cell"] == ps.merged_caps(caps, current)
    written = looks.recorded_looks(record)
    assert written.iloc[-1].to_dict() == {"look": 3, "game": "h", "cell": "D=30 SingleVote", "games": 2232}
    assert len(written) == 2  # IS-MCTS kept its larger cap: no row
    before = preset.read_text()
    assert ps.adopt(caps, loaded["games_per_cell_by_cell"], preset, record) == 0
    assert preset.read_text() == before


def test_no_look_is_adopted_past_the_designs_last(tmp_path, monkeypatch, capsys):
    """The third look is the design's last, fixed before the rerun: a fourth ``--adopt`` is
    refused in one line, by ``adopt`` and by the command before it reads any table."""
    current = {"h": {"IS-MCTS": 1656}}
    caps = pd.DataFrame({"game": ["h"], "cell": ["IS-MCTS"], "games_now": [1656], "cap": [2232]})
    preset = tmp_path / "p.yaml"
    preset.write_text("games_per_cell_by_cell: " + json.dumps(current) + "\n")
    record = tmp_path / "looks.csv"
    record.write_text("look,game,cell,games\n2,h,IS-MCTS,1260\n3,h,IS-MCTS,1656\n")
    with pytest.raises(ValueError, match=r"^--adopt: look 3 was the design's last"):
        ps.adopt(caps, current, preset, record)
    assert preset.read_text() == "games_per_cell_by_cell: " + json.dumps(current) + "\n"
    monkeypatch.setattr(ps, "LOOKS_PATH", record)
    monkeypatch.setenv("INFOSETS_RESULTS_DIR", str(tmp_path / "no_results_here"))
    with pytest.raises(SystemExit):
        ps.main(["--adopt"])
    assert capsys.readouterr().err.strip().splitlines()[-1].endswith(
        "error: --adopt: look 3 was the design's last (looks.csv); a claim still open is "
        "reported inconclusive")


def test_a_claim_whose_z_falls_below_minus_its_boundary_is_decided_against_and_not_funded():
    """Poker's "IS-MCTS matches or beats the best PI-MCTS" at 1,428 games a cell: IS-MCTS minus
    D=300 AverageValue -0.188 [-0.238, -0.139] over 714 pairs, z -6.3. Old code: only z at or
    above the boundary decided a claim, so the third look would have grown it to 3,864 games
    to test a claim its data already refute. Below minus the boundary it is decided against
    (a non-binding futility stop); between the two it stays open."""
    costs = pd.DataFrame([{"game": "p", "players": 3, "cells": 2, "n": 1428, "complete": True,
                           "cpu_s_per_game_all_cells": 1.0}])
    per_cell = pd.DataFrame([{"game": "p", "cell": c, "players": 3, "n": 1428, "cpu_s_per_game": 0.5}
                             for c in ("IS-MCTS", "D=300 AverageValue")])
    refuted = _claim("p, B=1: IS-MCTS matches or beats the best PI-MCTS", -0.188, (-0.238, -0.139),
                     714, margin=0.03, n_for_80_power=5000)
    short = _claim("p, B=1: PI-MCTS beats OL-MCTS by 5%", 0.01, (-0.02, 0.04), 1428,
                   n_for_80_power=5000)
    cells = {refuted.claim: ("IS-MCTS", "D=300 AverageValue"),
             short.claim: ("IS-MCTS", "D=300 AverageValue")}
    table = ps.looks([refuted, short], costs, block_size=12, cells=cells, per_cell=per_cell,
                     selected={refuted.claim: 714}).set_index("claim")
    assert table.loc[refuted.claim, "against"] and not table.loc[refuted.claim, "decided"]
    assert table.loc[refuted.claim, "z"] < -table.loc[refuted.claim, "boundary"]
    assert not table.loc[short.claim, "against"] and not table.loc[short.claim, "decided"]
    plan = ps.fund(table.reset_index(), per_cell, hours_left=100.0)
    assert list(plan["claim"]) == [short.claim] and plan["funded"].all()


def test_each_claim_says_why_it_is_decided_or_still_open():
    """Issue 56: no per-game claim inconclusive for want of power unless the plan says why.
    One hand-made row per case: decided, settled by z but inconclusive on the claim's own
    test, decided against, the futility stop on an inconclusive claim, no size to plan for,
    grown and still short, never grown (priced by the own-cells plan), and no look."""
    rows = [  # claim, verdict, looks, z, reaches_it, against
        ("a, B=1: gain", "match", "60", 3.0, True, False),
        ("b, B=1: gain", "inconclusive", "60", 1.8, True, False),
        ("c, B=1: IS-MCTS", "mismatch", "1428", -6.3, False, True),
        ("d, B=1: no gap", "inconclusive", "60", -1.7, False, True),
        ("e, B=1: peak", "inconclusive", "60", 0.4, False, False),
        ("f, B=1: gain", "inconclusive", "60, 1260", 1.0, False, False),
        ("g, B=1: loss", "inconclusive", "60", -0.5, False, False),
        ("h, B=2: gain", "not run", "60", float("nan"), None, None),
    ]
    last = pd.DataFrame(rows, columns=["claim", "verdict", "looks", "z", "reaches_it", "against"])
    sized = [Claim(text, "paper", 0.0, verdict, n_for_80_power=500)
             for text, verdict, *_ in rows if not text.startswith("e")]
    own = pd.DataFrame({"claim": ["g, B=1: loss"], "power_now": [0.2],
                        "games_per_cell_for_80": [5400], "cpu_hours_to_80": [28.76]})
    why = ps.why_open(last, own, sized).tolist()
    assert why == ps.why_open(last, own, sized, one_size={}).tolist()
    assert why[0] == "decided: z reaches its boundary"
    assert why[1].startswith("not grown: z reaches its boundary") and "inconclusive" in why[1]
    assert why[2] == "decided against: z at or below minus its boundary"
    assert "futility stop" in why[3] and why[3].startswith("not grown")
    assert why[4] == "open: the paper states no size, so no games were planned for power"
    assert why[5] == "open: looked at on 60, 1260 games a cell, z short of its boundary"
    assert why[6].startswith("open, never grown: one more look would need 5,400 games a cell, "
                             "28.8 CPU-hours")
    assert why[7].startswith("no look")


def test_a_claim_played_at_one_size_says_so_and_what_power_would_cost():
    """Fig. 2's slice is one look (B = 10,000, not a staged budget): an open claim there says
    it was played at one size and prices 80% power on its own cells at that budget; a claim
    z settles keeps "decided", one without a stated size says it has none, and a claim still
    being played ("not run") has no look yet."""
    cells = {("olmcts", 1, "none"): ([0, 1] * 30, 2.0),
             ("pimcts", 10, "TotalVisits"): ([1, 0, 1, 1] * 15, 4.0)}
    results = _results(cells).assign(budget=10)
    claim = _claim("g, B=10: gain", 0.25, (-0.05, 0.55), 60, n_for_80_power=130)
    prices = ps.one_size_prices([claim], results, {"g": 1}, block_size=12)
    # 130 games in whole blocks of 12 (6 deals of 2 seats): 132; each cell grows by 72 games
    # at its own cost, all seats: its focus seat plus one OL-MCTS opponent at the control's 2.0 s
    control, pimcts = 2.0 + 2.0, 4.0 + 2.0
    assert prices == {claim.claim: {"games": 60, "need": 132,
                                    "hours": pytest.approx(72 * (control + pimcts) / 3600)}}
    assert ps.one_size_prices([claim], results, {"g": 10}, block_size=12) == {}  # staged there
    rows = [("g, B=10: gain", "inconclusive", True, False),
            ("g, B=10: gain", "match", True, False),
            ("g, B=10: gain", "not run", None, None)]
    last = pd.DataFrame([(c, v, "60", 1.0, r, a) for c, v, r, a in rows],
                        columns=["claim", "verdict", "looks", "z", "reaches_it", "against"])
    why = ps.why_open(last, pd.DataFrame(), [claim], prices).tolist()
    assert why[0] == ("open, one size by design: Fig. 2's slice is one look at 60 games a cell, "
                      "sized before its games were played (docs/tag_agents.md, \"The second look, "
                      "as made\"); 80% power at the paper's effect would need 132 games a cell, "
                      "0.2 CPU-hours more")
    assert why[1] == "decided: z reaches its boundary"
    assert why[2].startswith("no look")
    unsized = {claim.claim: {"games": 60, "need": None, "hours": None}}
    assert ps.why_open(last.iloc[:1], pd.DataFrame(), [claim], unsized)[0].endswith(
        "; the claim has no power at a stated size")
