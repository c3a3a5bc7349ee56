"""The settings of a human-vs-ISMCTS game of two-player Belote (Boudier's ISMCTS,
docs/papers/belote_ismcts.md), checked with the standard library only.

``belote_match.Match`` checks them before it deals, and the command line
(``python -m infosets.play.belote``) before the game and the AI load, so a typo is answered
at once with one line naming the setting; one implementation serves both.
"""

from __future__ import annotations

import math
import numbers

# The search preallocates its node tables, about 1 KB per iteration (10 GB at this cap): a
# larger count filled the machine's memory at the AI's first move, mid-game.
MAX_ITERATIONS = 10_000_000


def parse_seat(text) -> int | None:
    """'0'/'1' (the human's seat), 'random' (None: drawn later); ValueError otherwise."""
    key = str(text).strip().lower()
    if key in ("0", "1"):
        return int(key)
    if key in ("random", "r", ""):
        return None
    raise ValueError(f"seat {text!r} is unknown; use 0 (first seat), 1 (second) or random")


def _is_int(value) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def check_settings(seed, iterations, exploration) -> None:
    """ValueError naming the first bad setting: ``seed`` an int >= 0 (None: the caller draws
    one from the clock), ``iterations`` an int in 1..``MAX_ITERATIONS``, ``exploration`` (the
    UCB constant; paper: 82) a finite number >= 0."""
    if seed is not None and not (_is_int(seed) and seed >= 0):
        raise ValueError(f"seed must be an int >= 0, got {seed!r}")
    if not (_is_int(iterations) and 1 <= iterations <= MAX_ITERATIONS):
        raise ValueError(f"iterations must be an int in 1..{MAX_ITERATIONS}, got {iterations!r}")
    if not (isinstance(exploration, numbers.Real) and not isinstance(exploration, bool)
            and math.isfinite(exploration) and exploration >= 0):
        raise ValueError(f"exploration must be a finite number >= 0, got {exploration!r}")
