"""An axes title never runs into its neighbours: before a notebook's figure is saved, every
axes title whose box overlaps another axes (its tick labels, axis labels, title or outside
legend; a colour bar included) is wrapped onto two lines at the space nearest its middle, and
shrunk step by step (to no less than 70% of its size) if that is not enough.

Applied by ``session.save_figure`` after ``legends.keep_legends_off_data`` (a legend moved
outside its axes takes room a neighbour's title may need). Like that rule it lives outside the
papers' import closures, so it changes figures, never a results key (``store.code_hash``).
Only the centre title (``ax.set_title``) is checked: no figure of ours sets the others.
"""

from __future__ import annotations

from matplotlib.layout_engine import ConstrainedLayoutEngine

SMALLEST = 0.7  # of a title's own font size
STEP = 0.9


def overlapping_titles(fig) -> list:
    """The axes of ``fig`` whose visible centre title overlaps another visible axes' tight box
    (``fig`` must have been drawn)."""
    renderer = fig.canvas.get_renderer()
    axes = [ax for ax in fig.axes if ax.get_visible()]
    boxes = {id(ax): ax.get_tightbbox(renderer) for ax in axes}
    clashing = []
    for ax in axes:
        title = ax.title
        if not (title.get_visible() and title.get_text()):
            continue
        box = title.get_window_extent(renderer)
        if any(other is not ax and boxes[id(other)] is not None
               and box.overlaps(boxes[id(other)]) for other in axes):
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
        if not isinstance(fig.get_layout_engine(), ConstrainedLayoutEngine):
            fig.tight_layout()
    return len(changed)
