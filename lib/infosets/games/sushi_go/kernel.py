"""Sushi Go!'s rules, once: the numba kernel that both engines and the pyspiel adapter run.

Ravichandran, Goodman and Lucas, "Evaluation of Perfect-Information Monte Carlo Tree Search
in Imperfect-Information Games" (docs/papers/pimcts_aggregation.md) ran Sushi Go! with 3 and
5 players; the rules and modelling choices are stated in ``infosets.games.sushi_go.game``.
This module is the only place they are written: dealing, legal picks, chopsticks, passing,
round and pudding scoring, returns (win shares, ties on points broken by puddings), the
cut-off heuristic and the compiled engine's determinizer, on a flat int64 array (the kernel
contract is in ``infosets.games.kernels``). The pyspiel adapter (``game.SushiGoKernel``, an
``infosets.games.array_kernel.ArrayKernel``) calls these functions and reads the array's
fields for its strings and tensors. Action ids: card type ``t`` (0..11) picks one card;
``NUM_TYPES + a * NUM_TYPES + b`` plays ``a`` then ``b`` with chopsticks. Chance outcomes:
the card types left in the deck, in type order, probability count / total.

State array (``n`` players, 2..5; rows of ``MAX_PLAYERS`` slots):
  [0] n, [1] hand size, [2] round (3 = over), [3] turn, [4] cards left to deal this round,
  [5] player to pick, [6] revealed turns so far, [7] running hash of the revealed picks;
  ``DECK`` 12 undealt counts; ``HANDS`` 5 x 12 hand counts; ``PENDING`` 5 hidden picks
  (action id or -1); ``TABLE`` 5 x 7 table counts (``T_*``); ``PUDDINGS`` 5; ``SCORE`` 5;
  ``LOG`` the revealed picks, ``MAX_PLAYERS`` slots per turn.
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
MAX_PLAYERS = 5
NUM_TYPES = NT = 12
(TEMPURA, SASHIMI, DUMPLING, MAKI1, MAKI2, MAKI3, SALMON, SQUID, EGG, PUDDING, WASABI, CHOPSTICKS) = range(NT)
# The published base game's 108 cards, by type.
DECK_COUNTS = (14, 14, 14, 6, 12, 8, 10, 5, 5, 10, 6, 4)
HAND_SIZE = {2: 10, 3: 9, 4: 8, 5: 7}  # cards dealt per player and round
NUM_ROUNDS = 3
NUM_ACTIONS = NT + NT * NT  # singles, then ordered chopsticks pairs
# Table layout per player (counts for the current round).
T_TEMPURA, T_SASHIMI, T_DUMPLING, T_MAKI, T_NIGIRI, T_WASABI, T_CHOP = range(7)
TABLE_SLOTS = 7
DUMPLING_POINTS = np.array((0, 1, 3, 6, 10, 15), dtype=np.int64)
# The heuristic's lead scale, in points (see nb_heuristic).
LEAD_SCALE = 10.0

N, HAND_LEN, ROUND, TURN, TO_DEAL, CUR, LOG_LEN, LOG_HASH = range(8)
DECK = 8
HANDS = DECK + NT
PENDING = HANDS + MAX_PLAYERS * NT
TABLE = PENDING + MAX_PLAYERS
PUDDINGS = TABLE + MAX_PLAYERS * 7
SCORE = PUDDINGS + MAX_PLAYERS
LOG = SCORE + MAX_PLAYERS
MAX_TURNS = NUM_ROUNDS * max(HAND_SIZE.values())
STATE_SIZE = LOG + MAX_TURNS * MAX_PLAYERS


def new_state(n: int) -> np.ndarray:
    """The initial state array of an ``n``-player game (chance deals player 0's first card)."""
    if n not in HAND_SIZE:
        raise ValueError(f"players: must be in [2, {MAX_PLAYERS}], got {n}")
    s = np.zeros(STATE_SIZE, dtype=np.int64)
    s[N], s[HAND_LEN] = n, HAND_SIZE[n]
    s[TO_DEAL] = n * HAND_SIZE[n]
    s[DECK : DECK + NT] = DECK_COUNTS
    s[PENDING : PENDING + MAX_PLAYERS] = -1
    return s


@nb.njit(cache=True)
def _mix(h, v):
    """One step of the running hash (multiply-xorshift; int64 arithmetic wraps)."""
    h = (h ^ (v + 0x9E3779B9)) * 0x5851F42D4C957F2D
    return h ^ (h >> 29)


@nb.njit(cache=True)
def nb_current_player(s):
    if s[ROUND] >= NUM_ROUNDS:
        return TERMINAL
    if s[TO_DEAL] > 0:
        return CHANCE
    return s[CUR]


@nb.njit(cache=True)
def _pair_allowed(a, b):
    return a <= b or (a == WASABI and (b == SALMON or b == SQUID or b == EGG))


@nb.njit(cache=True)
def _player_actions(s, p, buf):
    """Player ``p``'s legal picks from their hand, ascending (singles, then chopsticks pairs)."""
    h = HANDS + p * NT
    n = 0
    size = 0
    for t in range(NT):
        if s[h + t] > 0:
            buf[n] = t
            n += 1
            size += s[h + t]
    if s[TABLE + p * 7 + T_CHOP] > 0 and size >= 2:
        for a in range(NT):
            if s[h + a] == 0:
                continue
            for b in range(NT):
                if s[h + b] > 0 and (a != b or s[h + a] >= 2) and _pair_allowed(a, b):
                    buf[n] = NT + a * NT + b
                    n += 1
    return n


@nb.njit(cache=True)
def nb_legal_actions(s, buf):
    """Legal actions (card types of the deck at chance nodes) in ascending order."""
    if s[ROUND] >= NUM_ROUNDS:
        return 0
    if s[TO_DEAL] > 0:
        n = 0
        for t in range(NT):
            if s[DECK + t] > 0:
                buf[n] = t
                n += 1
        return n
    return _player_actions(s, s[CUR], buf)


@nb.njit(cache=True)
def nb_chance_outcomes(s, actions, probs):
    """Deal one card: each type left in the deck with probability count / total."""
    total = 0
    for t in range(NT):
        total += s[DECK + t]
    n = 0
    for t in range(NT):
        c = s[DECK + t]
        if c > 0:
            actions[n] = t
            probs[n] = c / total
            n += 1
    return n


@nb.njit(cache=True)
def _place(s, p, card):
    t = TABLE + p * 7
    if card == TEMPURA:
        s[t + T_TEMPURA] += 1
    elif card == SASHIMI:
        s[t + T_SASHIMI] += 1
    elif card == DUMPLING:
        s[t + T_DUMPLING] += 1
    elif card == MAKI1 or card == MAKI2 or card == MAKI3:
        s[t + T_MAKI] += card - MAKI1 + 1
    elif card == SALMON or card == SQUID or card == EGG:
        points = 2 if card == SALMON else (3 if card == SQUID else 1)
        if s[t + T_WASABI] > 0:
            s[t + T_WASABI] -= 1
            s[t + T_NIGIRI] += 3 * points
        else:
            s[t + T_NIGIRI] += points
    elif card == PUDDING:
        s[PUDDINGS + p] += 1
    elif card == WASABI:
        s[t + T_WASABI] += 1
    else:
        s[t + T_CHOP] += 1


@nb.njit(cache=True)
def _table_points(s, p):
    """Points of ``p``'s table this round without maki (tempura, sashimi, dumplings, nigiri)."""
    t = TABLE + p * 7
    d = s[t + T_DUMPLING]
    return (
        5 * (s[t + T_TEMPURA] // 2)
        + 10 * (s[t + T_SASHIMI] // 3)
        + DUMPLING_POINTS[d if d < 5 else 5]
        + s[t + T_NIGIRI]
    )


@nb.njit(cache=True)
def _score_round(s):
    n = s[N]
    top = 0
    for p in range(n):
        s[SCORE + p] += _table_points(s, p)
        top = max(top, s[TABLE + p * 7 + T_MAKI])
    if top > 0:
        first = 0
        for p in range(n):
            if s[TABLE + p * 7 + T_MAKI] == top:
                first += 1
        for p in range(n):
            if s[TABLE + p * 7 + T_MAKI] == top:
                s[SCORE + p] += 6 // first
        if first == 1:
            second_value = 0
            for p in range(n):
                m = s[TABLE + p * 7 + T_MAKI]
                if 0 < m < top and m > second_value:
                    second_value = m
            if second_value > 0:
                second = 0
                for p in range(n):
                    if s[TABLE + p * 7 + T_MAKI] == second_value:
                        second += 1
                for p in range(n):
                    if s[TABLE + p * 7 + T_MAKI] == second_value:
                        s[SCORE + p] += 3 // second
    for i in range(MAX_PLAYERS * 7):
        s[TABLE + i] = 0
    s[ROUND] += 1
    s[TURN] = 0
    if s[ROUND] < NUM_ROUNDS:
        s[TO_DEAL] = n * s[HAND_LEN]
    else:
        _score_puddings(s)


@nb.njit(cache=True)
def _score_puddings(s):
    n = s[N]
    most = s[PUDDINGS]
    fewest = s[PUDDINGS]
    for p in range(1, n):
        most = max(most, s[PUDDINGS + p])
        fewest = min(fewest, s[PUDDINGS + p])
    if most == fewest:
        return
    top = 0
    bottom = 0
    for p in range(n):
        if s[PUDDINGS + p] == most:
            top += 1
        if s[PUDDINGS + p] == fewest:
            bottom += 1
    for p in range(n):
        if s[PUDDINGS + p] == most:
            s[SCORE + p] += 6 // top
    if n > 2:
        for p in range(n):
            if s[PUDDINGS + p] == fewest:
                s[SCORE + p] -= 6 // bottom


@nb.njit(cache=True)
def _reveal(s):
    n = s[N]
    row = LOG + s[LOG_LEN] * MAX_PLAYERS
    h = s[LOG_HASH]
    for p in range(n):
        action = s[PENDING + p]
        if action < NT:
            _place(s, p, action)
        else:
            _place(s, p, (action - NT) // NT)
            _place(s, p, (action - NT) % NT)
            s[TABLE + p * 7 + T_CHOP] -= 1
            s[HANDS + p * NT + CHOPSTICKS] += 1
        s[row + p] = action
        h = _mix(h, action)
        s[PENDING + p] = -1
    s[LOG_HASH] = h
    s[LOG_LEN] += 1
    # player i's hand goes to player i + 1
    for t in range(NT):
        last = s[HANDS + (n - 1) * NT + t]
        for p in range(n - 1, 0, -1):
            s[HANDS + p * NT + t] = s[HANDS + (p - 1) * NT + t]
        s[HANDS + t] = last
    s[CUR] = 0
    s[TURN] += 1
    if s[TURN] == s[HAND_LEN]:
        _score_round(s)


@nb.njit(cache=True)
def nb_apply_action(s, action):
    if s[TO_DEAL] > 0:
        player = s[N] - 1 - (s[TO_DEAL] - 1) // s[HAND_LEN]
        s[HANDS + player * NT + action] += 1
        s[DECK + action] -= 1
        s[TO_DEAL] -= 1
        return
    p = s[CUR]
    h = HANDS + p * NT
    if action < NT:
        s[h + action] -= 1
    else:
        s[h + (action - NT) // NT] -= 1
        s[h + (action - NT) % NT] -= 1
    s[PENDING + p] = action
    if p < s[N] - 1:
        s[CUR] = p + 1
    else:
        _reveal(s)


@nb.njit(cache=True)
def nb_returns(s, out):
    """Win shares at the end (best points, then most puddings; ties share), zeros before."""
    n = s[N]
    for p in range(n):
        out[p] = 0.0
    if s[ROUND] < NUM_ROUNDS:
        return
    best_score = s[SCORE]
    best_pudding = s[PUDDINGS]
    for p in range(1, n):
        sc, pu = s[SCORE + p], s[PUDDINGS + p]
        if sc > best_score or (sc == best_score and pu > best_pudding):
            best_score, best_pudding = sc, pu
    k = 0
    for p in range(n):
        if s[SCORE + p] == best_score and s[PUDDINGS + p] == best_pudding:
            k += 1
    for p in range(n):
        if s[SCORE + p] == best_score and s[PUDDINGS + p] == best_pudding:
            out[p] = 1.0 / k


@nb.njit(cache=True)
def nb_heuristic(s, out):
    """TAG's ``LeaderHeuristic`` (its SushiGo.json setting) on the returns' [0, 1] scale.

    A player's game score is their points so far plus this round's table scored now (tempura
    pairs, sashimi triples, dumplings, nigiri; maki and puddings count when scored). The lead
    ``d = own - best other`` maps to ``0.5 + 0.5 * d / (|d| + LEAD_SCALE)``, which keeps the
    order of leads inside (0, 1) (TAG instead normalises by the bounds seen in the search).
    The returns at the end.
    """
    n = s[N]
    if s[ROUND] >= NUM_ROUNDS:
        nb_returns(s, out)
        return
    points = np.empty(MAX_PLAYERS, np.float64)
    for p in range(n):
        points[p] = s[SCORE + p] + _table_points(s, p)
    for p in range(n):
        best = -np.inf
        for q in range(n):
            if q != p and points[q] > best:
                best = points[q]
        d = points[p] - best
        out[p] = 0.5 + 0.5 * d / (abs(d) + LEAD_SCALE)


@nb.njit(cache=True)
def _knows_hand(s, player, other):
    """Whether ``player`` has seen the hand ``other`` holds now (it passed through theirs)."""
    if s[TO_DEAL] > 0:
        return player == other
    return (other - player) % s[N] <= s[TURN]


@nb.njit(cache=True)
def _pick_mark(action):
    return 0 if action < 0 else (1 if action < NT else 2)


@nb.njit(cache=True)
def nb_infostate_key(s, player):
    """A 64-bit hash of exactly what ``player``'s information state string shows: round,
    turn, mover, own hand and hidden pick, the other hands as far as seen (else their sizes),
    the public pick sizes, tables, puddings, scores and the revealed picks (by their running
    hash). Equal strings give equal keys; distinct strings collide with probability ~2**-64
    per pair (tests check no collision on thousands of random states)."""
    n = s[N]
    h = _mix(player, n)
    h = _mix(h, s[ROUND])
    h = _mix(h, s[TURN])
    h = _mix(h, nb_current_player(s))
    for t in range(NT):
        h = _mix(h, s[HANDS + player * NT + t])
    h = _mix(h, s[PENDING + player])
    for q in range(n):
        if q == player:
            continue
        pending = s[PENDING + q]
        h = _mix(h, _pick_mark(pending))
        if _knows_hand(s, player, q):
            for t in range(NT):
                c = s[HANDS + q * NT + t]
                if pending >= 0:
                    if pending < NT:
                        if pending == t:
                            c += 1
                    else:
                        if (pending - NT) // NT == t:
                            c += 1
                        if (pending - NT) % NT == t:
                            c += 1
                h = _mix(h, c)
        else:
            size = 0
            for t in range(NT):
                size += s[HANDS + q * NT + t]
            h = _mix(h, -1 - size)
    for i in range(TABLE, LOG):
        h = _mix(h, s[i])
    h = _mix(h, s[LOG_LEN])
    return _mix(h, s[LOG_HASH])


@nb.njit(cache=True)
def _put_back(s, q):
    """Return ``q``'s hidden pick to their hand."""
    pending = s[PENDING + q]
    h = HANDS + q * NT
    if pending < NT:
        s[h + pending] += 1
    else:
        s[h + (pending - NT) // NT] += 1
        s[h + (pending - NT) % NT] += 1


@nb.njit(cache=True)
def nb_determinize(s, player, rng):
    """A world for ``player`` in place, distributed as ``SushiGoKernel.resample``.

    The hands ``player`` has not seen (with their owners' hidden picks put back) and the deck
    are pooled and redealt uniformly (each unseen hand keeps its size: sequential draws
    without replacement, the same law as the reference's shuffle); then every other hidden
    pick of this turn is redrawn uniformly among its picker's legal picks of the same size
    (one card, or a chopsticks pair: that size is public).
    """
    n = s[N]
    pool = np.empty(NT, np.int64)
    total = 0
    for t in range(NT):
        pool[t] = s[DECK + t]
        total += pool[t]
    sizes = np.zeros(MAX_PLAYERS, np.int64)
    unknown = np.zeros(MAX_PLAYERS, np.bool_)
    for q in range(n):
        if q == player or _knows_hand(s, player, q):
            continue
        unknown[q] = True
        if s[PENDING + q] >= 0:
            _put_back(s, q)
        for t in range(NT):
            c = s[HANDS + q * NT + t]
            sizes[q] += c
            pool[t] += c
            s[HANDS + q * NT + t] = 0
        total += sizes[q]
    for q in range(n):
        if not unknown[q]:
            continue
        for _ in range(sizes[q]):
            r = rng_bounded(rng, total)
            t = 0
            while r >= pool[t]:
                r -= pool[t]
                t += 1
            pool[t] -= 1
            total -= 1
            s[HANDS + q * NT + t] += 1
    for t in range(NT):
        s[DECK + t] = pool[t]
    buf = np.empty(NUM_ACTIONS, np.int64)
    for q in range(n):
        pending = s[PENDING + q]
        if q == player or pending < 0:
            continue
        if not unknown[q]:
            _put_back(s, q)
        pair = pending >= NT
        m = _player_actions(s, q, buf)
        k = 0
        for i in range(m):
            if (buf[i] >= NT) == pair:
                buf[k] = buf[i]
                k += 1
        action = buf[rng_bounded(rng, k)]
        h = HANDS + q * NT
        if action < NT:
            s[h + action] -= 1
        else:
            s[h + (action - NT) // NT] -= 1
            s[h + (action - NT) % NT] -= 1
        s[PENDING + q] = action


# -- the engine's view of this game (infosets.games.kernels) --------------------------------
RULES = sys.modules[__name__]  # the jitted functions the compiled engine calls


def pair_action(first: int, second: int) -> int:
    """Action id of a chopsticks move playing ``first`` then ``second``."""
    return NT + first * NT + second


def kernel_for(game) -> Kernel | None:
    """This game's kernel for a loaded pyspiel ``game`` (every player count is covered;
    ``infosets.games.kernels.kernel_for``)."""
    return kernel_record("sushi_go", RULES, game)
