"""Whether two SVG files of one figure draw the same picture, up to float noise.

Matplotlib writes SVG coordinates with six decimals and names clip paths and markers after a
hash of their geometry. The same figure laid out on another CPU (numpy picks its SIMD kernels
by CPU, so a layout sum can differ in its last bit) can therefore move a coordinate in its
sixth decimal and rename every clip path. A fresh clone that replots the committed results on
another machine must leave the committed files alone (``make figures`` on a clean clone leaves
``git status`` clean), so ``Session.save_figure`` keeps a committed SVG that
``same_drawing`` finds equal to the new one. PNGs are compared byte for byte.
"""

from __future__ import annotations

import re

# matplotlib.backends.backend_svg names clip paths "p", markers "m" and hatches "h" followed by
# ten hex digits of a hash of their content
_HASHED_ID = re.compile(rb"\b([hmp])[0-9a-f]{10}\b")
# a number stands on its own: not the tail of a name or of a hex colour ("#00e500" is no
# "0e5" followed by text, which would make it equal to "#00e600")
_NUMBER = re.compile(rb"(?<![#\w.])-?\d+(?:\.\d+)?(?:e[-+]?\d+)?")


def canonical_ids(svg: bytes) -> bytes:
    """``svg`` with each hashed id renamed by its order of first appearance."""
    names: dict[bytes, bytes] = {}

    def rename(match: re.Match) -> bytes:
        return names.setdefault(match.group(0), match.group(1) + b"id%d" % len(names))

    return _HASHED_ID.sub(rename, svg)


def same_drawing(old: bytes, new: bytes, tolerance: float = 1e-3) -> bool:
    """True if ``old`` and ``new`` have the same elements, text and glyphs, in the same order,
    with hashed ids renamed alike and every number within ``tolerance`` (SVG user units: points,
    so 1e-3 is a thousandth of a point, far below a pixel)."""
    a, b = canonical_ids(old), canonical_ids(new)
    if a == b:
        return True
    if _NUMBER.split(a) != _NUMBER.split(b):
        return False
    return all(abs(float(x) - float(y)) <= tolerance
               for x, y in zip(_NUMBER.findall(a), _NUMBER.findall(b)))
