"""Text in a saved figure never runs into other text (``experiments.figure_text``):
progressive_hiding's CMP heatmap title ran over its colour bar's label, and the provenance
stamp over the second line of pimcts' gain axis label. A title that fits and a stamp in free
space are left as drawn."""

import matplotlib
import matplotlib.pyplot as plt
import numpy as np
import pytest

from infosets.experiments import figure_text
from infosets.experiments.figure_text import (
    keep_titles_clear,
    overlapping_titles,
    stamp_clear_of_text,
    wrap_in_two,
)
from infosets.experiments.store import import_closure

matplotlib.use("Agg")

LONG = "progressive hiding success rate (n=200/cell)"


def _heatmap_beside_bars(title: str):
    """The layout of progressive_hiding's CMP figure: bars, then a heatmap with a colour bar."""
    fig, (bars, heat) = plt.subplots(1, 2, figsize=(10, 3.6))
    bars.bar([0, 1, 2], [0.0, 1.0, 0.5])
    bars.set_title("CMP, n=1000 repetitions", fontsize=9)
    bars.set(xlabel="method (learner)", ylabel="success rate (fraction)")
    heat.set(xlabel="penalty ρ (payoff units)", ylabel="pass payoff (payoff units)")
    image = heat.imshow(np.linspace(0, 1, 25).reshape(5, 5), aspect="auto")
    colour_bar = fig.colorbar(image, ax=heat)
    colour_bar.set_label("success rate (fraction of repetitions)")
    heat.set_title(title, fontsize=14, fontweight="bold")
    fig.tight_layout()
    return fig, heat


def test_a_title_over_a_colour_bar_label_is_wrapped_clear_of_it():
    fig, heat = _heatmap_beside_bars(LONG)
    fig.draw_without_rendering()
    assert overlapping_titles(fig) == [heat]  # the defect as the CMP figure had it
    assert keep_titles_clear(fig) == 1
    fig.draw_without_rendering()
    assert overlapping_titles(fig) == []
    assert heat.title.get_text() == "progressive hiding\nsuccess rate (n=200/cell)"
    plt.close(fig)


def test_a_title_that_fits_is_left_as_drawn():
    fig, heat = _heatmap_beside_bars("success rate")
    size = heat.title.get_fontsize()
    assert keep_titles_clear(fig) == 0
    assert heat.title.get_text() == "success rate" and heat.title.get_fontsize() == size
    plt.close(fig)


def test_a_title_with_no_space_to_break_at_shrinks_but_not_below_its_floor():
    fig, heat = _heatmap_beside_bars("x" * 60)
    size = heat.title.get_fontsize()
    keep_titles_clear(fig, rounds=50)
    assert heat.title.get_text() == "x" * 60
    assert 0.7 * size <= heat.title.get_fontsize() < size
    plt.close(fig)


@pytest.mark.parametrize(("text", "wrapped"), [
    ("a b c", "a b\nc"),  # the space nearest the middle; ties go to the first
    ("one two", "one\ntwo"),
    ("single", None),
    ("two\nlines", None),
])
def test_wrap_in_two(text, wrapped):
    assert wrap_in_two(text) == wrapped


def test_text_placement_is_outside_every_results_key():
    for slug in ("belief_mixtures", "pimcts_aggregation", "belote_ismcts", "progressive_hiding",
                 "history_filtering"):
        assert "experiments/figure_text.py" not in import_closure(f"infosets.papers.{slug}")


def test_a_saved_figure_has_no_title_over_a_neighbour():
    from infosets.experiments.session import Session

    s = Session.create("quickstart", "smoke", seed=0, workers=1)
    fig, heat = _heatmap_beside_bars(LONG)
    s.save_figure(fig, "clash")
    fig.draw_without_rendering()
    assert overlapping_titles(fig) == [] and "\n" in heat.title.get_text()
    plt.close(fig)


def _wide_bottom_label(layout: str = "constrained"):
    """pimcts' gain-beside-persistence layout: two panels, a two-line x label under the right
    one that reaches the figure's right edge."""
    fig, (left, right) = plt.subplots(1, 2, figsize=(8, 4), layout=layout)
    left.set_xlabel("persistence (fraction of the peak)")
    right.set_xlabel("PI-MCTS gain over OL-MCTS (win-rate difference, fraction of games)\n"
                     "(D>1 cells pooled per deal - control; t 95% CI)")
    fig.draw_without_rendering()
    return fig, right


def test_a_stamp_over_an_axis_label_moves_below_it():
    fig, right = _wide_bottom_label()
    renderer = fig.canvas.get_renderer()
    label = right.xaxis.label.get_window_extent(renderer)
    stamp = stamp_clear_of_text(fig, "infosets · pimcts_aggregation · preset=default · seed=0")
    box = stamp.get_window_extent(renderer)
    assert not box.overlaps(label) and box.y1 < label.y0
    assert stamp.get_position()[0] == 0.995 and stamp.get_ha() == "right"
    plt.close(fig)


def test_a_stamp_in_free_space_stays_in_its_corner():
    fig, _ = _wide_bottom_label()
    for ax in fig.axes:
        ax.set_xlabel("x (units)")  # short labels: the bottom-right corner is free
    fig.draw_without_rendering()
    stamp = stamp_clear_of_text(fig, "stamp")
    assert stamp.get_position() == (0.995, 0.003)
    plt.close(fig)


def test_a_colour_bar_label_of_a_tick_outside_its_range_is_not_text():
    """belote's heatmap: the colour bar's locator also labels 74 and 88 beyond its 74.6-87.2
    range; their undrawn labels sat under the stamp and sent it a line lower than needed."""
    fig, ax = plt.subplots(figsize=(6, 4))
    image = ax.imshow(np.linspace(74.6, 87.2, 20).reshape(4, 5))
    colour_bar = fig.colorbar(image, ax=ax)
    ax.set(xlabel="iterations (count)", ylabel="C (points)")
    fig.tight_layout()
    fig.draw_without_rendering()
    labels = [t.get_text() for t in figure_text._drawn_tick_labels(colour_bar.ax.yaxis, 1)]
    assert labels == ["76", "78", "80", "82", "84", "86"]
    assert [t.get_text() for t in colour_bar.ax.yaxis.get_ticklabels()][::7] == ["74", "88"]
    assert stamp_clear_of_text(fig, "stamp").get_position() == (0.995, 0.003)
    plt.close(fig)


def test_a_saved_figure_has_its_stamp_clear_of_the_axis_labels():
    from infosets.experiments.session import Session

    s = Session.create("quickstart", "smoke", seed=0, workers=1)
    fig, right = _wide_bottom_label()
    right.set_ylabel("y (units)")
    fig.axes[0].set_ylabel("y (units)")
    s.save_figure(fig, "stamped")
    fig.draw_without_rendering()  # savefig drew at savefig.dpi: measure at the figure's own
    renderer = fig.canvas.get_renderer()
    stamp = fig.texts[-1]
    assert stamp.get_text() == s.stamp_text
    assert not stamp.get_window_extent(renderer).overlaps(
        right.xaxis.label.get_window_extent(renderer))
    plt.close(fig)


def test_a_figure_legend_over_a_title_counts_as_a_clash():
    """Wrapped, then shrunk to its floor: a figure legend pinned on the title leaves no room,
    and the rule stops there rather than loop."""
    fig, ax = plt.subplots(figsize=(4, 3))
    ax.plot([0, 1], [0, 1], label="a series with a long name")
    ax.set_title("a long panel title that reaches the legend", fontsize=12)
    fig.legend(loc="upper center", bbox_to_anchor=(0.5, 0.93), fontsize=12)  # on the title
    fig.draw_without_rendering()
    assert overlapping_titles(fig) == [ax]
    assert keep_titles_clear(fig) == 1
    assert ax.title.get_text() == "a long panel title that\nreaches the legend"
    assert 0.7 * 12 <= ax.title.get_fontsize() < 12
    plt.close(fig)
