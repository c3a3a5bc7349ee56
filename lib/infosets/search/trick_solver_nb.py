"""Compiled (numba) twin of ``search.solvers``' trick-game kernel search.

The evaluator of PIMC on "CG nC" in Arjonilla, Saffidine and Cazenave, "Mixture of public and
private beliefs" (2024, arXiv 2405.14346; docs/papers/belief_mixtures.md), Algorithm 1: the
exact value of a dealt trick-game world (``games/trick_game/array_rules.py``). Same search as
``solvers._KernelSearch`` (the Python reference): fail-soft alpha-beta on the hands' bitmasks,
values for player 0 in {-1, 0, 1}, an early stop once the match result is decided, the same
move ordering, and (``equivalence``) one card searched per run of touching cards of one hand.

The transposition table of (lower, upper) bounds is a fixed-size array instead of a dict:
``slots`` entries (a power of two), each keyed by two words (player 0's hand with the led card,
player 1's hand with the mover and player 0's tricks; decks of up to 52 cards fit), found by a
hash and a probe of ``PROBE`` neighbouring slots; a full probe overwrites the hashed slot. The
bounds stored are sound whatever is overwritten, so the values are the exact minimax values,
as the reference's.
"""

from __future__ import annotations

import numba as nb
import numpy as np
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros

PROBE = 4  # slots per bucket (one 64-byte cache line)
EMPTY = -1  # key word of an empty slot (real key words are >= 0)
_LEAD_SHIFT = 52  # word 0: player 0's hand | (led card + 1) << 52
_MOVER_SHIFT = 52  # word 1: player 1's hand | mover << 52 | player 0's tricks << 53
_BOUNDS_SHIFT = 58  # word 1's bits from 58 on: (lower + 1) | (upper + 1) << 2
_KEY_MASK = (1 << _BOUNDS_SHIFT) - 1


def new_table(slots: int) -> tuple[np.ndarray, np.ndarray]:
    """An empty table of at least ``slots`` entries (rounded up to a power of two, >= PROBE).

    Returns:
      (table: int64 [size, 2], the two words of each entry; nodes: int64 [1], the
      visited-node counter).
    """
    size = max(PROBE, 1 << max(0, int(slots) - 1).bit_length())
    return np.full((size, 2), EMPTY, dtype=np.int64), np.zeros(1, dtype=np.int64)


@nb.njit(cache=True)
def _find(table, w0, w1):
    """(slot, found): the slot holding key (w0, w1) if any, else the slot to store it in
    (an empty slot of its bucket, or one chosen by the hash when the bucket is full)."""
    h = w0 ^ (w1 * 0x5BD1E995 + 0x27D4EB2F)
    h ^= h >> 29
    h *= 0x3C79AC492BA7B653
    h ^= h >> 32
    start = h & (table.shape[0] - PROBE)
    for s in range(start, start + PROBE):
        if table[s, 0] == w0 and table[s, 1] & _KEY_MASK == w1:
            return s, True
        if table[s, 0] == EMPTY:
            return s, False
    return start + (h >> 40 & (PROBE - 1)), False


@nb.njit(cache=True, inline="always")
def _store(table, slot, w0, w1, lo, hi):
    table[slot, 0] = w0
    table[slot, 1] = w1 | (np.int64(lo + 1 + 4 * (hi + 1)) << _BOUNDS_SHIFT)


@nb.njit(cache=True, inline="always")
def _highest(mask):
    return 63 - leading_zeros(mask)


@nb.njit(cache=True)
def lower_twin(card, hand, live, suit_of, suit_mask):
    """The next lower live card of ``card``'s suit if ``hand`` holds it, else -1."""
    below = live & suit_mask[suit_of[card]] & ((np.int64(1) << card) - 1)
    if below == 0:
        return -1
    top = _highest(below)
    return top if hand >> top & 1 else -1


@nb.njit(cache=True)
def _child(card, h0, h1, lead, mover, t0, t1, suit_of):
    """The position after the mover plays ``card``: (h0, h1, lead, mover, t0, t1)."""
    low = np.int64(1) << card
    n0 = h0 ^ low if mover == 0 else h0
    n1 = h1 if mover == 0 else h1 ^ low
    if lead < 0:
        return n0, n1, card, 1 - mover, t0, t1
    winner = mover if suit_of[card] == suit_of[lead] and card > lead else 1 - mover
    if winner == 0:
        return n0, n1, np.int64(-1), np.int64(0), t0 + 1, t1
    return n0, n1, np.int64(-1), np.int64(1), t0, t1 + 1


# Columns of a search frame (one row per ply of the explicit stack: numba cannot cache
# recursive functions).
H0, H1, LEAD, MOVER, T0, T1, ALPHA, BETA, ALPHA0, BETA0, BEST = range(11)
W0, W1, OLD_LO, OLD_HI, FIRST, SECOND, DESCENDING, LIVE, HAND, SLOT = range(11, 21)
NUM_FIELDS = 21


@nb.njit(cache=True)
def _enter(frame, h0, h1, lead, mover, t0, t1, alpha, beta, ctx):
    """Visits a position: (True, value) when it is decided without search (early stop, table
    bounds), else (False, 0) with ``frame`` set up to search its cards."""
    hand_size, suit_of, suit_mask, equivalence, table, nodes = ctx
    nodes[0] += 1
    best0 = 2 * (hand_size - t1) - hand_size  # best and worst match results for player 0
    worst0 = 2 * t0 - hand_size
    hi = 1 if best0 > 0 else (0 if best0 == 0 else -1)
    lo = 1 if worst0 > 0 else (0 if worst0 == 0 else -1)
    if lo == hi:
        return True, lo
    w0 = h0 | (np.int64(lead + 1) << _LEAD_SHIFT)
    w1 = h1 | (np.int64(mover) << _MOVER_SHIFT) | (np.int64(t0) << (_MOVER_SHIFT + 1))
    slot, found = _find(table, w0, w1)
    old_lo, old_hi = -1, 1
    if found:
        packed = table[slot, 1] >> _BOUNDS_SHIFT
        old_lo, old_hi = (packed & 3) - 1, (packed >> 2) - 1
        lo, hi = max(lo, old_lo), min(hi, old_hi)
        if lo == hi:
            return True, lo
    if lo >= beta:
        return True, lo
    if hi <= alpha:
        return True, hi
    hand = h0 if mover == 0 else h1
    # Move ordering (as the reference): a follower tries its cards that win the trick first
    # (lowest first), then its other cards; a leader its highest cards first.
    first, second = hand, np.int64(0)
    live = h0 | h1
    if lead >= 0:
        live |= np.int64(1) << lead
        follow = hand & suit_mask[suit_of[lead]]
        if follow:
            first = follow & ~((np.int64(2) << lead) - 1)
            second = follow ^ first
    alpha, beta = max(alpha, lo), min(beta, hi)
    frame[H0], frame[H1], frame[LEAD], frame[MOVER], frame[T0], frame[T1] = h0, h1, lead, mover, t0, t1
    frame[ALPHA], frame[BETA], frame[ALPHA0], frame[BETA0] = alpha, beta, alpha, beta
    frame[BEST] = -2 if mover == 0 else 2
    frame[W0], frame[W1], frame[OLD_LO], frame[OLD_HI] = w0, w1, old_lo, old_hi
    frame[FIRST], frame[SECOND], frame[DESCENDING] = first, second, lead < 0
    frame[LIVE], frame[HAND], frame[SLOT] = live, hand, slot
    return False, 0


@nb.njit(cache=True)
def _next_card(frame, equivalence, suit_of, suit_mask):
    """The frame's next card to search (taken out of its FIRST, then SECOND, cards to try),
    or -1 when none is left."""
    while frame[FIRST] or frame[SECOND]:
        if frame[FIRST]:
            card = _highest(frame[FIRST]) if frame[DESCENDING] else trailing_zeros(frame[FIRST])
            frame[FIRST] ^= np.int64(1) << card
        else:
            card = trailing_zeros(frame[SECOND])
            frame[SECOND] ^= np.int64(1) << card
        if not (equivalence and lower_twin(card, frame[HAND], frame[LIVE], suit_of, suit_mask) >= 0):
            return card
    return -1


@nb.njit(cache=True)
def _leave(frame, table):
    """Stores the searched frame's bounds (fail-soft) and returns its value. The slot found
    on entry is searched again if a descendant took it meanwhile."""
    best, old_lo, old_hi = frame[BEST], frame[OLD_LO], frame[OLD_HI]
    w0, w1, slot = frame[W0], frame[W1], frame[SLOT]
    if table[slot, 0] != EMPTY and not (table[slot, 0] == w0 and table[slot, 1] & _KEY_MASK == w1):
        slot, _ = _find(table, w0, w1)
    if best <= frame[ALPHA0]:
        _store(table, slot, w0, w1, old_lo, min(old_hi, best))
    elif best >= frame[BETA0]:
        _store(table, slot, w0, w1, max(old_lo, best), old_hi)
    else:
        _store(table, slot, w0, w1, best, best)
    return best


@nb.njit(cache=True)
def _back_up(frame, v):
    """Takes a child's value into the frame; True on a cutoff."""
    if frame[MOVER] == 0:
        if v > frame[BEST]:
            frame[BEST] = v
            frame[ALPHA] = max(frame[ALPHA], v)
    elif v < frame[BEST]:
        frame[BEST] = v
        frame[BETA] = min(frame[BETA], v)
    return frame[ALPHA] >= frame[BETA]


@nb.njit(cache=True)
def value(h0, h1, lead, mover, t0, t1, alpha, beta, ctx):
    """``solvers._KernelSearch.value``: fail-soft alpha-beta value for player 0.

    ``ctx`` is (hand_size, suit_of, suit_mask, equivalence, table, nodes).
    """
    hand_size, suit_of, suit_mask, equivalence, table, nodes = ctx
    n = suit_of.shape[0]
    stack = np.empty((n + 2, NUM_FIELDS), dtype=np.int64)
    done, v = _enter(stack[0], h0, h1, lead, mover, t0, t1, alpha, beta, ctx)
    if done:
        return v
    depth = 1
    pending = False
    while True:
        frame = stack[depth - 1]
        card = -1
        if not (pending and _back_up(frame, v)):
            card = _next_card(frame, equivalence, suit_of, suit_mask)
        if card < 0:  # cutoff or every card searched
            v = _leave(frame, table)
            depth -= 1
            if depth == 0:
                return v
            pending = True
            continue
        c0, c1, c_lead, c_mover, c_t0, c_t1 = _child(
            card, frame[H0], frame[H1], frame[LEAD], frame[MOVER], frame[T0], frame[T1], suit_of
        )
        done, v = _enter(stack[depth], c0, c1, c_lead, c_mover, c_t0, c_t1, frame[ALPHA], frame[BETA], ctx)
        if done:
            pending = True
        else:
            depth += 1
            pending = False


@nb.njit(cache=True)
def action_values(h0, h1, lead, mover, t0, t1, legal, ctx):
    """Value for player 0 of each card of ``legal`` (float64 [num_cards], NaN elsewhere).

    A card whose next lower live card of its suit is in the mover's hand (``equivalence``)
    takes that card's value, as the reference's root loop.
    """
    hand_size, suit_of, suit_mask, equivalence, table, nodes = ctx
    n = suit_of.shape[0]
    out = np.full(n, np.nan)
    hand = h0 if mover == 0 else h1
    live = h0 | h1
    if lead >= 0:
        live |= np.int64(1) << lead
    for card in range(n):
        if not legal >> card & 1:
            continue
        twin = lower_twin(card, hand, live, suit_of, suit_mask) if equivalence else -1
        if twin >= 0:
            out[card] = out[twin]
        else:
            c0, c1, c_lead, c_mover, c_t0, c_t1 = _child(card, h0, h1, lead, mover, t0, t1, suit_of)
            out[card] = value(c0, c1, c_lead, c_mover, c_t0, c_t1, -1, 1, ctx)
    return out
