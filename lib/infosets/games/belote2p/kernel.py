"""The rules of two-player Belote (``belote2p``), in numba: the adapter and the compiled engine run them.

Boudier, "Information Set Monte Carlo Tree Search for Two-players Belote" (slug
``belote_ismcts``, docs/papers/belote_ismcts.md); the contract is the one of
``infosets.games.kernels``; the card tables come from ``belote2p/rules.py``:

* chance deals the 32 slots one card at a time with the exact probabilities of a uniform fair
  deal (``_deal_outcomes``), then draws the first leader (0 or 1, 1/2 each);
* a move is a card id 0..31 (``rules.card_name``), legal by the follow / trump / overtrump
  duties; returns are each player's card points plus 10 for the last trick.

These are the game's only rules: the adapter (``game.py``) steps this array with these
functions, and ``position.Position`` reads it for the bots, the solver and the play interface.

A state is an int64 array (indices below): the deal constraint, two determinizer switches,
the position (masks of hands, face-up and face-down pile cards, ``under[card]`` the card a
pile top covers, lead, leader, trick, points) and, for states reached from the deal, the
record the adapter's history and strings need (the 32 dealt cards and every play with its
mover and the card it uncovered). ``EXCL`` holds, per player, the cards its past replies
proved it no longer holds (a reply outside the first duty: none of that duty's cards; a reply
that is not a trump when trumping was due: no trump), kept up to date by each play.

``nb_determinize`` is the adapter's ``sample_world``: the opponent's unplayed hand gets a
uniform subset of the hidden cards its replies allow, the covered pile cards get the rest in a
uniform order, and worlds whose deal breaks the constraint are rejected. The switches
``INFER`` and ``CONSTRAIN`` (both on in ``array_from_history``) turn the inference and the
rejection off, which is the determinization of the authors' code (a uniform shuffle of every
card the player cannot see): ``search/belote_ismcts.py`` uses that.

The fair-deal count behind the chance outcomes (``_deal_outcomes``) is compiled once, as a C
function the other functions call through a symbol (see ``_deal_outcomes_call``), so that
numba does not optimize a copy of its loops again inside every engine function.

``nb_heuristic`` is the card points each player has won so far (no last-trick bonus); at the
end of the game it is the authors' ISMCTS reward.

A position without a record (``array_from_position``, from a ``position.Position``) can be
searched and determinized (without the deal constraint) but has no history or strings.
"""

from __future__ import annotations

import functools
import sys

import llvmlite.binding as llvm
import numba as nb
import numpy as np
from llvmlite import ir
from numba.core import cgutils, types
from numba.core.errors import TypingError
from numba.extending import intrinsic

from infosets.core.pcg32 import rng_bounded
from infosets.games.belote2p.rules import (
    BEATS,
    FOLLOW,
    HAND_SIZE,
    LAST_TRICK_BONUS,
    NUM_CARDS,
    NUM_PILES,
    NUM_TRICKS,
    POINTS,
    TOTAL_CARD_POINTS,
    TRUMP_MASK,
    card_name,
)
from infosets.games.kernels import Kernel

CHANCE = -1
TERMINAL = -4
NUM_ACTIONS = NUM_CARDS
SIDE = 16  # deal slots per player: hand (6), pile tops (5), pile bottoms (5)
NUM_TRUMPS = 8

# -- state layout ------------------------------------------------------------------------
MIN_TRUMPS, POINTS_LO, POINTS_HI = 0, 1, 2  # the deal constraint
INFER, CONSTRAIN = 3, 4  # determinizer switches (void inference, reject unfair worlds)
NDEALT = 5  # cards dealt (0..32), 33 once the first leader is drawn
FIRST_LEADER, TO_MOVE, LEADER, LEAD, TRICK = 6, 7, 8, 9, 10
PTS = 11  # card points per player (2)
LAST_WINNER = 13
HAND, UP, DOWN, EXCL = 14, 16, 18, 20  # per-player card masks (2 each)
NPLAYS = 22
RECORD = 23  # 1: the deal and the plays are recorded (states from the adapter)
DEAL = 24  # 32 cards in slot order (see belote2p/deal.py), -1 when not dealt
UNDER = DEAL + NUM_CARDS  # per card: the card it covers, else -1
PLAY_CARD = UNDER + NUM_CARDS  # per play: the card
PLAY_REVEAL = PLAY_CARD + NUM_CARDS  # per play: the card it uncovered, else -1
PLAY_MOVER = PLAY_REVEAL + NUM_CARDS  # per play: who played it
STATE_SIZE = PLAY_MOVER + NUM_CARDS
DEALT = NUM_CARDS + 1  # NDEALT once the first leader is drawn

_POINTS = np.array(POINTS, dtype=np.int64)
_BEATS = np.array(BEATS, dtype=np.int64)
_FOLLOW = np.array(FOLLOW, dtype=np.int64)
_IS_TRUMP = np.array([int(TRUMP_MASK >> c & 1) for c in range(NUM_CARDS)], dtype=np.int64)
_TRUMPS = np.int64(TRUMP_MASK)
_P_DIM = TOTAL_CARD_POINTS + 1
_MIX = np.int64(-7046029254386353131)  # 0x9E3779B97F4A7C15 as int64


def new_state(min_trumps: int = 2, points_lo: int = 66, points_hi: int = 86) -> np.ndarray:
    """The initial state array (chance deals slot 0), with both determinizer switches on."""
    return _initial_state(int(min_trumps), int(points_lo), int(points_hi)).copy()


@functools.cache
def _initial_state(min_trumps: int, points_lo: int, points_hi: int) -> np.ndarray:
    s = np.full(STATE_SIZE, -1, dtype=np.int64)
    s[MIN_TRUMPS], s[POINTS_LO], s[POINTS_HI] = min_trumps, points_lo, points_hi
    s[INFER] = s[CONSTRAIN] = 1
    s[NDEALT] = 0
    s[TO_MOVE] = CHANCE
    s[TRICK] = s[PTS] = s[PTS + 1] = s[NPLAYS] = 0
    s[HAND:NPLAYS] = 0
    s[RECORD] = 1
    s.flags.writeable = False  # a template: ``new_state`` hands out copies
    return s


# -- chance: the exact fair-deal probabilities (uniform over fair deals) --------------------
@nb.njit(cache=True)
def side_window(points_lo, points_hi):
    """The card points side A may hold, given that side B holds the rest."""
    lo = max(points_lo, TOTAL_CARD_POINTS - points_hi)
    hi = min(points_hi, TOTAL_CARD_POINTS - points_lo)
    return lo, hi


@nb.njit(cache=True)
def _side_window(s):
    return side_window(s[POINTS_LO], s[POINTS_HI])


@nb.njit(cache=True)
def _deal_outcomes(s, actions, probs):
    slot = s[NDEALT]
    used = np.int64(0)
    trumps_a = 0
    points_a = 0
    for i in range(slot):
        c = s[DEAL + i]
        used |= np.int64(1) << c
        if i < SIDE:
            trumps_a += _IS_TRUMP[c]
            points_a += _POINTS[c]
    free_a = SIDE - min(slot, SIDE)
    counts = np.zeros((SIDE + 1, NUM_TRUMPS + 1, _P_DIM), np.int64)
    counts[0, 0, 0] = 1
    for c in range(NUM_CARDS):
        if used >> c & 1:
            continue
        t, p = _IS_TRUMP[c], _POINTS[c]
        for k in range(SIDE, 0, -1):
            for tt in range(NUM_TRUMPS, t - 1, -1):
                for pp in range(_P_DIM - 1, p - 1, -1):
                    counts[k, tt, pp] += counts[k - 1, tt - t, pp - p]
    lo, hi = _side_window(s)
    tmin, tmax = s[MIN_TRUMPS], NUM_TRUMPS - s[MIN_TRUMPS]
    sub = np.empty_like(counts)
    weights = np.zeros(NUM_CARDS, np.int64)
    total = 0
    for c in range(NUM_CARDS):
        if used >> c & 1:
            continue
        t, p = _IS_TRUMP[c], _POINTS[c]
        if slot < SIDE:
            k, ta, pa = free_a - 1, trumps_a + t, points_a + p
        else:
            k, ta, pa = free_a, trumps_a, points_a
        t_lo, t_hi = max(0, tmin - ta), min(tmax - ta, NUM_TRUMPS)
        p_lo, p_hi = max(0, lo - pa), min(hi - pa, _P_DIM - 1)
        if k < 0 or t_hi < t_lo or p_hi < p_lo:
            continue
        sub[:k + 1] = counts[:k + 1]  # the counts without c, rows 0..k (inverse of adding c)
        for kk in range(1, k + 1):
            for tt in range(t, NUM_TRUMPS + 1):
                for pp in range(p, _P_DIM):
                    sub[kk, tt, pp] -= sub[kk - 1, tt - t, pp - p]
        w = 0
        for tt in range(t_lo, t_hi + 1):
            for pp in range(p_lo, p_hi + 1):
                w += sub[k, tt, pp]
        weights[c] = w
        total += w
    n = 0
    for c in range(NUM_CARDS):
        if weights[c] > 0:
            actions[n] = c
            probs[n] = weights[c] / total
            n += 1
    return n


# The counting above is compiled once, as a C function that the callers reach through a symbol.
# numba links the IR of every function a function calls into that function's module and
# optimizes and emits it again there, so at NUMBA_OPT=3 each engine function reaching a chance
# node paid seconds for its own copy of these loops (belote2p's engine: 106 CPU-s to compile,
# 18 with the call below). The symbol is registered at import, before any caller is compiled
# or loaded from numba's cache.
_DEAL_SYMBOL = "infosets_belote2p_deal_outcomes"
_I64P, _F64P = types.CPointer(types.int64), types.CPointer(types.float64)


@nb.cfunc(types.int64(_I64P, types.int64, _I64P, types.int64, _F64P, types.int64), cache=True)
def _deal_outcomes_c(s, s_size, actions, actions_size, probs, probs_size):
    """``_deal_outcomes`` on raw buffers. A C function cannot raise: an exception (an index out
    of bounds in the bounds-checked build) is printed and 0 returned, which the caller raises."""
    return _deal_outcomes(nb.carray(s, s_size), nb.carray(actions, actions_size),
                          nb.carray(probs, probs_size))


llvm.add_symbol(_DEAL_SYMBOL, _deal_outcomes_c.address)


@intrinsic
def _deal_outcomes_call(typingctx, s, actions, probs):
    """``_deal_outcomes(s, actions, probs)`` through ``_DEAL_SYMBOL``: a call that numba does not
    link the counting into. Takes C-contiguous vectors (int64, int64, float64)."""
    for array, dtype in zip((s, actions, probs), (types.int64, types.int64, types.float64)):
        if not (isinstance(array, types.Array) and array.ndim == 1 and array.layout == "C"
                and array.dtype == dtype):
            raise TypingError(f"_deal_outcomes_call: expected a C-contiguous {dtype} vector, got {array}")

    def codegen(context, builder, signature, args):
        data_and_sizes = []
        for array_type, value in zip(signature.args, args):
            array = context.make_array(array_type)(context, builder, value)
            data_and_sizes += [array.data, array.nitems]
        function_type = ir.FunctionType(ir.IntType(64), [arg.type for arg in data_and_sizes])
        function = cgutils.get_or_insert_function(builder.module, function_type, _DEAL_SYMBOL)
        return builder.call(function, data_and_sizes)

    return types.int64(s, actions, probs), codegen


@nb.njit(cache=True)
def nb_current_player(s):
    return s[TO_MOVE]


@nb.njit(cache=True)
def nb_chance_outcomes(s, actions, probs):
    if s[NDEALT] == NUM_CARDS:  # the first leader
        actions[0], actions[1] = 0, 1
        probs[0], probs[1] = 0.5, 0.5
        return 2
    n = _deal_outcomes_call(s, actions, probs)
    if n == 0:
        raise ValueError("partial deal admits no fair completion under the deal constraint "
                         "(or the count failed: see the error printed above)")
    return n


@nb.njit(cache=True)
def legal_reply_mask(playable, lead):
    """The duties on ``lead`` for a player who can play ``playable``: follow (a higher trump on
    a trump lead), else trump, else anything."""
    m = playable & _FOLLOW[lead]
    if m:
        return m
    m = playable & _TRUMPS
    if m:
        return m
    return playable


@nb.njit(cache=True)
def legal_mask(s):
    """The legal cards of the player to move (a decision state)."""
    p = s[TO_MOVE]
    playable = s[HAND + p] | s[UP + p]
    lead = s[LEAD]
    if lead < 0:
        return playable
    return legal_reply_mask(playable, lead)


@nb.njit(cache=True, inline="always")
def _index(low):
    """The card of a one-card mask."""
    c = 0
    if low >> 16:
        c += 16
    if low >> (c + 8):
        c += 8
    if low >> (c + 4):
        c += 4
    if low >> (c + 2):
        c += 2
    if low >> (c + 1):
        c += 1
    return c


@nb.njit(cache=True)
def _bits(mask, buf):
    """The cards of ``mask`` into ``buf`` in increasing order; returns how many."""
    n = 0
    while mask:
        low = mask & -mask
        buf[n] = _index(low)
        n += 1
        mask ^= low
    return n


@nb.njit(cache=True)
def nb_legal_actions(s, buf):
    player = s[TO_MOVE]
    if player == TERMINAL:
        return 0
    if player == CHANCE:
        return nb_chance_outcomes(s, buf, np.empty(NUM_CARDS, np.float64))
    return _bits(legal_mask(s), buf)


@nb.njit(cache=True)
def _finish_deal(s, first_leader):
    for p in range(2):
        base = DEAL + SIDE * p
        hand = np.int64(0)
        up = np.int64(0)
        down = np.int64(0)
        for i in range(HAND_SIZE):
            hand |= np.int64(1) << s[base + i]
        for i in range(NUM_PILES):
            top = s[base + HAND_SIZE + i]
            bottom = s[base + HAND_SIZE + NUM_PILES + i]
            up |= np.int64(1) << top
            down |= np.int64(1) << bottom
            s[UNDER + top] = bottom
        s[HAND + p], s[UP + p], s[DOWN + p] = hand, up, down
    s[NDEALT] = DEALT
    s[FIRST_LEADER] = first_leader
    s[LEADER] = first_leader
    s[TO_MOVE] = first_leader
    s[LEAD] = -1


@nb.njit(cache=True)
def _play(s, card):
    p = s[TO_MOVE]
    bit = np.int64(1) << card
    revealed = -1
    if s[HAND + p] & bit:
        s[HAND + p] ^= bit
    else:
        s[UP + p] ^= bit
        below = s[UNDER + card]
        if below >= 0:
            s[UP + p] |= np.int64(1) << below
            s[DOWN + p] ^= np.int64(1) << below
            revealed = below
    i = s[NPLAYS]
    s[PLAY_CARD + i] = card
    s[PLAY_REVEAL + i] = revealed
    s[PLAY_MOVER + i] = p
    s[NPLAYS] = i + 1
    lead = s[LEAD]
    if lead < 0:
        s[LEAD] = card
        s[TO_MOVE] = 1 - p
        return
    follow = _FOLLOW[lead]
    if not (follow >> card & 1):  # the reply proves a void (EXCL, see the module docstring)
        s[EXCL + p] |= follow
        if not (_TRUMPS >> card & 1):
            s[EXCL + p] |= _TRUMPS
    winner = p if _BEATS[lead] >> card & 1 else s[LEADER]
    s[PTS + winner] += _POINTS[lead] + _POINTS[card]
    s[TRICK] += 1
    s[LEAD] = -1
    s[LEADER] = winner
    if s[TRICK] >= NUM_TRICKS:
        s[LAST_WINNER] = winner
        s[TO_MOVE] = TERMINAL
    else:
        s[TO_MOVE] = winner


@nb.njit(cache=True)
def nb_apply_action(s, action):
    dealt = s[NDEALT]
    if dealt < NUM_CARDS:
        s[DEAL + dealt] = action
        s[NDEALT] = dealt + 1
    elif dealt == NUM_CARDS:
        _finish_deal(s, action)
    else:
        _play(s, action)


@nb.njit(cache=True)
def apply_if_legal(s, action):
    """``nb_apply_action`` for the adapter: a chance outcome, or a card if it is legal; returns
    False (``s`` unchanged) for a card that is not."""
    if s[NDEALT] == DEALT and not (legal_mask(s) >> action) & 1:
        return False
    nb_apply_action(s, action)
    return True


@nb.njit(cache=True)
def nb_returns(s, out):
    """Card points plus the last-trick bonus at the end (zeros before)."""
    out[0], out[1] = 0.0, 0.0
    if s[TO_MOVE] != TERMINAL:
        return
    for p in range(2):
        out[p] = s[PTS + p] + (LAST_TRICK_BONUS if s[LAST_WINNER] == p else 0)


@nb.njit(cache=True)
def nb_heuristic(s, out):
    """The card points each player has won so far, without the last-trick bonus (at the end:
    the reward of the authors' ISMCTS)."""
    out[0], out[1] = float(s[PTS]), float(s[PTS + 1])


@nb.njit(cache=True, inline="always")
def _mix(h, v):
    h = (h ^ v) * _MIX
    return h ^ (h >> 29)


@nb.njit(cache=True)
def nb_infostate_key(s, player):
    """A 64-bit hash of ``player``'s information state (the adapter's perfect-recall string:
    own hand and every pile top as dealt, the first leader, each play with its mover and the
    card it uncovered). Not provably injective: two information states collide with
    probability about 2**-64 per pair. Positions without a record hash the current view."""
    h = _mix(np.int64(0x5BD1E995), player + 1)
    if s[RECORD] == 0:
        h = _mix(h, s[HAND + player])
        h = _mix(h, s[UP])
        h = _mix(h, s[UP + 1])
        for i in range(TO_MOVE, TRICK + 3):
            h = _mix(h, s[i] + 7)
        for i in range(s[NPLAYS]):
            h = _mix(h, s[PLAY_CARD + i] * 64 + s[PLAY_REVEAL + i] + 1)
        return h
    if s[NDEALT] < DEALT:  # "P<p> dealing hand[...] tops[...]": visible cards, slot order
        for i in range(s[NDEALT]):
            if SIDE * player <= i < SIDE * player + HAND_SIZE:
                h = _mix(h, s[DEAL + i] + 1)
        h = _mix(h, 99)
        for i in range(s[NDEALT]):
            if HAND_SIZE <= i % SIDE < HAND_SIZE + NUM_PILES:
                h = _mix(h, s[DEAL + i] + 1)
        return h
    hand = np.int64(0)
    for i in range(HAND_SIZE):
        hand |= np.int64(1) << s[DEAL + SIDE * player + i]
    h = _mix(h, hand + 1000)
    for p in range(2):
        for i in range(NUM_PILES):
            h = _mix(h, s[DEAL + SIDE * p + HAND_SIZE + i] + 1)
    h = _mix(h, s[FIRST_LEADER] + 50)
    for i in range(s[NPLAYS]):
        h = _mix(h, (s[PLAY_MOVER + i] * 64 + s[PLAY_CARD + i]) * 64 + s[PLAY_REVEAL + i] + 1)
    return h


@nb.njit(cache=True)
def _popcount(m):
    n = 0
    while m:
        m &= m - 1
        n += 1
    return n


@nb.njit(cache=True)
def fair_side(side, min_trumps, points_lo, points_hi):
    """Whether a deal whose side A (its first ``SIDE`` cards) is ``side`` is fair: each side
    holds ``min_trumps`` to 8 - ``min_trumps`` trumps and card points in the window."""
    trumps = 0
    points = 0
    for i in range(SIDE):
        c = side[i]
        trumps += _IS_TRUMP[c]
        points += _POINTS[c]
    lo, hi = side_window(points_lo, points_hi)
    return min_trumps <= trumps <= NUM_TRUMPS - min_trumps and lo <= points <= hi


@nb.njit(cache=True)
def _fair(s):
    return fair_side(s[DEAL:DEAL + SIDE], s[MIN_TRUMPS], s[POINTS_LO], s[POINTS_HI])


@nb.njit(cache=True)
def _nth_card(mask, r):
    """The ``r``-th card (0-based, in increasing order) of ``mask``."""
    for _ in range(r):
        mask &= mask - 1
    return _index(mask & -mask)


@nb.njit(cache=True)
def nb_determinize(s, player, rng):
    """In place, a world consistent with ``player``'s information state (as the adapter's
    ``sample_world``): the opponent's unplayed hand is a uniform subset of the hidden cards
    its replies allow (``INFER``), the covered pile cards are the rest in a uniform order,
    and, for a recorded deal with ``CONSTRAIN``, worlds breaking the deal constraint are
    redrawn. The draws depend only on what ``player`` sees (cards are drawn by rank among
    the hidden ones, piles filled in the order of their top cards). Before the deal is
    complete the state is left as it is. If the evidence admits no hand (not reachable in a
    game), the inference is dropped."""
    if s[NDEALT] < DEALT:
        return
    opp = 1 - player
    opp_hand = s[HAND + opp]
    hidden = opp_hand | s[DOWN] | s[DOWN + 1]
    n_hand = _popcount(opp_hand)
    allowed = hidden & ~s[EXCL + opp] if s[INFER] else hidden
    n_allowed = _popcount(allowed)
    if n_allowed < n_hand:
        allowed, n_allowed = hidden, _popcount(hidden)
    covered = np.int64(0)  # the pile tops that still cover a card
    for p in range(2):
        up = s[UP + p]
        while up:
            low = up & -up
            up ^= low
            if s[UNDER + _index(low)] >= 0:
                covered |= low
    n_rest = _popcount(hidden) - n_hand
    record = s[RECORD] == 1
    hand_slots = 0  # bit i: slot SIDE * opp + i holds an unplayed hand card
    if record:
        for i in range(HAND_SIZE):
            if opp_hand >> s[DEAL + SIDE * opp + i] & 1:
                hand_slots |= 1 << i
    constrain = record and s[CONSTRAIN] == 1
    while True:
        chosen = np.int64(0)
        left = allowed
        slot_bits = hand_slots
        for i in range(n_hand):  # a uniform n_hand-subset of allowed, in a uniform order
            c = _nth_card(left, rng_bounded(rng, n_allowed - i))
            left ^= np.int64(1) << c
            chosen |= np.int64(1) << c
            if record:
                slot = _nth_card(slot_bits, 0)
                slot_bits ^= 1 << slot
                s[DEAL + SIDE * opp + slot] = c
        rest = hidden & ~chosen
        tops = covered
        s[DOWN] = 0
        s[DOWN + 1] = 0
        for j in range(n_rest):  # the rest onto the covered piles, in a uniform order
            c = _nth_card(rest, rng_bounded(rng, n_rest - j))
            rest ^= np.int64(1) << c
            top = _nth_card(tops, 0)
            tops ^= np.int64(1) << top
            s[UNDER + top] = c
            s[DOWN + (0 if s[UP] >> top & 1 else 1)] |= np.int64(1) << c
            if record:
                for slot in range(NUM_CARDS):
                    if s[DEAL + slot] == top:
                        s[DEAL + slot + NUM_PILES] = c
                        break
        if not constrain or _fair(s):
            break
    s[HAND + opp] = chosen


# -- conversions (Python) ----------------------------------------------------------------
def adapter_history(state) -> list[int]:
    """The whole action history of a ``belote2p`` adapter state, deal included.

    The one place that reads an adapter state: a state made by ``new_state_from_deal`` has
    no deal in ``history()``, so the history is read from the state's array (its record).
    Where ``history()`` holds the deal, this equals ``state.history()``.
    """
    return array_history(state.s)


def array_from_history(history, min_trumps: int = 2, points_lo: int = 66,
                       points_hi: int = 86) -> np.ndarray:
    """The state array reached by ``history`` (deal slots, first leader, cards)."""
    s = new_state(min_trumps, points_lo, points_hi)
    for action in history:
        nb_apply_action(s, int(action))
    return s


def array_from_position(kernel, excluded_from_opponent_hand: int = 0,
                        infer: bool = True) -> np.ndarray:
    """A state array (no record, no deal constraint) of a position (``position.Position``, or
    any object with its fields).

    ``excluded_from_opponent_hand``: cards the player to move knows its opponent no longer
    holds (its exclusions; used when ``infer``).
    """
    s = new_state()
    s[RECORD] = 0
    s[CONSTRAIN] = 0
    s[INFER] = int(infer)
    s[NDEALT] = DEALT
    s[TO_MOVE] = TERMINAL if kernel.is_terminal() else kernel.to_move
    s[LEADER], s[LEAD], s[TRICK] = kernel.leader, kernel.lead, kernel.trick
    s[LAST_WINNER] = kernel.last_winner
    for p in range(2):
        s[PTS + p] = kernel.points[p]
        s[HAND + p], s[UP + p], s[DOWN + p] = kernel.hand[p], kernel.up[p], kernel.down[p]
    if kernel.to_move in (0, 1):
        s[EXCL + 1 - kernel.to_move] = int(excluded_from_opponent_hand)
    s[UNDER:UNDER + NUM_CARDS] = kernel.under
    return s


def array_history(s: np.ndarray) -> list[int]:
    """The adapter's action history of a state array (deal, first leader, cards)."""
    if s[RECORD] != 1:
        raise ValueError("state: a position without a deal record has no history")
    dealt = int(s[NDEALT])
    out = [int(c) for c in s[DEAL:DEAL + min(dealt, NUM_CARDS)]]
    if dealt == DEALT:
        out.append(int(s[FIRST_LEADER]))
        out += [int(c) for c in s[PLAY_CARD:PLAY_CARD + s[NPLAYS]]]
    return out


_CARD_NAMES = tuple(card_name(c) for c in range(NUM_CARDS))


def _names(cards) -> str:
    return " ".join([_CARD_NAMES[c] for c in cards])


def array_infostate_string(s: np.ndarray, player: int) -> str:
    """The adapter's ``information_state_string(player)`` of a state array."""
    if s[RECORD] != 1:
        raise ValueError("state: a position without a deal record has no information state string")
    dealt = s.item(NDEALT)
    deal = s[DEAL:DEAL + min(dealt, NUM_CARDS)].tolist()
    if dealt < DEALT:
        mine = [c for i, c in enumerate(deal) if SIDE * player <= i < SIDE * player + HAND_SIZE]
        tops = [c for i, c in enumerate(deal) if HAND_SIZE <= i % SIDE < HAND_SIZE + NUM_PILES]
        return f"P{player} dealing hand[{_names(mine)}] tops[{_names(tops)}]"
    hand = sorted(deal[SIDE * player:SIDE * player + HAND_SIZE])
    tops = [deal[SIDE * p + HAND_SIZE:SIDE * p + HAND_SIZE + NUM_PILES] for p in (0, 1)]
    head = (f"P{player} hand[{_names(hand)}] tops0[{_names(tops[0])}] tops1[{_names(tops[1])}] "
            f"first{s.item(FIRST_LEADER)}")
    n = s.item(NPLAYS)
    movers = s[PLAY_MOVER:PLAY_MOVER + n].tolist()
    cards = s[PLAY_CARD:PLAY_CARD + n].tolist()
    reveals = s[PLAY_REVEAL:PLAY_REVEAL + n].tolist()
    moves = [f"{m}:{_CARD_NAMES[c]}" + (f"+{_CARD_NAMES[r]}" if r >= 0 else "")
             for m, c, r in zip(movers, cards, reveals)]
    return head + " | " + " ".join(moves)


# -- the engine's view of this game (infosets.games.kernels) --------------------------------
RULES = sys.modules[__name__]  # the jitted functions the compiled engine calls


def kernel_for(game) -> Kernel | None:
    """This game's kernel for a loaded pyspiel ``game``, or None where the kernel does not
    cover its parameters (``infosets.games.kernels.kernel_for``)."""
    c = game.constraint
    return Kernel("belote2p", RULES, 2, NUM_ACTIONS,
                  lambda history: array_from_history(history, c.min_trumps, c.points_lo,
                                                            c.points_hi),
                  array_history, array_infostate_string, adapter_history)
