"""The ablation table and figure of pimcts_aggregation (issue 56; ``pimcts_analysis``): paired
win-rate differences against OL-MCTS per condition, the verdict of "IS-MCTS matches or beats the
PI-MCTS cell", and one printed line for a preset without ablation."""

from __future__ import annotations

import matplotlib
import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

from infosets.experiments import config
from infosets.papers import pimcts_analysis as analysis

matplotlib.use("Agg")


def _scores(cells: dict, **extra) -> list[dict]:
    return [{"game": "tic_tac_toe", "budget": 20, "agent": agent, "D": d, "aggregation": agg,
             "deal": i // 2, "rotation": i % 2, "score": float(s), **extra}
            for (agent, d, agg), scores in cells.items() for i, s in enumerate(scores)]


OL, IS, PI = ("olmcts", 1, "none"), ("ismcts", 0, "none"), ("pimcts", 3, "TotalVisits")
SPEC = {"ablation": {"games": ["tic_tac_toe"], "conditions": [["tic_tac_toe", "opponent_tree"]],
                     "skipped": [["tic_tac_toe", "rollout"]],
                     "switches": {"tic_tac_toe": {"opponent_tree": "MultiTree -> OneTree"}},
                     "pimcts": {"tic_tac_toe": {"D": 3, "aggregation": "TotalVisits"}},
                     "budgets": {"tic_tac_toe": 20}, "games_per_cell": {"tic_tac_toe": 6}}}


def _synthetic():
    control = [0, 1, 0, 1, 0, 1]
    results = pd.DataFrame(
        _scores({OL: control, IS: [1, 1, 0, 1, 1, 1], PI: [0, 1, 1, 1, 0, 1],
                 ("pimcts", 10, "TotalVisits"): [1] * 6})  # another cell: never read
        # deal 3 is beyond the ablation's 3 deals: left out of "all on"
        + [r for r in _scores({OL: [0] * 8, IS: [1] * 8, PI: [1] * 8}) if r["deal"] == 3])
    ablation = pd.DataFrame(_scores({OL: control, IS: [1] * 6, PI: [0] * 6}, ablate="opponent_tree"))
    return results, ablation


def _t_interval(d):
    d = np.asarray(d, dtype=float)
    half = sps.t.ppf(0.975, len(d) - 1) * d.std(ddof=1) / np.sqrt(len(d))
    return d.mean() - half, d.mean() + half


def test_the_ablation_table_gives_the_hand_computed_differences_and_verdicts():
    results, ablation = _synthetic()
    table = analysis.ablation_table(results, ablation, SPEC).set_index("condition")
    assert list(table.index) == ["all on", "opponent_tree off", "rollout off"]
    on, off, skipped = table.loc["all on"], table.loc["opponent_tree off"], table.loc["rollout off"]
    # all on: IS - OL = (1,0,0,0,1,0), PI - OL = (0,0,1,0,0,0), IS - PI = (1,0,-1,0,1,0)
    assert (on["n"], on["deals"], on["pimcts_cell"]) == (6, 3, "D=3 TotalVisits")
    assert on["is_minus_ol"] == pytest.approx(1 / 3) and on["pi_minus_ol"] == pytest.approx(1 / 6)
    assert on["is_minus_pi"] == pytest.approx(1 / 6)
    assert (on["is_minus_ol_lo"], on["is_minus_ol_hi"]) == pytest.approx(_t_interval([1, 0, 0, 0, 1, 0]))
    assert (on["pi_minus_ol_lo"], on["pi_minus_ol_hi"]) == pytest.approx(_t_interval([0, 0, 1, 0, 0, 0]))
    assert (on["is_vs_ol"], on["pi_vs_ol"], on["verdict"]) == ("inconclusive", "inconclusive", "inconclusive")
    # opponent_tree off: IS wins every game, PI none: IS - PI = 1 six times, tied test: a match
    assert off["switched"] == "MultiTree -> OneTree" and off["n"] == 6
    assert off["is_minus_ol"] == pytest.approx(0.5) and off["pi_minus_ol"] == pytest.approx(-0.5)
    assert off["is_minus_pi"] == pytest.approx(1.0) and off["verdict"] == "match"
    assert skipped["verdict"] == "not run" and "TAG's default" in skipped["note"]


def test_the_ablation_figure_draws_the_played_conditions(figure_session):
    results, ablation = _synthetic()
    fig = analysis.plot_ablation(analysis.ablation_table(results, ablation, SPEC), figure_session)
    (ax,) = fig.axes
    assert len(ax.get_yticklabels()) == 2  # the skipped setting is in the table, not the figure
    assert "n=6 games" in ax.get_yticklabels()[0].get_text()
    assert fig.get_supxlabel().startswith("win-rate difference against OL-MCTS (fraction of games")


def test_the_ablation_panels_share_one_x_scale(figure_session):
    """Games compare at a glance: a game with larger differences widens every panel's scale,
    and each panel still labels it."""
    results, ablation = _synthetic()
    table = analysis.ablation_table(results, ablation, SPEC)
    wide = table.copy()
    wide["game"] = "other"
    for col in ("is_minus_ol", "pi_minus_ol"):
        wide[[col, f"{col}_lo", f"{col}_hi"]] *= 3
    fig = analysis.plot_ablation(pd.concat([table, wide], ignore_index=True), figure_session)
    first, second = fig.axes[:2]
    assert first.get_xlim() == second.get_xlim()
    assert first.get_xlim()[1] >= 3 * table["pi_minus_ol_hi"].max()
    assert all(t.get_visible() for t in first.get_xticklabels())


def test_a_preset_without_ablation_says_so_in_one_line(capsys, figure_session):
    figure_session.cfg = config.load("pimcts_aggregation", "smoke")
    results = pd.DataFrame(_scores({OL: [0, 1]}))
    table = analysis.ablation_table(results, pd.DataFrame(), figure_session.cfg)
    assert table.empty and list(table.columns) == analysis.ABLATION_COLUMNS
    # the notebook displays what save_ablation returns: None shows nothing (an empty frame
    # printed "Empty DataFrame" and its twenty column names in the report)
    assert analysis.save_ablation(results, pd.DataFrame(), figure_session) is None
    assert capsys.readouterr().out == analysis.NO_ABLATION + "\n"
    assert analysis.plot_ablation(None, figure_session) is None and not figure_session.figures


def test_a_preset_without_the_disambiguation_sweep_says_so_in_one_line(capsys, figure_session):
    """Regression: the ``tag`` preset (disambiguation_trajectories 0) stopped its notebook at the
    disambiguation figure with KeyError 'fraction', after a 30-CPU-hour tournament."""
    figure_session.cfg = config.load("pimcts_aggregation", "tag")
    assert figure_session.cfg["disambiguation_trajectories"] == 0
    results = pd.DataFrame(_scores({OL: [0, 1]}))
    assert analysis.plot_disambiguation(pd.DataFrame(), figure_session) is None
    assert capsys.readouterr().out == analysis.NO_DISAMBIGUATION + "\n"
    assert analysis.plot_gain_vs_persistence(results, pd.DataFrame(), pd.DataFrame(),
                                             figure_session) == (None, None)
    assert capsys.readouterr().out == analysis.NO_PERSISTENCE + "\n"
    assert not figure_session.figures
