"""The card game's reading in belief_mixtures (issue 53): the paper's CG rows (Table 2) are
compared with our two seats pooled, since a fixed first leader cannot give its self-play level;
"(all dealt)" is the other reading of the deal, kept out of the verdicts."""

import numpy as np
import pandas as pd
import pytest

from infosets.papers import belief_mixtures_analysis as analysis
from infosets.papers.belief_mixtures import label

CG10 = "trick_game(num_cards=10)"


def _games(game=CG10, n=4):
    rows = [{"game": game, "algo": "PIMC", "seat": seat, "lam": lam, "chunk": 0, "deal": d,
             "win": float((d + seat) % 2 == 0 if lam == 0 else seat == 0), "draw": 0.0,
             "return": 0.0, "task_id": "t"}
            for seat in (0, 1) for lam in (0.0, 1.0) for d in range(n)]
    return pd.DataFrame(rows)


def test_either_seat_pools_both_seats_and_keeps_the_deals_paired():
    games = analysis.with_either_seat(_games())
    pooled = games[games.seat == analysis.EITHER_SEAT]
    assert len(pooled) == 16  # 2 seats x 2 λ x 4 deals
    # each pooled deal appears once per λ, so λ cells still pair game by game
    assert (pooled.groupby("lam").deal.nunique() == 8).all()
    assert analysis.with_either_seat(games).equals(games)  # idempotent


def test_either_seat_needs_both_seats():
    games = _games()
    assert not (analysis.with_either_seat(games[games.seat == 0]).seat == analysis.EITHER_SEAT).any()


def test_liars_dice_is_not_pooled():
    games = _games("liars_dice(numdice=1,dice_sides=3)")
    assert not (analysis.with_either_seat(games).seat == analysis.EITHER_SEAT).any()


def test_the_paper_cg_numbers_sit_on_the_pooled_rows_only():
    wr = analysis.winrates(_games())
    by_seat = {s: wr[wr.seat == s].sort_values("lam") for s in (0, 1, analysis.EITHER_SEAT)}
    assert by_seat[0].paper_pct.isna().all() and by_seat[1].paper_pct.isna().all()
    assert by_seat[analysis.EITHER_SEAT].paper_pct.tolist() == [48.2, 31.6]
    # pooled λ = 1: seat 0 wins all 4, seat 1 none -> 50%
    assert by_seat[analysis.EITHER_SEAT].win_pct.tolist()[1] == pytest.approx(50.0)
    assert analysis.win_paper_value(analysis.EITHER_SEAT, "PIMC", "CG 20C (all dealt)", 1.0) == 23.5


def test_claims_read_cg_through_either_seat_and_skip_the_other_deal_reading():
    games = pd.concat([_games(), _games("trick_game(num_cards=10,hand_size=5)")])
    wr = analysis.winrates(games)
    names = [c.claim for c in analysis._winrate_claims(wr, games)]
    assert names and all("either seat" in n and "all dealt" not in n for n in names)
    level = [c for c in analysis.level_claims(pd.DataFrame(columns=["seat", "paper_br", "br"]), wr)
             if c.claim.startswith("Table 2")][0]
    assert "CG 10C (all dealt)" not in level.note and "CG 10C" in level.note


def test_cg_readings_sets_the_two_deals_side_by_side():
    games = pd.concat([_games(), _games("trick_game(num_cards=10,hand_size=5)")])
    table = analysis.cg_readings(analysis.winrates(games))
    assert table.reading.tolist() == ["hand n // 3", "all dealt"]
    assert table.paper_drop.tolist() == pytest.approx([16.6, 16.6])


def test_labels_name_the_deal_reading():
    assert label(CG10) == "CG 10C"
    assert label("trick_game(num_cards=20,hand_size=6)") == "CG 20C"
    assert label("trick_game(num_cards=20,hand_size=10)") == "CG 20C (all dealt)"


def test_a_fixed_first_leader_wins_most_deals_under_perfect_play():
    """Why the paper's CG self-play (48.2%) cannot have a fixed first leader: with every
    card dealt, PIMC at λ = 0 plays perfectly, and the leader of CG 10C wins about 3 deals in 4
    (400 deals: 75.75%); a leader at random gives each seat exactly half (no draws with 5
    tricks)."""
    out = analysis.first_leader_advantage(10, 5, 200, seed=np.random.SeedSequence(1))
    assert 65 < out["leader_wins_pct"] < 90
    assert out["leader_wins_pct"] == out["leader_at_least_half_pct"]  # 5 tricks: no draw
