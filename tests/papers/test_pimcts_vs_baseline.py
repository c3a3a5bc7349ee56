"""Each paper game's agents against the OL-MCTS baseline (``pimcts_vs_baseline``): the best
PI-MCTS cell is the claim's choice (even deals) and its gain is read on the other deals only;
IS-MCTS − OL-MCTS reads every deal; IS-MCTS − the cell is the claims table's own row."""

from __future__ import annotations

import matplotlib
import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

from infosets.experiments import config
from infosets.papers import pimcts_claims
from infosets.papers import pimcts_vs_baseline as vs_baseline

matplotlib.use("Agg")


@pytest.fixture(autouse=True)
def _close_figures():
    """Each figure test closes what it drew, so a worker's later tests do not meet
    matplotlib's more-than-20-open-figures warning."""
    yield
    import matplotlib.pyplot as plt

    plt.close("all")

OL, IS = ("olmcts", 1, "none"), ("ismcts", 0, "none")
BEST_ON_EVEN, BEST_ON_ODD = ("pimcts", 10, "AverageValue"), ("pimcts", 3, "TotalVisits")
# four deals of two seat rotations, game i = (deal i // 2, rotation i % 2)
SCORES = {OL: [0, 1, 0, 1, 0, 1, 0, 1],
          BEST_ON_EVEN: [1, 1, 0, 0, 1, 1, 0, 1],   # mean 1 on deals 0 and 2
          BEST_ON_ODD: [0, 1, 1, 1, 0, 1, 1, 1],    # mean 0.5 on deals 0 and 2, 1 on 1 and 3
          IS: [1, 1, 1, 0, 0, 1, 1, 1]}


def _results(cells=SCORES, game="tic_tac_toe", budget=20, players=2) -> pd.DataFrame:
    return pd.DataFrame([{"game": game, "budget": budget, "players": players, "agent": agent,
                          "D": d, "aggregation": agg, "deal": i // 2, "rotation": i % 2,
                          "score": float(s)}
                         for (agent, d, agg), scores in cells.items() for i, s in enumerate(scores)])


def _t_interval(d):
    d = np.asarray(d, dtype=float)
    half = sps.t.ppf(0.975, len(d) - 1) * d.std(ddof=1) / np.sqrt(len(d))
    return d.mean() - half, d.mean() + half


def test_the_row_reads_the_cell_the_claim_chose_on_the_deals_the_choice_did_not_read():
    row = vs_baseline.game_row(_results(), "tic_tac_toe", 20)
    # chosen on deals 0 and 2, where it scores 1, though the other cell leads on deals 1 and 3
    assert row["pimcts_cell"] == "D=10 AverageValue"
    # its gain on deals 1 and 3 only: (0-0, 0-1, 0-0, 1-1)
    assert row["pi_minus_ol"] == pytest.approx(-0.25) and row["pi_minus_ol_n"] == 4
    assert (row["pi_minus_ol_lo"], row["pi_minus_ol_hi"]) == pytest.approx(_t_interval([0, -1, 0, 0]))
    # IS-MCTS on every deal: (1, 0, 1, -1, 0, 0, 1, 0)
    ism = [1, 0, 1, -1, 0, 0, 1, 0]
    assert row["is_minus_ol"] == pytest.approx(0.25) and row["is_minus_ol_n"] == 8
    assert (row["is_minus_ol_lo"], row["is_minus_ol_hi"]) == pytest.approx(_t_interval(ism))
    assert row["is_vs_ol"] == "inconclusive" and row["pi_vs_ol"] == "inconclusive"
    # IS-MCTS minus the cell is the claims table's row: (1, 0, 1, 0) on deals 1 and 3
    claim = pimcts_claims.ismcts_vs_best_pi(
        pimcts_claims.paired_scores(_results(), "tic_tac_toe", 20), "tic_tac_toe", 20, 2)
    assert row["is_minus_pi"] == pytest.approx(0.5) == pytest.approx(claim.ours)
    assert (row["is_minus_pi_lo"], row["is_minus_pi_hi"]) == pytest.approx(claim.interval)
    assert (row["is_minus_pi_n"], row["is_vs_best_pi"]) == (4, claim.verdict)
    # the paper's reading of Tic-Tac-Toe, in words: no number to draw
    assert row["paper_reading"] == "PI-MCTS worse than the baseline"
    assert np.isnan(row["paper_pi_gain_lo"])


def test_a_game_without_is_mcts_or_control_rows_says_so():
    no_is = {k: v for k, v in SCORES.items() if k != IS}
    row = vs_baseline.game_row(_results(no_is), "tic_tac_toe", 20)
    assert row["is_vs_ol"] == "not run" and row["is_vs_best_pi"] == "not run"
    assert np.isnan(row["is_minus_ol"]) and row["pimcts_cell"] == "D=10 AverageValue"
    no_control = {k: v for k, v in SCORES.items() if k != OL}
    assert vs_baseline.game_row(_results(no_control), "tic_tac_toe", 20) is None


def test_the_papers_stated_gain_stands_beside_ours_and_other_games_stay_out(figure_session):
    """Hearts' row carries the paper's 5 points; a game beyond the paper gets no row."""
    cfg = config.load("pimcts_aggregation", "smoke")
    figure_session.cfg = cfg
    budget = cfg["budgets"][0]  # the main slice's budget: every game here reads it
    results = pd.concat([_results({k: (v * players)[: 2 * players] for k, v in SCORES.items()},
                                  game=game, budget=budget, players=players)
                         for game, players in (("hearts", 4), ("leduc_poker", 2))],
                        ignore_index=True)
    table = vs_baseline.agents_vs_baseline(results, cfg)
    assert list(table.columns) == vs_baseline.COLUMNS
    assert list(table["game"]) == ["hearts"]
    assert (table["paper_pi_gain_lo"].iloc[0], table["paper_pi_gain_hi"].iloc[0]) == (0.05, 0.05)
    fig = vs_baseline.plot(table, figure_session)
    left, right = fig.axes[:2]
    assert left.get_xlim() == right.get_xlim()  # one scale: sizes compare across the panels
    assert "paper: PI-MCTS beats OL-MCTS by 5%" in left.get_yticklabels()[0].get_text()
    assert vs_baseline.plot(table.iloc[:0], figure_session) is None


def test_a_few_games_interval_is_drawn_to_the_bound_of_a_difference(figure_session):
    """A t interval of four pairs can reach past ±1, which no difference of two scores in
    [0, 1] can: the figure stops at the bound, the table keeps the interval whole."""
    row = vs_baseline.game_row(_results(), "tic_tac_toe", 20)
    table = pd.DataFrame([row], columns=vs_baseline.COLUMNS)
    assert table["pi_minus_ol_lo"].iloc[0] < -1  # t on (0, -1, 0, 0)
    fig = vs_baseline.plot(table, figure_session)
    low, high = fig.axes[0].get_xlim()
    assert -1.05 <= low < -0.9 and high <= 1.05
