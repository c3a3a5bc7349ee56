"""One style for every figure of every paper: heatmaps, CI lines, stamped atomic saves."""

from __future__ import annotations

import os
from pathlib import Path

import matplotlib

if not os.environ.get("DISPLAY") and not os.environ.get("MPLBACKEND"):
    matplotlib.use("Agg")  # headless scripts; Jupyter kernels set MPLBACKEND to inline

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import seaborn as sns  # noqa: E402

CI_LABEL = "shaded: 95% CI"


def setup() -> None:
    """Apply the house style (call once; idempotent)."""
    sns.set_theme(context="notebook", style="whitegrid", palette="colorblind")
    plt.rcParams.update({"figure.dpi": 110, "savefig.dpi": 150, "axes.titleweight": "bold",
                         "figure.autolayout": False,
                         "svg.hashsalt": "infosets"})  # stable SVG ids: same run, same file


setup()


def heatmap(ax, frame: pd.DataFrame, *, fmt: str = ".3f", cmap: str = "viridis",
            annotate: bool = True, title: str | None = None, xlabel: str | None = None,
            ylabel: str | None = None, cbar_label: str | None = None, **kwargs):
    """An annotated heatmap of a 2-D frame (index = rows, columns = x)."""
    sns.heatmap(frame, ax=ax, annot=annotate, fmt=fmt, cmap=cmap, square=False,
                annot_kws={"fontsize": 7}, cbar_kws={"label": cbar_label or ""}, **kwargs)
    ax.invert_yaxis()
    if title:
        ax.set_title(title)
    ax.set_xlabel(xlabel if xlabel is not None else (frame.columns.name or ""))
    ax.set_ylabel(ylabel if ylabel is not None else (frame.index.name or ""))
    return ax


def lines_ci(ax, frame: pd.DataFrame, x: str, y: str, lo: str | None = None,
             hi: str | None = None, hue: str | None = None, *, marker: str = "o",
             logx: bool = False, label_fmt: str = "{}", ci_label: str = CI_LABEL):
    """Lines of ``y`` vs ``x`` per ``hue`` with shaded ``[lo, hi]`` bands (95% intervals)."""
    groups = frame.groupby(hue, sort=False) if hue else [(None, frame)]
    for key, sub in groups:
        sub = sub.sort_values(x)
        label = label_fmt.format(key) if key is not None else y
        (line,) = ax.plot(sub[x], sub[y], marker=marker, ms=4, label=label)
        if lo and hi:
            ax.fill_between(sub[x], sub[lo], sub[hi], alpha=0.2, color=line.get_color(), lw=0)
    if logx:
        ax.set_xscale("log")
    ax.set_xlabel(x)
    ax.set_ylabel(y)
    if lo and hi:
        ax.text(0.99, 0.01, ci_label, transform=ax.transAxes, ha="right", va="bottom",
                fontsize=7, color="0.35")
    if hue:
        ax.legend(fontsize=8, title=hue, title_fontsize=8)
    return ax


def stamp(fig, text: str) -> None:
    """Write the provenance line (preset, seed, version) in the figure's bottom-right corner."""
    fig.text(0.995, 0.003, text, ha="right", va="bottom", fontsize=6, color="0.45")


def save_figure(fig, stem: Path, stamp_text: str | None = None) -> list[Path]:
    """Save ``stem``.png and ``stem``.svg atomically; return the paths."""
    stem = Path(stem)
    stem.parent.mkdir(parents=True, exist_ok=True)
    if stamp_text:
        stamp(fig, stamp_text)
    paths = []
    for ext in ("png", "svg"):
        final = stem.with_suffix(f".{ext}")
        tmp = final.with_name(f".{final.name}.tmp")
        # No creation date in the metadata: identical results give byte-identical files.
        fig.savefig(tmp, format=ext, bbox_inches="tight", metadata={"Date": None})
        os.replace(tmp, final)
        paths.append(final)
    return paths


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
