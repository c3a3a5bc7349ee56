"""A legend never hides data: before a notebook's figure is saved, every axes legend that
covers a data point (a line's vertex or a scatter marker, including the paper's numbers drawn
beside ours) is moved outside its axes, to the right.

Applied by ``session.save_figure`` to every paper's figures. It lives outside the papers'
import closures, so it changes figures, never a results key (``store.code_hash``).
"""

from __future__ import annotations

import numpy as np
from matplotlib.collections import PathCollection
from matplotlib.layout_engine import ConstrainedLayoutEngine


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
    """Whether the legend of ``ax`` sits over any of its data points."""
    legend = ax.get_legend()
    if legend is None or not legend.get_visible():
        return False
    box = legend.get_window_extent(renderer)
    pts = _points(ax)
    inside = ((pts[:, 0] >= box.x0) & (pts[:, 0] <= box.x1)
              & (pts[:, 1] >= box.y0) & (pts[:, 1] <= box.y1))
    return bool(inside.any())


def keep_legends_off_data(fig) -> int:
    """Move every axes legend of ``fig`` that covers data outside its axes (upper left
    corner just right of the axes), keeping its entries, title and font sizes, then lay the
    figure out again. Returns how many legends moved."""
    fig.draw_without_rendering()  # places "best" legends and lays the figure out
    renderer = fig.canvas.get_renderer()
    moved = 0
    for ax in fig.axes:
        if not covers_data(ax, renderer):
            continue
        old = ax.get_legend()
        texts = old.get_texts()
        title = old.get_title()
        ax.legend(handles=list(old.legend_handles), labels=[t.get_text() for t in texts],
                  title=title.get_text() or None, title_fontsize=title.get_fontsize(),
                  fontsize=texts[0].get_fontsize() if texts else None,
                  loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0)
        moved += 1
    if moved and not isinstance(fig.get_layout_engine(), ConstrainedLayoutEngine):
        fig.tight_layout()  # constrained layout makes room for outside legends itself
    return moved
