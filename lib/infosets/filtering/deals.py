"""Suit-length assignments and the deals they stand for (trick-taking games).

Solinas, Rebstock, Sturtevant, Buro, "History Filtering in Imperfect Information Games"
(arXiv 2311.14651), sections 5.2-5.3: a suit-length assignment is a rows x suits matrix of
non-negative integers whose row sums are the unknown cards each holder still has, whose
column sums are the unknown cards of each suit, and whose void cells are zero. Every deal
consistent with the public state has exactly one assignment; an assignment ``A`` stands for
``prod_s multinomial(u_s; A[., s])`` deals. Assignments are flat row-major tuples.
"""

from __future__ import annotations

import itertools
from math import lgamma

from infosets.filtering.public_state import DealConstraints


def iter_assignments(c: DealConstraints):
    """Yield every valid suit-length assignment (flat row-major tuples), lazily."""
    n_rows, n_suits = c.num_rows, c.num_suits
    cells = [0] * (n_rows * n_suits)

    def fill_row(r: int, col_left: list[int]):
        if r == n_rows - 1:
            # The last row takes what is left; it must match its need and voids.
            if sum(col_left) != c.need[r]:
                return
            for s in range(n_suits):
                if col_left[s] and c.void[r][s]:
                    return
                cells[r * n_suits + s] = col_left[s]
            yield tuple(cells)
            return
        for row in _compositions(c.need[r], col_left, c.void[r]):
            for s in range(n_suits):
                cells[r * n_suits + s] = row[s]
            yield from fill_row(r + 1, [col_left[s] - row[s] for s in range(n_suits)])

    yield from fill_row(0, list(c.suit_totals))


def _compositions(total: int, caps: list[int], void) -> list[tuple[int, ...]]:
    """All tuples x with sum(x) == total, 0 <= x[s] <= caps[s], x[s] == 0 where void."""
    out = []
    n = len(caps)

    def rec(s, left, prefix):
        if s == n - 1:
            if left <= (0 if void[s] else caps[s]):
                out.append(prefix + (left,))
            return
        hi = 0 if void[s] else min(caps[s], left)
        for x in range(hi + 1):
            rec(s + 1, left - x, prefix + (x,))

    rec(0, total, ())
    return out


def log_deals_in_assignment(c: DealConstraints, assignment) -> float:
    """log of the number of deals with this assignment (lgamma, exact enough for ratios)."""
    n_suits, total = c.num_suits, 0.0
    for s in range(n_suits):
        total += lgamma(c.suit_totals[s] + 1)
        for r in range(c.num_rows):
            total -= lgamma(assignment[r * n_suits + s] + 1)
    return total


def iter_deals(c: DealConstraints, assignment):
    """Yield every deal (tuple of player hand bitmasks) with this assignment, lazily."""
    n_rows, n_suits, n_players = c.num_rows, c.num_suits, c.num_players
    per_suit = []
    for s in range(n_suits):
        counts = [assignment[r * n_suits + s] for r in range(n_rows)]
        per_suit.append(list(_splits(c.unknown_by_suit[s], counts, n_players)))
    for combo in itertools.product(*per_suit):
        hands = list(c.known)
        for split in combo:
            for p in range(n_players):
                hands[p] |= split[p]
        yield tuple(hands)


def _splits(cards, counts, n_players):
    """Every way to hand ``counts[p]`` of ``cards`` to each player p (bitmasks per player)."""

    def rec(p, remaining):
        if p == n_players:
            yield ()
            return
        for chosen in itertools.combinations(remaining, counts[p]):
            mask = 0
            for card in chosen:
                mask |= 1 << card
            rest = [x for x in remaining if x not in chosen]
            for tail in rec(p + 1, rest):
                yield (mask,) + tail

    yield from rec(0, list(cards))


def sample_deal(c: DealConstraints, assignment, rand) -> tuple[int, ...]:
    """A deal drawn uniformly among those with this assignment.

    Only the players' share of each suit is drawn (``rand.sample``); the pile takes the rest.

    Args:
      rand: a seeded ``random.Random`` (the hot path of the chain).
    """
    n_suits, n_players = c.num_suits, c.num_players
    hands = list(c.known)
    for s in range(n_suits):
        counts = assignment[s:n_players * n_suits:n_suits]
        k = sum(counts)
        if not k:
            continue
        cards = c.unknown_by_suit[s]
        if k == len(cards) and max(counts) == k:  # the whole suit goes to one player
            hands[counts.index(k)] |= c.suit_masks[s]
            continue
        drawn = rand.sample(cards, k)
        i = 0
        for r in range(n_players):
            for card in drawn[i:i + counts[r]]:
                hands[r] |= 1 << card
            i += counts[r]
    return tuple(hands)


def assignment_of(c: DealConstraints, hands) -> tuple[int, ...]:
    """The suit-length assignment of a deal (the pile row takes the remaining cards)."""
    n_rows, n_suits, n_players = c.num_rows, c.num_suits, c.num_players
    cells = [0] * (n_rows * n_suits)
    for p in range(n_players):
        extra = hands[p] & ~c.known[p]
        while extra:
            low = extra & -extra
            cells[p * n_suits + c.suit_of[low.bit_length() - 1]] += 1
            extra ^= low
    for s in range(n_suits):
        used = sum(cells[p * n_suits + s] for p in range(n_players))
        if n_rows > n_players:
            cells[n_players * n_suits + s] = c.suit_totals[s] - used
    return tuple(cells)
