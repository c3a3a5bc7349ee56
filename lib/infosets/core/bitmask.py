"""Card sets as int bitmasks: the one iterator over their set bits.

The card games of the papers (trick_game and oh_hell of belief_mixtures and
history_filtering, belote2p of belote_ismcts) hold hands as Python ints, bit ``c`` set when
card ``c`` is in the hand. This module imports nothing from ``infosets``, so ``games/`` and
everything above it may use it. (Jitted kernels keep their own numba loops.)
"""

from __future__ import annotations


def set_bits(mask: int) -> list[int]:
    """The indices of the set bits of ``mask`` (a non-negative int), ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
