"""A legend never hides data (``experiments.legends``): one that covers a data point moves
outside its axes with its entries and title; one in empty space stays where it is."""

import matplotlib
import matplotlib.pyplot as plt

from infosets.experiments.legends import (
    box_covers_data,
    box_crosses_lines,
    covers_data,
    keep_legends_off_data,
    keep_notes_off_data,
)
from infosets.experiments.store import import_closure

matplotlib.use("Agg")


def _figure(points):
    fig, ax = plt.subplots(figsize=(4, 3))
    ax.plot([0, 1], [0, 0.05], label="ours")
    ax.plot(*zip(*points), "X", label="paper")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.legend(loc="upper right", title="series")
    return fig, ax


def test_a_legend_with_no_free_place_moves_outside_its_axes():
    corners = [(x, y) for x in (0.1, 0.5, 0.9) for y in (0.1, 0.5, 0.9)]
    fig, ax = _figure(corners)  # a paper marker under every in-axes place
    fig.draw_without_rendering()
    assert covers_data(ax, fig.canvas.get_renderer())
    assert keep_legends_off_data(fig) == 1
    legend = ax.get_legend()
    fig.draw_without_rendering()
    renderer = fig.canvas.get_renderer()
    assert legend.get_window_extent(renderer).x0 >= ax.get_window_extent(renderer).x1
    assert [t.get_text() for t in legend.get_texts()] == ["ours", "paper"]
    assert legend.get_title().get_text() == "series"
    assert not covers_data(ax, renderer)
    plt.close(fig)


def test_a_legend_in_empty_space_stays():
    fig, ax = _figure([(0.1, 0.5), (0.5, 0.5)])
    assert keep_legends_off_data(fig) == 0
    assert ax.get_legend()._loc == 1  # upper right, as drawn
    plt.close(fig)


def test_legend_placement_is_outside_every_results_key():
    for slug in ("belief_mixtures", "pimcts_aggregation", "belote_ismcts", "progressive_hiding",
                 "history_filtering"):
        closure = import_closure(f"infosets.papers.{slug}")
        assert "experiments/legends.py" not in closure and "experiments/session.py" not in closure


def test_a_legend_moves_to_a_free_corner_before_leaving_its_axes():
    fig, ax = _figure([(0.95, 0.95)])  # upper right is taken; upper left is free
    assert keep_legends_off_data(fig) == 1
    fig.draw_without_rendering()
    renderer = fig.canvas.get_renderer()
    box, axes_box = ax.get_legend().get_window_extent(renderer), ax.get_window_extent(renderer)
    assert axes_box.x0 <= box.x0 and box.x1 <= axes_box.x1  # still inside
    assert not covers_data(ax, renderer)
    plt.close(fig)


def test_a_legend_over_a_bar_moves():
    fig, ax = plt.subplots(figsize=(4, 3))
    ax.bar([0, 1, 2], [0.2, 0.95, 0.3], label="ours")
    ax.set_ylim(0, 1)
    ax.legend(loc="upper center")
    fig.draw_without_rendering()
    assert covers_data(ax, fig.canvas.get_renderer())
    keep_legends_off_data(fig)
    fig.draw_without_rendering()
    assert not covers_data(ax, fig.canvas.get_renderer())
    plt.close(fig)


def _noted_lines(paper_marker_at_lower_right: bool):
    """belief_mixtures' win-rate panel: lines with 95% bands, the "shaded: ..." note in the
    lower right corner, and (optionally) one of the paper's markers drawn under it."""
    import pandas as pd

    from infosets import plots

    fig, ax = plt.subplots(figsize=(4, 3))
    frame = pd.DataFrame({"lam": [0.0, 0.5, 1.0], "win": [0.5, 0.55, 0.6],
                          "lo": [0.45, 0.5, 0.55], "hi": [0.55, 0.6, 0.65]})
    plots.lines_ci(ax, frame, "lam", "win", "lo", "hi", xlabel="λ (weight)",
                   ylabel="win rate (fraction)", ci_label="shaded: Wilson 95% CI", legend=False)
    ax.set_ylim(0, 1)
    if paper_marker_at_lower_right:
        ax.plot([0.97], [0.02], "X", label="paper")
    fig.draw_without_rendering()
    return fig, ax, ax.texts[0]


def test_a_corner_note_over_a_paper_marker_moves_to_a_free_corner():
    fig, ax, note = _noted_lines(paper_marker_at_lower_right=True)
    renderer = fig.canvas.get_renderer()
    assert box_covers_data(ax, note.get_window_extent(renderer), renderer)
    assert keep_notes_off_data(fig) == 1
    assert (note.get_position(), note.get_ha(), note.get_va()) == ((0.01, 0.01), "left", "bottom")
    assert not box_covers_data(ax, note.get_window_extent(renderer), renderer)
    plt.close(fig)


def test_a_corner_note_in_free_space_stays():
    fig, _, note = _noted_lines(paper_marker_at_lower_right=False)
    assert keep_notes_off_data(fig) == 0
    assert (note.get_position(), note.get_ha()) == ((0.99, 0.01), "right")
    plt.close(fig)


def _box(x0, y0, x1, y1):
    from matplotlib.transforms import Bbox

    return Bbox([[x0, y0], [x1, y1]])


def _lines(*lines, style="-"):
    """An axes in display units (identity transforms) with the given polylines."""
    from matplotlib.transforms import IdentityTransform

    fig, ax = plt.subplots()
    for xs, ys in lines:
        ax.plot(xs, ys, style, transform=IdentityTransform())
    return fig, ax


def test_a_segment_through_a_box_crosses_it_though_no_vertex_is_inside():
    box = _box(10, 10, 20, 20)
    fig, ax = _lines(([0, 30], [15, 15]))  # a horizontal line right through
    assert box_crosses_lines(ax, box) and not box_covers_data(ax, box, None)
    plt.close(fig)
    fig, ax = _lines(([0, 30], [0, 30]))  # the diagonal through two corners
    assert box_crosses_lines(ax, box)
    plt.close(fig)
    fig, ax = _lines(([0, 30], [25, 25]), ([0, 9], [0, 30]), ([21, 30], [0, 30]))  # beside it
    assert not box_crosses_lines(ax, box)
    plt.close(fig)
    fig, ax = _lines(([0, 30], [15, 15]), style="o")  # markers only: no segment drawn
    assert not box_crosses_lines(ax, box)
    plt.close(fig)
    fig, ax = _lines(([0, float("nan"), 30], [15, 15, 15]))  # a gap across the box
    assert not box_crosses_lines(ax, box)
    plt.close(fig)


def _legend_over_a_reference_line(ys):
    """Horizontal reference lines (the paper's value, drawn with ``axhline``: two vertices at
    the axes' edges) and a legend in the upper right corner."""
    fig, ax = plt.subplots(figsize=(4, 3))
    ax.plot([0.4, 0.6], [0.5, 0.5], "o", label="ours")
    for y in ys:
        ax.axhline(y, ls="--", color="grey", label=f"paper {y}" if y == ys[0] else None)
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.legend(loc="upper right")
    fig.draw_without_rendering()
    return fig, ax


def test_a_legend_across_a_reference_line_moves_where_no_line_runs():
    fig, ax = _legend_over_a_reference_line([0.9])
    renderer = fig.canvas.get_renderer()
    box = ax.get_legend().get_window_extent(renderer)
    assert box_crosses_lines(ax, box) and not box_covers_data(ax, box, renderer)
    assert keep_legends_off_data(fig) == 1
    box = ax.get_legend().get_window_extent(renderer)
    assert not box_crosses_lines(ax, box) and not box_covers_data(ax, box, renderer)
    assert box.x1 <= ax.get_window_extent(renderer).x1  # still inside its axes
    plt.close(fig)


def test_a_legend_across_lines_everywhere_stays_where_it_was():
    fig, ax = _legend_over_a_reference_line([i / 40 for i in range(1, 40)])
    assert keep_legends_off_data(fig) == 0
    assert ax.get_legend()._loc == 1  # upper right, as drawn
    plt.close(fig)


def test_a_corner_note_across_a_line_moves_to_a_corner_no_line_crosses():
    fig, ax, note = _noted_lines(paper_marker_at_lower_right=False)
    ax.axhline(0.03, color="grey")  # runs under the note in the lower corners only
    fig.draw_without_rendering()
    assert keep_notes_off_data(fig) == 1
    assert (note.get_position(), note.get_va()) == ((0.99, 0.99), "top")
    assert not box_crosses_lines(ax, note.get_window_extent(fig.canvas.get_renderer()))
    plt.close(fig)


def test_a_figure_legend_keeps_the_given_series_order_whatever_panel_draws_first():
    """2026-11-28: belief_mixtures' first panels draw PIMC alone, so the shared legend read
    "PIMC, paper, IS-MCTS"; with ``order`` the algorithms come first, then the rest."""
    from infosets.experiments.legends import figure_legend

    fig, axes = plt.subplots(1, 2)
    axes[0].plot([0, 1], [0, 1], label="PIMC")
    axes[0].plot([0], [0], "x", label="paper")
    axes[1].plot([0, 1], [1, 0], label="IS-MCTS")
    axes[1].plot([0, 1], [0, 1], label="PIMC")
    figure_legend(fig, axes, "title", order=("PIMC", "IS-MCTS"))
    assert [t.get_text() for t in fig.legends[0].get_texts()] == ["PIMC", "IS-MCTS", "paper"]
    fig2, axes2 = plt.subplots(1, 2)
    for ax, label in zip(axes2, ("b", "a")):
        ax.plot([0, 1], [0, 1], label=label)
    figure_legend(fig2, axes2, "title")  # no order: as the panels drew them
    assert [t.get_text() for t in fig2.legends[0].get_texts()] == ["b", "a"]
    plt.close(fig)
    plt.close(fig2)
