"""Monopoly Deal's rules (as our port models them) on a flat int64 array, written once.

Serves the compiled PI-MCTS / IS-MCTS engine (``infosets.search.compiled``) of Ravichandran,
Goodman and Lucas, "Evaluation of Perfect-Information Monte Carlo Tree Search in
Imperfect-Information Games" (docs/papers/pimcts_aggregation.md), who evaluate Monopoly Deal
with 3 players, and the pyspiel adapter (``game.py``'s ``MonopolyDealKernel``, an
``array_kernel.ArrayKernel`` running these ``nb_*`` functions; the modelled rules are in its
module docstring). Action ids, chance outcomes (ascending), returns and the heuristic are the
adapter's because they are these; tests/games/monopoly_deal/test_monopoly_deal_oracle.py
checks them step by step against the frozen former Python rules.

Bounded state. ``max_game_length`` (about 46,000 actions at 3 players) is far too loose to
hold a history in every array the engine copies, so the array keeps no history: one
fixed-size array (``SIZE`` = 1,337 int64s, 2-5 players) holds the header (turn, phase,
pending action card, targets, the draw queue, the history length, a running hash of the
public log), the deck and the discards, and per player the hand, the cards used (played,
banked or discarded), bank, properties, buildings and the live hand in draw order (card and
the history index that drew it). The largest hand is 12 (7 at the end of a turn, 2 drawn, +1
per Pass Go), below ``LIVECAP`` = 16. The adapter keeps the history and the public log beside
the array (``game.py``).

``nb_infostate_key`` is a 64-bit hash of everything the information state string shows: the
public log is hashed as it grows (``PUBHASH``), the rest (the player's view, their draws and
live hand in draw order) when the key is asked. Equal strings give equal keys; distinct
strings collide with probability about 2**-64.

``nb_determinize`` is the adapter's ``world_history``: the opponents' hand cards and the draw
pile are pooled and the opponents' live hand slots refilled by drawing without replacement
(the same law as the adapter's uniform shuffle into those slots); the rest is the new pile.
The adapter replays the rewritten history; here the fields that replay changes (the
opponents' hands and live slots, the pile) are rewritten in place. One difference: replay
removes a played card from the earliest live slot of its type, so where an opponent holds a
refilled card of the type of one they played, replay may count a different slot as still
live; the hands, the pile and everything the player sees are the same
(tests/games/monopoly_deal/test_monopoly_deal_kernel.py), only the order of that opponent's
own live list (part of their information state, not the player's) can differ.

``nb_turn`` is TAG's turn counter (the turns ended, the header's turn slot), the optional
counter of the kernel contract that TAG's END_TURN rollouts read.

``nb_heuristic`` is TAG's LeaderHeuristic on complete sets plus assets / 100, scaled by 3 sets
into [0, 1]; the returns at the end.
"""

from __future__ import annotations

import sys

import numba as nb
import numpy as np

from infosets.core.pcg32 import rng_bounded
from infosets.games.kernels import Kernel

# Card types.
(
    M10,
    M5,
    M4,
    M3,
    M2,
    M1,
    PASS_GO,
    DOUBLE_RENT,
    BIRTHDAY,
    DEBT,
    SLY,
    FORCED,
    BREAKER,
    JSN,
    RENT_ANY,
    RENT_GB,
    RENT_BLB,
    RENT_PO,
    RENT_RU,
    RENT_RY,
    HOUSE,
    HOTEL,
) = range(22)
FIRST_PROPERTY = 22
BROWN, BLUE, GREEN, LBLUE, ORANGE, PINK, RAIL, RED, UTIL, YELLOW = range(10)
NUM_COLOURS = 10
FIRST_WILD = 32
W_MULTI, W_GB, W_BLB, W_PO, W_RG, W_RLB, W_RU, W_RY = range(32, 40)
NUM_TYPES = 40
NUM_KINDS = 9  # in a colour: plain, then the 8 wild types
DECK_COUNTS = (
    (1, 2, 3, 3, 5, 6)
    + (10, 2, 3, 3, 3, 3, 2, 3, 3, 2, 2, 2, 2, 2, 3, 2)
    + (2, 2, 3, 3, 3, 3, 4, 3, 2, 3)
    + (2, 1, 1, 2, 1, 1, 1, 2)
)
VALUES = (
    (10, 5, 4, 3, 2, 1)
    + (1, 1, 2, 5, 3, 3, 5, 4, 1, 1, 1, 1, 1, 1, 3, 4)
    + (1, 4, 4, 1, 2, 2, 2, 3, 2, 3)
    + (0, 4, 1, 2, 4, 4, 2, 3)
)
WILD_COLOURS = {
    W_MULTI: tuple(range(NUM_COLOURS)),
    W_GB: (GREEN, BLUE),
    W_BLB: (BROWN, LBLUE),
    W_PO: (PINK, ORANGE),
    W_RG: (RAIL, GREEN),
    W_RLB: (RAIL, LBLUE),
    W_RU: (RAIL, UTIL),
    W_RY: (RED, YELLOW),
}
RENT_COLOURS = {
    RENT_GB: (GREEN, BLUE),
    RENT_BLB: (BROWN, LBLUE),
    RENT_PO: (PINK, ORANGE),
    RENT_RU: (RAIL, UTIL),
    RENT_RY: (RED, YELLOW),
}
PAIR_RENT = {c: card for card, cs in RENT_COLOURS.items() for c in cs}
SET_SIZE = (2, 2, 3, 3, 3, 3, 4, 3, 2, 3)
RENTS = (
    (1, 2),
    (3, 8),
    (2, 4, 7),
    (1, 2, 3),
    (1, 3, 5),
    (1, 2, 4),
    (1, 2, 3, 4),
    (2, 3, 6),
    (1, 2),
    (2, 4, 6),
)
NO_BUILDINGS = (RAIL, UTIL)
HAND_START, DRAW_PER_TURN, DRAW_EMPTY, PLAYS_PER_TURN, HAND_LIMIT, SETS_TO_WIN = 5, 2, 5, 3, 7, 3
BIRTHDAY_AMOUNT, DEBT_AMOUNT = 2, 5
MAX_PLAYERS = 5
SCORE_SCALE = float(SETS_TO_WIN)  # the heuristic's scale: 3 sets


def kind_type(colour: int, kind: int) -> int:
    """The card type of a property kind (0: the colour's plain property, 1-8: wilds)."""
    return FIRST_PROPERTY + colour if kind == 0 else FIRST_WILD + kind - 1


# Actions.
A_PLACE = 40  # 40 + colour: lay that colour's plain property
A_WILD = 50  # 50 + (wild - 32) * 10 + colour
A_PASS_GO = 130
A_RENT = 131  # 131 + colour, with the matching two-colour rent card
A_RENT_ANY = 141  # 141 + target * 10 + colour
A_BIRTHDAY = 191
A_DEBT = 192  # 192 + target
A_SLY = 197  # 197 + (target * 10 + colour) * 9 + kind
A_FORCED = 647  # 647 + (target * 10 + take colour) * 10 + give colour
A_BREAKER = 1147  # 1147 + target * 10 + colour
A_HOUSE, A_HOTEL = 1197, 1207  # + colour
A_END_TURN = 1217
A_JSN, A_ACCEPT = 1218, 1219
A_PAY_BANK = 1220  # + card type (< 22)
A_PAY_PROP = 1242  # + colour * 9 + kind
A_DISCARD = 1332  # + card type
NUM_ACTIONS = 1372

PLAY, RESPOND, PAY, DISCARD = range(4)
PHASE_CHANCE = 4
P_RENT, P_BIRTHDAY, P_DEBT, P_SLY, P_FORCED, P_BREAKER = range(6)

CHANCE = -1
TERMINAL = -4
MAXP = MAX_PLAYERS
NT = NUM_TYPES
NC = NUM_COLOURS
NK = NUM_KINDS
NP = NC * NK
NB = FIRST_PROPERTY  # bankable types
LIVECAP = 16

# header slots
N, CUR, PHASE, PLAYS, TURNS, MAXT, DONE, WINNER = 0, 1, 2, 3, 4, 5, 6, 7
PKIND, PACT, PA2, PA3, RESP, JSNC, PAYER, DEBT_LEFT, DRAWER = 8, 9, 10, 11, 12, 13, 14, 15, 16
NTD, TD = 17, 18  # draw queue: length, then up to MAXP + 1 counts
NTG, TG = 24, 25  # targets: length, then up to MAXP - 1 players
HLEN, PUBHASH, DECKN = 29, 30, 31
DECK, DISC = 32, 72
PL = 112
# per player block
O_HAND, O_USED, O_BANK, O_PROPS, O_HOUSES, O_HOTELS = 0, 40, 80, 102, 192, 202
O_NLIVE, O_LIVE, O_LIDX = 212, 213, 229
PS = 245
SIZE = PL + MAXP * PS

# log entry kinds (tokens of the public hash)
L_PLAY, L_RESPOND, L_PAY, L_DISCARD, L_WIN, L_CAP = 1, 2, 3, 4, 5, 6
HASH_SEED = 0x5EED

_VALUES = np.array(VALUES, dtype=np.int64)
_SET_SIZE = np.array(SET_SIZE, dtype=np.int64)
_RENTS = np.zeros((NC, 4), dtype=np.int64)
for _c, _r in enumerate(RENTS):
    _RENTS[_c, : len(_r)] = _r
_PAIR_RENT = np.array([PAIR_RENT[c] for c in range(NC)], dtype=np.int64)
_WILD_N = np.zeros(8, dtype=np.int64)
_WILD_C = np.zeros((8, NC), dtype=np.int64)
for _w, _cs in WILD_COLOURS.items():
    _WILD_N[_w - FIRST_WILD] = len(_cs)
    _WILD_C[_w - FIRST_WILD, : len(_cs)] = _cs
_KIND_VALUE = np.array([VALUES[kind_type(c, k)] for c in range(NC) for k in range(NK)], dtype=np.int64)
_DECK_COUNTS = np.array(DECK_COUNTS, dtype=np.int64)

_M1 = 0x9E3779B97F4A7C15 - (1 << 64)  # as int64
_M2 = 0xBF58476D1CE4E5B9 - (1 << 64)


@nb.njit(cache=True)
def _mix(h, token):
    h = (h ^ token) * _M1
    h ^= (h >> 31) & 0x1FFFFFFFF
    return h


@nb.njit(cache=True)
def _token(kind, who, a):
    return (kind << 40) | (who << 32) | a


@nb.njit(cache=True)
def _log(s, kind, who, a):
    s[PUBHASH] = _mix(s[PUBHASH], _token(kind, who, a))


def new_state(players: int, max_turns: int) -> np.ndarray:
    """The initial state array (the deal comes next)."""
    if not 2 <= players <= MAXP:
        raise ValueError(f"players: must be in [2, {MAXP}] for the kernel, got {players}")
    s = np.zeros(SIZE, dtype=np.int64)
    s[N], s[MAXT], s[PLAYS], s[WINNER] = players, max_turns, PLAYS_PER_TURN, -1
    s[PKIND] = s[PACT] = s[PA2] = s[PA3] = s[RESP] = s[PAYER] = -1
    s[PUBHASH] = HASH_SEED
    s[DECK : DECK + NT] = _DECK_COUNTS
    s[DECKN] = int(_DECK_COUNTS.sum())
    s[NTD] = players + 1
    s[TD : TD + players] = HAND_START
    s[TD + players] = DRAW_PER_TURN
    return s


# -- small reads -------------------------------------------------------------------------
@nb.njit(cache=True)
def _count(s, q, c):
    base = PL + PS * q + O_PROPS + c * NK
    total = 0
    for k in range(NK):
        total += s[base + k]
    return total


@nb.njit(cache=True)
def _complete(s, q, c):
    return _count(s, q, c) >= _SET_SIZE[c]


@nb.njit(cache=True)
def _complete_sets(s, q):
    m = 0
    for c in range(NC):
        if _complete(s, q, c):
            m += 1
    return m


@nb.njit(cache=True)
def _rent(s, q, c):
    k = min(_count(s, q, c), _SET_SIZE[c])
    if k == 0:
        return 0
    value = _RENTS[c, k - 1]
    if k == _SET_SIZE[c]:
        value += 3 * s[PL + PS * q + O_HOUSES + c] + 4 * s[PL + PS * q + O_HOTELS + c]
    return value


@nb.njit(cache=True)
def _hand_size(s, q):
    base = PL + PS * q + O_HAND
    total = 0
    for t in range(NT):
        total += s[base + t]
    return total


@nb.njit(cache=True)
def _assets(s, q):
    base = PL + PS * q
    total = 0
    for i in range(NP):
        total += _KIND_VALUE[i] * s[base + O_PROPS + i]
    for t in range(NB):
        total += _VALUES[t] * s[base + O_BANK + t]
    return total


@nb.njit(cache=True)
def _can_pay(s, q):
    base = PL + PS * q
    for t in range(NB):
        if s[base + O_BANK + t]:
            return True
    for i in range(NP):
        if s[base + O_PROPS + i] and _KIND_VALUE[i]:
            return True
    return False


@nb.njit(cache=True)
def nb_current_player(s):
    if s[DONE]:
        return TERMINAL
    if s[NTD] > 0:
        return CHANCE
    if s[PHASE] == RESPOND:
        return s[RESP]
    if s[PHASE] == PAY:
        return s[PAYER]
    return s[CUR]


@nb.njit(cache=True)
def nb_chance_outcomes(s, actions, probs):
    """One card of the deck: (type, count / deck size), ascending."""
    m = 0
    total = s[DECKN]
    for t in range(NT):
        c = s[DECK + t]
        if c:
            actions[m] = t
            probs[m] = c / total
            m += 1
    return m


# -- legal actions -----------------------------------------------------------------------
@nb.njit(cache=True)
def _sort_unique(buf, m):
    """Sort ``buf[:m]`` ascending (insertion sort, the lists are short) and drop repeats."""
    for i in range(1, m):
        x = buf[i]
        j = i - 1
        while j >= 0 and buf[j] > x:
            buf[j + 1] = buf[j]
            j -= 1
        buf[j + 1] = x
    k = 0
    for i in range(m):
        if k == 0 or buf[i] != buf[k - 1]:
            buf[k] = buf[i]
            k += 1
    return k


@nb.njit(cache=True)
def _steal_options(s, p, q, buf, m):
    """Sly Deal, Forced Deal and Deal Breaker actions of ``p`` against ``q``."""
    hp = PL + PS * p + O_HAND
    qprops = PL + PS * q + O_PROPS
    for c in range(NC):
        cnt = _count(s, q, c)
        if cnt == 0:
            continue
        if cnt >= _SET_SIZE[c]:
            if s[hp + BREAKER]:
                buf[m] = A_BREAKER + q * 10 + c
                m += 1
            continue
        if s[hp + SLY]:
            for k in range(NK):
                if s[qprops + c * NK + k]:
                    buf[m] = A_SLY + (q * 10 + c) * NK + k
                    m += 1
        if s[hp + FORCED]:
            for g in range(NC):
                mine = _count(s, p, g)
                if mine and mine < _SET_SIZE[g]:
                    buf[m] = A_FORCED + (q * 10 + c) * 10 + g
                    m += 1
    return m


@nb.njit(cache=True)
def _play_options(s, p, buf):
    n = s[N]
    hp = PL + PS * p + O_HAND
    m = 0
    for t in range(NB):
        if s[hp + t]:
            buf[m] = t
            m += 1
    for c in range(NC):
        if s[hp + FIRST_PROPERTY + c]:
            buf[m] = A_PLACE + c
            m += 1
    for w in range(8):
        if s[hp + FIRST_WILD + w]:
            for j in range(_WILD_N[w]):
                buf[m] = A_WILD + w * 10 + _WILD_C[w, j]
                m += 1
    if s[hp + PASS_GO]:
        buf[m] = A_PASS_GO
        m += 1
    for c in range(NC):
        if _count(s, p, c) == 0:
            continue
        if s[hp + _PAIR_RENT[c]]:
            buf[m] = A_RENT + c
            m += 1
        if s[hp + RENT_ANY]:
            for q in range(n):
                if q != p:
                    buf[m] = A_RENT_ANY + q * 10 + c
                    m += 1
        if c != RAIL and c != UTIL and _count(s, p, c) >= _SET_SIZE[c]:
            house = s[PL + PS * p + O_HOUSES + c]
            if s[hp + HOUSE] and not house:
                buf[m] = A_HOUSE + c
                m += 1
            if s[hp + HOTEL] and house and not s[PL + PS * p + O_HOTELS + c]:
                buf[m] = A_HOTEL + c
                m += 1
    if s[hp + BIRTHDAY]:
        buf[m] = A_BIRTHDAY
        m += 1
    for q in range(n):
        if q == p:
            continue
        if s[hp + DEBT]:
            buf[m] = A_DEBT + q
            m += 1
        m = _steal_options(s, p, q, buf, m)
    buf[m] = A_END_TURN
    m += 1
    return _sort_unique(buf, m)


@nb.njit(cache=True)
def _payment_options(s, q, buf):
    base = PL + PS * q
    m = 0
    for t in range(NB):
        if s[base + O_BANK + t]:
            buf[m] = A_PAY_BANK + t
            m += 1
    for i in range(NP):
        if s[base + O_PROPS + i] and _KIND_VALUE[i]:
            buf[m] = A_PAY_PROP + i
            m += 1
    return m


@nb.njit(cache=True)
def nb_legal_actions(s, buf):
    if s[DONE]:
        return 0
    if s[NTD] > 0:
        m = 0
        for t in range(NT):
            if s[DECK + t]:
                buf[m] = t
                m += 1
        return m
    phase = s[PHASE]
    if phase == RESPOND:
        m = 0
        if s[PL + PS * s[RESP] + O_HAND + JSN]:
            buf[0] = A_JSN
            m = 1
        buf[m] = A_ACCEPT
        return m + 1
    if phase == PAY:
        return _payment_options(s, s[PAYER], buf)
    if phase == DISCARD:
        hp = PL + PS * s[CUR] + O_HAND
        m = 0
        for t in range(NT):
            if s[hp + t]:
                buf[m] = A_DISCARD + t
                m += 1
        return m
    return _play_options(s, s[CUR], buf)


# -- applying ----------------------------------------------------------------------------
@nb.njit(cache=True)
def _push_draw(s, count):
    s[TD + s[NTD]] = count
    s[NTD] += 1


@nb.njit(cache=True)
def _pop_front(s, start, length_slot):
    m = s[length_slot]
    for i in range(m - 1):
        s[start + i] = s[start + i + 1]
    s[start + m - 1] = 0
    s[length_slot] = m - 1


@nb.njit(cache=True)
def _deal(s, card):
    n = s[N]
    count = s[TD]
    who = s[DRAWER] if s[NTD] == 1 else n - s[NTD] + 1
    s[DECK + card] -= 1
    s[DECKN] -= 1
    base = PL + PS * who
    s[base + O_HAND + card] += 1
    k = s[base + O_NLIVE]
    s[base + O_LIVE + k] = card
    s[base + O_LIDX + k] = s[HLEN] - 1
    s[base + O_NLIVE] = k + 1
    if count > 1 and s[DECKN] > 0:
        s[TD] = count - 1
    else:
        _pop_front(s, TD, NTD)


@nb.njit(cache=True)
def _take_from_hand(s, p, card):
    base = PL + PS * p
    s[base + O_HAND + card] -= 1
    s[base + O_USED + card] += 1
    k = s[base + O_NLIVE]
    for i in range(k):
        if s[base + O_LIVE + i] == card:
            for j in range(i, k - 1):
                s[base + O_LIVE + j] = s[base + O_LIVE + j + 1]
                s[base + O_LIDX + j] = s[base + O_LIDX + j + 1]
            s[base + O_LIVE + k - 1] = s[base + O_LIDX + k - 1] = 0
            s[base + O_NLIVE] = k - 1
            return


@nb.njit(cache=True)
def _use(s, p, card):
    _take_from_hand(s, p, card)
    s[DISC + card] += 1


@nb.njit(cache=True)
def nb_apply_action(s, a):
    s[HLEN] += 1
    if s[NTD] > 0:
        _deal(s, a)
        if s[NTD] == 0 and s[PHASE] == PLAY and s[PLAYS] == 0:
            _end_turn(s)  # a Pass Go played as the last card ends the turn
    elif s[PHASE] == PLAY:
        _play(s, a)
    elif s[PHASE] == RESPOND:
        _respond(s, a)
    elif s[PHASE] == PAY:
        _pay(s, a)
    else:
        _discard(s, a)


@nb.njit(cache=True)
def _start_pending(s, kind, actor, a2, a3, target):
    """Pending action card ``kind`` against ``target`` (-1: every other player in turn order)."""
    n = s[N]
    s[PKIND], s[PACT], s[PA2], s[PA3] = kind, actor, a2, a3
    if target >= 0:
        s[NTG] = 1
        s[TG] = target
    else:
        s[NTG] = n - 1
        for i in range(1, n):
            s[TG + i - 1] = (actor + i) % n
    _next_target(s)


@nb.njit(cache=True)
def _play(s, a):
    p = s[CUR]
    _log(s, L_PLAY, p, a)
    if a == A_END_TURN:
        _end_turn(s)
        return
    s[PLAYS] -= 1
    base = PL + PS * p
    if a < FIRST_PROPERTY:
        _take_from_hand(s, p, a)
        s[base + O_BANK + a] += 1
    elif a < A_WILD:
        c = a - A_PLACE
        _take_from_hand(s, p, FIRST_PROPERTY + c)
        s[base + O_PROPS + c * NK] += 1
    elif a < A_PASS_GO:
        w, c = divmod(a - A_WILD, 10)
        _take_from_hand(s, p, FIRST_WILD + w)
        s[base + O_PROPS + c * NK + 1 + w] += 1
    elif a == A_PASS_GO:
        _use(s, p, PASS_GO)
        if s[DECKN] > 0:
            s[DRAWER] = p
            _push_draw(s, min(DRAW_PER_TURN, s[DECKN]))
    elif a < A_RENT_ANY:
        c = a - A_RENT
        _use(s, p, _PAIR_RENT[c])
        _start_pending(s, P_RENT, p, _rent(s, p, c), -1, -1)
        return
    elif a < A_BIRTHDAY:
        q, c = divmod(a - A_RENT_ANY, 10)
        _use(s, p, RENT_ANY)
        _start_pending(s, P_RENT, p, _rent(s, p, c), -1, q)
        return
    elif a == A_BIRTHDAY:
        _use(s, p, BIRTHDAY)
        _start_pending(s, P_BIRTHDAY, p, BIRTHDAY_AMOUNT, -1, -1)
        return
    elif a < A_SLY:
        _use(s, p, DEBT)
        _start_pending(s, P_DEBT, p, DEBT_AMOUNT, -1, a - A_DEBT)
        return
    elif a < A_FORCED:
        rest, kind = divmod(a - A_SLY, NK)
        q, c = divmod(rest, 10)
        _use(s, p, SLY)
        _start_pending(s, P_SLY, p, c, kind, q)
        return
    elif a < A_BREAKER:
        rest, give = divmod(a - A_FORCED, 10)
        q, c = divmod(rest, 10)
        _use(s, p, FORCED)
        _start_pending(s, P_FORCED, p, c, give, q)
        return
    elif a < A_HOUSE:
        q, c = divmod(a - A_BREAKER, 10)
        _use(s, p, BREAKER)
        _start_pending(s, P_BREAKER, p, c, -1, q)
        return
    elif a < A_HOTEL:
        _take_from_hand(s, p, HOUSE)
        s[base + O_HOUSES + a - A_HOUSE] = 1
    else:
        _take_from_hand(s, p, HOTEL)
        s[base + O_HOTELS + a - A_HOTEL] = 1
    _after_play(s)


@nb.njit(cache=True)
def _next_target(s):
    if s[NTG] == 0:
        s[PKIND], s[PACT], s[PA2], s[PA3] = -1, -1, -1, -1
        s[PHASE] = PLAY
        _after_play(s)
        return
    s[PHASE] = RESPOND
    s[RESP] = s[TG]
    s[JSNC] = 0


@nb.njit(cache=True)
def _target_done(s):
    _pop_front(s, TG, NTG)
    _next_target(s)


@nb.njit(cache=True)
def _respond(s, a):
    q = s[TG]
    actor = s[PACT]
    _log(s, L_RESPOND, s[RESP], a)
    if a == A_JSN:
        _use(s, s[RESP], JSN)
        s[JSNC] += 1
        s[RESP] = actor if s[RESP] == q else q
        return
    if s[JSNC] % 2 == 0:
        _resolve(s, q)
    else:
        _target_done(s)


@nb.njit(cache=True)
def _first_kind(s, q, c):
    base = PL + PS * q + O_PROPS + c * NK
    for k in range(NK):
        if s[base + k]:
            return k
    return -1


@nb.njit(cache=True)
def _move_prop(s, src, dst, c, kind):
    s[PL + PS * src + O_PROPS + c * NK + kind] -= 1
    s[PL + PS * dst + O_PROPS + c * NK + kind] += 1


@nb.njit(cache=True)
def _resolve(s, q):
    kind, actor = s[PKIND], s[PACT]
    if kind == P_RENT or kind == P_BIRTHDAY or kind == P_DEBT:
        s[PAYER], s[DEBT_LEFT] = q, s[PA2]
        s[PHASE] = PAY
        _check_payment_done(s)
        return
    if kind == P_SLY:
        _move_prop(s, q, actor, s[PA2], s[PA3])
    elif kind == P_FORCED:
        c, give = s[PA2], s[PA3]
        _move_prop(s, q, actor, c, _first_kind(s, q, c))
        _move_prop(s, actor, q, give, _first_kind(s, actor, give))
    else:
        c = s[PA2]
        src, dst = PL + PS * q, PL + PS * actor
        for k in range(NK):
            s[dst + O_PROPS + c * NK + k] += s[src + O_PROPS + c * NK + k]
            s[src + O_PROPS + c * NK + k] = 0
        for off in (O_HOUSES, O_HOTELS):
            s[dst + off + c] = max(s[dst + off + c], s[src + off + c])
            s[src + off + c] = 0
    _target_done(s)


@nb.njit(cache=True)
def _pay(s, a):
    q, r = s[PAYER], s[PACT]
    _log(s, L_PAY, q, a)
    if a < A_PAY_PROP:
        t = a - A_PAY_BANK
        s[PL + PS * q + O_BANK + t] -= 1
        s[PL + PS * r + O_BANK + t] += 1
        s[DEBT_LEFT] -= _VALUES[t]
    else:
        i = a - A_PAY_PROP
        _move_prop(s, q, r, i // NK, i % NK)
        s[DEBT_LEFT] -= _KIND_VALUE[i]
    _check_payment_done(s)


@nb.njit(cache=True)
def _check_payment_done(s):
    if s[DEBT_LEFT] <= 0 or not _can_pay(s, s[PAYER]):
        s[PAYER], s[DEBT_LEFT] = -1, 0
        _target_done(s)


@nb.njit(cache=True)
def _after_play(s):
    if s[PHASE] != PLAY:
        return
    for q in range(s[N]):
        if _complete_sets(s, q) >= SETS_TO_WIN:
            s[DONE], s[WINNER] = 1, q
            _log(s, L_WIN, q, 0)
            return
    if s[PLAYS] == 0 and s[NTD] == 0:
        _end_turn(s)


@nb.njit(cache=True)
def _end_turn(s):
    if _hand_size(s, s[CUR]) > HAND_LIMIT:
        s[PHASE] = DISCARD
        return
    _next_turn(s)


@nb.njit(cache=True)
def _discard(s, a):
    t = a - A_DISCARD
    cur = s[CUR]
    _log(s, L_DISCARD, cur, t)
    _take_from_hand(s, cur, t)
    s[DISC + t] += 1
    if _hand_size(s, cur) <= HAND_LIMIT:
        _next_turn(s)


@nb.njit(cache=True)
def _next_turn(s):
    s[TURNS] += 1
    s[CUR] = (s[CUR] + 1) % s[N]
    s[PHASE] = PLAY
    s[PLAYS] = PLAYS_PER_TURN
    if s[TURNS] >= s[MAXT] or s[DECKN] == 0:
        s[DONE] = 1
        _log(s, L_CAP, 0, s[TURNS])
        return
    s[DRAWER] = s[CUR]
    need = DRAW_EMPTY if _hand_size(s, s[CUR]) == 0 else DRAW_PER_TURN
    _push_draw(s, min(need, s[DECKN]))


@nb.njit(cache=True)
def nb_turn(s):
    """``game.turn_counter``: the turns ended so far (infosets.games.kernels, END_TURN)."""
    return s[TURNS]


@nb.njit(cache=True)
def nb_apply_history(s, actions):
    for i in range(len(actions)):
        nb_apply_action(s, actions[i])


# -- scores --------------------------------------------------------------------------------
@nb.njit(cache=True)
def nb_returns(s, out):
    """1 to the winner; at a cap, win shares by (complete sets, assets); zeros before the end."""
    n = s[N]
    for q in range(n):
        out[q] = 0.0
    if not s[DONE]:
        return
    if s[WINNER] >= 0:
        out[s[WINNER]] = 1.0
        return
    sets = np.empty(MAXP, np.int64)
    assets = np.empty(MAXP, np.int64)
    best_s, best_a, k = -1, -1, 0
    for q in range(n):
        sets[q], assets[q] = _complete_sets(s, q), _assets(s, q)
        if sets[q] > best_s or (sets[q] == best_s and assets[q] > best_a):
            best_s, best_a, k = sets[q], assets[q], 1
        elif sets[q] == best_s and assets[q] == best_a:
            k += 1
    for q in range(n):
        if sets[q] == best_s and assets[q] == best_a:
            out[q] = 1.0 / k


@nb.njit(cache=True)
def nb_heuristic(s, out):
    """TAG's LeaderHeuristic (``monopoly_deal.heuristic``): 0.5 + 0.5 * clip((own score - the
    best other's) / 3, -1, 1), the score complete sets + assets / 100; the returns at the end."""
    if s[DONE]:
        nb_returns(s, out)
        return
    n = s[N]
    scores = np.empty(MAXP)
    for q in range(n):
        scores[q] = _complete_sets(s, q) + _assets(s, q) / 100
    for p in range(n):
        best_other = -1e300
        for q in range(n):
            if q != p and scores[q] > best_other:
                best_other = scores[q]
        margin = max(-1.0, min(1.0, (scores[p] - best_other) / SCORE_SCALE))
        out[p] = 0.5 + 0.5 * margin


# -- information ---------------------------------------------------------------------------
@nb.njit(cache=True)
def _mix_range(h, s, start, length):
    for i in range(length):
        h = _mix(h, s[start + i])
    return h


@nb.njit(cache=True)
def nb_infostate_key(s, player):
    """A 64-bit hash of ``player``'s information state (see the module docstring)."""
    n = s[N]
    h = _mix(s[PUBHASH], 50000 + player)
    phase = 4 if s[NTD] > 0 else s[PHASE]
    h = _mix(_mix(_mix(h, s[TURNS]), s[CUR]), phase)
    h = _mix(_mix(_mix(h, nb_current_player(s)), s[PLAYS]), s[DECKN])
    h = _mix(_mix(_mix(h, s[PKIND]), s[PACT]), s[PA2])
    h = _mix(_mix(h, s[PA3]), s[NTG])
    h = _mix_range(h, s, TG, s[NTG])
    h = _mix(_mix(_mix(h, s[JSNC]), s[PAYER]), s[DEBT_LEFT])
    h = _mix_range(h, s, DISC, NT)
    for q in range(n):
        base = PL + PS * q
        h = _mix(h, _hand_size(s, q))
        h = _mix_range(h, s, base + O_BANK, NB)
        h = _mix_range(h, s, base + O_PROPS, NP)
        h = _mix_range(h, s, base + O_HOUSES, 2 * NC)
    base = PL + PS * player
    h = _mix_range(h, s, base + O_HAND, 2 * NT)  # hand and used: the draws
    h = _mix(h, s[base + O_NLIVE])
    h = _mix_range(h, s, base + O_LIVE, s[base + O_NLIVE])
    h ^= (h >> 29) & 0x7FFFFFFFF
    return h * _M2


@nb.njit(cache=True)
def nb_determinize(s, player, rng):
    """Refill the opponents' live hand slots from the pooled unseen cards (opponents' hands and
    the pile), drawn without replacement; the rest is the pile (see the module docstring)."""
    n = s[N]
    pool = np.empty(NT, np.int64)
    total = 0
    for t in range(NT):
        pool[t] = s[DECK + t]
        for q in range(n):
            if q != player:
                pool[t] += s[PL + PS * q + O_HAND + t]
        total += pool[t]
    for q in range(n):
        if q == player:
            continue
        base = PL + PS * q
        for t in range(NT):
            s[base + O_HAND + t] = 0
        for i in range(s[base + O_NLIVE]):
            r = rng_bounded(rng, total)
            t = 0
            while r >= pool[t]:
                r -= pool[t]
                t += 1
            pool[t] -= 1
            total -= 1
            s[base + O_LIVE + i] = t
            s[base + O_HAND + t] += 1
    for t in range(NT):
        s[DECK + t] = pool[t]


# -- the engine's view of this game (infosets.games.kernels) --------------------------------
RULES = sys.modules[__name__]  # the jitted functions the compiled engine calls


def kernel_for(game) -> Kernel | None:
    """This game's kernel for a loaded pyspiel ``game`` (every player count is covered;
    ``infosets.games.kernels.kernel_for``). Its conversions, strings and history are the
    adapter's (``game.py``: a state's array is its kernel's ``engine_array``, which remembers
    the history and the public log kept beside it; an array's state wraps a copy of it)."""
    wrap = type(game.new_kernel()).wrap

    def from_history(history) -> np.ndarray:
        kernel = game.new_kernel()
        for action in history:
            kernel.apply(int(action))
        return kernel.engine_array()

    def state_of_array(game, array: np.ndarray):
        state = game.new_initial_state()
        state.kernel = wrap(array.copy())
        return state

    return Kernel(
        "monopoly_deal",
        RULES,
        game.num_players(),
        NUM_ACTIONS,
        from_history,
        lambda array: wrap(array.copy()).hist,
        lambda array, player: wrap(array.copy()).information_state_string(player),
        array_of_state=lambda state: state.kernel.engine_array(),
        state_of_array=state_of_array,
    )
