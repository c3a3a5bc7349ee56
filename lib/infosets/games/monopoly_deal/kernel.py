"""Numba kernel of ``monopoly_deal`` (Monopoly Deal as our port models it, on a flat int64 array).

Serves the compiled PI-MCTS / IS-MCTS engine (``infosets.search.compiled``) of Ravichandran,
Goodman and Lucas, "Evaluation of Perfect-Information Monte Carlo Tree Search in
Imperfect-Information Games" (docs/papers/pimcts_aggregation.md), who evaluate Monopoly Deal
with 3 players. The readable rules are ``infosets.games.monopoly_deal.game.MonopolyDealKernel``;
this module implements them again with the same action ids, chance outcomes (same order, same
probabilities), returns and heuristic (tests/games/monopoly_deal/test_monopoly_deal_kernel.py checks them
against the pyspiel adapter).

Bounded state. The adapter's ``max_game_length`` (about 46,000 actions at 3 players) is far
too loose to hold a history in every array the engine copies, so, unlike colt_express, the
array keeps no history: one fixed-size array (``SIZE`` = 1,337 int64s, 2-5 players) holds the
adapter kernel's fields: the header (turn, phase, pending action card, targets, the draw queue,
the history length, a running hash of the public log), the deck and the discards, and per
player the hand, the cards used (played, banked or discarded), bank, properties, buildings and
the live hand in draw order (card and the history index that drew it). The largest hand is 12
(7 at the end of a turn, 2 drawn, +1 per Pass Go), below ``LIVECAP`` = 16.

``nb_infostate_key`` is a 64-bit hash of everything ``information_state_string`` shows: the
public log is hashed as it grows (``PUBHASH``), the rest (the player's view, their draws and
live hand in draw order) when the key is asked. Equal strings give equal keys; distinct
strings collide with probability about 2**-64.

``nb_determinize`` is the adapter's ``world_history``: the opponents' hand cards and the draw
pile are pooled and the opponents' live hand slots refilled by drawing without replacement
(the same law as the adapter's uniform shuffle into those slots); the rest is the new pile.
The adapter replays the rewritten history; here the fields that replay changes (the
opponents' hands and live slots, the pile) are rewritten in place. One difference: the
adapter's replay removes a played card from the earliest live slot of its type, so where an
opponent holds a refilled card of the type of one they played, replay may count a different
slot as still live; the hands, the pile and everything the player sees are the same
(tests/games/monopoly_deal/test_monopoly_deal_kernel.py), only the order of that opponent's own live list
(part of their information state, not the player's) can differ.

Conversions: ``array_from_kernel`` / ``kernel_from_array`` translate to and from the adapter's
kernel object. The public log is kept only as its hash, so ``kernel_from_array`` takes the log
text from a small registry filled by ``array_from_kernel`` (every world determinized from a
converted state shares its public log, so its pyspiel state shows the real state's strings).

``nb_turn`` is the adapter's ``turn_counter`` (the turns ended, the header's turn slot), the
optional counter of the kernel contract that TAG's END_TURN rollouts read.

``nb_heuristic`` is the adapter's ``heuristic``: TAG's LeaderHeuristic on complete sets plus
assets / 100, scaled by 3 sets into [0, 1]; the returns at the end.
"""

from __future__ import annotations

import sys
from collections import OrderedDict

import numba as nb
import numpy as np

from infosets.core.pcg32 import rng_bounded
from infosets.games.kernels import Kernel
from infosets.games.monopoly_deal import game as md

CHANCE = -1
TERMINAL = -4
MAXP = md.MAX_PLAYERS
NT = md.NUM_TYPES
NC = md.NUM_COLOURS
NK = md.NUM_KINDS
NP = NC * NK
NB = md.FIRST_PROPERTY          # bankable types
NUM_ACTIONS = md.NUM_ACTIONS
LIVECAP = 16

# header slots
N, CUR, PHASE, PLAYS, TURNS, MAXT, DONE, WINNER = 0, 1, 2, 3, 4, 5, 6, 7
PKIND, PACT, PA2, PA3, RESP, JSNC, PAYER, DEBT, DRAWER = 8, 9, 10, 11, 12, 13, 14, 15, 16
NTD, TD = 17, 18                # draw queue: length, then up to MAXP + 1 counts
NTG, TG = 24, 25                # targets: length, then up to MAXP - 1 players
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
_LOG_KIND = {"play": L_PLAY, "respond": L_RESPOND, "pay": L_PAY, "discard": L_DISCARD,
             "win": L_WIN, "cap": L_CAP}
HASH_SEED = 0x5EED

_VALUES = np.array(md.VALUES, dtype=np.int64)
_SET_SIZE = np.array(md.SET_SIZE, dtype=np.int64)
_RENTS = np.zeros((NC, 4), dtype=np.int64)
for _c, _r in enumerate(md.RENTS):
    _RENTS[_c, :len(_r)] = _r
_PAIR_RENT = np.array([md.PAIR_RENT[c] for c in range(NC)], dtype=np.int64)
_WILD_N = np.zeros(8, dtype=np.int64)
_WILD_C = np.zeros((8, NC), dtype=np.int64)
for _w, _cs in md.WILD_COLOURS.items():
    _WILD_N[_w - md.FIRST_WILD] = len(_cs)
    _WILD_C[_w - md.FIRST_WILD, :len(_cs)] = _cs
_KIND_VALUE = np.array([md.VALUES[md.kind_type(c, k)] for c in range(NC) for k in range(NK)],
                       dtype=np.int64)
_DECK_COUNTS = np.array(md.DECK_COUNTS, dtype=np.int64)

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


@nb.njit(cache=True)
def nb_log_hash(h, tokens):
    """The public hash ``h`` extended by a log's tokens (``log_tokens``)."""
    for i in range(len(tokens)):
        h = _mix(h, tokens[i])
    return h


def new_state(players: int, max_turns: int) -> np.ndarray:
    """The initial state array (the deal comes next)."""
    if not 2 <= players <= MAXP:
        raise ValueError(f"players: must be in [2, {MAXP}] for the kernel, got {players}")
    s = np.zeros(SIZE, dtype=np.int64)
    s[N], s[MAXT], s[PLAYS], s[WINNER] = players, max_turns, md.PLAYS_PER_TURN, -1
    s[PKIND] = s[PACT] = s[PA2] = s[PA3] = s[RESP] = s[PAYER] = -1
    s[PUBHASH] = HASH_SEED
    s[DECK:DECK + NT] = _DECK_COUNTS
    s[DECKN] = int(_DECK_COUNTS.sum())
    s[NTD] = players + 1
    s[TD:TD + players] = md.HAND_START
    s[TD + players] = md.DRAW_PER_TURN
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
    if s[PHASE] == md.RESPOND:
        return s[RESP]
    if s[PHASE] == md.PAY:
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
            if s[hp + md.BREAKER]:
                buf[m] = md.A_BREAKER + q * 10 + c
                m += 1
            continue
        if s[hp + md.SLY]:
            for k in range(NK):
                if s[qprops + c * NK + k]:
                    buf[m] = md.A_SLY + (q * 10 + c) * NK + k
                    m += 1
        if s[hp + md.FORCED]:
            for g in range(NC):
                mine = _count(s, p, g)
                if mine and mine < _SET_SIZE[g]:
                    buf[m] = md.A_FORCED + (q * 10 + c) * 10 + g
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
        if s[hp + md.FIRST_PROPERTY + c]:
            buf[m] = md.A_PLACE + c
            m += 1
    for w in range(8):
        if s[hp + md.FIRST_WILD + w]:
            for j in range(_WILD_N[w]):
                buf[m] = md.A_WILD + w * 10 + _WILD_C[w, j]
                m += 1
    if s[hp + md.PASS_GO]:
        buf[m] = md.A_PASS_GO
        m += 1
    for c in range(NC):
        if _count(s, p, c) == 0:
            continue
        if s[hp + _PAIR_RENT[c]]:
            buf[m] = md.A_RENT + c
            m += 1
        if s[hp + md.RENT_ANY]:
            for q in range(n):
                if q != p:
                    buf[m] = md.A_RENT_ANY + q * 10 + c
                    m += 1
        if c != md.RAIL and c != md.UTIL and _count(s, p, c) >= _SET_SIZE[c]:
            house = s[PL + PS * p + O_HOUSES + c]
            if s[hp + md.HOUSE] and not house:
                buf[m] = md.A_HOUSE + c
                m += 1
            if s[hp + md.HOTEL] and house and not s[PL + PS * p + O_HOTELS + c]:
                buf[m] = md.A_HOTEL + c
                m += 1
    if s[hp + md.BIRTHDAY]:
        buf[m] = md.A_BIRTHDAY
        m += 1
    for q in range(n):
        if q == p:
            continue
        if s[hp + md.DEBT]:
            buf[m] = md.A_DEBT + q
            m += 1
        m = _steal_options(s, p, q, buf, m)
    buf[m] = md.A_END_TURN
    m += 1
    return _sort_unique(buf, m)


@nb.njit(cache=True)
def _payment_options(s, q, buf):
    base = PL + PS * q
    m = 0
    for t in range(NB):
        if s[base + O_BANK + t]:
            buf[m] = md.A_PAY_BANK + t
            m += 1
    for i in range(NP):
        if s[base + O_PROPS + i] and _KIND_VALUE[i]:
            buf[m] = md.A_PAY_PROP + i
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
    if phase == md.RESPOND:
        m = 0
        if s[PL + PS * s[RESP] + O_HAND + md.JSN]:
            buf[0] = md.A_JSN
            m = 1
        buf[m] = md.A_ACCEPT
        return m + 1
    if phase == md.PAY:
        return _payment_options(s, s[PAYER], buf)
    if phase == md.DISCARD:
        hp = PL + PS * s[CUR] + O_HAND
        m = 0
        for t in range(NT):
            if s[hp + t]:
                buf[m] = md.A_DISCARD + t
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
        if s[NTD] == 0 and s[PHASE] == md.PLAY and s[PLAYS] == 0:
            _end_turn(s)  # a Pass Go played as the last card ends the turn
    elif s[PHASE] == md.PLAY:
        _play(s, a)
    elif s[PHASE] == md.RESPOND:
        _respond(s, a)
    elif s[PHASE] == md.PAY:
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
    if a == md.A_END_TURN:
        _end_turn(s)
        return
    s[PLAYS] -= 1
    base = PL + PS * p
    if a < md.FIRST_PROPERTY:
        _take_from_hand(s, p, a)
        s[base + O_BANK + a] += 1
    elif a < md.A_WILD:
        c = a - md.A_PLACE
        _take_from_hand(s, p, md.FIRST_PROPERTY + c)
        s[base + O_PROPS + c * NK] += 1
    elif a < md.A_PASS_GO:
        w, c = divmod(a - md.A_WILD, 10)
        _take_from_hand(s, p, md.FIRST_WILD + w)
        s[base + O_PROPS + c * NK + 1 + w] += 1
    elif a == md.A_PASS_GO:
        _use(s, p, md.PASS_GO)
        if s[DECKN] > 0:
            s[DRAWER] = p
            _push_draw(s, min(md.DRAW_PER_TURN, s[DECKN]))
    elif a < md.A_RENT_ANY:
        c = a - md.A_RENT
        _use(s, p, _PAIR_RENT[c])
        _start_pending(s, md.P_RENT, p, _rent(s, p, c), -1, -1)
        return
    elif a < md.A_BIRTHDAY:
        q, c = divmod(a - md.A_RENT_ANY, 10)
        _use(s, p, md.RENT_ANY)
        _start_pending(s, md.P_RENT, p, _rent(s, p, c), -1, q)
        return
    elif a == md.A_BIRTHDAY:
        _use(s, p, md.BIRTHDAY)
        _start_pending(s, md.P_BIRTHDAY, p, md.BIRTHDAY_AMOUNT, -1, -1)
        return
    elif a < md.A_SLY:
        _use(s, p, md.DEBT)
        _start_pending(s, md.P_DEBT, p, md.DEBT_AMOUNT, -1, a - md.A_DEBT)
        return
    elif a < md.A_FORCED:
        rest, kind = divmod(a - md.A_SLY, NK)
        q, c = divmod(rest, 10)
        _use(s, p, md.SLY)
        _start_pending(s, md.P_SLY, p, c, kind, q)
        return
    elif a < md.A_BREAKER:
        rest, give = divmod(a - md.A_FORCED, 10)
        q, c = divmod(rest, 10)
        _use(s, p, md.FORCED)
        _start_pending(s, md.P_FORCED, p, c, give, q)
        return
    elif a < md.A_HOUSE:
        q, c = divmod(a - md.A_BREAKER, 10)
        _use(s, p, md.BREAKER)
        _start_pending(s, md.P_BREAKER, p, c, -1, q)
        return
    elif a < md.A_HOTEL:
        _take_from_hand(s, p, md.HOUSE)
        s[base + O_HOUSES + a - md.A_HOUSE] = 1
    else:
        _take_from_hand(s, p, md.HOTEL)
        s[base + O_HOTELS + a - md.A_HOTEL] = 1
    _after_play(s)


@nb.njit(cache=True)
def _next_target(s):
    if s[NTG] == 0:
        s[PKIND], s[PACT], s[PA2], s[PA3] = -1, -1, -1, -1
        s[PHASE] = md.PLAY
        _after_play(s)
        return
    s[PHASE] = md.RESPOND
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
    if a == md.A_JSN:
        _use(s, s[RESP], md.JSN)
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
    if kind == md.P_RENT or kind == md.P_BIRTHDAY or kind == md.P_DEBT:
        s[PAYER], s[DEBT] = q, s[PA2]
        s[PHASE] = md.PAY
        _check_payment_done(s)
        return
    if kind == md.P_SLY:
        _move_prop(s, q, actor, s[PA2], s[PA3])
    elif kind == md.P_FORCED:
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
    if a < md.A_PAY_PROP:
        t = a - md.A_PAY_BANK
        s[PL + PS * q + O_BANK + t] -= 1
        s[PL + PS * r + O_BANK + t] += 1
        s[DEBT] -= _VALUES[t]
    else:
        i = a - md.A_PAY_PROP
        _move_prop(s, q, r, i // NK, i % NK)
        s[DEBT] -= _KIND_VALUE[i]
    _check_payment_done(s)


@nb.njit(cache=True)
def _check_payment_done(s):
    if s[DEBT] <= 0 or not _can_pay(s, s[PAYER]):
        s[PAYER], s[DEBT] = -1, 0
        _target_done(s)


@nb.njit(cache=True)
def _after_play(s):
    if s[PHASE] != md.PLAY:
        return
    for q in range(s[N]):
        if _complete_sets(s, q) >= md.SETS_TO_WIN:
            s[DONE], s[WINNER] = 1, q
            _log(s, L_WIN, q, 0)
            return
    if s[PLAYS] == 0 and s[NTD] == 0:
        _end_turn(s)


@nb.njit(cache=True)
def _end_turn(s):
    if _hand_size(s, s[CUR]) > md.HAND_LIMIT:
        s[PHASE] = md.DISCARD
        return
    _next_turn(s)


@nb.njit(cache=True)
def _discard(s, a):
    t = a - md.A_DISCARD
    cur = s[CUR]
    _log(s, L_DISCARD, cur, t)
    _take_from_hand(s, cur, t)
    s[DISC + t] += 1
    if _hand_size(s, cur) <= md.HAND_LIMIT:
        _next_turn(s)


@nb.njit(cache=True)
def _next_turn(s):
    s[TURNS] += 1
    s[CUR] = (s[CUR] + 1) % s[N]
    s[PHASE] = md.PLAY
    s[PLAYS] = md.PLAYS_PER_TURN
    if s[TURNS] >= s[MAXT] or s[DECKN] == 0:
        s[DONE] = 1
        _log(s, L_CAP, 0, s[TURNS])
        return
    s[DRAWER] = s[CUR]
    need = md.DRAW_EMPTY if _hand_size(s, s[CUR]) == 0 else md.DRAW_PER_TURN
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
        margin = max(-1.0, min(1.0, (scores[p] - best_other) / md.SCORE_SCALE))
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
    h = _mix(_mix(_mix(h, s[JSNC]), s[PAYER]), s[DEBT])
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


# -- conversions (Python) ----------------------------------------------------------------
_REGISTRY: OrderedDict = OrderedDict()   # (public hash, history length) -> (log, history)
_REGISTRY_SIZE = 512


def log_hash(log) -> int:
    """The public hash of an adapter kernel's ``log`` (one that ``kernel_from_array`` could not
    restore starts with its placeholder ``("public", hash)``)."""
    if log and log[0][0] == "public":
        return int(nb_log_hash(log[0][1], log_tokens(log[1:])))
    return int(nb_log_hash(HASH_SEED, log_tokens(log)))


def log_tokens(log) -> np.ndarray:
    """The public hash tokens of an adapter kernel's ``log``."""
    tokens = []
    for entry in log:
        kind = _LOG_KIND[entry[0]]
        if kind == L_WIN:
            tokens.append((kind << 40) | (entry[1] << 32))
        elif kind == L_CAP:
            tokens.append((kind << 40) | entry[1])
        else:
            tokens.append((kind << 40) | (entry[1] << 32) | entry[2])
    return np.asarray(tokens, dtype=np.int64)


def _remember(key, log, hist):
    _REGISTRY[key] = (list(log), list(hist))
    _REGISTRY.move_to_end(key)
    while len(_REGISTRY) > _REGISTRY_SIZE:
        _REGISTRY.popitem(last=False)


def array_from_kernel(k) -> np.ndarray:
    """The array of an adapter kernel object (``MonopolyDealKernel``); remembers its log."""
    n = k.n
    s = new_state(n, k.max_turns)
    s[CUR], s[PHASE], s[PLAYS], s[TURNS] = k.cur, k.phase, k.plays_left, k.turns
    s[DONE], s[WINNER], s[RESP], s[JSNC] = int(k.done), k.winner, k.responder, k.jsn
    s[PAYER], s[DEBT], s[DRAWER] = k.payer, k.debt, k.drawer
    s[PKIND] = s[PACT] = s[PA2] = s[PA3] = -1
    if k.pending is not None:
        for slot, value in zip((PKIND, PACT, PA2, PA3), k.pending):
            s[slot] = value
    s[NTD] = len(k.to_draw)
    s[TD:TD + MAXP + 1] = 0
    s[TD:TD + len(k.to_draw)] = k.to_draw
    s[NTG] = len(k.targets)
    s[TG:TG + len(k.targets)] = k.targets
    s[HLEN] = len(k.hist)
    s[PUBHASH] = log_hash(k.log)
    s[DECK:DECK + NT] = k.deck
    s[DECKN] = sum(k.deck)
    s[DISC:DISC + NT] = k.discard
    for q in range(n):
        base = PL + PS * q
        s[base + O_HAND:base + O_HAND + NT] = k.hand[q]
        s[base + O_USED:base + O_USED + NT] = k.used[q]
        s[base + O_BANK:base + O_BANK + NB] = k.bank[q][:NB]
        s[base + O_PROPS:base + O_PROPS + NP] = k.props[q]
        s[base + O_HOUSES:base + O_HOUSES + NC] = k.houses[q]
        s[base + O_HOTELS:base + O_HOTELS + NC] = k.hotels[q]
        s[base + O_NLIVE] = len(k.live[q])
        for i, (card, index) in enumerate(k.live[q]):
            s[base + O_LIVE + i], s[base + O_LIDX + i] = card, index
    _remember((int(s[PUBHASH]), int(s[HLEN])), k.log, k.hist)
    return s


def _pending(s: np.ndarray):
    kind = int(s[PKIND])
    if kind < 0:
        return None
    if kind in (md.P_SLY, md.P_FORCED):
        return (kind, int(s[PACT]), int(s[PA2]), int(s[PA3]))
    return (kind, int(s[PACT]), int(s[PA2]))


def kernel_from_array(s: np.ndarray):
    """The adapter kernel object of an array. The log and the history come from the states
    converted by ``array_from_kernel`` with the same public log and history length (the live
    hand slots of the history are the array's cards); unknown ones are placeholders."""
    ints = [int(x) for x in s]
    n = ints[N]
    k = md.MonopolyDealKernel(n, ints[MAXT])
    k.cur, k.phase, k.plays_left, k.turns = ints[CUR], ints[PHASE], ints[PLAYS], ints[TURNS]
    k.done, k.winner, k.responder, k.jsn = bool(ints[DONE]), ints[WINNER], ints[RESP], ints[JSNC]
    k.payer, k.debt, k.drawer = ints[PAYER], ints[DEBT], ints[DRAWER]
    k.pending = _pending(s)
    k.to_draw = ints[TD:TD + ints[NTD]]
    k.targets = ints[TG:TG + ints[NTG]]
    k.deck = ints[DECK:DECK + NT]
    k.discard = ints[DISC:DISC + NT]
    entry = _REGISTRY.get((ints[PUBHASH], ints[HLEN]))
    if entry is not None:
        _REGISTRY.move_to_end((ints[PUBHASH], ints[HLEN]))
        k.log, k.hist = list(entry[0]), list(entry[1])
    else:
        k.log, k.hist = [("public", ints[PUBHASH])], [-1] * ints[HLEN]
    for q in range(n):
        base = PL + PS * q
        k.hand[q] = ints[base + O_HAND:base + O_HAND + NT]
        k.used[q] = ints[base + O_USED:base + O_USED + NT]
        k.drawn[q] = [h + u for h, u in zip(k.hand[q], k.used[q])]
        k.bank[q] = ints[base + O_BANK:base + O_BANK + NB] + [0] * (NT - NB)
        k.props[q] = ints[base + O_PROPS:base + O_PROPS + NP]
        k.houses[q] = ints[base + O_HOUSES:base + O_HOUSES + NC]
        k.hotels[q] = ints[base + O_HOTELS:base + O_HOTELS + NC]
        m = ints[base + O_NLIVE]
        k.live[q] = list(zip(ints[base + O_LIVE:base + O_LIVE + m],
                             ints[base + O_LIDX:base + O_LIDX + m]))
        for card, index in k.live[q]:
            k.hist[index] = card
    return k


def array_from_history(history, players: int, max_turns: int) -> np.ndarray:
    """The array of the state reached by ``history`` (replayed by the adapter's kernel, so that
    its log is remembered for ``kernel_from_array``)."""
    k = md.MonopolyDealKernel(players, max_turns)
    for action in history:
        k.apply(int(action))
    return array_from_kernel(k)


def array_history(s: np.ndarray) -> list[int]:
    """The action history of an array (as ``kernel_from_array`` rebuilds it)."""
    return kernel_from_array(s).hist


def array_from_state(state) -> np.ndarray:
    return array_from_kernel(state.kernel)


def state_from_array(game, s: np.ndarray):
    """A pyspiel state wrapping ``kernel_from_array(s)`` (its own ``history()`` is empty)."""
    state = game.new_initial_state()
    state.kernel = kernel_from_array(s)
    return state


def array_infostate_string(s: np.ndarray, player: int) -> str:
    """``MonopolyDealKernel.information_state_string(player)`` of a state array."""
    return kernel_from_array(s).information_state_string(player)

# -- the engine's view of this game (infosets.games.kernels) --------------------------------
RULES = sys.modules[__name__]  # the jitted functions the compiled engine calls


def kernel_for(game) -> Kernel | None:
    """This game's kernel for a loaded pyspiel ``game``, or None where the kernel does not
    cover its parameters (``infosets.games.kernels.kernel_for``)."""
    players, max_turns = game.num_players(), int(game.max_turns)
    if players > MAXP:
        return None
    return Kernel("monopoly_deal", RULES, players, NUM_ACTIONS,
                  lambda history: array_from_history(history, players, max_turns),
                  array_history, array_infostate_string,
                  array_of_state=array_from_state, state_of_array=state_from_array)
