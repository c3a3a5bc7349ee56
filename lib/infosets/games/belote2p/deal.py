"""The fair deal of two-player Belote: rejection sampling and its exact chance probabilities.

Boudier, "Information Set Monte Carlo Tree Search for Two-players Belote"
(docs/papers/belote_ismcts.md), section V: shuffle, keep the deal only if each side has at least
``min_trumps`` trumps and ``points_lo``..``points_hi`` card points, then draw the first
leader at random. The authors' code uses 2 trumps and 66..86 (the text says 3 and 76 +- 10).

A deal is 32 cards in slot order: player 0's hand (6), pile tops (5), pile bottoms (5), then
the same 16 slots for player 1; top ``i`` covers bottom ``i``. A side is a player's 16 slots.
Fairness is the kernel's rule (``kernel.fair_side``); the chance nodes of the pyspiel adapter
deal card by card with the kernel's exact probabilities of each card in the next slot under
the uniform distribution over fair deals, so they match the rejection sampler here.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import kernel as K
from .rules import NUM_CARDS, TOTAL_CARD_POINTS

SIDE_SLOTS = K.SIDE
NUM_TRUMPS = K.NUM_TRUMPS


@dataclass(frozen=True)
class DealConstraint:
    """Fairness of a deal: per side, at least ``min_trumps`` trumps and points in a window.

    Raises ValueError (one line, naming the parameter) when no deal can satisfy it.
    """

    min_trumps: int = 2
    points_lo: int = 66
    points_hi: int = 86

    def __post_init__(self):
        if not isinstance(self.min_trumps, int) or not 0 <= self.min_trumps <= NUM_TRUMPS // 2:
            raise ValueError(
                f"min_trumps must be an int in 0..{NUM_TRUMPS // 2} (8 trumps for two sides),"
                f" got {self.min_trumps!r}"
            )
        for name in ("points_lo", "points_hi"):
            v = getattr(self, name)
            if not isinstance(v, int) or not 0 <= v <= TOTAL_CARD_POINTS:
                raise ValueError(f"{name} must be an int in 0..{TOTAL_CARD_POINTS}, got {v!r}")
        lo, hi = self.side_a_window()
        if lo > hi:
            raise ValueError(
                f"points_lo..points_hi = {self.points_lo}..{self.points_hi} admits no deal: "
                f"both sides share {TOTAL_CARD_POINTS} points, so need points_lo <= "
                f"{TOTAL_CARD_POINTS // 2} <= points_hi"
            )

    def side_a_window(self) -> tuple[int, int]:
        """Allowed points for side A, given that side B gets the rest."""
        lo, hi = K.side_window(self.points_lo, self.points_hi)
        return int(lo), int(hi)

    def is_fair(self, deal) -> bool:
        """Whether the deal (32 cards in slot order) meets the constraint (the kernel's rule)."""
        side_a = np.asarray(deal[:SIDE_SLOTS], dtype=np.int64)
        return bool(K.fair_side(side_a, self.min_trumps, self.points_lo, self.points_hi))


def fair_deal(rng: np.random.Generator, constraint: DealConstraint | None = None) -> list[int]:
    """A uniformly random fair deal (rejection sampling), 32 cards in slot order.

    Args:
      rng: a numpy Generator (the only source of randomness).
      constraint: the fairness rule (default: the authors' code, 2 trumps, 66..86).
    """
    constraint = constraint or DealConstraint()
    while True:
        deal = [int(c) for c in rng.permutation(NUM_CARDS)]
        if constraint.is_fair(deal):
            return deal


def random_first_leader(rng: np.random.Generator) -> int:
    return int(rng.integers(2))
