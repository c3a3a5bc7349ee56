"""Text in a saved figure never runs into other text. Two rules, applied by
``tidy_for_saving`` (which ``session.save_figure`` calls) after the legend and note rules of
``legends`` (a legend moved outside its axes takes room a neighbour's title may need):

- an axes title whose box overlaps another axes (its tick labels, axis labels, title or
  outside legend; a colour bar included) is wrapped onto two lines at the space nearest its
  middle, and shrunk step by step (to no less than 70% of its size) if that is not enough.
  Only the centre title (``ax.set_title``) is checked: no figure of ours sets the others;
- the provenance stamp (``plots.stamp``, bottom right) that covers an axis label or any other
  text moves below everything the figure draws (the saved image is cropped to its content,
  so the page grows by one line).

Like the legend rule this lives outside the papers' import closures, so it changes figures,
never a results key (``store.code_hash``).
"""

from __future__ import annotations

from infosets import plots
from infosets.experiments.legends import keep_legends_off_data, keep_notes_off_data, lay_out_again

SMALLEST = 0.7  # of a title's own font size
STEP = 0.9


def _drawn_tick_labels(axis, coordinate: int) -> list:
    """The tick labels of ``axis`` that are drawn: a locator also labels ticks just outside
    the view (a colour bar's, say), whose stale boxes lie where nothing is drawn."""
    lo, hi = sorted(axis.get_view_interval())
    slack = 1e-9 * (hi - lo)
    return [t for t in axis.get_ticklabels()
            if lo - slack <= t.get_position()[coordinate] <= hi + slack]


def _axes_boxes(ax, renderer) -> list:
    """Window boxes of what ``ax`` draws: its data area, title, axis labels, tick labels and
    legend. Each on its own: their union would also cover the blank corners between, say, a
    y label and an x tick label."""
    if not ax.get_visible():
        return []
    texts = [ax.title, ax.xaxis.label, ax.yaxis.label,
             *_drawn_tick_labels(ax.xaxis, 0), *_drawn_tick_labels(ax.yaxis, 1)]
    boxes = [ax.bbox]
    boxes += [t.get_window_extent(renderer) for t in texts if t.get_visible() and t.get_text()]
    legend = ax.get_legend()
    if legend is not None and legend.get_visible():
        boxes.append(legend.get_window_extent(renderer))
    return [b for b in boxes if b.width > 0 and b.height > 0]


def _figure_boxes(fig, renderer, leave_out=None) -> list:
    """Window boxes of the figure's own texts (suptitle, shared labels) and legends."""
    boxes = [t.get_window_extent(renderer) for t in fig.texts
             if t is not leave_out and t.get_visible() and t.get_text()]
    boxes += [leg.get_window_extent(renderer) for leg in fig.legends if leg.get_visible()]
    return [b for b in boxes if b.width > 0 and b.height > 0]


def overlapping_titles(fig) -> list:
    """The axes of ``fig`` whose visible centre title overlaps what another visible axes draws
    (``_axes_boxes``) or a figure-level text or legend (``fig`` must have been drawn)."""
    renderer = fig.canvas.get_renderer()
    figure_level = _figure_boxes(fig, renderer)
    boxes = {id(ax): _axes_boxes(ax, renderer) for ax in fig.axes}  # once, not once per title
    clashing = []
    for ax in fig.axes:
        title = ax.title
        if not (ax.get_visible() and title.get_visible() and title.get_text()):
            continue
        box = title.get_window_extent(renderer)
        others = [b for other in fig.axes if other is not ax for b in boxes[id(other)]]
        if any(box.overlaps(b) for b in others + figure_level):
            clashing.append(ax)
    return clashing


def wrap_in_two(text: str) -> str | None:
    """``text`` broken at the space nearest its middle, or None if it has no space to break
    at or is already on more than one line."""
    if "\n" in text:
        return None
    spaces = [i for i, ch in enumerate(text) if ch == " "]
    if not spaces:
        return None
    cut = min(spaces, key=lambda i: abs(i - len(text) / 2))
    return text[:cut] + "\n" + text[cut + 1:]


def keep_titles_clear(fig, rounds: int = 5, *, drawn: bool = False) -> int:
    """Wrap, then shrink, every title of ``fig`` that overlaps another axes, laying the figure
    out again after each round (unless it uses constrained layout, which does so itself).
    ``drawn``: ``fig`` was drawn after its last change, so the first round measures it as it
    is (a constrained layout moves by a hair at every draw, and a needless draw would change
    the saved SVG's clip ids though no pixel moves). Returns how many titles changed."""
    changed: set[int] = set()
    sizes: dict[int, float] = {}
    for round_ in range(rounds):
        if round_ or not drawn:
            fig.draw_without_rendering()
        clashing = overlapping_titles(fig)
        if not clashing:
            break
        progressed = False
        for ax in clashing:
            title = ax.title
            full = sizes.setdefault(id(ax), title.get_fontsize())
            wrapped = wrap_in_two(title.get_text())
            if wrapped is not None:
                title.set_text(wrapped)
            elif title.get_fontsize() * STEP >= full * SMALLEST:
                title.set_fontsize(title.get_fontsize() * STEP)
            else:
                continue  # as small as it goes: leave it
            changed.add(id(ax))
            progressed = True
        if not progressed:
            break
        lay_out_again(fig)
    return len(changed)


def stamp_clear_of_text(fig, text: str, gap_points: float = 2.0):
    """Stamp ``fig`` with ``text`` (``plots.stamp``) and, if the stamp overlaps anything the
    figure draws, move it below the lowest of those, still right-aligned. ``fig`` must have
    been drawn since its last layout change; it is not drawn again (a needless draw moves a
    constrained layout by a hair). Returns the stamp's Text."""
    plots.stamp(fig, text)
    label = fig.texts[-1]
    renderer = fig.canvas.get_renderer()
    box = label.get_window_extent(renderer)
    others = [b for ax in fig.axes for b in _axes_boxes(ax, renderer)]
    others += _figure_boxes(fig, renderer, leave_out=label)
    if any(box.overlaps(other) for other in others):
        lowest = min(other.y0 for other in others)
        gap = gap_points * fig.dpi / 72
        label.set_y((lowest - gap - box.height) / fig.bbox.height)
    return label


def tidy_for_saving(fig, stamp_text: str) -> None:
    """Everything done to a figure before it is written, in order: legends, then corner
    notes, off the data (``legends``); titles clear of their neighbours; the stamp clear of
    any text. The figure is drawn once at the start and again only where something moved."""
    moved = keep_legends_off_data(fig)  # draws the figure
    keep_notes_off_data(fig)  # notes do not change the layout
    keep_titles_clear(fig, drawn=not moved)  # leaves it drawn
    stamp_clear_of_text(fig, stamp_text)
