"""Plot helpers: axis labels with units, one colour scale per compared group, 95% bands, the
paper's numbers in one style, byte-identical files for identical figures, readable tables."""

import hashlib

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

from infosets import plots, stats


def _frame():
    return pd.DataFrame({"x": [1, 2, 3] * 2, "y": [0.2, 0.4, 0.5, 0.3, 0.3, 0.6],
                         "lo": [0.1, 0.3, 0.4, 0.2, 0.2, 0.5],
                         "hi": [0.3, 0.5, 0.6, 0.4, 0.4, 0.7], "agent": ["a"] * 3 + ["b"] * 3})


def _figure():
    frame = _frame()
    fig, (left, right) = plt.subplots(1, 2)
    plots.lines_ci(left, frame, "x", "y", "lo", "hi", hue="agent", xlabel="x (steps)",
                   ylabel="y (fraction)")
    grid = frame.pivot(index="agent", columns="x", values="y")
    plots.heatmap(right, grid, title="grid", xlabel="x (steps)", ylabel="agent (name)",
                  cbar_label="y (fraction)")
    return fig


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


def test_same_figure_gives_byte_identical_files(tmp_path):
    digests = []
    for i in range(2):
        paths = plots.save_figure(_figure(), tmp_path / f"run{i}" / "fig", "stamp")
        digests.append([hashlib.sha256(p.read_bytes()).hexdigest() for p in paths])
        plt.close("all")
    assert digests[0] == digests[1]
    assert [p.suffix for p in paths] == [".png", ".svg"]


def test_markdown_table_escapes_and_formats():
    md = plots.markdown_table(pd.DataFrame({"claim": ["a|b"], "value": [0.123456]}))
    assert md.splitlines() == ["| claim | value |", "|---|---|", "| a\\|b | 0.1235 |"]


# -- axis labels with units -----------------------------------------------------------------
@pytest.mark.parametrize("label", [None, "", "   ", "tssr", "win rate"])
def test_label_without_unit_is_refused(label):
    with pytest.raises(ValueError, match="ylabel"):
        plots.check_label(label, "ylabel")


@pytest.mark.parametrize("label", ["win rate (%)", "score [points]", "λ (public weight; 0 = private)"])
def test_label_with_unit_passes(label):
    assert plots.check_label(label, "ylabel") == label


def test_lines_ci_requires_labels_with_units():
    _, ax = plt.subplots()
    with pytest.raises(TypeError):
        plots.lines_ci(ax, _frame(), "x", "y", "lo", "hi", hue="agent")  # no labels at all
    with pytest.raises(ValueError, match="ylabel"):
        plots.lines_ci(ax, _frame(), "x", "y", "lo", "hi", hue="agent", xlabel="x (steps)",
                       ylabel="y")


def test_heatmap_requires_labels_with_units():
    _, ax = plt.subplots()
    grid = _frame().pivot(index="agent", columns="x", values="y")
    with pytest.raises(ValueError, match="colour bar"):
        plots.heatmap(ax, grid, xlabel="x (steps)", ylabel="agent (name)", cbar_label="y")


def test_saving_a_figure_with_an_unlabelled_axis_is_refused(tmp_path):
    fig, ax = plt.subplots()
    ax.plot([1, 2], [3, 4])
    ax.set_xlabel("x (steps)")
    with pytest.raises(ValueError, match="ylabel"):
        plots.save_figure(fig, tmp_path / "fig")
    assert not list(tmp_path.iterdir())  # refused before anything is written


def test_figure_level_label_stands_in_for_its_panels(tmp_path):
    def panels(sup: dict):
        """Two panels with x labels and no y labels; ``sup`` maps "x"/"y" to a figure label."""
        fig, axes = plt.subplots(1, 2, sharey=True)
        for ax in axes:
            ax.plot([1, 2], [3, 4])
            ax.set_xlabel("x (steps)")
        for k, text in sup.items():
            getattr(fig, f"sup{k}label")(text)
        return fig

    # a figure-level y label with a unit stands in for both panels' y labels: saved
    fig = panels({"y": "y (points)"})
    plots.check_figure(fig)
    assert [p.suffix for p in plots.save_figure(fig, tmp_path / "ok" / "fig")] == [".png", ".svg"]
    # the same figure without it is refused, naming the y label, before anything is written;
    # so is a figure-level label without a unit, or one standing in for the other axis
    for sup in ({}, {"y": ""}, {"y": "y"}, {"x": "y (points)"}):
        bare = panels(sup)
        with pytest.raises(ValueError, match="^ylabel of"):
            plots.check_figure(bare)
        with pytest.raises(ValueError, match="^ylabel of"):
            plots.save_figure(bare, tmp_path / "refused" / "fig")
    assert not (tmp_path / "refused").exists()
    # the x side: a supxlabel stands in for panels without x labels; without it, refused
    fig, axes = plt.subplots(2, 1, sharex=True)
    for ax in axes:
        ax.plot([1, 2], [3, 4])
        ax.set_ylabel("y (points)")
    with pytest.raises(ValueError, match="^xlabel of"):
        plots.check_figure(fig)
    fig.supxlabel("x (steps)")
    plots.check_figure(fig)


# -- shared colour scales ---------------------------------------------------------------------
def test_compared_panels_share_one_scale_and_one_colour_bar():
    a = pd.DataFrame([[0.1, 0.2], [0.3, 0.4]])
    b = pd.DataFrame([[0.5, 0.6], [0.7, 0.9]])
    fig, axes = plt.subplots(1, 2, layout="constrained")
    scale = plots.heatmap_group(axes, [a, b], xlabel="x (steps)", ylabel="y (steps)",
                                cbar_label="value (points)")
    limits = [ax.collections[0].get_clim() for ax in axes]
    assert limits[0] == limits[1] == (scale.vmin, scale.vmax) == (0.1, 0.9)
    bars = [ax for ax in fig.axes if getattr(ax, "_colorbar", None) is not None]
    assert len(bars) == 1


def test_scale_is_rounded_to_the_printed_precision():
    # The old figure: a colour bar from 0.5020 to 0.5030 while every cell read 0.50.
    cells = pd.DataFrame(np.linspace(0.5020, 0.5030, 6).reshape(2, 3))
    scale = plots.shared_scale([cells], label="utility (chips)", fmt=".2f")
    assert scale.constant
    assert (scale.vmin, scale.vmax) == (0.5, 0.51)  # outward to whole printed units
    assert plots.shared_scale([cells], label="utility (chips)", fmt=".4f").constant is False


def test_constant_panel_gets_no_colour_bar_and_says_constant():
    fig, ax = plt.subplots()
    flat = pd.DataFrame(np.full((3, 3), -0.5))
    plots.heatmap(ax, flat, xlabel="x (steps)", ylabel="y (steps)", cbar_label="u (chips)",
                  title="PIMC LD")
    assert "constant: -0.50" in ax.get_title()
    assert not [a for a in fig.axes if getattr(a, "_colorbar", None) is not None]


def test_colour_bar_ticks_never_print_the_same_value_twice():
    fig, ax = plt.subplots()
    cells = pd.DataFrame([[0.50, 0.51], [0.515, 0.52]])
    plots.heatmap(ax, cells, xlabel="x (steps)", ylabel="y (steps)", cbar_label="u (chips)")
    bar = next(a for a in fig.axes if getattr(a, "_colorbar", None) is not None)._colorbar
    fig.canvas.draw()
    texts = [t.get_text() for t in bar.ax.get_yticklabels() if t.get_text()]
    assert len(texts) == len(set(texts)) >= 2


def test_diverging_scale_is_symmetric_about_its_centre():
    scale = plots.shared_scale([pd.DataFrame([[72.1, 84.7]])], label="score (points)",
                               fmt=".1f", cmap="RdBu", center=81)
    assert scale.vmin == pytest.approx(81 - 8.9) and scale.vmax == pytest.approx(81 + 8.9)


# -- 95% intervals ------------------------------------------------------------------------------
def test_bands_must_be_declared_95_percent():
    _, ax = plt.subplots()
    with pytest.raises(ValueError, match="95%"):
        plots.lines_ci(ax, _frame(), "x", "y", "lo", "hi", hue="agent", xlabel="x (steps)",
                       ylabel="y (fraction)", ci_label="bands: ±1 s.e.")


def test_the_band_note_can_be_left_to_the_figure_legend():
    """pimcts_aggregation's Fig. 1 repeated "shaded: Wilson 95% CI" in each of its 13 panels,
    over the data in some, though its legend's title says it once; ``ci_note=False`` leaves
    the panel's corner empty, and the label is still checked."""
    _, (with_note, without) = plt.subplots(1, 2)
    for ax, note in ((with_note, True), (without, False)):
        plots.lines_ci(ax, _frame(), "x", "y", "lo", "hi", hue="agent", xlabel="x (steps)",
                       ylabel="y (fraction)", ci_label="shaded: Wilson 95% CI", ci_note=note)
    assert [t.get_text() for t in with_note.texts] == ["shaded: Wilson 95% CI"]
    assert len(without.texts) == 0
    with pytest.raises(ValueError, match="95%"):
        plots.lines_ci(without, _frame(), "x", "y", "lo", "hi", xlabel="x (steps)",
                       ylabel="y (fraction)", ci_label="bands", ci_note=False)
    plt.close("all")


def test_t_interval_from_a_standard_error_is_95_percent():
    values = np.array([0.2, 0.5, 0.1, 0.4, 0.3, 0.9, 0.6])
    se = values.std(ddof=1) / np.sqrt(len(values))
    from_se = stats.t_interval(values.mean(), se, len(values))
    direct = stats.mean_ci(values)
    assert (from_se.lo, from_se.hi) == pytest.approx((direct.lo, direct.hi))
    # wider than ±1 s.e. (what history_filtering drew before) by the t quantile, 2.447 at 6 df
    assert (from_se.hi - from_se.value) / se == pytest.approx(2.4469, abs=1e-3)


def test_value_error_bands_are_t95_not_one_standard_error(figure_session):
    from infosets.papers import history_filtering_analysis as paper

    rows = [{"kind": "fig4", "state": "3-3-4-3-3-0", "method": "True", "burn_in": -1.0,
             "samples": n, "transitions": 0, "error": 0.2, "se": 0.05, "runs": 5,
             "histories": 1350} for n in (10, 50)]

    fig = paper.plot_value_error(pd.DataFrame(rows), figure_session)
    band = fig.axes[0].collections[0].get_paths()[0].vertices[:, 1]
    half = stats.t_interval(0.2, 0.05, 5)
    assert band.max() == pytest.approx(half.hi) and band.min() == pytest.approx(half.lo)


# -- the paper's numbers ------------------------------------------------------------------------
def test_paper_overlay_uses_one_marker_style_and_one_legend_entry():
    _, ax = plt.subplots()
    first = plots.paper_overlay(ax, [0, 1], [0.5, 0.6], color="C0")
    second = plots.paper_overlay(ax, [0, 1], [0.2, 0.3], color="C1")
    assert first.get_marker() == second.get_marker() == plots.PAPER_MARKER["marker"]
    assert first.get_linestyle() == "None"
    labels = [h.get_label() for h in ax.get_legend_handles_labels()[0]]
    assert labels == ["paper"]


def test_paper_overlay_skips_missing_values():
    _, ax = plt.subplots()
    line = plots.paper_overlay(ax, [0, 1, 2], [0.5, np.nan, 0.7])
    assert list(line.get_xdata()) == [0, 2]
    assert plots.paper_overlay(ax, [0], [np.nan]) is None
