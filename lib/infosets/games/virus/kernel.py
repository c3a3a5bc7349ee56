"""Virus!'s rules, once: the numba kernel that both engines and the pyspiel adapter run.

Ravichandran, Goodman and Lucas, "Evaluation of Perfect-Information Monte Carlo Tree Search
in Imperfect-Information Games" (docs/papers/pimcts_aggregation.md) ran Virus! with 3
players; the rules and modelling choices are stated in ``infosets.games.virus.game``. This
module is the only place they are written: drawing (chance outcomes: the card types of the
deck, in type order, probability count / total), legal plays and discards, their effects,
the reshuffle, the end (four healthy organs, or a draw after 100 rounds), returns (win
shares; a draw gives 1/n each), the cut-off heuristic and the compiled engine's
determinizer, on a flat int64 array (the kernel contract is in ``infosets.games.kernels``).
The pyspiel adapter (``game.VirusKernel``, an ``infosets.games.array_kernel.ArrayKernel``)
calls these functions and reads the array's fields for its strings and tensors.

State array (``n`` players, 2..6), header then fixed blocks:
  [0] n, [1] player to move, [2] turn, [3] game over, [4] log entries, [5] running hash of
  the log, [6] log capacity, [7] epoch (reshuffles so far); ``POOL`` 20 deck counts;
  ``DISCARD`` 20 discard-pile counts; ``TO_DRAW`` 6 cards owed; ``NEEDS_HAND`` 6 (hit by a
  Latex Glove); ``HAND_LEN`` 6; ``HANDS`` 6 x 3 cards sorted by card, then epoch;
  ``HAND_EPOCH`` 6 x 3 the epoch of each hand card's draw (aligned with ``HANDS``; a card
  leaving a hand is, of its type, the one of the earliest epoch: bookkeeping for the
  determinization, in no view or key); ``ORGAN_LEN`` 6 x 5 cards on each organ (-1: no organ);
  ``ORGAN_CARDS`` 6 x 5 x 2 the attached cards in order; ``LOG`` the public log, one entry
  each: ``mover * LOG_MOVER + payload``, the payload an action id, or for a discard
  ``NUM_ACTIONS + code`` of the dropped cards (base 21, each card type + 1).

Determinization (``nb_determinize``, the law of ``VirusKernel.deal_hidden``): a card drawn
before a reshuffle came from that pile, so for each epoch in turn the other players' hand
cards of that epoch (the last epoch's: with the deck) are dealt back to those slots (hands
in player order, each in hand order) one by one, uniformly without replacement, each draw
``int(rng_random * total)`` over the type counts (``_tabletop.draw_index`` on a ``PCG32``):
the same worlds and the same generator use as the adapter's sampler.
"""

from __future__ import annotations

import sys

import numba as nb
import numpy as np

from infosets.core.pcg32 import rng_random
from infosets.games.array_kernel import kernel_record
from infosets.games.kernels import Kernel

CHANCE = -1
TERMINAL = -4
RED, GREEN, BLUE, YELLOW, WILD = range(5)
ORGAN, VIRUS, MEDICINE = 0, 5, 10  # card type = base + colour
THIEF, CONTAGION, TRANSPLANT, GLOVE, ERROR = range(15, 20)
NUM_TYPES = NT = 20
# The 68 cards, by type: organs x5 per colour and a wild organ, viruses x4 per colour and a
# wild virus, medicines x4 per colour and 4 wild ones, then the treatments.
DECK_COUNTS = (5, 5, 5, 5, 1, 4, 4, 4, 4, 1, 4, 4, 4, 4, 4, 3, 2, 3, 1, 1)
HAND = 3
MAX_PLAYERS = MP = 6
MAX_ROUNDS = 100
ORGANS_TO_WIN = 4
NUM_SLOTS = NS = 5

# Action layout.
A_ORGAN = 0  # + colour
A_VIRUS = A_ORGAN + NUM_SLOTS  # + (colour * MAXP + target) * 5 + slot
A_MEDICINE = A_VIRUS + NUM_SLOTS * MAX_PLAYERS * NUM_SLOTS  # + colour * 5 + slot
A_THIEF = A_MEDICINE + NUM_SLOTS * NUM_SLOTS  # + target * 5 + slot
A_TRANSPLANT = A_THIEF + MAX_PLAYERS * NUM_SLOTS  # + (mine * MAXP + target) * 5 + theirs
A_CONTAGION = A_TRANSPLANT + NUM_SLOTS * MAX_PLAYERS * NUM_SLOTS
A_GLOVE = A_CONTAGION + NUM_SLOTS * MAX_PLAYERS * NUM_SLOTS
A_ERROR = A_GLOVE + 1  # + target
A_DISCARD = A_ERROR + MAX_PLAYERS  # + subset mask - 1 (1..7)
A_NEW_HAND = A_DISCARD + 7
NUM_ACTIONS = A_NEW_HAND + 1

DECK = np.array(DECK_COUNTS, dtype=np.int64)
LOG_MOVER = 1 << 14  # > NUM_ACTIONS + 21**3
LEAD_SCALE = 1.0  # the heuristic's lead scale, in healthy organs

N, CUR, TURN, DONE, LOG_LEN, LOG_HASH, LOG_CAP, EPOCH = range(8)
POOL = 8
DISCARD = POOL + NT
TO_DRAW = DISCARD + NT
NEEDS_HAND = TO_DRAW + MP
HAND_LEN = NEEDS_HAND + MP
HANDS = HAND_LEN + MP
HAND_EPOCH = HANDS + HAND * MP
ORGAN_LEN = HAND_EPOCH + HAND * MP
ORGAN_CARDS = ORGAN_LEN + NS * MP
LOG = ORGAN_CARDS + 2 * NS * MP


def new_state(n: int) -> np.ndarray:
    """The initial state array (chance deals player 0's first card)."""
    if not 2 <= n <= MP:
        raise ValueError(f"players: must be in [2, {MP}], got {n}")
    cap = MAX_ROUNDS * n + 1
    s = np.zeros(LOG + cap, dtype=np.int64)
    s[N], s[LOG_CAP] = n, cap
    s[POOL : POOL + NT] = DECK
    s[TO_DRAW : TO_DRAW + n] = HAND
    s[ORGAN_LEN : ORGAN_LEN + NS * MP] = -1
    return s


@nb.njit(cache=True)
def _mix(h, v):
    """One step of the running hash (multiply-xorshift; int64 arithmetic wraps)."""
    h = (h ^ (v + 0x9E3779B9)) * 0x5851F42D4C957F2D
    return h ^ (h >> 29)


@nb.njit(cache=True)
def _drawer(s):
    for p in range(s[N]):
        if s[TO_DRAW + p] > 0:
            return p
    return -1


@nb.njit(cache=True)
def nb_current_player(s):
    if s[DONE]:
        return TERMINAL
    if _drawer(s) >= 0:
        return CHANCE
    return s[CUR]


@nb.njit(cache=True)
def nb_chance_outcomes(s, actions, probs):
    """Draw one card of the deck: each type with probability count / total."""
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
def _olen(s, p, slot):
    return s[ORGAN_LEN + p * NS + slot]


@nb.njit(cache=True)
def _ocard(s, p, slot, i):
    return s[ORGAN_CARDS + (p * NS + slot) * 2 + i]


@nb.njit(cache=True)
def _viruses(s, p, slot):
    k = 0
    for i in range(max(_olen(s, p, slot), 0)):
        c = _ocard(s, p, slot, i)
        if VIRUS <= c < MEDICINE:
            k += 1
    return k


@nb.njit(cache=True)
def _immunised(s, p, slot):
    if _olen(s, p, slot) != 2:
        return False
    a, b = _ocard(s, p, slot, 0), _ocard(s, p, slot, 1)
    return MEDICINE <= a < THIEF and MEDICINE <= b < THIEF


@nb.njit(cache=True)
def _fits(colour, slot):
    return colour == WILD or slot == WILD or colour == slot


@nb.njit(cache=True)
def _triple(base, a, t, b):
    return base + (a * MP + t) * NS + b


@nb.njit(cache=True)
def _legal_cards(s, p, has, buf, n):
    """Append the organ, virus, medicine and thief plays of ``p`` (hand types ``has``)."""
    np_ = s[N]
    for t in range(VIRUS):  # organs
        if has >> t & 1 and _olen(s, p, t) < 0:
            buf[n] = A_ORGAN + t
            n += 1
    for colour in range(NS):  # viruses
        if has >> (VIRUS + colour) & 1:
            for q in range(np_):
                if q == p:
                    continue
                for slot in range(NS):
                    if _olen(s, q, slot) >= 0 and _fits(colour, slot) and not _immunised(s, q, slot):
                        buf[n] = A_VIRUS + (colour * MP + q) * NS + slot
                        n += 1
    for colour in range(NS):  # medicines
        if has >> (MEDICINE + colour) & 1:
            for slot in range(NS):
                if _olen(s, p, slot) >= 0 and _fits(colour, slot) and not _immunised(s, p, slot):
                    buf[n] = A_MEDICINE + colour * NS + slot
                    n += 1
    if has >> THIEF & 1:
        for q in range(np_):
            if q == p:
                continue
            for slot in range(NS):
                if _olen(s, q, slot) >= 0 and _olen(s, p, slot) < 0 and not _immunised(s, q, slot):
                    buf[n] = A_THIEF + q * NS + slot
                    n += 1
    return n


@nb.njit(cache=True)
def _legal_treatments(s, p, has, buf, n):
    """Append the transplant, contagion, latex glove and medical error plays of ``p``."""
    np_ = s[N]
    if has >> TRANSPLANT & 1:
        for a in range(NS):
            if _olen(s, p, a) < 0 or _immunised(s, p, a):
                continue
            for q in range(np_):
                if q == p:
                    continue
                for b in range(NS):
                    if _olen(s, q, b) < 0 or _immunised(s, q, b):
                        continue
                    if a == b or (_olen(s, p, b) < 0 and _olen(s, q, a) < 0):
                        buf[n] = _triple(A_TRANSPLANT, a, q, b)
                        n += 1
    if has >> CONTAGION & 1:
        for a in range(NS):
            if _olen(s, p, a) < 0 or _viruses(s, p, a) == 0:
                continue
            colour = -1
            for i in range(_olen(s, p, a)):
                c = _ocard(s, p, a, i)
                if colour < 0 and VIRUS <= c < MEDICINE:
                    colour = c - VIRUS
            for q in range(np_):
                if q == p:
                    continue
                for b in range(NS):
                    if _olen(s, q, b) == 0 and _fits(colour, b):
                        buf[n] = _triple(A_CONTAGION, a, q, b)
                        n += 1
    if has >> GLOVE & 1:
        buf[n] = A_GLOVE
        n += 1
    if has >> ERROR & 1:
        for q in range(np_):
            if q != p:
                buf[n] = A_ERROR + q
                n += 1
    return n


@nb.njit(cache=True)
def _legal_discards(s, p, buf, n):
    """Append the discards: one per distinct sub-multiset of the sorted hand, first mask wins."""
    hl = s[HAND_LEN + p]
    h = HANDS + HAND * p
    for mask in range(1, 1 << hl):
        duplicate = False
        for other in range(1, mask):
            same = True
            i, j = 0, 0
            while same:
                while i < hl and not mask >> i & 1:
                    i += 1
                while j < hl and not other >> j & 1:
                    j += 1
                if i == hl or j == hl:
                    same = i == hl and j == hl
                    break
                if s[h + i] != s[h + j]:
                    same = False
                i += 1
                j += 1
            if same:
                duplicate = True
                break
        if not duplicate:
            buf[n] = A_DISCARD + mask - 1
            n += 1
    return n


@nb.njit(cache=True)
def nb_legal_actions(s, buf):
    """Legal actions in ascending order (card types of the deck at chance nodes)."""
    if s[DONE]:
        return 0
    if _drawer(s) >= 0:
        n = 0
        for t in range(NT):
            if s[POOL + t] > 0:
                buf[n] = t
                n += 1
        return n
    p = s[CUR]
    if s[NEEDS_HAND + p]:
        buf[0] = A_NEW_HAND
        return 1
    hl = s[HAND_LEN + p]
    has = 0
    for i in range(hl):
        has |= 1 << s[HANDS + HAND * p + i]
    n = _legal_cards(s, p, has, buf, 0)
    n = _legal_treatments(s, p, has, buf, n)
    return _legal_discards(s, p, buf, n)


@nb.njit(cache=True)
def _settle(s):
    """Reshuffle the discard pile into an empty deck; with no card anywhere, stop drawing."""
    if s[DONE] or _drawer(s) < 0:
        return
    total = 0
    for t in range(NT):
        total += s[POOL + t]
    if total:
        return
    for t in range(NT):
        s[POOL + t] = s[DISCARD + t]
        s[DISCARD + t] = 0
        total += s[POOL + t]
    if total:
        s[EPOCH] += 1
    else:
        for p in range(s[N]):
            s[TO_DRAW + p] = 0


@nb.njit(cache=True)
def _take(s, p, card):
    """Remove one ``card`` from ``p``'s sorted hand: of its type, the one of the earliest
    epoch (the first)."""
    h = HANDS + HAND * p
    he = HAND_EPOCH + HAND * p
    hl = s[HAND_LEN + p]
    i = 0
    while s[h + i] != card:
        i += 1
    for j in range(i, hl - 1):
        s[h + j] = s[h + j + 1]
        s[he + j] = s[he + j + 1]
    s[HAND_LEN + p] = hl - 1


@nb.njit(cache=True)
def _set_organ(s, p, slot, length, c0, c1):
    s[ORGAN_LEN + p * NS + slot] = length
    s[ORGAN_CARDS + (p * NS + slot) * 2] = c0
    s[ORGAN_CARDS + (p * NS + slot) * 2 + 1] = c1


@nb.njit(cache=True)
def _move_organ(s, p, a, q, b):
    """Organ of (q, b) := organ of (p, a)."""
    _set_organ(s, q, b, _olen(s, p, a), _ocard(s, p, a, 0), _ocard(s, p, a, 1))


@nb.njit(cache=True)
def _play(s, p, action):
    if action < A_VIRUS:
        _take(s, p, action)
        _set_organ(s, p, action, 0, 0, 0)
    elif action < A_MEDICINE:
        rest, slot = divmod(action - A_VIRUS, NS)
        colour, q = divmod(rest, MP)
        card = VIRUS + colour
        _take(s, p, card)
        length = _olen(s, q, slot)
        if length > 0 and _viruses(s, q, slot) == 0:  # vaccinated: both cards go
            s[DISCARD + _ocard(s, q, slot, 0)] += 1
            s[DISCARD + card] += 1
            _set_organ(s, q, slot, 0, 0, 0)
        elif length > 0:  # infected: the organ is destroyed
            for i in range(length):
                s[DISCARD + _ocard(s, q, slot, i)] += 1
            s[DISCARD + card] += 1
            s[DISCARD + slot] += 1
            _set_organ(s, q, slot, -1, 0, 0)
        else:
            _set_organ(s, q, slot, 1, card, 0)
    elif action < A_THIEF:
        colour, slot = divmod(action - A_MEDICINE, NS)
        card = MEDICINE + colour
        _take(s, p, card)
        length = _olen(s, p, slot)
        if length > 0 and _viruses(s, p, slot) > 0:  # cure
            s[DISCARD + _ocard(s, p, slot, 0)] += 1
            s[DISCARD + card] += 1
            _set_organ(s, p, slot, 0, 0, 0)
        else:
            s[ORGAN_CARDS + (p * NS + slot) * 2 + length] = card
            s[ORGAN_LEN + p * NS + slot] = length + 1
    elif action < A_TRANSPLANT:
        q, slot = divmod(action - A_THIEF, NS)
        _take(s, p, THIEF)
        s[DISCARD + THIEF] += 1
        _move_organ(s, q, slot, p, slot)
        _set_organ(s, q, slot, -1, 0, 0)
    elif action < A_CONTAGION:
        rest, b = divmod(action - A_TRANSPLANT, NS)
        a, q = divmod(rest, MP)
        _take(s, p, TRANSPLANT)
        s[DISCARD + TRANSPLANT] += 1
        la, a0, a1 = _olen(s, p, a), _ocard(s, p, a, 0), _ocard(s, p, a, 1)
        lb, b0, b1 = _olen(s, q, b), _ocard(s, q, b, 0), _ocard(s, q, b, 1)
        _set_organ(s, p, a, -1, 0, 0)
        _set_organ(s, q, b, -1, 0, 0)
        _set_organ(s, p, b, lb, b0, b1)
        _set_organ(s, q, a, la, a0, a1)
    elif action < A_GLOVE:
        rest, b = divmod(action - A_CONTAGION, NS)
        a, q = divmod(rest, MP)
        _take(s, p, CONTAGION)
        s[DISCARD + CONTAGION] += 1
        virus = -1
        for i in range(_olen(s, p, a)):
            c = _ocard(s, p, a, i)
            if virus < 0 and VIRUS <= c < MEDICINE:
                virus = c
        _set_organ(s, p, a, 0, 0, 0)
        _set_organ(s, q, b, 1, virus, 0)
    elif action == A_GLOVE:
        _take(s, p, GLOVE)
        s[DISCARD + GLOVE] += 1
        for q in range(s[N]):
            if q != p:
                for i in range(s[HAND_LEN + q]):
                    s[DISCARD + s[HANDS + HAND * q + i]] += 1
                s[HAND_LEN + q] = 0
                s[NEEDS_HAND + q] = 1
    else:
        q = action - A_ERROR
        _take(s, p, ERROR)
        s[DISCARD + ERROR] += 1
        for slot in range(NS):
            lp, p0, p1 = _olen(s, p, slot), _ocard(s, p, slot, 0), _ocard(s, p, slot, 1)
            _move_organ(s, q, slot, p, slot)
            _set_organ(s, q, slot, lp, p0, p1)


@nb.njit(cache=True)
def _healthy(s, p):
    k = 0
    for slot in range(NS):
        if _olen(s, p, slot) >= 0 and _viruses(s, p, slot) == 0:
            k += 1
    return k


@nb.njit(cache=True)
def _log(s, entry):
    s[LOG + s[LOG_LEN]] = entry
    s[LOG_LEN] += 1
    s[LOG_HASH] = _mix(s[LOG_HASH], entry)


@nb.njit(cache=True)
def nb_apply_action(s, action):
    drawer = _drawer(s)
    if drawer >= 0:
        s[POOL + action] -= 1
        h = HANDS + HAND * drawer
        he = HAND_EPOCH + HAND * drawer
        i = s[HAND_LEN + drawer]
        while i > 0 and s[h + i - 1] > action:  # insert after its type: the latest epoch
            s[h + i] = s[h + i - 1]
            s[he + i] = s[he + i - 1]
            i -= 1
        s[h + i] = action
        s[he + i] = s[EPOCH]
        s[HAND_LEN + drawer] += 1
        s[TO_DRAW + drawer] -= 1
        _settle(s)
        return
    p = s[CUR]
    if action == A_NEW_HAND:
        s[NEEDS_HAND + p] = 0
        _log(s, p * LOG_MOVER + action)
        s[TO_DRAW + p] = HAND
    elif action >= A_DISCARD:
        h = HANDS + HAND * p
        hl = s[HAND_LEN + p]
        mask = action - A_DISCARD + 1
        code = 0
        dropped = 0
        for i in range(hl):
            c = s[h + i]
            if mask >> i & 1:
                s[DISCARD + c] += 1
                code = code * 21 + c + 1
                dropped += 1
        rest = code
        while rest:  # the dropped cards leave by type (the earliest epoch first)
            _take(s, p, rest % 21 - 1)
            rest //= 21
        _log(s, p * LOG_MOVER + NUM_ACTIONS + code)
        s[TO_DRAW + p] = dropped
    else:
        _play(s, p, action)
        _log(s, p * LOG_MOVER + action)
        s[TO_DRAW + p] = HAND - s[HAND_LEN + p]
    for q in range(s[N]):
        if _healthy(s, q) >= ORGANS_TO_WIN:
            s[DONE] = 1
    if not s[DONE]:
        s[TURN] += 1
        s[CUR] = (p + 1) % s[N]
        if s[TURN] >= MAX_ROUNDS * s[N]:
            s[DONE] = 1
    _settle(s)


@nb.njit(cache=True)
def nb_returns(s, out):
    """Win shares of the players with four healthy organs (1/n each after a draw); zeros
    before the end."""
    n = s[N]
    for p in range(n):
        out[p] = 0.0
    if not s[DONE]:
        return
    k = 0
    for p in range(n):
        if _healthy(s, p) >= ORGANS_TO_WIN:
            k += 1
    for p in range(n):
        if k == 0:
            out[p] = 1.0 / n
        elif _healthy(s, p) >= ORGANS_TO_WIN:
            out[p] = 1.0 / k


@nb.njit(cache=True)
def nb_heuristic(s, out):
    """TAG's ``LeaderHeuristic`` (its Virus.json setting) on the returns' [0, 1] scale, with
    the number of healthy organs (vaccinated and immunised count) as the game score: the lead
    ``d = own - best other`` maps to ``0.5 + 0.5 * d / (|d| + LEAD_SCALE)``. The returns at
    the end."""
    n = s[N]
    if s[DONE]:
        nb_returns(s, out)
        return
    for p in range(n):
        best = -1
        for q in range(n):
            if q != p:
                best = max(best, _healthy(s, q))
        d = float(_healthy(s, p) - best)
        out[p] = 0.5 + 0.5 * d / (abs(d) + LEAD_SCALE)


@nb.njit(cache=True)
def nb_infostate_key(s, player):
    """A 64-bit hash of exactly what ``player``'s information state string shows: mover,
    turn, deck size, own hand, every hand's size and Latex Glove mark, every body, the
    discard pile and the public log (by its running hash). Equal strings give equal keys;
    distinct strings collide with probability ~2**-64 per pair."""
    n = s[N]
    h = _mix(player, n)
    h = _mix(h, nb_current_player(s))
    h = _mix(h, s[TURN])
    deck = 0
    for t in range(NT):
        deck += s[POOL + t]
    h = _mix(h, deck)
    h = _mix(h, -1 - s[HAND_LEN + player])
    for i in range(s[HAND_LEN + player]):
        h = _mix(h, s[HANDS + HAND * player + i])
    for q in range(n):
        h = _mix(h, s[HAND_LEN + q] * 2 + s[NEEDS_HAND + q])
        for slot in range(NS):
            length = _olen(s, q, slot)
            h = _mix(h, length)
            for i in range(max(length, 0)):
                h = _mix(h, _ocard(s, q, slot, i))
    for t in range(NT):
        h = _mix(h, s[DISCARD + t])
    h = _mix(h, s[LOG_LEN])
    return _mix(h, s[LOG_HASH])


@nb.njit(cache=True)
def _sort_hand(s, q):
    """Insertion sort of ``q``'s hand by (card, epoch), epochs moving with their cards."""
    h = HANDS + HAND * q
    he = HAND_EPOCH + HAND * q
    for i in range(1, s[HAND_LEN + q]):
        c, e = s[h + i], s[he + i]
        j = i
        while j > 0 and (s[h + j - 1] > c or (s[h + j - 1] == c and s[he + j - 1] > e)):
            s[h + j], s[he + j] = s[h + j - 1], s[he + j - 1]
            j -= 1
        s[h + j], s[he + j] = c, e


@nb.njit(cache=True)
def nb_determinize(s, player, rng):
    """A world for ``player`` in place, as ``VirusKernel.resample`` (``deal_hidden``): for
    each epoch in turn, the other players' hand cards of that epoch (the last epoch's: with
    the deck) are dealt back to those slots one by one, uniformly without replacement (the
    adapter's draws, the same generator use); the hands are then re-sorted."""
    n = s[N]
    last = s[EPOCH]
    left = np.zeros(NT, np.int64)
    for e in range(last + 1):
        total = 0
        for t in range(NT):
            left[t] = s[POOL + t] if e == last else 0
            total += left[t]
        for q in range(n):
            if q != player:
                for i in range(s[HAND_LEN + q]):
                    if s[HAND_EPOCH + HAND * q + i] == e:
                        left[s[HANDS + HAND * q + i]] += 1
                        total += 1
        for q in range(n):
            if q == player:
                continue
            for i in range(s[HAND_LEN + q]):
                if s[HAND_EPOCH + HAND * q + i] != e:
                    continue
                r = np.int64(rng_random(rng) * total)
                if r >= total:
                    r = total - 1
                t = 0
                while r >= left[t]:
                    r -= left[t]
                    t += 1
                left[t] -= 1
                total -= 1
                s[HANDS + HAND * q + i] = t
        if e == last:
            for t in range(NT):
                s[POOL + t] = left[t]
    for q in range(n):
        if q != player:
            _sort_hand(s, q)


# -- the engine's view of this game (infosets.games.kernels) --------------------------------
RULES = sys.modules[__name__]  # the jitted functions the compiled engine calls


def kernel_for(game) -> Kernel | None:
    """This game's kernel for a loaded pyspiel ``game`` (every player count is covered;
    ``infosets.games.kernels.kernel_for``)."""
    return kernel_record("virus", RULES, game)
