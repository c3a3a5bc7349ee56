"""A legend never hides data: before a notebook's figure is saved, every axes legend that
covers a data point (a line's vertex, a scatter marker, a bar; the paper's numbers drawn
beside ours included) moves to the first corner or edge of its axes where it covers none,
and outside its axes, to the right, if there is no such place.

Applied by ``session.save_figure`` to every paper's figures. It lives outside the papers'
import closures, so it changes figures, never a results key (``store.code_hash``).
"""

from __future__ import annotations

import numpy as np
from matplotlib.collections import PathCollection
from matplotlib.container import BarContainer
from matplotlib.layout_engine import ConstrainedLayoutEngine

# matplotlib's in-axes legend locations, corners first
PLACES = ("upper right", "upper left", "lower right", "lower left", "center right",
          "center left", "upper center", "lower center", "center")


def _points(ax) -> np.ndarray:
    """Display coordinates of the visible data points of ``ax``: line vertices and scatter
    markers (bands and error-bar segments are left out)."""
    chunks = []
    for line in ax.get_lines():
        xy = np.asarray(line.get_xydata(), dtype=float)
        if line.get_visible() and xy.size:
            chunks.append(line.get_transform().transform(xy))
    for coll in ax.collections:
        offsets = np.asarray(coll.get_offsets(), dtype=float)
        if isinstance(coll, PathCollection) and coll.get_visible() and offsets.size:
            chunks.append(coll.get_offset_transform().transform(offsets))
    if not chunks:
        return np.empty((0, 2))
    pts = np.concatenate(chunks)
    return pts[np.isfinite(pts).all(axis=1)]


def covers_data(ax, renderer) -> bool:
    """Whether the legend of ``ax`` sits over any of its data points or bars."""
    legend = ax.get_legend()
    if legend is None or not legend.get_visible():
        return False
    box = legend.get_window_extent(renderer)
    pts = _points(ax)
    inside = ((pts[:, 0] >= box.x0) & (pts[:, 0] <= box.x1)
              & (pts[:, 1] >= box.y0) & (pts[:, 1] <= box.y1))
    if inside.any():
        return True
    bars = [p for c in ax.containers if isinstance(c, BarContainer) for p in c.patches]
    return any(p.get_visible() and box.overlaps(p.get_window_extent(renderer)) for p in bars)


def keep_legends_off_data(fig) -> int:
    """Move every axes legend of ``fig`` that covers data: to the first of ``PLACES`` in its
    axes where it covers none, else outside its axes (upper left corner just right of it,
    and the figure laid out again). Entries, title and font sizes are kept. Returns how many
    legends moved."""
    fig.draw_without_rendering()  # places "best" legends and lays the figure out
    renderer = fig.canvas.get_renderer()
    moved, outside = 0, False
    for ax in fig.axes:
        if not covers_data(ax, renderer):
            continue
        moved += 1
        legend = ax.get_legend()
        for place in PLACES:
            legend.set_loc(place)  # its box follows at once: no redraw needed
            if not covers_data(ax, renderer):
                break
        else:
            legend.set_loc("upper left")
            legend.set_bbox_to_anchor((1.01, 1.0), transform=ax.transAxes)
            outside = True
    if outside and not isinstance(fig.get_layout_engine(), ConstrainedLayoutEngine):
        fig.tight_layout()  # constrained layout makes room for outside legends itself
    return moved
