"""belief_mixtures' figures (Arjonilla, Saffidine, Cazenave 2024): units per game, the seats of
a game on one scale, one colour per algorithm, the paper's heatmap cells marked, and no colour
bar stretched over a spread of a few hundredths (the defects of the 2026-11-27 audit)."""

import itertools

import numpy as np
import pandas as pd
import pytest
from matplotlib.colors import to_hex

from infosets.papers import belief_mixtures_analysis as analysis

LAMS = [0.0, 0.5, 1.0]


def _util():
    rows = []
    for (algo, lb, base), seat in itertools.product(
            [("PIMC", "LD 3D", 0.3), ("PIMC", "LP", 1.0), ("IS-MCTS", "LP", 1.2)], (0, 1)):
        for lam in LAMS:
            rows.append({"algo": algo, "label": lb, "seat": seat, "lam": lam,
                         "br": base + lam * (1 + seat), "tssr": 1.0 + lam,
                         "paper_br": base if seat == 0 else np.nan})
    return pd.DataFrame(rows)


def _heat():
    rows = []
    for (algo, lb), seat in itertools.product([("IS-MCTS", "LP"), ("IS-MCTS", "LD 2D (2 sides)")],
                                              (0, 1)):
        for first, later in itertools.product(LAMS, LAMS):
            spread = 0.01 if lb.startswith("LD") else 0.5  # LD: a spread of a few hundredths
            rows.append({"algo": algo, "label": lb, "seat": seat, "lam_first": first,
                         "lam_later": later, "br": -0.47 + spread * (first + later)})
    return pd.DataFrame(rows)


def test_each_game_has_its_unit():
    assert analysis.utility_unit("LP") == "chips"
    assert analysis.utility_unit("LD 2D") == analysis.utility_unit("CG 10C") == "±1 per game"


def test_best_responder_panels_put_a_games_seats_on_one_scale_in_its_unit(figure_session):
    fig = analysis.plot_best_responder(_util(), figure_session)
    axes = np.array(fig.axes).reshape(2, 2)  # seats x games (LD 3D, LP)
    for col in range(2):
        assert axes[0, col].get_ylim() == axes[1, col].get_ylim()
    assert "±1 per game" in axes[0, 0].get_ylabel() and "chips" in axes[0, 1].get_ylabel()
    # one colour per algorithm, the paper's crosses in it
    lp = axes[0, 1]
    colours = {line.get_label(): to_hex(line.get_color()) for line in lp.get_lines()
               if not line.get_label().startswith("_")}
    assert colours["PIMC"] == to_hex(analysis.ALGO_COLOURS["PIMC"])
    assert colours["IS-MCTS"] == to_hex(analysis.ALGO_COLOURS["IS-MCTS"])
    crosses = [line for line in lp.get_lines() if line.get_marker() == "X" and len(line.get_xdata())]
    assert {to_hex(c.get_markerfacecolor()) for c in crosses} == set(colours.values())


def test_heatmap_colour_bars_span_at_least_the_minimum_and_mark_the_papers_cells(figure_session):
    fig = analysis.plot_heatmaps(_heat(), figure_session)
    bars = [ax for ax in fig.axes if "best-responder utility" in ax.get_ylabel()
            and ax.get_label() == "<colorbar>"]
    assert bars, "no colour bar drawn"
    for bar in bars:
        lo, hi = bar.get_ylim()
        assert hi - lo >= analysis.MIN_COLOUR_SPAN - 1e-9
    labels = " ".join(bar.get_ylabel() for bar in bars)
    assert "chips" in labels and "±1 per game" in labels
    panel = next(ax for ax in fig.axes if ax.get_title().startswith("IS-MCTS LP, seat 0"))
    assert "1.17" in panel.get_title() and "1.88" in panel.get_title()
    outlined = [p for p in panel.patches if p.get_edgecolor()[:3] == (1.0, 0.0, 0.0)]
    # (λ_first, λ_later) = (1, 0) and (0, 1): rows and columns of the 3x3 grid
    assert sorted(p.get_xy() for p in outlined) == [(0, 2), (2, 0)]
    other = next(ax for ax in fig.axes if ax.get_title().startswith("IS-MCTS LP, seat 1"))
    assert not [p for p in other.patches if p.get_edgecolor()[:3] == (1.0, 0.0, 0.0)]


def test_win_rate_panels_share_one_percent_axis(figure_session):
    rows = []
    for lb, seat, lam in itertools.product(("LD 3D", "CG 10C"), (0, 1), (0.0, 1.0)):
        for algo in ("PIMC", "IS-MCTS"):
            rows.append({"label": lb, "algo": algo, "seat": seat, "lam": lam, "win_pct": 40.0,
                         "ci_low": 35.0, "ci_high": 45.0, "n": 1000, "paper_pct": 48.0})
    fig = analysis.plot_winrates(pd.DataFrame(rows), figure_session)
    assert {ax.get_ylim() for ax in fig.axes} == {(0.0, 100.0)}
    assert all("n = 1000 games" in ax.get_title() for ax in fig.axes)


@pytest.mark.parametrize("spread", [0.0, 0.01])
def test_the_tiny_spread_keeps_its_values_readable(spread):
    """The scale widens about the group's middle, so the values stay inside it."""
    from infosets import plots

    frame = pd.DataFrame([[-0.48, -0.48 + spread]])
    scale = plots.shared_scale([frame], label="utility (±1 per game)", min_span=0.25)
    assert scale.vmax - scale.vmin >= 0.25 and scale.vmin <= -0.48 <= -0.48 + spread <= scale.vmax
