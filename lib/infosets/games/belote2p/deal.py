"""The fair deal of two-player Belote: rejection sampling and its exact chance probabilities.

Boudier, "Information Set Monte Carlo Tree Search for Two-players Belote"
(docs/papers/belote_ismcts.md), section V: shuffle, keep the deal only if each side has at least
``min_trumps`` trumps and ``points_lo``..``points_hi`` card points, then draw the first
leader at random. The authors' code uses 2 trumps and 66..86 (the text says 3 and 76 +- 10).

A deal is 32 cards in slot order: player 0's hand (6), pile tops (5), pile bottoms (5), then
the same 16 slots for player 1; top ``i`` covers bottom ``i``. A side is a player's 16 slots.
``next_card_probabilities`` gives, for a partial deal, the exact probability of each card
in the next slot under the uniform distribution over fair deals; the pyspiel adapter deals
card by card with it, so its chance nodes match the rejection sampler.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .rules import NUM_CARDS, POINTS, TOTAL_CARD_POINTS, TRUMP_MASK

SIDE_SLOTS = 16
NUM_TRUMPS = 8
_IS_TRUMP = tuple(int(TRUMP_MASK >> c & 1) for c in range(NUM_CARDS))


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
        return (max(self.points_lo, TOTAL_CARD_POINTS - self.points_hi),
                min(self.points_hi, TOTAL_CARD_POINTS - self.points_lo))

    def is_fair(self, deal) -> bool:
        side_a = deal[:SIDE_SLOTS]
        trumps_a = sum(_IS_TRUMP[c] for c in side_a)
        points_a = sum(POINTS[c] for c in side_a)
        lo, hi = self.side_a_window()
        return (self.min_trumps <= trumps_a <= NUM_TRUMPS - self.min_trumps
                and lo <= points_a <= hi)


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


def _subset_counts(cards) -> np.ndarray:
    """counts[k, t, p] = number of k-subsets of ``cards`` with t trumps and p points."""
    counts = np.zeros((SIDE_SLOTS + 1, NUM_TRUMPS + 1, TOTAL_CARD_POINTS + 1), dtype=np.int64)
    counts[0, 0, 0] = 1
    for c in cards:
        t, p = _IS_TRUMP[c], POINTS[c]
        counts[1:, t:, p:] += counts[:-1, :NUM_TRUMPS + 1 - t, :TOTAL_CARD_POINTS + 1 - p].copy()
    return counts


def _without(counts: np.ndarray, card: int) -> np.ndarray:
    """Subset counts of a set after removing ``card`` (inverse of adding it)."""
    t, p = _IS_TRUMP[card], POINTS[card]
    out = counts.copy()
    for k in range(1, SIDE_SLOTS + 1):
        out[k, t:, p:] -= out[k - 1, :NUM_TRUMPS + 1 - t, :TOTAL_CARD_POINTS + 1 - p]
    return out


def next_card_probabilities(partial, constraint: DealConstraint) -> list[tuple[int, float]]:
    """Exact chance outcomes for slot ``len(partial)`` given the cards already dealt.

    Returns (card, probability) pairs over the cards that keep a fair completion possible,
    proportional to the number of fair completions (uniform over fair deals).
    """
    slot = len(partial)
    if not 0 <= slot < NUM_CARDS:
        raise ValueError(f"partial deal must hold 0..31 cards, got {slot}")
    dealt_a = partial[:SIDE_SLOTS]
    trumps_a = sum(_IS_TRUMP[c] for c in dealt_a)
    points_a = sum(POINTS[c] for c in dealt_a)
    free_a = SIDE_SLOTS - len(dealt_a)
    rest = [c for c in range(NUM_CARDS) if c not in set(partial)]
    counts = _subset_counts(rest)
    lo, hi = constraint.side_a_window()
    tmin, tmax = constraint.min_trumps, NUM_TRUMPS - constraint.min_trumps
    weights = []
    for c in rest:
        sub = _without(counts, c)
        if slot < SIDE_SLOTS:
            k, ta, pa = free_a - 1, trumps_a + _IS_TRUMP[c], points_a + POINTS[c]
        else:
            k, ta, pa = free_a, trumps_a, points_a
        t_lo, t_hi = max(0, tmin - ta), tmax - ta
        p_lo, p_hi = max(0, lo - pa), hi - pa
        if k < 0 or t_hi < t_lo or p_hi < p_lo:
            weights.append(0)
            continue
        weights.append(int(sub[k, t_lo:t_hi + 1, p_lo:p_hi + 1].sum()))
    total = sum(weights)
    if total == 0:
        raise ValueError("partial deal admits no fair completion under the deal constraint")
    return [(c, w / total) for c, w in zip(rest, weights) if w > 0]
