"""A legend never hides data: before a notebook's figure is saved, every axes legend that
covers a data point (a line's vertex, a scatter marker, a bar; the paper's numbers drawn
beside ours included) moves to the first corner or edge of its axes where it covers none,
and outside its axes, to the right, if there is no such place. A corner note (a text placed
in axes coordinates, such as ``plots.lines_ci``'s "shaded: 95% CI") that covers a data point
moves to the first other corner where it covers neither data nor the legend, and stays if
every corner is taken.

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
    return box_covers_data(ax, legend.get_window_extent(renderer), renderer)


def box_covers_data(ax, box, renderer) -> bool:
    """Whether the display box ``box`` holds any data point of ``ax`` or overlaps a bar."""
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
    if outside:
        lay_out_again(fig)
    return moved


def lay_out_again(fig) -> None:
    """Make room for what moved: ``tight_layout``, unless the figure uses constrained layout,
    which does so itself at its next draw."""
    if not isinstance(fig.get_layout_engine(), ConstrainedLayoutEngine):
        fig.tight_layout()


# corner notes: (x, y, horizontal and vertical alignment) in axes coordinates
CORNERS = ((0.99, 0.01, "right", "bottom"), (0.01, 0.01, "left", "bottom"),
           (0.99, 0.99, "right", "top"), (0.01, 0.99, "left", "top"))


def _corner_notes(ax) -> list:
    return [t for t in ax.texts
            if t.get_visible() and t.get_text() and t.get_transform() == ax.transAxes]


def _note_is_free(ax, note, renderer) -> bool:
    box = note.get_window_extent(renderer)
    legend = ax.get_legend()
    if legend is not None and legend.get_visible() \
            and box.overlaps(legend.get_window_extent(renderer)):
        return False
    return not box_covers_data(ax, box, renderer)


def keep_notes_off_data(fig) -> int:
    """Move every corner note of ``fig`` that covers data to the first of ``CORNERS`` where it
    covers neither data nor its axes' legend; leave it where it is if there is none. ``fig``
    must have been drawn since its last layout change (notes do not change the layout, so it
    is not drawn again). Returns how many notes moved."""
    renderer = fig.canvas.get_renderer()
    moved = 0
    for ax in fig.axes:
        for note in _corner_notes(ax):
            if _note_is_free(ax, note, renderer):
                continue
            start = (*note.get_position(), note.get_ha(), note.get_va())
            for x, y, ha, va in CORNERS:
                note.set_position((x, y))
                note.set_ha(ha)
                note.set_va(va)
                if _note_is_free(ax, note, renderer):
                    moved += 1
                    break
            else:
                note.set_position(start[:2])
                note.set_ha(start[2])
                note.set_va(start[3])
    return moved
