"""A legend never hides data: before a notebook's figure is saved, every axes legend that
covers a data point (a line's vertex, a scatter marker, a bar; the paper's numbers drawn
beside ours included) moves to the first corner or edge of its axes where it covers none,
and outside its axes, to the right, if there is no such place. A legend that covers no point
but lies across a drawn line (a reference line such as the paper's value, or a curve between
two vertices) moves too, but only to a place where it covers neither points nor lines; where
there is none it stays, since the line is then hidden wherever the legend goes in its axes.
A corner note (a text placed in axes coordinates, such as ``plots.lines_ci``'s "shaded: 95%
CI") that covers a data point or crosses a line moves to the first other corner where it
covers neither data nor the legend, lines included if such a corner exists, and stays if
every corner is taken.

The moves are applied by ``session.save_figure`` to every paper's figures. Separately,
``figure_legend`` gives a figure whose panels draw the same series one legend above them all,
in place of a legend per panel (figure code calls it; the figure needs constrained layout).
The module lives outside the papers' task modules' import closures, so it changes figures,
never a results key (``store.code_hash``).
"""

from __future__ import annotations

from collections.abc import Sequence

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


def _segments(ax) -> np.ndarray:
    """Display coordinates ``(x0, y0, x1, y1)`` of every drawn segment of the visible lines of
    ``ax`` (a line drawn with markers only has none; a gap at a NaN breaks a line)."""
    chunks = []
    for line in ax.get_lines():
        if not line.get_visible() or line.get_linestyle() in ("None", "none", "", " "):
            continue
        xy = np.asarray(line.get_xydata(), dtype=float)
        if len(xy) < 2:
            continue
        xy = line.get_transform().transform(xy)
        chunks.append(np.hstack([xy[:-1], xy[1:]]))
    if not chunks:
        return np.empty((0, 4))
    segs = np.concatenate(chunks)
    return segs[np.isfinite(segs).all(axis=1)]


def box_crosses_lines(ax, box) -> bool:
    """Whether any drawn segment of a line of ``ax`` passes through the display box ``box``
    (Liang-Barsky clipping, all segments at once)."""
    segs = _segments(ax)
    if not len(segs):
        return False
    x0, y0 = segs[:, 0], segs[:, 1]
    dx, dy = segs[:, 2] - x0, segs[:, 3] - y0
    enter, leave = np.zeros(len(segs)), np.ones(len(segs))
    crosses = np.ones(len(segs), dtype=bool)
    for p, q in ((-dx, x0 - box.x0), (dx, box.x1 - x0), (-dy, y0 - box.y0), (dy, box.y1 - y0)):
        parallel = p == 0
        crosses &= ~(parallel & (q < 0))  # parallel to this edge and outside it
        with np.errstate(divide="ignore", invalid="ignore"):
            t = np.where(parallel, 0.0, q / np.where(parallel, 1.0, p))
        enter = np.where(~parallel & (p < 0), np.maximum(enter, t), enter)
        leave = np.where(~parallel & (p > 0), np.minimum(leave, t), leave)
    return bool((crosses & (enter <= leave)).any())


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


def _first_free(options, put, is_free):
    """The first of ``options`` where ``is_free()`` holds once ``put(option)`` has placed the
    artist there, leaving it there; None (with the artist at the last option) if none is."""
    for option in options:
        put(option)
        if is_free():
            return option
    return None


def _first_place(ax, legend, renderer, *, lines: bool):
    """The first of ``PLACES`` where ``legend`` covers no data point of ``ax`` (and, with
    ``lines``, crosses no line either), leaving the legend there; None if there is none."""
    def is_free():
        box = legend.get_window_extent(renderer)  # follows set_loc at once: no redraw needed
        return not box_covers_data(ax, box, renderer) and not (lines and box_crosses_lines(ax, box))
    return _first_free(PLACES, legend.set_loc, is_free)


def keep_legends_off_data(fig) -> int:
    """Move every axes legend of ``fig`` that covers data: to the first of ``PLACES`` in its
    axes where it covers neither points nor lines, else (if it covers a point) to the first
    where it covers no point, else outside its axes (upper left corner just right of it, and
    the figure laid out again). A legend that only crosses a line stays unless a place free
    of both exists. Entries, title and font sizes are kept. Returns how many legends moved."""
    fig.draw_without_rendering()  # places "best" legends and lays the figure out
    renderer = fig.canvas.get_renderer()
    moved, outside = 0, False
    for ax in fig.axes:
        legend = ax.get_legend()
        if legend is None or not legend.get_visible():
            continue
        box = legend.get_window_extent(renderer)
        hides_points = box_covers_data(ax, box, renderer)
        if not hides_points and not box_crosses_lines(ax, box):
            continue
        start = legend._loc  # matplotlib's location code (0 is "best")
        if _first_place(ax, legend, renderer, lines=True) is not None:
            moved += 1
        elif not hides_points:
            legend.set_loc(start)
        elif _first_place(ax, legend, renderer, lines=False) is not None:
            moved += 1
        else:
            legend.set_loc("upper left")
            legend.set_bbox_to_anchor((1.01, 1.0), transform=ax.transAxes)
            moved += 1
            outside = True
    if outside:
        lay_out_again(fig)
    return moved


def figure_legend(fig, axes, title: str, ncols: int = 6, order: Sequence[str] = ()) -> None:
    """One legend above the panels, under the figure's ``title``, for every line any panel
    draws (each label once), in place of a legend per panel that would cover the data. Labels
    in ``order`` come first, in that order (the same series order whichever panel drew them
    first); the others follow in the order the panels drew them."""
    seen: dict = {}
    for ax in np.ravel(axes):
        for handle, label in zip(*ax.get_legend_handles_labels()):
            seen.setdefault(label, handle)
    rank = {label: i for i, label in enumerate(order)}
    seen = dict(sorted(seen.items(), key=lambda item: rank.get(item[0], len(rank))))
    if seen:
        fig.legend(list(seen.values()), list(seen.keys()), loc="outside upper center",
                   ncols=min(ncols, len(seen)), fontsize=8, frameon=False, title=title,
                   title_fontsize=10)
    else:
        fig.suptitle(title, fontsize=10)


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


def _note_is_free(ax, note, renderer, *, lines: bool = False) -> bool:
    box = note.get_window_extent(renderer)
    legend = ax.get_legend()
    if legend is not None and legend.get_visible() \
            and box.overlaps(legend.get_window_extent(renderer)):
        return False
    if lines and box_crosses_lines(ax, box):
        return False
    return not box_covers_data(ax, box, renderer)


def _place_note(note, corner) -> None:
    x, y, ha, va = corner
    note.set_position((x, y))
    note.set_ha(ha)
    note.set_va(va)


def _free_corner(ax, note, renderer, *, lines: bool):
    """The first of ``CORNERS`` where ``note`` is free (``_note_is_free``), leaving it there;
    None if there is none."""
    return _first_free(CORNERS, lambda corner: _place_note(note, corner),
                       lambda: _note_is_free(ax, note, renderer, lines=lines))


def keep_notes_off_data(fig) -> int:
    """Move every corner note of ``fig`` that covers data or crosses a line to the first of
    ``CORNERS`` where it covers neither data, lines nor its axes' legend; failing that, one
    that covers a point goes to the first corner free of data and legend; otherwise it stays.
    ``fig`` must have been drawn since its last layout change (notes do not change the
    layout, so it is not drawn again). Returns how many notes moved."""
    renderer = fig.canvas.get_renderer()
    moved = 0
    for ax in fig.axes:
        for note in _corner_notes(ax):
            if _note_is_free(ax, note, renderer, lines=True):
                continue
            start = (*note.get_position(), note.get_ha(), note.get_va())
            hides_points = not _note_is_free(ax, note, renderer)
            corner = _free_corner(ax, note, renderer, lines=True)
            if corner is None and hides_points:
                corner = _free_corner(ax, note, renderer, lines=False)
            if corner is None:
                _place_note(note, start)
            elif corner != start:
                moved += 1
    return moved
