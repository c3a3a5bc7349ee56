"""Love Letter's rules, once: the numba kernel that both engines and the pyspiel adapter run.

Ravichandran, Goodman and Lucas, "Evaluation of Perfect-Information Monte Carlo Tree Search
in Imperfect-Information Games" (docs/papers/pimcts_aggregation.md) ran TAG's Love Letter;
the rules, modelling choices and the world sampler's algorithm are stated in
``infosets.games.love_letter.game``. This module is the only place the rules are written:
dealing, legal plays (the Countess rule), each card's effect, rounds and affection tokens,
returns (win shares of the tokens), the cut-off heuristic, the information-state keys and
the compiled engine's determinizer (``nb_determinize``; its record, ``_record``, and witness
history, ``_witness``, serve the adapter's sampler too), on a flat int64 array (contract in
``infosets.games.kernels``). The pyspiel adapter (``game.LoveLetterKernel``, an
``infosets.games.array_kernel.ArrayKernel``) calls these functions and reads the array's
fields for its strings and tensors. Action ids: ``encode(card, target, guess)``. Chance
outcomes: the card types of the pool, in type order, probability count / total.

State array (``n`` players, 2..4), header then fixed blocks:
  [0] n, [1] player to move, [2] Prince-draw turn owner (-1: none), [3] game over,
  [4] tokens to win, [5] draw-queue length, [6] log entries, [7] running hash of the log,
  [8] face-up removed cards, [9] log capacity, [10] chance outcomes this round;
  ``TOKENS`` 4; ``POOL`` 8 counts (deck plus the face-down removed card); ``ALIVE`` 4;
  ``IMMUNE`` 4; ``FACE_UP`` 3; ``QUEUE`` who receives the next chance draws (-2: face up);
  ``HAND_LEN`` 4; ``HANDS`` 4 x 2 cards in hand order; ``SEEN`` 4 x 2 observer bitmasks;
  ``DISC_LEN`` 4; ``DISCARDS`` 4 x 16 in order; ``DRAWN`` 16: the round's chance outcomes
  in order; ``LOG`` the public log, one entry each: ``(mover * NUM_ACTIONS + action) * 16 +
  outcome`` (outcome: index in ``LOG_OUTCOMES``) or, for a round's end, minus the bitmask of
  its winners. Slots past a list's length (a hand, a pile, the queue) may hold stale values:
  readers go by the lengths.
"""

from __future__ import annotations

import sys

import numba as nb
import numpy as np

from infosets.core.pcg32 import rng_bounded
from infosets.games.array_kernel import kernel_record
from infosets.games.kernels import Kernel

CHANCE = -1
TERMINAL = -4
GUARD, PRIEST, BARON, HANDMAID, PRINCE, KING, COUNTESS, PRINCESS = range(8)
NUM_TYPES = NT = 8
CARD_NAMES = ("Guard", "Priest", "Baron", "Handmaid", "Prince", "King", "Countess", "Princess")
DECK_COUNTS_LIST = (5, 2, 2, 2, 2, 1, 1, 1)  # the classic 16-card deck, by type
MAX_PLAYERS = MP = 4
NUM_ACTIONS = NT * MP * 8
FACE_UP_MARK = -2  # draw-queue mark: a face-up removed card (2 players)
TARGETED = (GUARD, PRIEST, BARON, KING)
# Outcomes written to the public log after a play (``out<p>``: a Baron eliminated p).
LOG_OUTCOMES = ("", "hit", "miss", "tie", "out", "redraw") + tuple(f"out{p}" for p in range(MP))
HIT, MISS, TIE, OUT, REDRAW, OUT0 = 1, 2, 3, 4, 5, 6  # indices in LOG_OUTCOMES
DECK_COUNTS = np.array(DECK_COUNTS_LIST, dtype=np.int64)
MAX_DISCARDS = 16
QUEUE_CAP = 12
LOG_PER_ROUND = 20  # at most 15 plays and one end-of-round entry
LEAD_SCALE = 1.0  # the heuristic's lead scale, in affection tokens
ANY_CARD = (1 << NT) - 1  # type mask of a card no public outcome constrains
# Deals a resampler draws before it gives up: never reached (the fewest accepted by the
# record's cases in 2,250 random states x players was 1 deal in 15).
MAX_DEALS = 1 << 24


def encode(card: int, target: int, guess: int = 0) -> int:
    """Action id of playing ``card`` at ``target`` (naming ``guess`` for a Guard)."""
    return (card * MP + target) * 8 + guess


def decode(action: int) -> tuple[int, int, int]:
    """(card, target, guess) of an action id."""
    rest, guess = divmod(action, 8)
    card, target = divmod(rest, MP)
    return card, target, guess


N, CUR, AFTER_DRAW, DONE, TOKENS_TO_WIN, QUEUE_LEN, LOG_LEN, LOG_HASH = range(8)
FACE_UP_LEN, LOG_CAP, DRAW_LEN = range(8, 11)
TOKENS = 11
POOL = TOKENS + MP
ALIVE = POOL + NT
IMMUNE = ALIVE + MP
FACE_UP = IMMUNE + MP
QUEUE = FACE_UP + 3
HAND_LEN = QUEUE + QUEUE_CAP
HANDS = HAND_LEN + MP
SEEN = HANDS + 2 * MP
DISC_LEN = SEEN + 2 * MP
DISCARDS = DISC_LEN + MP
MAX_DRAWN = sum(DECK_COUNTS_LIST)  # chance outcomes of a round: at most every card
DRAWN = DISCARDS + MAX_DISCARDS * MP
LOG = DRAWN + MAX_DRAWN


def new_state(n: int, tokens_to_win: int) -> np.ndarray:
    """The initial state array (a round about to be dealt, player 0 first)."""
    if not 2 <= n <= MP:
        raise ValueError(f"players: must be in [2, {MP}], got {n}")
    cap = LOG_PER_ROUND * (n * (tokens_to_win - 1) + 1)
    s = np.zeros(LOG + cap, dtype=np.int64)
    s[N], s[TOKENS_TO_WIN], s[LOG_CAP] = n, tokens_to_win, cap
    _start_round(s, 0)
    return s


@nb.njit(cache=True)
def _mix(h, v):
    """One step of the running hash (multiply-xorshift; int64 arithmetic wraps)."""
    h = (h ^ (v + 0x9E3779B9)) * 0x5851F42D4C957F2D
    return h ^ (h >> 29)


@nb.njit(cache=True)
def _start_round(s, first):
    n = s[N]
    for t in range(NT):
        s[POOL + t] = DECK_COUNTS[t]
    for p in range(MP):
        s[ALIVE + p] = 1 if p < n else 0
        s[IMMUNE + p] = 0
        s[HAND_LEN + p] = 0
        s[DISC_LEN + p] = 0
    s[FACE_UP_LEN] = 0
    s[DRAW_LEN] = 0
    q = 0
    if n == 2:
        for _ in range(3):
            s[QUEUE + q] = FACE_UP_MARK
            q += 1
    for p in range(n):
        s[QUEUE + q] = p
        q += 1
    s[QUEUE + q] = first
    s[QUEUE_LEN] = q + 1
    s[CUR] = first
    s[AFTER_DRAW] = -1


@nb.njit(cache=True)
def _deck_size(s):
    total = 0
    for t in range(NT):
        total += s[POOL + t]
    return total - 1


@nb.njit(cache=True)
def nb_current_player(s):
    if s[DONE]:
        return TERMINAL
    if s[QUEUE_LEN] > 0:
        return CHANCE
    return s[CUR]


@nb.njit(cache=True)
def nb_chance_outcomes(s, actions, probs):
    """Draw one card of the pool: each type with probability count / total."""
    total = 0
    for t in range(NT):
        total += s[POOL + t]
    n = 0
    for t in range(NT):
        c = s[POOL + t]
        if c > 0:
            actions[n] = t
            probs[n] = c / total
            n += 1
    return n


@nb.njit(cache=True)
def _encode(card, target, guess):
    return (card * MP + target) * 8 + guess


@nb.njit(cache=True)
def nb_legal_actions(s, buf):
    """Legal actions in ascending order (card types of the pool at chance nodes)."""
    if s[DONE]:
        return 0
    if s[QUEUE_LEN] > 0:
        n = 0
        for t in range(NT):
            if s[POOL + t] > 0:
                buf[n] = t
                n += 1
        return n
    p = s[CUR]
    has = 0  # bitmask of the card types in hand
    for i in range(s[HAND_LEN + p]):
        has |= 1 << s[HANDS + 2 * p + i]
    if has >> COUNTESS & 1 and (has >> KING & 1 or has >> PRINCE & 1):
        has = 1 << COUNTESS
    any_target = False
    for q in range(s[N]):
        if q != p and s[ALIVE + q] and not s[IMMUNE + q]:
            any_target = True
    n = 0
    # Ascending ids: card-major, then target, then guess (the encoding's order).
    for c in range(NT):
        if not has >> c & 1:
            continue
        targeted = c == GUARD or c == PRIEST or c == BARON or c == KING
        for t in range(s[N]):
            valid = t != p and s[ALIVE + t] and not s[IMMUNE + t]
            if c == GUARD:
                if valid:
                    for g in range(1, NT):
                        buf[n] = _encode(c, t, g)
                        n += 1
                elif t == p and not any_target:
                    buf[n] = _encode(c, p, 0)
                    n += 1
            elif targeted:
                if valid or (t == p and not any_target):
                    buf[n] = _encode(c, t, 0)
                    n += 1
            elif c == PRINCE:
                if valid or t == p:
                    buf[n] = _encode(c, t, 0)
                    n += 1
            elif t == p:
                buf[n] = _encode(c, p, 0)
                n += 1
    return n


@nb.njit(cache=True)
def _log(s, entry):
    s[LOG + s[LOG_LEN]] = entry
    s[LOG_LEN] += 1
    s[LOG_HASH] = _mix(s[LOG_HASH], entry)


@nb.njit(cache=True)
def _eliminate(s, q):
    s[ALIVE + q] = 0
    for i in range(s[HAND_LEN + q]):
        s[DISCARDS + MAX_DISCARDS * q + s[DISC_LEN + q]] = s[HANDS + 2 * q + i]
        s[DISC_LEN + q] += 1
    s[HAND_LEN + q] = 0


@nb.njit(cache=True)
def _discard(s, q, card):
    s[DISCARDS + MAX_DISCARDS * q + s[DISC_LEN + q]] = card
    s[DISC_LEN + q] += 1


@nb.njit(cache=True)
def _end_round(s):
    n = s[N]
    best_card, best_sum = -1, -1
    for p in range(n):
        if s[ALIVE + p]:
            card = s[HANDS + 2 * p]
            total = 0
            for i in range(s[DISC_LEN + p]):
                total += s[DISCARDS + MAX_DISCARDS * p + i] + 1
            if card > best_card or (card == best_card and total > best_sum):
                best_card, best_sum = card, total
    mask = 0
    first = -1
    most = 0
    for p in range(n):
        if s[ALIVE + p]:
            total = 0
            for i in range(s[DISC_LEN + p]):
                total += s[DISCARDS + MAX_DISCARDS * p + i] + 1
            if s[HANDS + 2 * p] == best_card and total == best_sum:
                mask |= 1 << p
                s[TOKENS + p] += 1
                if first < 0:
                    first = p
        most = max(most, s[TOKENS + p])
    _log(s, -mask)
    if most >= s[TOKENS_TO_WIN]:
        s[DONE] = 1
        return
    _start_round(s, first)


@nb.njit(cache=True)
def _end_turn(s):
    n = s[N]
    alive = 0
    for p in range(n):
        alive += s[ALIVE + p]
    if alive == 1 or _deck_size(s) <= 0:
        _end_round(s)
        return
    q = (s[CUR] + 1) % n
    while not s[ALIVE + q]:
        q = (q + 1) % n
    s[CUR] = q
    s[IMMUNE + q] = 0
    s[QUEUE + s[QUEUE_LEN]] = q
    s[QUEUE_LEN] += 1


@nb.njit(cache=True)
def _play(s, action):
    card = action // (MP * 8)
    target = (action // 8) % MP
    guess = action % 8
    p = s[CUR]
    hp, sp = HANDS + 2 * p, SEEN + 2 * p
    # Remove the played copy: the last card if it matches, else the first match.
    if s[hp + 1] != card:
        s[hp + 1], s[hp] = s[hp], s[hp + 1]
        s[sp + 1], s[sp] = s[sp], s[sp + 1]
    s[HAND_LEN + p] = 1
    if s[hp] == card:  # observers cannot tell which copy was kept
        s[sp] = 1 << p
    _discard(s, p, card)
    s[IMMUNE + p] = 0
    outcome = 0
    targeted = card == GUARD or card == PRIEST or card == BARON or card == KING
    ht, st = HANDS + 2 * target, SEEN + 2 * target
    if target == p and targeted:
        pass
    elif card == GUARD:
        if s[ht] == guess:
            _eliminate(s, target)
            outcome = HIT
        else:
            outcome = MISS
    elif card == PRIEST:
        s[st] |= 1 << p
    elif card == BARON:
        mine, theirs = s[hp], s[ht]
        if mine == theirs:
            s[sp] |= 1 << target
            s[st] |= 1 << p
            outcome = TIE
        else:
            loser = p if mine < theirs else target
            _eliminate(s, loser)
            outcome = OUT0 + loser
    elif card == KING:
        both = (1 << p) | (1 << target)
        s[hp], s[ht] = s[ht], s[hp]
        s[sp], s[st] = s[st] | both, s[sp] | both
    elif card == PRINCE:
        last = s[HAND_LEN + target] - 1
        dropped = s[ht + last]
        s[HAND_LEN + target] = last
        _discard(s, target, dropped)
        if dropped == PRINCESS:
            s[ALIVE + target] = 0
            outcome = OUT
        else:
            _log(s, (p * NUM_ACTIONS + action) * 16 + REDRAW)
            s[QUEUE + s[QUEUE_LEN]] = target
            s[QUEUE_LEN] += 1
            s[AFTER_DRAW] = p
            return
    elif card == HANDMAID:
        s[IMMUNE + p] = 1
    elif card == PRINCESS:
        _eliminate(s, p)
    _log(s, (p * NUM_ACTIONS + action) * 16 + outcome)
    _end_turn(s)


@nb.njit(cache=True)
def nb_apply_action(s, action):
    if s[QUEUE_LEN] > 0:
        who = s[QUEUE]
        for i in range(1, s[QUEUE_LEN]):
            s[QUEUE + i - 1] = s[QUEUE + i]
        s[QUEUE_LEN] -= 1
        s[POOL + action] -= 1
        s[DRAWN + s[DRAW_LEN]] = action
        s[DRAW_LEN] += 1
        if who == FACE_UP_MARK:
            s[FACE_UP + s[FACE_UP_LEN]] = action
            s[FACE_UP_LEN] += 1
        else:
            i = s[HAND_LEN + who]
            s[HANDS + 2 * who + i] = action
            s[SEEN + 2 * who + i] = 1 << who
            s[HAND_LEN + who] = i + 1
        if s[QUEUE_LEN] == 0 and s[AFTER_DRAW] >= 0:
            s[AFTER_DRAW] = -1
            _end_turn(s)
        return
    _play(s, action)


@nb.njit(cache=True)
def nb_returns(s, out):
    """Win shares of the affection tokens at the end, zeros before."""
    n = s[N]
    for p in range(n):
        out[p] = 0.0
    if not s[DONE]:
        return
    best = 0
    for p in range(n):
        best = max(best, s[TOKENS + p])
    k = 0
    for p in range(n):
        if s[TOKENS + p] == best:
            k += 1
    for p in range(n):
        if s[TOKENS + p] == best:
            out[p] = 1.0 / k


@nb.njit(cache=True)
def nb_heuristic(s, out):
    """TAG's ``LeaderHeuristic`` (its LoveLetter.json setting) on the returns' [0, 1] scale,
    with affection tokens as the game score: the lead ``d = own - best other`` maps to
    ``0.5 + 0.5 * d / (|d| + LEAD_SCALE)``. The returns at the end."""
    n = s[N]
    if s[DONE]:
        nb_returns(s, out)
        return
    for p in range(n):
        best = -1
        for q in range(n):
            if q != p and s[TOKENS + q] > best:
                best = s[TOKENS + q]
        d = float(s[TOKENS + p] - best)
        out[p] = 0.5 + 0.5 * d / (abs(d) + LEAD_SCALE)


@nb.njit(cache=True)
def nb_infostate_key(s, player):
    """A 64-bit hash of exactly what ``player``'s information state string shows: mover, deck
    size, tokens, own hand (sorted), face-up cards, each other player's state, immunity,
    seen cards (as a multiset) and unseen count, the discard piles in order, and the public
    log (by its running hash). Equal strings give equal keys; distinct strings collide with
    probability ~2**-64 per pair."""
    n = s[N]
    bit = 1 << player
    h = _mix(player, n)
    h = _mix(h, nb_current_player(s))
    h = _mix(h, _deck_size(s))
    for p in range(n):
        h = _mix(h, s[TOKENS + p])
    hp = HANDS + 2 * player
    if s[HAND_LEN + player] == 2:
        h = _mix(h, min(s[hp], s[hp + 1]) * 16 + max(s[hp], s[hp + 1]) + 1000)
    elif s[HAND_LEN + player] == 1:
        h = _mix(h, s[hp])
    else:
        h = _mix(h, -7)
    h = _mix(h, s[FACE_UP_LEN])
    for i in range(s[FACE_UP_LEN]):
        h = _mix(h, s[FACE_UP + i])
    for q in range(n):
        if q == player:
            continue
        h = _mix(h, s[ALIVE + q] * 2 + s[IMMUNE + q])
        known = np.zeros(NT, np.int64)
        hidden = 0
        for i in range(s[HAND_LEN + q]):
            if s[SEEN + 2 * q + i] & bit:
                known[s[HANDS + 2 * q + i]] += 1
            else:
                hidden += 1
        for t in range(NT):
            h = _mix(h, known[t])
        h = _mix(h, hidden)
    for q in range(n):
        h = _mix(h, -1 - s[DISC_LEN + q])
        for i in range(s[DISC_LEN + q]):
            h = _mix(h, s[DISCARDS + MAX_DISCARDS * q + i])
    h = _mix(h, s[LOG_LEN])
    return _mix(h, s[LOG_HASH])


# -- worlds (love_letter's module docstring) ------------------------------------------------
# Cases of the record (game.py's docstring, "Worlds"): rows of ``cm`` (type mask per hand slot), ``cl``
# (tie label per slot) and ``cp`` (per play of the round: code | old card's mask << 2).
# How a play's mover kept a card, per case: the old card (held before the draw) kept and the
# drawn one played (KEEP), the old one played (DROP), or either (FREE: the old card if its mask
# allows the kept type).
KEEP, DROP, FREE = 0, 1, 2
CASE_CAP = 128  # cases of one record (bound: game.py's docstring)
PLAY_CAP = LOG_PER_ROUND
EVENT_CAP = MAX_DRAWN + LOG_PER_ROUND
WORK = CASE_CAP * (4 * MP + PLAY_CAP + 1) + EVENT_CAP + MAX_DRAWN + NT + 14 * MP
DRAW_EVENT = -10  # event ``DRAW_EVENT - who``: a chance outcome to ``who`` (-2: face up);
#                     an event >= 0 is a play, by its index among the round's log entries
SCRATCH = LOG + LOG_PER_ROUND  # a replayed round: ``s`` without the log of earlier rounds


@nb.njit(cache=True)
def _round_start(s, t):
    """``t`` (``SCRATCH`` long) = ``s`` at the start of its current round, its log holding
    that round's entries only (``t``'s entry i is ``s``'s entry start + i); returns start."""
    t[:LOG] = s[:LOG]
    start = s[LOG_LEN]
    while start > 0 and s[LOG + start - 1] >= 0:
        start -= 1
    first = s[CUR] if start == s[LOG_LEN] else s[LOG + start] // 16 // NUM_ACTIONS
    t[LOG_LEN] = 0
    for k in range(2 * MP):
        t[HANDS + k] = 0
        t[SEEN + k] = 0
    for i in range(MAX_DRAWN):
        t[DRAWN + i] = 0
    _start_round(t, first)
    return start


@nb.njit(cache=True)
def _group(cm, cl, c, label, hl, n):
    """The types tie group ``label`` of case ``c`` may be."""
    bits = ANY_CARD
    for q in range(n):
        for i in range(hl[q]):
            if cl[c, 2 * q + i] == label:
                bits &= cm[c, 2 * q + i]
    return bits


@nb.njit(cache=True)
def _pin_group(cm, cl, c, label, bits, hl, n):
    """The cards of tie group ``label`` are of the types ``bits`` (the group dissolves)."""
    for q in range(n):
        for i in range(hl[q]):
            k = 2 * q + i
            if cl[c, k] == label:
                cm[c, k] &= bits
                cl[c, k] = 0


@nb.njit(cache=True)
def _reveal(cm, cl, c, k, card, hl, n):
    """Slot ``k``'s card leaves the hand face up as ``card`` (the oracle's ``_Case.reveal``): whether its
    mask allowed it. The caller drops the slot."""
    label = cl[c, k]
    cl[c, k] = 0
    if label != 0:
        _pin_group(cm, cl, c, label, 1 << card, hl, n)
    return cm[c, k] >> card & 1


@nb.njit(cache=True)
def _effects(t, cm, cl, c, player, p, card, target, guess, outcome, label, hl, n):
    """The oracle's ``_Case.effects`` on case ``c`` (``t``: the real state after the play, read only where
    ``player`` sees); returns False when the case is impossible."""
    ok = True
    if card == KING or card == PRINCE:  # the Countess must be played beside them
        cm[c, 2 * p] &= ~(1 << COUNTESS)
    targeted = card == GUARD or card == PRIEST or card == BARON or card == KING
    if target == p and targeted:
        return ok
    if card == GUARD:
        if outcome == HIT:
            ok = _reveal(cm, cl, c, 2 * target, guess, hl, n) != 0
        else:
            cm[c, 2 * target] &= ~(1 << guess)
    elif card == PRIEST:
        if p == player:
            cm[c, 2 * target] &= 1 << t[HANDS + 2 * target]
    elif card == BARON:
        if outcome == TIE:
            if player == p or player == target:
                cm[c, 2 * p] &= 1 << t[HANDS + 2 * p]
                cm[c, 2 * target] &= 1 << t[HANDS + 2 * target]
            else:
                a, b = cl[c, 2 * p], cl[c, 2 * target]
                for q in range(n):
                    for i in range(hl[q]):
                        other = cl[c, 2 * q + i]
                        if other != 0 and (other == a or other == b):
                            cl[c, 2 * q + i] = label
                cl[c, 2 * p] = label
                cl[c, 2 * target] = label
        else:
            loser = outcome - OUT0
            low = t[DISCARDS + MAX_DISCARDS * loser + t[DISC_LEN + loser] - 1]
            ok = _reveal(cm, cl, c, 2 * loser, low, hl, n) != 0
            winner = target if loser == p else p
            cm[c, 2 * winner] &= ANY_CARD & ~((2 << low) - 1)  # higher than ``low``
    elif card == KING:
        cm[c, 2 * p], cm[c, 2 * target] = cm[c, 2 * target], cm[c, 2 * p]
        cl[c, 2 * p], cl[c, 2 * target] = cl[c, 2 * target], cl[c, 2 * p]
        if player == p or player == target:
            cm[c, 2 * p] &= 1 << t[HANDS + 2 * p]
            cm[c, 2 * target] &= 1 << t[HANDS + 2 * target]
    elif card == PRINCE:
        d = t[DISCARDS + MAX_DISCARDS * target + t[DISC_LEN + target] - 1]
        ok = _reveal(cm, cl, c, 2 * target, d, hl, n) != 0
    elif card == PRINCESS:
        d = t[DISCARDS + MAX_DISCARDS * p + t[DISC_LEN + p] - 1]
        ok = _reveal(cm, cl, c, 2 * p, d, hl, n) != 0
    return ok


@nb.njit(cache=True)
def _feasible(cm, cl, c, hl, n):
    for q in range(n):
        for i in range(hl[q]):
            k = 2 * q + i
            if cm[c, k] == 0 or (cl[c, k] != 0 and _group(cm, cl, c, cl[c, k], hl, n) == 0):
                return False
    return True


@nb.njit(cache=True)
def _copy_case(cm, cl, cp, src, dst, plays):
    for k in range(2 * MP):
        cm[dst, k] = cm[src, k]
        cl[dst, k] = cl[src, k]
    for j in range(plays):
        cp[dst, j] = cp[src, j]


@nb.njit(cache=True)
def _record(s, t, player, cm, cl, cp, events, hl, alive):
    """The record (game.py's docstring, "Worlds"; ``game.record``): replays ``s``'s round in
    ``t`` and fills the cases (``cm``, ``cl``, ``cp``), the round's ``events`` and the hand
    lengths ``hl`` (``alive``: room for a flag per case); returns (cases, events, the round's
    first log index)."""
    n = s[N]
    start = _round_start(s, t)
    plays = s[LOG_LEN] - start
    for k in range(2 * MP):
        cm[0, k] = 0
        cl[0, k] = 0
    for q in range(MP):
        hl[q] = 0
    nc, ne, j = 1, 0, 0
    while t[DRAW_LEN] < s[DRAW_LEN] or t[LOG_LEN] < plays:
        if t[QUEUE_LEN] > 0:
            if t[DRAW_LEN] >= s[DRAW_LEN]:
                raise ValueError("love_letter: the round's draws do not replay its log")
            who = t[QUEUE]
            nb_apply_action(t, s[DRAWN + t[DRAW_LEN]])
            events[ne] = DRAW_EVENT - who
            ne += 1
            if who >= 0:
                k = 2 * who + hl[who]
                bits = (1 << t[HANDS + k]) if who == player else ANY_CARD
                for c in range(nc):
                    cm[c, k] = bits
                    cl[c, k] = 0
                hl[who] += 1
            continue
        if t[LOG_LEN] >= plays:
            raise ValueError("love_letter: the round's draws do not replay its log")
        action = (s[LOG + start + t[LOG_LEN]] // 16) % NUM_ACTIONS
        card = action // (MP * 8)
        target = (action // 8) % MP
        guess = action % 8
        p = t[CUR]
        played = 1 if t[HANDS + 2 * p + 1] == card else 0  # read only when p is the player
        nb_apply_action(t, action)
        outcome = t[LOG + t[LOG_LEN] - 1] % 16
        events[ne] = t[LOG_LEN] - 1
        ne += 1
        label = t[LOG_LEN]
        # The kept card: in slot 2p, per case (a tied old card splits its case).
        m = nc
        for c in range(m):
            alive[c] = 1
            if p == player:
                alive[c] = _reveal(cm, cl, c, 2 * p + played, card, hl, n)
                if played == 0:
                    cm[c, 2 * p], cl[c, 2 * p] = cm[c, 2 * p + 1], cl[c, 2 * p + 1]
                cp[c, j] = KEEP if played else DROP
                continue
            mask, tie = cm[c, 2 * p], cl[c, 2 * p]
            if tie == 0:
                if mask >> card & 1:
                    cp[c, j] = FREE | mask << 2
                    cm[c, 2 * p] = ANY_CARD
                else:
                    cp[c, j] = KEEP | mask << 2
            elif not _group(cm, cl, c, tie, hl, n) >> card & 1:
                cp[c, j] = KEEP | mask << 2
            else:
                if nc == CASE_CAP:
                    raise RuntimeError("love_letter: more cases than CASE_CAP")
                _copy_case(cm, cl, cp, c, nc, j)
                alive[nc] = 1
                cm[nc, 2 * p], cl[nc, 2 * p] = ANY_CARD, 0
                _pin_group(cm, cl, nc, tie, 1 << card, hl, n)
                cp[nc, j] = DROP | mask << 2
                cp[c, j] = KEEP | mask << 2
                nc += 1
        hl[p] = 1
        lost = -1
        targeted = card == GUARD or card == PRIEST or card == BARON or card == KING
        if not (target == p and targeted):
            if card == PRINCESS:
                lost = p
            elif card == PRINCE or (card == GUARD and outcome == HIT):
                lost = target
            elif card == BARON and outcome >= OUT0:
                lost = outcome - OUT0
        for c in range(nc):
            if alive[c] and not _effects(t, cm, cl, c, player, p, card, target, guess, outcome, label, hl, n):
                alive[c] = 0
        if lost >= 0:
            hl[lost] = 0
        kept = 0
        for c in range(nc):
            if alive[c] and _feasible(cm, cl, c, hl, n):
                if kept != c:
                    _copy_case(cm, cl, cp, c, kept, j + 1)
                kept += 1
        nc = kept
        j += 1
    return nc, ne, start


@nb.njit(cache=True)
def _fits_case(cm, cl, c, hands, s, n):
    """Whether the placement ``hands`` meets case ``c`` (the oracle's ``_Case.fits``)."""
    for q in range(n):
        for i in range(s[HAND_LEN + q]):
            k = 2 * q + i
            card = hands[k]
            if not cm[c, k] >> card & 1:
                return False
            if cl[c, k] != 0:
                for r in range(q + 1):
                    for h in range(s[HAND_LEN + r]):
                        o = 2 * r + h
                        if o < k and cl[c, o] == cl[c, k] and hands[o] != card:
                            return False
    return True


@nb.njit(cache=True)
def _witness(s, start, events, ne, cp, c, hands, draws, seen, wh, tr, done, hl, dl):
    """The witness history (game.py's docstring, "Worlds"): the chance outcomes (``draws``) of
    a history of the round dealing ``hands``, read backwards by case ``c``'s play codes
    (``start``: the round's first log index), and the ``seen`` masks that history gives the
    cards in hand (what the adapter's sampler gets by replaying it): going backwards, each card
    in hand collects the
    players who look at it (Priest, Baron tie, King) until its draw or a play of its type
    beside it (which resets ``seen`` to its holder). Work arrays: ``wh`` the cards in hand,
    ``tr`` the final slot of the card at each slot (-1: none), ``done`` whether a final card's
    ``seen`` is complete, ``hl`` and ``dl`` hand and discard lengths."""
    for q in range(MP):
        hl[q] = s[HAND_LEN + q]
        dl[q] = s[DISC_LEN + q]
    for k in range(2 * MP):
        wh[k] = hands[k]
        tr[k] = k if k % 2 < hl[k // 2] else -1
        done[k] = 0
        seen[k] = 0
    fu = s[FACE_UP_LEN]
    d = s[DRAW_LEN]
    j = 0
    for e in range(ne):
        if events[e] >= 0:
            j += 1
    for e in range(ne - 1, -1, -1):
        ev = events[e]
        if ev < 0:
            who = DRAW_EVENT - ev
            d -= 1
            if who == FACE_UP_MARK:
                fu -= 1
                draws[d] = s[FACE_UP + fu]
            else:
                hl[who] -= 1
                k = 2 * who + hl[who]
                draws[d] = wh[k]
                f = tr[k]
                if f >= 0 and not done[f]:
                    seen[f] |= 1 << who
                    done[f] = 1
                tr[k] = -1
            continue
        j -= 1
        entry = s[LOG + start + ev]
        outcome = entry % 16
        action = (entry // 16) % NUM_ACTIONS
        p = entry // 16 // NUM_ACTIONS
        card = action // (MP * 8)
        target = (action // 8) % MP
        targeted = card == GUARD or card == PRIEST or card == BARON or card == KING
        back = -1  # the player whose face-up card goes back into their hand
        if target == p and targeted:
            pass
        elif card == KING:
            both = (1 << p) | (1 << target)
            for k in (2 * p, 2 * target):
                if tr[k] >= 0 and not done[tr[k]]:
                    seen[tr[k]] |= both
            wh[2 * p], wh[2 * target] = wh[2 * target], wh[2 * p]
            tr[2 * p], tr[2 * target] = tr[2 * target], tr[2 * p]
        elif card == PRIEST:
            f = tr[2 * target]
            if f >= 0 and not done[f]:
                seen[f] |= 1 << p
        elif card == BARON and outcome == TIE:
            f = tr[2 * p]
            if f >= 0 and not done[f]:
                seen[f] |= 1 << target
            f = tr[2 * target]
            if f >= 0 and not done[f]:
                seen[f] |= 1 << p
        elif card == PRINCE or (card == GUARD and outcome == HIT):
            back = target
        elif card == BARON and outcome >= OUT0:
            back = outcome - OUT0
        elif card == PRINCESS:
            back = p
        if back >= 0:
            dl[back] -= 1
            wh[2 * back + hl[back]] = s[DISCARDS + MAX_DISCARDS * back + dl[back]]
            tr[2 * back + hl[back]] = -1
            hl[back] += 1
        dl[p] -= 1  # the card played
        kept, f = wh[2 * p], tr[2 * p]
        if kept == card and f >= 0 and not done[f]:  # observers cannot tell which was kept
            seen[f] |= 1 << p
            done[f] = 1
        code, mask = cp[c, j] & 3, cp[c, j] >> 2
        if code == KEEP or (code == FREE and mask >> kept & 1):
            wh[2 * p + 1], tr[2 * p + 1] = card, -1
        else:
            wh[2 * p], wh[2 * p + 1] = card, kept
            tr[2 * p], tr[2 * p + 1] = -1, f
        hl[p] = 2


@nb.njit(cache=True)
def nb_determinize(s, player, rng):
    """A world for ``player`` in place, distributed as ``game.LoveLetterKernel.resample``: the
    cards ``player`` does not see (``SEEN``) join the pool and are dealt again by uniform
    draws without replacement, redrawn until the placement meets a case of the record
    (``_record``; early rejection by the union of the cases' masks), so the deal is uniform
    among the consistent ones; the history ``_witness`` builds for it gives the world's
    ``DRAWN`` and ``SEEN`` (the rest of the state is the same in every world)."""
    if s[DONE]:
        return
    n = s[N]
    t = np.empty(SCRATCH, np.int64)
    work = np.empty(WORK, np.int64)  # one allocation, cut into the arrays below
    cm = work[: CASE_CAP * 2 * MP].reshape((CASE_CAP, 2 * MP))
    cl = work[CASE_CAP * 2 * MP : CASE_CAP * 4 * MP].reshape((CASE_CAP, 2 * MP))
    at = CASE_CAP * 4 * MP
    cp = work[at : at + CASE_CAP * PLAY_CAP].reshape((CASE_CAP, PLAY_CAP))
    at += CASE_CAP * PLAY_CAP
    alive = work[at : at + CASE_CAP]
    events = work[at + CASE_CAP : at + CASE_CAP + EVENT_CAP]
    at += CASE_CAP + EVENT_CAP
    draws = work[at : at + MAX_DRAWN]
    pool = work[at + MAX_DRAWN : at + MAX_DRAWN + NT]
    at += MAX_DRAWN + NT
    hl, dl = work[at : at + MP], work[at + MP : at + 2 * MP]
    at += 2 * MP
    hands, allowed = work[at : at + 2 * MP], work[at + 2 * MP : at + 4 * MP]
    seen, wh = work[at + 4 * MP : at + 6 * MP], work[at + 6 * MP : at + 8 * MP]
    tr, done = work[at + 8 * MP : at + 10 * MP], work[at + 10 * MP : at + 12 * MP]
    nc, ne, start = _record(s, t, player, cm, cl, cp, events, hl, alive)
    bit = 1 << player
    total = 0
    for c in range(NT):
        pool[c] = s[POOL + c]
        total += pool[c]
    for k in range(2 * MP):
        hands[k] = 0
        allowed[k] = 0
    drawn = 0  # bitmask of the hand slots to deal
    for q in range(n):
        if hl[q] != s[HAND_LEN + q]:
            raise ValueError("love_letter: the round's draws do not replay its hands")
        for i in range(s[HAND_LEN + q]):
            k = 2 * q + i
            hands[k] = s[HANDS + k]
            if not s[SEEN + k] & bit:
                drawn |= 1 << k
                pool[hands[k]] += 1
                total += 1
                for c in range(nc):
                    allowed[k] |= cm[c, k]
    found = -1
    for _ in range(MAX_DEALS):
        left = total
        ok = True
        for k in range(2 * n):
            if not drawn >> k & 1:
                continue
            r = rng_bounded(rng, left)
            card = 0
            while r >= pool[card]:
                r -= pool[card]
                card += 1
            pool[card] -= 1
            left -= 1
            hands[k] = card
            if not allowed[k] >> card & 1:
                ok = False
                for j in range(k + 1):  # a rejected deal: its cards go back to the pool
                    if drawn >> j & 1:
                        pool[hands[j]] += 1
                break
        if not ok:
            continue
        for c in range(nc):
            if _fits_case(cm, cl, c, hands, s, n):
                found = c
                break
        if found >= 0:
            break
        for j in range(2 * n):
            if drawn >> j & 1:
                pool[hands[j]] += 1
    if found < 0:
        raise RuntimeError("love_letter: no deal fits the public record (MAX_DEALS draws)")
    _witness(s, start, events, ne, cp, found, hands, draws, seen, wh, tr, done, hl, dl)
    for k in range(2 * MP):
        s[HANDS + k] = hands[k]
        s[SEEN + k] = seen[k]
    for c in range(NT):
        s[POOL + c] = pool[c]
    for i in range(MAX_DRAWN):
        s[DRAWN + i] = draws[i] if i < s[DRAW_LEN] else 0


@nb.njit(cache=True)
def _rehash_log(s):
    h = 0
    for i in range(s[LOG_LEN]):
        h = _mix(h, s[LOG + i])
    s[LOG_HASH] = h


# -- the engine's view of this game (infosets.games.kernels) --------------------------------
RULES = sys.modules[__name__]  # the jitted functions the compiled engine calls


def kernel_for(game) -> Kernel | None:
    """This game's kernel for a loaded pyspiel ``game`` (every parameter is covered;
    ``infosets.games.kernels.kernel_for``)."""
    return kernel_record("love_letter", RULES, game)
