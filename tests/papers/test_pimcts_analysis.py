"""pimcts_analysis: the win-rate and budget-fragmentation figures carry one legend for all
their panels (a legend per panel covered the data), with every line named once."""

import matplotlib
import numpy as np
import pandas as pd

from infosets.experiments import config
from infosets.papers import pimcts_analysis as analysis

matplotlib.use("Agg")  # before the first figure (make test sets MPLBACKEND=Agg as well)



def _rates(games=("hearts", "tic_tac_toe", "leduc_poker"), budget=100):
    rng = np.random.default_rng(0)
    rows = []
    cells = [("olmcts", 1, "none")] + [("pimcts", d, a) for d in (10, 100)
                                       for a in ("TotalVisits", "AverageValue", "SingleVote")]
    for game in games:
        for agent, d, agg in cells + [("ismcts", 0, "none")]:
            for _deal in range(20):
                rows.append({"game": game, "budget": budget, "agent": agent, "D": d,
                             "aggregation": agg, "score": float(rng.random() < 0.4), "players": 3,
                             "cpu_seconds": 1.0, "mean_depth": rng.random() + 1,
                             "visit_share": rng.random(), "tree_agreement": rng.random()})
    return analysis.win_rates(pd.DataFrame(rows))


def _legend_labels(fig):
    assert not [ax for ax in fig.axes if ax.get_legend() is not None]  # no legend per panel
    (legend,) = fig.legends
    return [t.get_text() for t in legend.get_texts()]


def test_win_rate_figure_has_one_legend_naming_each_line_once(figure_session):
    session = figure_session
    session.cfg = config.load("pimcts_aggregation", "default")
    fig = analysis.plot_win_rate_vs_d(_rates(), session, 100, "w", "Fig. 1")
    labels = _legend_labels(fig)
    assert len(labels) == len(set(labels))
    assert {"TotalVisits", "AverageValue", "SingleVote", "1/players"} <= set(labels)
    assert any(label.startswith("IS-MCTS") for label in labels)
    assert any(label.startswith("paper:") for label in labels)  # hearts has a stated gain
    assert session.figures["w"] is fig


def test_budget_fragmentation_figure_has_one_legend(figure_session):
    # two game rows (was three) already repeat every line in a second row; drawing the
    # constrained layout of each row is most of this test's time
    fig = analysis.plot_search_vs_d(_rates(("hearts", "tic_tac_toe")), figure_session, 100)
    labels = _legend_labels(fig)
    assert len(labels) == len(set(labels))
    assert {"TotalVisits", "AverageValue", "SingleVote"} <= set(labels)


def test_rank_correlation_interval_by_fisher_z():
    perfect = analysis.rank_correlation([1, 2, 3, 4, 5], [2, 4, 6, 8, 10])
    assert abs(perfect["rho"] - 1) < 1e-12 and np.isnan(perfect["lo"]) and perfect["n"] == 5
    # x ranks 1..8 against y ranks (2,1,4,3,6,5,8,7): d^2 = 1 each, rho = 1 - 6*8/(8*63)
    got = analysis.rank_correlation(range(8), [2, 1, 4, 3, 6, 5, 8, 7])
    rho = 1 - 6 * 8 / (8 * 63)
    half = 1.959964 * np.sqrt(1.06 / 5)
    assert abs(got["rho"] - rho) < 1e-12
    assert abs(got["lo"] - np.tanh(np.arctanh(rho) - half)) < 1e-9
    assert abs(got["hi"] - np.tanh(np.arctanh(rho) + half)) < 1e-9
    # NaNs are dropped, and under three pairs there is no estimate
    assert analysis.rank_correlation([1, np.nan, 3], [1, 2, np.nan])["n"] == 1
    assert np.isnan(analysis.rank_correlation([1, 2], [2, 1])["rho"])


def test_close_d_ticks_are_slanted():
    import matplotlib.pyplot as plt

    fig, (close, apart) = plt.subplots(1, 2)
    for ax in (close, apart):
        ax.set_xscale("log")
    analysis.d_ticks(close, [1, 100, 200, 300, 500])
    analysis.d_ticks(apart, [1, 10, 100])
    assert close.xaxis.get_ticklabels()[0].get_rotation() == 45
    assert apart.xaxis.get_ticklabels()[0].get_rotation() == 0
    plt.close(fig)


def test_the_papers_gain_line_is_fig2s_at_a_high_budget_whatever_its_size(figure_session):
    """At the default preset Hearts' Fig. 2 budget is 150: its dashed line drew the Fig. 1
    gain (+0.05) although the claim there tests the paper's +0.10; and B = 150, the high
    slice's first budget, was filed as Fig. 1."""
    cfg = config.load("pimcts_aggregation", "default")
    figure_session.cfg = cfg
    (high,) = [b for g, b in analysis.high_pairs(cfg) if g == "hearts"]
    rates = _rates(games=("hearts",), budget=high)
    control = float(rates[(rates["agent"] == "olmcts")]["win_rate"].iloc[0])
    fig = analysis.plot_win_rate_vs_d(rates, figure_session, high, "w", "Fig. 2")
    paper = [line for line in fig.axes[0].get_lines() if line.get_label().startswith("paper:")]
    assert paper and np.allclose(paper[0].get_ydata(), control + 0.10)
    main = _rates(games=("hearts",), budget=100)
    fig = analysis.plot_win_rate_vs_d(main, figure_session, 100, "w1", "Fig. 1")
    paper = [line for line in fig.axes[0].get_lines() if line.get_label().startswith("paper:")]
    main_control = float(main[main["agent"] == "olmcts"]["win_rate"].iloc[0])
    assert np.allclose(paper[0].get_ydata(), main_control + 0.05)


def test_rules_with_equal_win_rates_stay_visible(figure_session):
    """Hearts at B = 150 in the default run: TotalVisits and SingleVote had the same win rates
    and one solid line with round markers hid the other. Each rule now has its own marker (and
    dash), in the panels and in the legend."""
    rates = _rates(games=("hearts",))
    tv = rates["aggregation"] == "TotalVisits"
    sv = rates[rates["aggregation"] == "SingleVote"].set_index("D")
    for col in ("win_rate", "lo", "hi"):
        rates.loc[tv, col] = rates.loc[tv, "D"].map(sv[col]).to_numpy()
    figure_session.cfg = config.load("pimcts_aggregation", "default")
    rules = ("TotalVisits", "AverageValue", "SingleVote")
    for fig in (analysis.plot_win_rate_vs_d(rates, figure_session, 100, "w", "Fig. 1"),
                analysis.plot_search_vs_d(rates, figure_session, 100)):
        panels = [{ln.get_label(): ln.get_marker() for ln in ax.get_lines()
                   if ln.get_label() in rules} for ax in fig.axes]
        panels = [p for p in panels if p]
        assert panels and all(len(set(p.values())) == 3 for p in panels), panels
        handles = {h.get_label(): h.get_marker() for h in fig.legends[0].legend_handles}
        assert len({handles[r] for r in rules}) == 3, handles


def test_a_panel_whose_cells_grew_unevenly_gives_the_range_of_games(figure_session):
    """The tag rerun grows only the cells its claims read (Tic-Tac-Toe: IS-MCTS and one
    PI-MCTS cell to 3,504 games, the rest at 60). The panel titles said "n=60/cell", the
    smallest cell, as if every line stood on 60 games; a range says what the bands rest on."""
    assert analysis.games_per_cell_label(pd.Series([60, 60])) == "n=60/cell"
    assert analysis.games_per_cell_label(pd.Series([60, 3504, 60])) == "n=60\u20133504/cell"
    rates = _rates(games=("tic_tac_toe",))
    rates.loc[rates["agent"] == "ismcts", "n"] = 3504
    session = figure_session
    session.cfg = config.load("pimcts_aggregation", "default")
    fig = analysis.plot_win_rate_vs_d(rates, session, 100, "w", "Fig. 1")
    assert fig.axes[0].get_title() == "tic_tac_toe (n=20\u20133504/cell)"


def test_a_preset_with_no_game_beyond_the_paper_says_so_and_saves_no_empty_table(capsys):
    """The tag rerun plays only the paper's games: its report showed an empty DataFrame where
    the beyond-the-paper gains go. Now one line says why there is no table, and none is saved."""
    saved = {}

    class Session:
        cfg = config.load("pimcts_aggregation", "tag")

        def save_table(self, frame, name, paper_ref=""):
            saved[name] = frame

    paper_only = pd.DataFrame({"game": ["hearts", "tic_tac_toe"]})
    assert analysis.save_beyond_paper(paper_only, Session()) is None
    assert saved == {}
    assert "no game beyond the paper's twelve" in capsys.readouterr().out
