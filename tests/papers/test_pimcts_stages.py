"""The tag rerun's stage planner (infosets.papers.pimcts_stages): stage sizes, the looks'
inflation, each claim's z rebuilt from its interval, the looks and the funding, on hand-made
claims and costs."""

import math

import pandas as pd
import pytest

from infosets.claims import Claim
from infosets.papers import pimcts_stages as ps
from infosets.sequential import boundaries, inflation


def test_stages_double_from_sixty_and_end_at_the_cap():
    assert ps.stage_sizes(60) == [60]
    assert ps.stage_sizes(1000) == [60, 120, 240, 480, 960, 1000]
    assert ps.stage_sizes(480) == [60, 120, 240, 480]
    with pytest.raises(ValueError, match="cap"):
        ps.stage_sizes(59)


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
    assert ps.claim_z(gain) == pytest.approx(0.1 / (2 * se), rel=1e-3)
    loss = _claim("g, B=1: worse", -0.1, (-0.2, 0.0), 1000, alternative="less")
    assert ps.claim_z(loss) == pytest.approx(ps.claim_z(gain), rel=1e-9)
    inferior = _claim("g, B=1: IS-MCTS matches or beats the best PI-MCTS", 0.0, (-0.1, 0.1), 1000,
                      margin=0.03)
    assert ps.claim_z(inferior) == pytest.approx(0.03 / (2 * se), rel=1e-3)
    tost = _claim("g, B=1: no gap", 0.01, (-0.01, 0.03), 1000, margin=0.03, test="paired TOST")
    assert ps.claim_z(tost) == pytest.approx(0.02 / (0.02 / 1.6464), rel=1e-3)
    assert math.isnan(ps.claim_z(_claim("g, B=1: no number", "3/9", None, 9)))


COSTS = pd.DataFrame([
    {"game": "a", "players": 2, "cells": 3, "n": 60, "complete": True, "cpu_s_per_game_all_cells": 36.0},
    {"game": "b", "players": 3, "cells": 3, "n": 60, "complete": True, "cpu_s_per_game_all_cells": 360.0},
    {"game": "c", "players": 3, "cells": 3, "n": 12, "complete": False, "cpu_s_per_game_all_cells": 1.0},
])


def test_a_look_decides_a_large_z_and_sizes_the_cap_for_the_rest():
    claims = [
        _claim("a, B=1: decided", 0.3, (0.25, 0.35), 60, power=1.0, n_for_80_power=10),
        _claim("a, B=1: open", 0.02, (-0.1, 0.14), 60, power=0.1, n_for_80_power=500),
        # on half the deals, one unit a deal of 2 games: 15 units stand for the cell's 60 games
        _claim("a, B=1: IS-MCTS matches or beats the best PI-MCTS", 0.0, (-0.2, 0.2), 15,
               margin=0.03, power=0.1, n_for_80_power=300),
        _claim("c, B=1: stage not complete", 0.0, (-0.2, 0.2), 12, n_for_80_power=300),
    ]
    table = ps.looks(claims, COSTS, block_size=12).set_index("claim")
    assert "c, B=1: stage not complete" not in table.index
    decided = table.loc["a, B=1: decided"]
    assert decided["decided"] and decided["z"] > decided["boundary"]
    assert decided["games_per_cell_for_80"] == 60 and decided["cpu_hours_to_80"] == 0
    opened = table.loc["a, B=1: open"]
    assert not opened["decided"] and opened["look"] == 1
    sizes = ps.stage_sizes(opened["games_per_cell_for_80"])
    assert opened["looks"] == len(sizes)
    assert opened["boundary"] == pytest.approx(boundaries([s / sizes[-1] for s in sizes])[0], abs=0.01)
    # 500 games, inflated for its looks, in whole blocks of 12 games
    assert 500 < opened["games_per_cell_for_80"] <= 540 and opened["games_per_cell_for_80"] % 12 == 0
    added = (opened["games_per_cell_for_80"] - 60) * 36 / 3600
    assert opened["cpu_hours_to_80"] == pytest.approx(added, abs=0.01)
    scaled = table.loc["a, B=1: IS-MCTS matches or beats the best PI-MCTS"]
    assert 1200 < scaled["games_per_cell_for_80"] <= 1300  # 300 units x 4 games a unit, inflated


def test_funding_takes_the_cheapest_claims_and_a_claim_under_a_funded_cap_is_free():
    rows = [("a", "a1", False, 1.0, 460, 4.0), ("a", "a2", False, 1.0, 260, 2.0),
            ("b", "b1", False, 1.0, 160, 10.0), ("a", "done", True, 9.0, 60, 0.0),
            ("a", "no look", False, float("nan"), 60, 0.0)]
    table = pd.DataFrame(rows, columns=["game", "claim", "decided", "z", "games_per_cell_for_80",
                                        "cpu_hours_to_80"])
    funded = ps.fund(table, COSTS, hours_left=5.0).set_index("claim")
    assert list(funded.index) == ["a2", "a1", "b1"]
    assert funded.loc["a2", "added_cpu_hours"] == 2.0 and funded.loc["a2", "funded"]
    # a1 adds only its 200 games beyond a2's 260 (2 CPU-h), within the 3 left
    assert funded.loc["a1", "added_cpu_hours"] == 2.0 and funded.loc["a1", "funded"]
    assert funded.loc["a1", "game_cap"] == 460
    assert not funded.loc["b1", "funded"] and funded.loc["b1", "game_cap"] == 60
