"""Numba kernel of ``poker_tag`` (TAG's Poker: Texas Hold'em over several reshuffled hands).

Serves the compiled PI-MCTS / IS-MCTS engine (``infosets.search.compiled``) of Ravichandran,
Goodman and Lucas, "PIMCTS evaluation in tabletop games" (docs/papers/pimcts_aggregation.md):
Poker is the game where the paper finds PI-MCTS ahead of IS-MCTS, at 10,000 iterations and
up to 500 determinizations, so it is searched here at compiled speed. These are the game's
only rules: the pyspiel adapter and the Python reference engine play them too, through
``infosets.games.poker_tag.game.PokerKernel`` (an ``array_kernel.ArrayKernel`` that reads this
array for its strings, tensors and worlds). Action ids: FOLD 0 .. ALL_IN 8; chance outcomes:
the cards left in this hand's deck, ascending, uniform; returns: win shares by final chips
(``tests/games/poker_tag/test_poker_tag_oracle.py`` plays them against the former Python
rules, step by step).

State array (every parameter of the game is in the header, so one compiled kernel serves
2-6 players and any stakes):

* header: parameters, hand number, street, player to act, seat roles, flags, the deal
  queue's bounds, the deck as a 52-bit mask, the history length, a running hash of the
  public log and the offsets of the variable-size regions;
* per seat (6 slots): chips behind, chips bet this hand, folded / all-in / out / acted
  flags, two hole cards; the deal queue; this hand's board;
* per hand: the seats who showed at the showdown, the stacks after the hand, the history
  length when it ended, the history index of every hole card, the board cards;
* the history: ``action | kind << 8`` per entry, ``kind`` the mover (0-5), 6 + seat for a
  hole card dealt to that seat, 12 for a board card.

``nb_infostate_key`` is a 64-bit hash, not a strict injection: the public log (every bet,
board card, hole-card deal as "a card to seat q", showdown reveal) is hashed as it grows,
then mixed with the player and that player's own hole cards of every hand. Two states give
the same key exactly when the player's information-state strings are equal, up to a hash
collision (probability about 2**-64 per pair of states; the test checks there is none on
its random games). A strict injection would need the whole history, which does not fit in
an int64.

``nb_determinize`` redraws, in every hand so far, the hole cards ``player`` has not seen
(not their own, not shown at a showdown), uniformly among that hand's cards the player has
not seen (their own, the shown ones, the board), as ``game.PokerKernel.world_history``; it
rewrites them in the history and, for the current hand, in the hole cards and the deck.
Past betting and chips are unchanged (legal betting does not depend on cards; every card
that decided a pot was shown).

``nb_heuristic`` is TAG's LeaderHeuristic, 0.5 + (own chips
- the most chips of any other player) / (2 * total chips), the returns at the end.
"""

from __future__ import annotations

import sys

import numba as nb
import numpy as np

from infosets.core.pcg32 import rng_bounded
from infosets.games.kernels import Kernel

CHANCE = -1
TERMINAL = -4
FOLD, CHECK, CALL, BET, RAISE1, RAISE2, RAISE3, RAISE4, ALL_IN = range(9)
NUM_CARDS = 52
NUM_ACTIONS = NUM_CARDS  # the longest legal list: a chance node over a full deck
MAXP = 6
BOARD_KIND = 12
HOLE_KIND = 6
FULL_DECK = (1 << NUM_CARDS) - 1

# header slots
N, MAXH, START, SB, BB, BETSZ = 0, 1, 2, 3, 4, 5
HAND, STREET, CUR, FIRST, SMALL, BIG, BETMADE, RUNOUT, DONE = 6, 7, 8, 9, 10, 11, 12, 13, 14
QHEAD, QEND, NBOARD, DECK, HLEN, PUBHASH, HCAP = 15, 16, 17, 18, 19, 20, 21
O_SHOWN, O_ENDM, O_HEND, O_HOLEPOS, O_BOARDLOG, O_HIST = 22, 23, 24, 25, 26, 27
# per-seat blocks
MONEY, BETS, FOLDED, ALLIN, OUT, ACTED = 32, 38, 44, 50, 56, 62
HOLE = 68  # 2 per seat
QUEUE = 80  # the deal queue: seats (hole cards) or -1 (board)
BOARD = 92  # 5
VALUES = 100  # scratch: hand codes at the showdown
VAR = 112  # first variable-size region

_M1 = 0x9E3779B97F4A7C15 - (1 << 64)  # as int64
_M2 = 0xBF58476D1CE4E5B9 - (1 << 64)
_LOW32 = 0xFFFFFFFF
_BOARD_CARDS = np.array([0, 3, 1, 1], dtype=np.int64)
_RAISE_MULT = np.array([1, 2, 3, 4], dtype=np.int64)


def state_size(max_hands: int, history_capacity: int) -> int:
    return VAR + max_hands * (1 + MAXP + 1 + 2 * MAXP + 5) + history_capacity


def new_state(
    players: int,
    max_hands: int,
    starting_money: int,
    small_blind: int,
    big_blind: int,
    bet: int,
    history_capacity: int,
) -> np.ndarray:
    """The initial state array (the first hole card is dealt next)."""
    if not 2 <= players <= MAXP:
        raise ValueError(f"players: must be in [2, {MAXP}] for the kernel, got {players}")
    s = np.zeros(state_size(max_hands, history_capacity), dtype=np.int64)
    s[N], s[MAXH], s[START], s[SB], s[BB], s[BETSZ] = (
        players,
        max_hands,
        starting_money,
        small_blind,
        big_blind,
        bet,
    )
    s[HCAP] = history_capacity
    s[O_SHOWN] = VAR
    s[O_ENDM] = s[O_SHOWN] + max_hands
    s[O_HEND] = s[O_ENDM] + max_hands * MAXP
    s[O_HOLEPOS] = s[O_HEND] + max_hands
    s[O_BOARDLOG] = s[O_HOLEPOS] + max_hands * 2 * MAXP
    s[O_HIST] = s[O_BOARDLOG] + max_hands * 5
    _init(s)
    return s


@nb.njit(cache=True)
def _mix(h, token):
    h = (h ^ token) * _M1
    h ^= (h >> 31) & 0x1FFFFFFFF
    return h


@nb.njit(cache=True)
def _init(s):
    n = s[N]
    for q in range(n):
        s[MONEY + q] = s[START]
    s[PUBHASH] = 0x12345
    _start_hand(s)


@nb.njit(cache=True)
def _start_hand(s):
    n = s[N]
    hand = s[HAND]
    for q in range(MAXP):
        s[BETS + q] = 0
        s[FOLDED + q] = 0
        s[ALLIN + q] = 0
        s[ACTED + q] = 0
        s[HOLE + 2 * q] = -1
        s[HOLE + 2 * q + 1] = -1
    s[NBOARD] = 0
    s[DECK] = FULL_DECK
    s[STREET] = 0
    s[BETMADE] = 0
    s[RUNOUT] = 0
    s[CUR] = -1
    s[SMALL] = -1
    s[BIG] = -1
    s[s[O_SHOWN] + hand] = 0
    hp = s[O_HOLEPOS] + hand * 2 * MAXP
    for i in range(2 * MAXP):
        s[hp + i] = -1
    bl = s[O_BOARDLOG] + hand * 5
    for i in range(5):
        s[bl + i] = -1
    k = 0
    for q in range(n):
        if s[OUT + q] == 0:
            s[QUEUE + k] = q
            s[QUEUE + k + 1] = q
            k += 2
    s[QHEAD] = 0
    s[QEND] = k


@nb.njit(cache=True)
def nb_current_player(s):
    if s[DONE]:
        return TERMINAL
    if s[QHEAD] < s[QEND]:
        return CHANCE
    return s[CUR]


@nb.njit(cache=True)
def _can_bet(s, q):
    return s[OUT + q] == 0 and s[FOLDED + q] == 0 and s[ALLIN + q] == 0


@nb.njit(cache=True)
def _top_bet(s):
    top = 0
    for q in range(s[N]):
        if s[BETS + q] > top:
            top = s[BETS + q]
    return top


@nb.njit(cache=True)
def nb_legal_actions(s, buf):
    """Legal actions (the deck's cards, ascending, at chance nodes) into ``buf``; their number."""
    if s[DONE]:
        return 0
    if s[QHEAD] < s[QEND]:
        deck = s[DECK]
        n = 0
        for c in range(NUM_CARDS):
            if (deck >> c) & 1:
                buf[n] = c
                n += 1
        return n
    p = s[CUR]
    top = _top_bet(s)
    diff = top - s[BETS + p]
    stack = s[MONEY + p]
    others = False
    for q in range(s[N]):
        if q != p and _can_bet(s, q):
            others = True
            break
    buf[0] = FOLD
    k = 1
    if diff > 0:
        if stack >= diff:
            buf[k] = CALL
            k += 1
            if others:
                for i in range(4):
                    if stack >= diff + top * _RAISE_MULT[i]:
                        buf[k] = RAISE1 + i
                        k += 1
    else:
        buf[k] = CHECK
        k += 1
        if s[BETMADE] == 0 and others and stack >= s[BETSZ]:
            buf[k] = BET
            k += 1
    buf[k] = ALL_IN
    return k + 1


@nb.njit(cache=True)
def nb_chance_outcomes(s, actions, probs):
    """The deck's cards, ascending, each with probability 1 / (cards left)."""
    n = nb_legal_actions(s, actions)
    p = 1.0 / n
    for i in range(n):
        probs[i] = p
    return n


@nb.njit(cache=True)
def _put(s, p, amount):
    s[MONEY + p] -= amount
    s[BETS + p] += amount
    if s[MONEY + p] == 0:
        s[ALLIN + p] = 1


@nb.njit(cache=True)
def nb_apply_action(s, action):
    h = s[HLEN]
    hist = s[O_HIST]
    if s[QHEAD] < s[QEND]:
        who = s[QUEUE + s[QHEAD]]
        s[HLEN] = h + 1
        _deal(s, action, who, h, hist)
        return
    p = s[CUR]
    s[hist + h] = action | (p << 8)
    s[HLEN] = h + 1
    s[PUBHASH] = _mix(s[PUBHASH], 3000 + action)
    top = _top_bet(s)
    if action == FOLD:
        s[FOLDED + p] = 1
    elif action == CALL:
        _put(s, p, top - s[BETS + p])
    elif action == BET:
        _put(s, p, s[BETSZ])
        s[BETMADE] = 1
    elif action >= RAISE1 and action <= RAISE4:
        _put(s, p, top + top * _RAISE_MULT[action - RAISE1] - s[BETS + p])
        s[BETMADE] = 1
    elif action == ALL_IN:
        _put(s, p, s[MONEY + p])
        s[BETMADE] = 1
    s[ACTED + p] = 1
    if s[BETS + p] > top:  # the highest bet went up: everybody else acts again
        for q in range(s[N]):
            if q != p:
                s[ACTED + q] = 0
    _advance(s, p)


@nb.njit(cache=True)
def _deal(s, card, who, h, hist):
    s[QHEAD] += 1
    s[DECK] &= ~(np.int64(1) << card)
    hand = s[HAND]
    if who < 0:
        s[hist + h] = card | (BOARD_KIND << 8)
        k = s[NBOARD]
        s[BOARD + k] = card
        s[s[O_BOARDLOG] + hand * 5 + k] = card
        s[NBOARD] = k + 1
        s[PUBHASH] = _mix(s[PUBHASH], 2000 + card)
    else:
        s[hist + h] = card | ((HOLE_KIND + who) << 8)
        slot = 2 * who if s[HOLE + 2 * who] < 0 else 2 * who + 1
        s[HOLE + slot] = card
        s[s[O_HOLEPOS] + hand * 2 * MAXP + slot] = h
        s[PUBHASH] = _mix(s[PUBHASH], 1000 + who)
    if s[QHEAD] < s[QEND]:
        return
    if s[SMALL] < 0:
        _post_blinds(s)
    elif s[RUNOUT]:
        _end_street(s)
    else:
        s[CUR] = _first_to_act(s, s[SMALL])


@nb.njit(cache=True)
def _next_in(s, seat, step):
    n = s[N]
    q = (seat + step + n) % n
    while s[OUT + q]:
        q = (q + step + n) % n
    return q


@nb.njit(cache=True)
def _post_blinds(s):
    big = _next_in(s, s[FIRST], -1)
    small = _next_in(s, big, -1)
    s[BIG] = big
    s[SMALL] = small
    _put(s, small, min(s[SB], s[MONEY + small]))
    _put(s, big, min(s[BB], s[MONEY + big]))
    s[CUR] = s[FIRST]
    _advance(s, -1)


@nb.njit(cache=True)
def _first_to_act(s, seat):
    n = s[N]
    for i in range(n):
        q = (seat + i) % n
        if _can_bet(s, q):
            return q
    return -1


@nb.njit(cache=True)
def _advance(s, mover):
    """After a move (``mover``; -1 after the blinds): next player, next street or the end."""
    n = s[N]
    contenders = 0
    for q in range(n):
        if s[OUT + q] == 0 and s[FOLDED + q] == 0:
            contenders += 1
    if contenders == 1:
        _settle(s, False)
        return
    top = _top_bet(s)
    able = 0
    for q in range(n):
        if s[OUT + q] == 0 and s[FOLDED + q] == 0 and s[ALLIN + q] == 0:
            able += 1
    waiting = 0  # bit mask of the players who must act
    for q in range(n):
        if s[OUT + q] == 0 and s[FOLDED + q] == 0 and s[ALLIN + q] == 0:
            if s[BETS + q] < top or (s[ACTED + q] == 0 and able > 1):
                waiting |= 1 << q
    if waiting:
        if mover < 0:
            cur = s[CUR]
            if not (waiting >> cur) & 1:
                s[CUR] = _next_waiting(n, cur, waiting)
            return
        s[CUR] = _next_waiting(n, mover, waiting)
        return
    if able <= 1:
        s[RUNOUT] = 1
    _end_street(s)


@nb.njit(cache=True)
def _next_waiting(n, seat, waiting):
    for i in range(1, n + 1):
        q = (seat + i) % n
        if (waiting >> q) & 1:
            return q
    return -1


@nb.njit(cache=True)
def _end_street(s):
    if s[STREET] == 3:
        _settle(s, True)
        return
    street = s[STREET] + 1
    s[STREET] = street
    s[BETMADE] = 0
    for q in range(MAXP):
        s[ACTED + q] = 0
    s[CUR] = -1
    k = _BOARD_CARDS[street]
    for i in range(k):
        s[QUEUE + i] = -1
    s[QHEAD] = 0
    s[QEND] = k


@nb.njit(cache=True)
def _straight_high(mask):
    for high in range(12, 3, -1):
        if ((mask >> (high - 4)) & 0x1F) == 0x1F:
            return high
    if (mask & 0x100F) == 0x100F:  # ace, 2, 3, 4, 5
        return 3
    return -1


@nb.njit(cache=True)
def _code(cat, v1, v2, v3, v4, v5):
    return (cat << 20) | (v1 << 16) | (v2 << 12) | (v3 << 8) | (v4 << 4) | v5


@nb.njit(cache=True)
def _value_code(counts, suits):
    """The hand code from ``counts`` (3 bits per rank) and ``suits`` (13 rank bits per suit)."""
    flush = -1
    for suit in range(4):
        mask = (suits >> (13 * suit)) & 0x1FFF
        k = 0
        top = 0
        for r in range(12, -1, -1):
            if (mask >> r) & 1:
                if k < 5:
                    top |= r << (4 * (4 - k))
                k += 1
        if k >= 5:
            high = _straight_high(mask)
            if high >= 0:
                return _code(8, high, 0, 0, 0, 0)
            flush = (5 << 20) | top
    # groups by (count, rank) descending: the first five ranks packed as the code's nibbles,
    # the first two counts, and the highest rank among the groups after the first / second
    ranks = 0
    packed = 0
    ng = 0
    c0 = 0
    c1 = 0
    max1 = 0
    max2 = 0
    for cnt in range(4, 0, -1):
        for r in range(12, -1, -1):
            if ((counts >> (3 * r)) & 7) == cnt:
                if ng == 0:
                    c0 = cnt
                elif ng == 1:
                    c1 = cnt
                if ng < 5:
                    packed |= r << (4 * (4 - ng))
                if ng >= 1:
                    max1 = max(max1, r)
                if ng >= 2:
                    max2 = max(max2, r)
                ranks |= 1 << r
                ng += 1
    g0 = (packed >> 16) & 15
    g1 = (packed >> 12) & 15
    if c0 == 4:
        return _code(7, g0, max1, 0, 0, 0)
    if c0 == 3 and c1 >= 2:
        return _code(6, g0, g1, 0, 0, 0)
    if flush >= 0:
        return flush
    high = _straight_high(ranks)
    if high >= 0:
        return _code(4, high, 0, 0, 0, 0)
    if c0 == 3:  # the other groups are single cards, ranks descending
        return (3 << 20) | (packed & 0xFFF00)
    if c0 == 2 and c1 == 2:
        return _code(2, g0, g1, max2, 0, 0)
    if c0 == 2:
        return (1 << 20) | (packed & 0xFFFF0)
    return packed


@nb.njit(cache=True)
def hand_code(cards, ncards):
    """The standard Texas Hold'em value of the best five of ``cards[:ncards]`` (5-7 card ids)
    as one integer, larger wins: category << 20 (8 straight flush, 7 four of a kind, 6 full
    house, 5 flush, 4 straight, 3 three of a kind, 2 two pair, 1 pair, 0 high card), then the
    tie-break ranks (4 bits each, ace-low straight counted)."""
    counts = 0
    suits = 0
    for i in range(ncards):
        c = cards[i]
        counts += 1 << (3 * (c >> 2))
        suits |= 1 << (13 * (c & 3) + (c >> 2))
    return _value_code(counts, suits)


@nb.njit(cache=True)
def _showdown_code(s, q):
    """The hand code of seat ``q``'s hole cards with the five board cards."""
    counts = 0
    suits = 0
    for i in range(7):
        c = s[BOARD + i] if i < 5 else s[HOLE + 2 * q + i - 5]
        counts += 1 << (3 * (c >> 2))
        suits |= 1 << (13 * (c & 3) + (c >> 2))
    return _value_code(counts, suits)


@nb.njit(cache=True)
def _settle(s, showdown):
    """Pay the pots (side pots by contribution layer), then start the next hand."""
    n = s[N]
    hand = s[HAND]
    contenders = 0  # bit mask
    for q in range(n):
        s[VALUES + q] = 0
        if s[OUT + q] == 0 and s[FOLDED + q] == 0:
            contenders |= 1 << q
    if showdown:
        for q in range(n):
            if (contenders >> q) & 1:
                s[VALUES + q] = _showdown_code(s, q)
                s[PUBHASH] = _mix(s[PUBHASH], 4000 + q * 2704 + s[HOLE + 2 * q] * 52 + s[HOLE + 2 * q + 1])
        s[s[O_SHOWN] + hand] = contenders
    below = 0
    while True:
        level = -1  # the next contribution level above ``below``
        for q in range(n):
            b = s[BETS + q]
            if b > below and (level < 0 or b < level):
                level = b
        if level < 0:
            break
        layer = 0
        for q in range(n):
            b = s[BETS + q]
            layer += min(b, level) - min(b, below)
        best = -1
        nwin = 0
        first = -1
        for q in range(n):
            if (contenders >> q) & 1 and s[BETS + q] >= level:
                v = s[VALUES + q]
                if v > best:
                    best, nwin, first = v, 1, q
                elif v == best:
                    nwin += 1
        if nwin == 0:  # nobody still in paid this layer: back to its payers
            for q in range(n):
                if s[BETS + q] >= level:
                    s[MONEY + q] += level - below
        else:
            share = layer // nwin
            for q in range(n):
                if (contenders >> q) & 1 and s[BETS + q] >= level and s[VALUES + q] == best:
                    s[MONEY + q] += share
            s[MONEY + first] += layer - share * nwin
        below = level
    endm = s[O_ENDM] + hand * MAXP
    alive = 0
    for q in range(n):
        s[BETS + q] = 0
        s[endm + q] = s[MONEY + q]
        if s[MONEY + q] == 0:
            s[OUT + q] = 1
        if s[OUT + q] == 0:
            alive += 1
    s[s[O_HEND] + hand] = s[HLEN]
    hand += 1
    s[HAND] = hand
    if hand >= s[MAXH] or alive <= 1:
        s[DONE] = 1
        s[CUR] = -1
        return
    s[FIRST] = _next_in(s, s[FIRST], 1)
    _start_hand(s)


@nb.njit(cache=True)
def nb_returns(s, out):
    """Win shares by chips at the end (zeros before)."""
    n = s[N]
    for q in range(n):
        out[q] = 0.0
    if not s[DONE]:
        return
    best = -1
    k = 0
    for q in range(n):
        m = s[MONEY + q]
        if m > best:
            best, k = m, 1
        elif m == best:
            k += 1
    share = 1.0 / k
    for q in range(n):
        if s[MONEY + q] == best:
            out[q] = share


@nb.njit(cache=True)
def nb_heuristic(s, out):
    """TAG's LeaderHeuristic in [0, 1] (``poker_tag.heuristic``): 0.5 + (own chips - the
    most chips of any other player) / (2 * total chips); the returns at the end."""
    if s[DONE]:
        nb_returns(s, out)
        return
    n = s[N]
    total = 2.0 * (n * s[START])
    for p in range(n):
        other = -1
        for q in range(n):
            if q != p and s[MONEY + q] > other:
                other = s[MONEY + q]
        out[p] = 0.5 + (s[MONEY + p] - other) / total


@nb.njit(cache=True)
def nb_infostate_key(s, player):
    """A 64-bit hash of ``player``'s information state (see the module docstring)."""
    h = _mix(s[PUBHASH], 50000 + player)
    hands = s[HAND] if s[DONE] else s[HAND] + 1
    hist = s[O_HIST]
    for hand in range(hands):
        base = s[O_HOLEPOS] + hand * 2 * MAXP + 2 * player
        for k in range(2):
            pos = s[base + k]
            if pos >= 0:
                h = _mix(h, 60000 + (s[hist + pos] & 255))
    h ^= (h >> 29) & 0x7FFFFFFFF
    return h * _M2


@nb.njit(cache=True)
def nb_determinize(s, player, rng):
    """Redraw in place the hole cards ``player`` has not seen, hand by hand, uniformly among
    the hand's cards the player has not seen (see the module docstring)."""
    n = s[N]
    done = s[DONE]
    current = s[HAND]
    hands = current if done else current + 1
    hist = s[O_HIST]
    pool = np.empty(NUM_CARDS, np.int64)
    hidden = np.empty(2 * MAXP, np.int64)
    for hand in range(hands):
        shown = s[s[O_SHOWN] + hand] if hand < current else 0
        seen = 0
        bl = s[O_BOARDLOG] + hand * 5
        for i in range(5):
            c = s[bl + i]
            if c >= 0:
                seen |= np.int64(1) << c
        hp = s[O_HOLEPOS] + hand * 2 * MAXP
        m = 0
        for q in range(n):
            for k in range(2):
                pos = s[hp + 2 * q + k]
                if pos < 0:
                    continue
                if q == player or (shown >> q) & 1:
                    seen |= np.int64(1) << (s[hist + pos] & 255)
                else:
                    hidden[m] = 2 * q + k
                    m += 1
        if m == 0:
            continue
        size = 0
        for c in range(NUM_CARDS):
            if not (seen >> c) & 1:
                pool[size] = c
                size += 1
        live = hand == hands - 1  # this hand's cards are in the hole cards and deck too
        for i in range(m):
            j = i + rng_bounded(rng, size - i)
            card = pool[j]
            pool[j] = pool[i]
            pool[i] = card
            slot = hidden[i]
            pos = s[hp + slot]
            s[hist + pos] = card | ((HOLE_KIND + slot // 2) << 8)
            if live:
                s[HOLE + slot] = card
        if live:
            deck = FULL_DECK
            for i in range(s[NBOARD]):
                deck &= ~(np.int64(1) << s[BOARD + i])
            for slot in range(2 * MAXP):
                c = s[HOLE + slot]
                if c >= 0:
                    deck &= ~(np.int64(1) << c)
            s[DECK] = deck


@nb.njit(cache=True)
def nb_apply_history(s, actions):
    for i in range(len(actions)):
        nb_apply_action(s, actions[i])


# -- the engine's view of this game (infosets.games.kernels) --------------------------------
RULES = sys.modules[__name__]  # the jitted functions the compiled engine calls


def kernel_for(game) -> Kernel | None:
    """This game's kernel for a loaded pyspiel ``game`` (every parameter is covered;
    ``infosets.games.kernels.kernel_for``). Its strings are the adapter's (``game.py``)."""
    n = game.num_players()  # the parameters as the adapter validated them
    settings = (
        n,
        game.max_hands,
        game.starting_money,
        game.small_blind,
        game.big_blind,
        game.bet,
        game.max_game_length(),
    )
    wrap = type(game.new_kernel()).wrap

    def from_history(history) -> np.ndarray:
        state = new_state(*settings)
        nb_apply_history(state, np.asarray(history, dtype=np.int64))
        return state

    def history(array: np.ndarray) -> list[int]:
        return wrap(array).history

    def infostate_string(array: np.ndarray, player: int) -> str:
        return wrap(array).information_state_string(player)

    return Kernel("poker_tag", RULES, n, NUM_ACTIONS, from_history, history, infostate_string)
