"""One style for every figure of every paper (belief_mixtures, pimcts_aggregation,
belote_ismcts, progressive_hiding, history_filtering): axis labels with units, one colour
scale per group of compared heatmaps, 95% intervals, the paper's numbers in one marker style,
and stamped atomic saves.

The contracts a reader relies on are enforced here, not left to each figure:

- every axis label names its unit in parentheses or brackets (``check_label``); a figure
  saved through ``save_figure`` with an unlabelled data axis is refused (``check_figure``);
- panels that are compared share one ``ColourScale`` (one vmin/vmax, one colour bar); the
  scale is rounded outward to the precision the cells are printed at, so the bar never
  claims a spread the cells do not show, and a panel whose cells all read the same says so
  in its title ("constant") instead of getting a colour bar of its own;
- interval bands are 95% intervals and say so;
- the paper's numbers are drawn by ``paper_overlay`` / ``paper_level`` in one style.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import matplotlib

if not os.environ.get("DISPLAY") and not os.environ.get("MPLBACKEND"):
    matplotlib.use("Agg")  # headless scripts; Jupyter kernels set MPLBACKEND to inline

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import seaborn as sns  # noqa: E402
from matplotlib.ticker import FormatStrFormatter, MaxNLocator, MultipleLocator  # noqa: E402

from infosets.core.files import atomic_write_with  # noqa: E402

CI_LABEL = "shaded: 95% CI"
# The paper's numbers: always this marker (face in the series colour, black edge), so a reader
# learns it once for every figure of every paper.
PAPER_MARKER = {"marker": "X", "ms": 8, "mec": "black", "mew": 0.8, "ls": "none", "zorder": 6}
PAPER_LINE = {"color": "black", "ls": (0, (5, 2)), "lw": 1.2, "zorder": 4}
PAPER_SPAN = {"color": "black", "alpha": 0.08, "lw": 0, "zorder": 0}
_UNIT = re.compile(r"\([^()]+\)|\[[^\[\]]+\]")
_DECIMALS = re.compile(r"^\.(\d+)f$")


def setup() -> None:
    """Apply the house style (call once; idempotent)."""
    sns.set_theme(context="notebook", style="whitegrid", palette="colorblind")
    plt.rcParams.update({"figure.dpi": 110, "savefig.dpi": 150, "axes.titleweight": "bold",
                         "figure.autolayout": False,
                         "svg.hashsalt": "infosets"})  # stable SVG ids: same run, same file


setup()


# ------------------------------------------------------------------ axis labels with units
def check_label(text: str | None, what: str) -> str:
    """``text`` if it is a label naming its unit in parentheses or brackets, e.g.
    ``"win rate (%)"``, ``"λ (mixture weight)"``; ValueError naming ``what`` otherwise."""
    if text is None or not str(text).strip():
        raise ValueError(f"{what}: a label with units is required, e.g. 'win rate (%)'")
    if not _UNIT.search(str(text)):
        raise ValueError(f"{what}: label {text!r} names no unit; add it in parentheses, "
                         "e.g. '(%)', '(points)', '(fraction of games)'")
    return str(text)


def label_axes(ax, xlabel: str, ylabel: str):
    """Set both axis labels after checking each names its unit."""
    ax.set_xlabel(check_label(xlabel, "xlabel"))
    ax.set_ylabel(check_label(ylabel, "ylabel"))
    return ax


def check_figure(fig) -> None:
    """Every visible axes that shows data has x and y labels with units (a figure-level
    ``supxlabel``/``supylabel`` stands in for its panels'), every colour bar a label with
    units; ValueError naming the first offending panel otherwise."""
    sup = {k: getattr(fig, f"_sup{k}label", None) for k in "xy"}
    sup = {k: (t.get_text() if t is not None else "") for k, t in sup.items()}
    for ax in fig.axes:
        if not ax.get_visible() or not ax.axison:
            continue
        name = ax.get_title() or ax.get_label() or "a panel"
        if getattr(ax, "_colorbar", None) is not None:
            bar = ax._colorbar
            text = bar.ax.get_ylabel() if bar.orientation == "vertical" else bar.ax.get_xlabel()
            check_label(text, f"colour bar next to {name!r}")
            continue
        if not (ax.has_data() or ax.texts):
            continue
        for k, getter in (("x", ax.get_xlabel), ("y", ax.get_ylabel)):
            check_label(getter() or sup[k], f"{k}label of {name!r}")


# ------------------------------------------------------------------ 95% intervals
def lines_ci(ax, frame: pd.DataFrame, x: str, y: str, lo: str | None = None,
             hi: str | None = None, hue: str | None = None, *, xlabel: str, ylabel: str,
             marker: str = "o", logx: bool = False, label_fmt: str = "{}",
             ci_label: str = CI_LABEL, legend_title: str | None = None,
             legend: bool = True, legend_loc: str = "best", ci_note: bool = True):
    """Lines of ``y`` vs ``x`` per ``hue`` with shaded ``[lo, hi]`` bands, which must be 95%
    intervals (``ci_label`` says so: it has to contain "95%"; it is written in the panel's
    corner unless ``ci_note=False``, for a figure whose own legend or title says it once for
    every panel). Axis labels with units are required."""
    if (lo is None) != (hi is None):
        raise ValueError("lo, hi: give both interval columns or neither")
    if lo and "95%" not in ci_label:
        raise ValueError(f"ci_label: {ci_label!r} must state the bands are 95% intervals")
    label_axes(ax, xlabel, ylabel)
    groups = frame.groupby(hue, sort=False) if hue else [(None, frame)]
    for key, sub in groups:
        sub = sub.sort_values(x)
        label = label_fmt.format(key) if key is not None else y
        (line,) = ax.plot(sub[x], sub[y], marker=marker, ms=4, label=label)
        if lo and hi:
            ax.fill_between(sub[x], sub[lo], sub[hi], alpha=0.2, color=line.get_color(), lw=0)
    if logx:
        ax.set_xscale("log")
    if lo and hi and ci_note:
        ax.text(0.99, 0.01, ci_label, transform=ax.transAxes, ha="right", va="bottom",
                fontsize=7, color="0.35")
    if hue and legend:
        title = legend_title if legend_title is not None else hue
        ax.legend(fontsize=7, title=title, title_fontsize=7, loc=legend_loc)
    return ax


def ticks_at(ax, values) -> None:
    """Major x ticks at the measured values, printed plainly (a log axis spanning less than a
    decade would otherwise show a single tick)."""
    from matplotlib.ticker import FixedLocator, NullFormatter, StrMethodFormatter

    ticks = sorted({float(v) for v in values if np.isfinite(v)})
    ax.xaxis.set_major_locator(FixedLocator(ticks))
    ax.xaxis.set_major_formatter(StrMethodFormatter("{x:,.0f}"))
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.tick_params(axis="x", labelsize=7, labelrotation=45 if len(ticks) > 5 else 0)


# ------------------------------------------------------------------ the paper's numbers
def _legend_label(ax, label: str | None) -> str:
    """``label`` once per axes: later overlays with the same label stay out of the legend."""
    if not label:
        return "_nolegend_"
    seen = {h.get_label() for h in ax.get_lines()} | {c.get_label() for c in ax.containers}
    return "_nolegend_" if label in seen else label


def paper_overlay(ax, x, y, *, label: str | None = "paper", color: str = "white",
                  yerr=None, xerr=None):
    """The paper's values at ``(x, y)``, in the one paper marker style (an X with a black
    edge; ``color`` fills it, e.g. with the colour of the series it belongs to). ``yerr`` /
    ``xerr`` draw the range the paper states (e.g. "2-5%"), not an interval of ours."""
    x, y = np.atleast_1d(np.asarray(x, dtype=float)), np.atleast_1d(np.asarray(y, dtype=float))
    keep = np.isfinite(x) & np.isfinite(y)
    if not keep.any():
        return None
    label = _legend_label(ax, label)
    if yerr is not None or xerr is not None:
        return ax.errorbar(x[keep], y[keep], yerr=yerr, xerr=xerr, mfc=color, ecolor="black",
                           elinewidth=1, capsize=3, label=label, **PAPER_MARKER)
    (line,) = ax.plot(x[keep], y[keep], mfc=color, label=label, **PAPER_MARKER)
    return line


def paper_level(ax, value: float | tuple[float, float], *, label: str | None = "paper",
                vertical: bool = False):
    """A value the paper states without a position on the other axis (a level, or a
    ``(lo, hi)`` range drawn as a band), as a dashed black line: horizontal by default,
    vertical (an x position) with ``vertical=True``."""
    label = _legend_label(ax, label)
    if isinstance(value, tuple):
        lo, hi = value
        span = ax.axvspan if vertical else ax.axhspan
        span(lo, hi, **PAPER_SPAN)
        value = (lo + hi) / 2
    line = ax.axvline if vertical else ax.axhline
    return line(value, label=label, **PAPER_LINE)


# ------------------------------------------------------------------ heatmaps on shared scales
def decimals_of(fmt: str) -> int | None:
    """2 for ``".2f"``; None for formats that are not fixed-point."""
    m = _DECIMALS.match(fmt)
    return int(m.group(1)) if m else None


def reads_constant(frame, fmt: str) -> bool:
    """True when every finite cell prints the same at ``fmt`` (what a reader sees)."""
    vals = np.asarray(frame, dtype=float).ravel()
    vals = vals[np.isfinite(vals)]
    return len({format(float(v) + 0.0, fmt) for v in vals}) <= 1


@dataclass(frozen=True)
class ColourScale:
    """One colour scale for a group of compared heatmaps: limits, colour map, label, and
    whether every cell of the group prints the same value (then no colour bar is drawn)."""

    vmin: float
    vmax: float
    label: str
    cmap: str = "viridis"
    center: float | None = None
    fmt: str = ".2f"
    constant: bool = False

    def kwargs(self) -> dict:
        out = {"vmin": self.vmin, "vmax": self.vmax, "cmap": self.cmap}
        if self.center is not None:
            out["center"] = self.center
        return out


def _round_out(lo: float, hi: float, decimals: int) -> tuple[float, float]:
    """``lo`` down and ``hi`` up to ``decimals`` places (a value already on the grid, up to
    float noise, stays put)."""
    unit = 10.0 ** -decimals
    return (round(math.floor(round(lo / unit, 6)) * unit, decimals),
            round(math.ceil(round(hi / unit, 6)) * unit, decimals))


def shared_scale(frames: Sequence, *, label: str, fmt: str = ".2f", cmap: str = "viridis",
                 center: float | None = None, min_span: float = 0.0) -> ColourScale:
    """The colour scale shared by ``frames`` (compared panels). Limits are the group's
    extremes rounded outward to the printed precision (``fmt``), widened about their middle
    to at least ``min_span`` (so that a tiny spread does not fill the whole colour bar), and
    symmetric about ``center`` for a diverging map; a group whose cells all print the same
    value gets a scale one printed unit wide each side and ``constant=True``."""
    check_label(label, "colour bar label")
    vals = np.concatenate([np.asarray(f, dtype=float).ravel() for f in frames]) if frames \
        else np.array([])
    vals = vals[np.isfinite(vals)]
    if not len(vals):
        raise ValueError("frames: the panels hold no finite value to scale")
    decimals = decimals_of(fmt)
    lo, hi = float(vals.min()), float(vals.max())
    if decimals is not None:
        unit = 10.0 ** -decimals
        lo, hi = _round_out(lo, hi, decimals)
    else:
        unit = max(abs(lo), abs(hi), 1.0) * 1e-3
    constant = reads_constant(vals, fmt)
    if hi - lo < unit / 2:
        lo, hi = lo - unit, hi + unit
    if hi - lo < min_span:
        middle = (lo + hi) / 2
        lo, hi = middle - min_span / 2, middle + min_span / 2
        if decimals is not None:
            lo, hi = _round_out(lo, hi, decimals)
    if center is not None:
        half = max(center - lo, hi - center, unit)
        lo, hi = center - half, center + half
    return ColourScale(lo, hi, label, cmap, center, fmt, constant)


def _constant_title(title: str | None, frame, fmt: str) -> str | None:
    if not reads_constant(frame, fmt):
        return title
    vals = np.asarray(frame, dtype=float).ravel()
    vals = vals[np.isfinite(vals)]
    note = f"constant: {format(float(vals[0]) + 0.0, fmt)}" if len(vals) else "no values"
    return f"{title} ({note})" if title else f"({note})"


def heatmap(ax, frame: pd.DataFrame, *, xlabel: str, ylabel: str,
            scale: ColourScale | None = None, cbar_label: str | None = None,
            fmt: str = ".2f", cmap: str = "viridis", center: float | None = None,
            title: str | None = None, labels: pd.DataFrame | None = None,
            hatch: pd.DataFrame | None = None, hatch_label: str | None = None,
            colorbar: bool = True, annotate: bool = True):
    """An annotated heatmap of a 2-D frame (index = rows, y; columns = x), rows upward.

    ``scale`` is the group's shared ``ColourScale`` (``shared_scale``); without it the panel
    gets its own from ``cbar_label``/``fmt``/``cmap``/``center``. No colour bar is drawn for
    ``colorbar=False`` (the group draws one, see ``heatmap_group``) nor for a constant scale;
    a panel whose cells all print the same says "constant" in its title. ``labels`` replaces
    the cell texts (e.g. "73.5\\n±4.2"); ``hatch`` (booleans) hatches cells, explained by
    ``hatch_label`` under the panel."""
    label_axes(ax, xlabel, ylabel)
    if scale is None:
        scale = shared_scale([frame], label=cbar_label, fmt=fmt, cmap=cmap, center=center)
    draw_bar = colorbar and not scale.constant
    annot = labels.loc[frame.index, frame.columns].to_numpy() if labels is not None else annotate
    sns.heatmap(frame, ax=ax, annot=annot, fmt="" if labels is not None else scale.fmt,
                square=False, annot_kws={"fontsize": 7}, cbar=draw_bar,
                cbar_kws={"label": scale.label} if draw_bar else None, **scale.kwargs())
    if draw_bar:
        _format_colorbar(ax.collections[0].colorbar, scale)
    if hatch is not None:
        mask = hatch.loc[frame.index, frame.columns].to_numpy(dtype=bool)
        for i, j in zip(*np.nonzero(mask)):
            ax.add_patch(matplotlib.patches.Rectangle((j, i), 1, 1, fill=False, hatch="//",
                                                      edgecolor=(0, 0, 0, 0.3), lw=0))
        if hatch_label:
            ax.text(0.0, -0.2, f"// hatched: {hatch_label}", transform=ax.transAxes, fontsize=7,
                    ha="left", va="top", color="0.25")
    ax.invert_yaxis()
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    title = _constant_title(title, frame, scale.fmt)
    if title:
        ax.set_title(title)
    return ax


def _format_colorbar(bar, scale: ColourScale) -> None:
    """Ticks at whole multiples of the printed unit (so no two ticks print the same), at
    most six, printed at the cells' precision (never more digits)."""
    decimals = decimals_of(scale.fmt)
    if decimals is None:
        bar.locator = MaxNLocator(nbins=5)
    else:
        unit = 10.0 ** -decimals
        units = max(1, round((scale.vmax - scale.vmin) / unit))
        step = next(k * 10 ** e for e in range(12) for k in (1, 2, 5) if units / (k * 10 ** e) <= 5)
        bar.locator = MultipleLocator(step * unit)
        bar.formatter = FormatStrFormatter(f"%.{decimals}f")
    bar.update_ticks()


def heatmap_group(axes: Sequence, frames: Sequence[pd.DataFrame], *, xlabel: str, ylabel: str,
                  cbar_label: str, titles: Sequence[str] | None = None, fmt: str = ".2f",
                  cmap: str = "viridis", center: float | None = None,
                  min_span: float = 0.0) -> ColourScale:
    """Compared heatmaps on one ``ColourScale`` with one colour bar beside the whole group
    (none when every cell of the group prints the same value). Returns the scale."""
    axes = list(axes)
    if len(axes) != len(frames):
        raise ValueError(f"axes: {len(axes)} panels for {len(frames)} frames")
    scale = shared_scale(frames, label=cbar_label, fmt=fmt, cmap=cmap, center=center,
                         min_span=min_span)
    titles = list(titles) if titles is not None else [None] * len(frames)
    for ax, frame, title in zip(axes, frames, titles):
        heatmap(ax, frame, xlabel=xlabel, ylabel=ylabel, scale=scale, title=title,
                colorbar=False)
    if not scale.constant:
        bar = axes[0].figure.colorbar(axes[0].collections[0], ax=axes, label=scale.label,
                                      fraction=0.05, pad=0.02)
        _format_colorbar(bar, scale)
    return scale


# ------------------------------------------------------------------ saving
def stamp(fig, text: str) -> None:
    """Write the provenance line (preset, seed, version) in the figure's bottom-right corner."""
    fig.text(0.995, 0.003, text, ha="right", va="bottom", fontsize=6, color="0.45")


def save_figure(fig, stem: Path, stamp_text: str | None = None) -> list[Path]:
    """Save ``stem``.png and ``stem``.svg atomically; return the paths. Refuses a figure
    whose data axes lack labels with units (``check_figure``), before writing anything."""
    check_figure(fig)
    stem = Path(stem)
    stem.parent.mkdir(parents=True, exist_ok=True)
    if stamp_text:
        stamp(fig, stamp_text)
    paths = []
    for ext in ("png", "svg"):
        final = figure_path(stem, ext)
        # No creation date in the metadata: identical results give byte-identical files.
        atomic_write_with(final, lambda tmp, ext=ext: fig.savefig(
            tmp, format=ext, bbox_inches="tight", metadata={"Date": None}))
        paths.append(final)
    return paths


def figure_path(stem: Path, ext: str) -> Path:
    """``stem`` with ``.ext`` appended: a stem with a dot ("win_rate_B10000.0") keeps it,
    where ``Path.with_suffix`` would cut it and overwrite a neighbour's file."""
    stem = Path(stem)
    return stem.with_name(f"{stem.name}.{ext}")


def markdown_table(frame: pd.DataFrame, floatfmt: str = ".4g") -> str:
    """A GitHub-flavoured markdown table (no extra dependency)."""
    def cell(v):
        if isinstance(v, (float, np.floating)):
            return "" if np.isnan(v) else format(float(v), floatfmt)
        return str(v).replace("|", "\\|").replace("\n", " ")

    cols = [str(c) for c in frame.columns]
    lines = ["| " + " | ".join(cols) + " |", "|" + "|".join("---" for _ in cols) + "|"]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in frame.itertuples(False)]
    return "\n".join(lines) + "\n"
