"""Stratego's rules, in numba: the one set both engines play (``stratego`` port, ``game.py``).

Serves the PI-MCTS / IS-MCTS study of Ravichandran, Goodman and Lucas, "Evaluation of
Perfect-Information Monte Carlo Tree Search in Imperfect-Information Games"
(docs/papers/pimcts_aggregation.md), where Stratego is the costliest game per move. The rules
and modelling choices are in ``game.py``'s docstring; ``game.py``'s ``StrategoKernel`` runs
these functions for the pyspiel adapter and the Python reference engine
(``infosets.games.array_kernel``), and the compiled engine calls them directly. The former
Python rules are frozen in ``tests/games/stratego/oracle.py`` and checked against these.

Action ids ``(square * 4 + direction) * 9 + distance - 1``; chance outcomes: each home
square's rank drawn from the remaining piece counts, in rank order, probability count / total;
win-share returns.

A state is an int64 array (offsets below): a header ``[placed, cur, moves, max_moves, winner,
done]``; per square (100 each) ``owner`` (0, 1, -1 empty, -2 lake), ``rank``, ``revealed``,
``moved`` and ``piece`` (the piece's setup index 0..79, -1 none; an empty square has rank 0,
so a state has one array); ``prank`` (80: each piece's
rank, which is also its setup chance outcome); ``pool`` (12 piece counts still to place);
``lost`` (2 x 12 captured pieces, public); then the ``max_moves`` move actions played. The
history (``array_history``) is the 80 setup outcomes ``prank`` followed by the moves, so a
determinized world replays to the same board (the port's history planning).

Heuristic (``nb_heuristic``): TAG's setting for Stratego (``json/players/gameSpecific/
Stratego.json``) is ``WinPlusHeuristic(1000)`` over the game's ``StrategoHeuristic``: at a
non-terminal state ``min(h_p / 1000, 0.9)`` where ``h_p`` is the mean value of ``p``'s pieces on
the board minus the opponent's mean (Bomb 0, Flag 1, any other piece rank * 0.1, Spy = 1 ..
Marshal = 10; a side with no piece on the board counts 0 during setup); at the end the returns
(win 1, loss 0, draw 0.5, as TAG's WinPlus gives).

Determinization (``nb_determinize``): the law of the port's ``resample`` on the PCG32 stream:
the opponent's unrevealed ranks are dealt uniformly over their unrevealed pieces with Bombs
and the Flag only on pieces that never moved (during setup: the opponent's placed pieces and
their undealt rest shuffled together). ``nb_infostate_key`` is a 64-bit hash of what the
information state string shows (collisions are possible in principle, at odds of about
n^2 / 2^64 over n states).
"""

from __future__ import annotations

import sys

import numba as nb
import numpy as np

from infosets.core.pcg32 import rng_bounded
from infosets.games.array_kernel import kernel_record
from infosets.games.kernels import FieldKernel

# -- the game's constants (the port, ``game.py``, reads them from here) -----------------------
SIZE = 10
NUM_SQUARES = SIZE * SIZE
FLAG, SPY, SCOUT, MINER = 0, 1, 2, 3
MARSHAL, BOMB = 10, 11
NUM_RANKS = 12
PIECE_COUNTS = (1, 1, 8, 5, 4, 4, 4, 3, 2, 1, 1, 6)  # by rank, one player's 40 pieces
EMPTY, LAKE = -1, -2
LAKES = frozenset(r * SIZE + c for r in (4, 5) for c in (2, 3, 6, 7))
DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (0, -1))  # (row, column) steps
NUM_ACTIONS = NUM_SQUARES * 4 * 9


def _ray(square: int, direction: int) -> tuple:
    """Squares from ``square`` along ``direction`` up to the board edge or a lake."""
    dr, dc = DIRECTIONS[direction]
    r, c = divmod(square, SIZE)
    out = []
    while True:
        r, c = r + dr, c + dc
        if not (0 <= r < SIZE and 0 <= c < SIZE) or r * SIZE + c in LAKES:
            return tuple(out)
        out.append(r * SIZE + c)


RAYS = tuple(tuple(_ray(s, d) for d in range(4)) for s in range(NUM_SQUARES))


def encode(square: int, direction: int, distance: int) -> int:
    """The action moving the piece on ``square`` ``distance`` squares along ``direction``."""
    return (square * 4 + direction) * 9 + distance - 1


def decode(action: int) -> tuple[int, int, int]:
    """(square, direction, distance) of a move action."""
    rest, d = divmod(action, 9)
    square, direction = divmod(rest, 4)
    return square, direction, d + 1


def target(square: int, direction: int, distance: int) -> int:
    """The square a move lands on."""
    dr, dc = DIRECTIONS[direction]
    r, c = divmod(square, SIZE)
    return (r + dr * distance) * SIZE + c + dc * distance


CHANCE = -1
TERMINAL = -4
NUM_PIECES = 80
H_PLACED, H_CUR, H_MOVES, H_MAX, H_WINNER, H_DONE = 0, 1, 2, 3, 4, 5
OWNER = 8
RANK = OWNER + NUM_SQUARES
REVEALED = RANK + NUM_SQUARES
MOVED = REVEALED + NUM_SQUARES
PIECE = MOVED + NUM_SQUARES
PRANK = PIECE + NUM_SQUARES
POOL = PRANK + NUM_PIECES
LOST = POOL + NUM_RANKS
MOVES = LOST + 2 * NUM_RANKS
HEURISTIC_SCALE = 1000.0  # WinPlusHeuristic's scale in TAG's Stratego setting
HEURISTIC_CAP = 0.9

# RAY_LEN[s, d] squares along direction d from s (to the edge or a lake), RAY[s, d, k] the k-th.
RAY_LEN = np.array([[len(RAYS[s][d]) for d in range(4)] for s in range(NUM_SQUARES)], dtype=np.int64)
RAY = np.full((NUM_SQUARES, 4, SIZE), -1, dtype=np.int64)
for _s in range(NUM_SQUARES):
    for _d in range(4):
        RAY[_s, _d, : len(RAYS[_s][_d])] = RAYS[_s][_d]
STEP = np.array([dr * SIZE + dc for dr, dc in DIRECTIONS], dtype=np.int64)
COUNTS = np.array(PIECE_COUNTS, dtype=np.int64)


def state_size(max_moves: int) -> int:
    return MOVES + max_moves


def new_state(max_moves: int) -> np.ndarray:
    """The initial state array (chance places player 0's first piece)."""
    s = np.zeros(state_size(max_moves), dtype=np.int64)
    s[H_MAX] = max_moves
    s[H_WINNER] = -1
    for q in range(NUM_SQUARES):
        s[OWNER + q] = LAKE if q in LAKES else EMPTY
        s[PIECE + q] = -1
    s[POOL : POOL + NUM_RANKS] = PIECE_COUNTS
    return s


@nb.njit(cache=True)
def nb_current_player(s):
    if s[H_DONE]:
        return TERMINAL
    if s[H_PLACED] < NUM_PIECES:
        return CHANCE
    return s[H_CUR]


@nb.njit(cache=True)
def _moves_of(s, player, buf, first_only):
    """Legal moves of ``player`` into ``buf`` (square, direction, distance order); their number.
    ``first_only`` stops after the first direction that has a move (the no-move test)."""
    enemy = 1 - player
    n = 0
    for q in range(NUM_SQUARES):
        if s[OWNER + q] != player:
            continue
        r = s[RANK + q]
        if r == FLAG or r == BOMB:
            continue
        for d in range(4):
            length = RAY_LEN[q, d]
            if r != SCOUT and length > 1:
                length = 1
            base = (q * 4 + d) * 9
            for k in range(length):
                o = s[OWNER + RAY[q, d, k]]
                if o == EMPTY:
                    buf[n] = base + k
                    n += 1
                elif o == enemy:
                    buf[n] = base + k
                    n += 1
                    break
                else:
                    break
            if first_only and n > 0:
                return n
    return n


@nb.njit(cache=True)
def _has_move(s, player):
    enemy = 1 - player
    for q in range(NUM_SQUARES):
        if s[OWNER + q] != player:
            continue
        r = s[RANK + q]
        if r == FLAG or r == BOMB:
            continue
        for d in range(4):
            if RAY_LEN[q, d] > 0:
                o = s[OWNER + RAY[q, d, 0]]
                if o == EMPTY or o == enemy:
                    return True
    return False


@nb.njit(cache=True)
def nb_legal_actions(s, buf):
    if s[H_DONE]:
        return 0
    if s[H_PLACED] < NUM_PIECES:
        n = 0
        for r in range(NUM_RANKS):
            if s[POOL + r] > 0:
                buf[n] = r
                n += 1
        return n
    return _moves_of(s, s[H_CUR], buf, False)


@nb.njit(cache=True)
def nb_chance_outcomes(s, actions, probs):
    total = 0
    for r in range(NUM_RANKS):
        total += s[POOL + r]
    n = 0
    for r in range(NUM_RANKS):
        c = s[POOL + r]
        if c > 0:
            actions[n] = r
            probs[n] = c / total
            n += 1
    return n


@nb.njit(cache=True)
def _move(s, src, dst):
    s[OWNER + dst] = s[OWNER + src]
    s[RANK + dst] = s[RANK + src]
    s[REVEALED + dst] = s[REVEALED + src]
    s[PIECE + dst] = s[PIECE + src]
    s[MOVED + dst] = 1
    s[OWNER + src] = EMPTY
    s[RANK + src] = 0
    s[REVEALED + src] = 0
    s[MOVED + src] = 0
    s[PIECE + src] = -1


@nb.njit(cache=True)
def _remove(s, q):
    s[LOST + s[OWNER + q] * NUM_RANKS + s[RANK + q]] += 1
    s[OWNER + q] = EMPTY
    s[RANK + q] = 0
    s[REVEALED + q] = 0
    s[MOVED + q] = 0
    s[PIECE + q] = -1


@nb.njit(cache=True)
def _attack(s, src, dst):
    a, d = s[RANK + src], s[RANK + dst]
    s[REVEALED + src] = 1
    s[REVEALED + dst] = 1
    if d == FLAG:
        s[H_DONE] = 1
        s[H_WINNER] = s[OWNER + src]
        _remove(s, dst)
        _move(s, src, dst)
        return
    if d == BOMB:
        attacker_wins = a == MINER
    elif a == SPY and d == MARSHAL:
        attacker_wins = True
    elif a == d:
        _remove(s, src)
        _remove(s, dst)
        return
    else:
        attacker_wins = a > d
    if attacker_wins:
        _remove(s, dst)
        _move(s, src, dst)
    else:
        _remove(s, src)


@nb.njit(cache=True)
def nb_apply_action(s, action):
    placed = s[H_PLACED]
    if placed < NUM_PIECES:
        q = placed if placed < 40 else placed + 20
        s[OWNER + q] = 0 if placed < 40 else 1
        s[RANK + q] = action
        s[PIECE + q] = placed
        s[PRANK + placed] = action
        s[POOL + action] -= 1
        s[H_PLACED] = placed + 1
        if placed + 1 == 40:
            for r in range(NUM_RANKS):
                s[POOL + r] = COUNTS[r]
        return
    rest = action // 9
    distance = action - rest * 9 + 1
    src = rest // 4
    dst = src + STEP[rest - src * 4] * distance
    p = s[H_CUR]
    s[MOVES + s[H_MOVES]] = action
    if s[OWNER + dst] == EMPTY:
        _move(s, src, dst)
        if distance > 1:
            s[REVEALED + dst] = 1
    else:
        _attack(s, src, dst)
    s[H_MOVES] += 1
    if s[H_DONE]:
        return
    s[H_CUR] = 1 - p
    if not _has_move(s, 1 - p):
        s[H_DONE] = 1
        s[H_WINNER] = p
    elif s[H_MOVES] >= s[H_MAX]:
        s[H_DONE] = 1


@nb.njit(cache=True)
def nb_returns(s, out):
    out[0], out[1] = 0.0, 0.0
    if not s[H_DONE]:
        return
    w = s[H_WINNER]
    if w < 0:
        out[0], out[1] = 0.5, 0.5
    else:
        out[w] = 1.0


@nb.njit(cache=True)
def nb_heuristic(s, out):
    """TAG's WinPlusHeuristic(1000) over StrategoHeuristic (see the module docstring)."""
    if s[H_DONE]:
        nb_returns(s, out)
        return
    total0 = total1 = 0.0
    count0 = count1 = 0
    for q in range(NUM_SQUARES):
        o = s[OWNER + q]
        if o < 0:
            continue
        r = s[RANK + q]
        value = 0.0 if r == BOMB else (1.0 if r == FLAG else r * 0.1)
        if o == 0:
            total0 += value
            count0 += 1
        else:
            total1 += value
            count1 += 1
    mean0 = total0 / count0 if count0 > 0 else 0.0
    mean1 = total1 / count1 if count1 > 0 else 0.0
    out[0] = min((mean0 - mean1) / HEURISTIC_SCALE, HEURISTIC_CAP)
    out[1] = min((mean1 - mean0) / HEURISTIC_SCALE, HEURISTIC_CAP)


_M1 = np.uint64(0x9E3779B97F4A7C15)
_M2 = np.uint64(0xBF58476D1CE4E5B9)
_M3 = np.uint64(0x94D049BB133111EB)


@nb.njit(cache=True)
def _mix(h, v):
    """Fold ``v`` into the 64-bit hash ``h`` (splitmix64 finaliser of their sum)."""
    z = h * _M1 + np.uint64(v + 1)
    z = (z ^ (z >> np.uint64(30))) * _M2
    z = (z ^ (z >> np.uint64(27))) * _M3
    return z ^ (z >> np.uint64(31))


@nb.njit(cache=True)
def nb_infostate_key(s, player):
    """A 64-bit hash of ``player``'s information state: the header it shows (player, mover,
    moves, pieces placed), each square as it sees it, and the captured pieces."""
    h = _mix(np.uint64(player), nb_current_player(s) + 8)
    h = _mix(h, s[H_MOVES])
    h = _mix(h, s[H_PLACED])
    for q in range(NUM_SQUARES):
        o = s[OWNER + q]
        if o < 0:
            code = o + 2
        elif o == player or s[REVEALED + q]:
            code = 2 + o * NUM_RANKS + s[RANK + q]
        else:
            code = 26 + 2 * o + s[MOVED + q]
        h = _mix(h, code)
    for i in range(2 * NUM_RANKS):
        h = _mix(h, s[LOST + i])
    return np.int64(h)


@nb.njit(cache=True)
def _shuffle(items, n, rng):
    """Fisher-Yates on ``items[:n]`` (uniform over permutations)."""
    for i in range(n - 1, 0, -1):
        j = rng_bounded(rng, i + 1)
        items[i], items[j] = items[j], items[i]


@nb.njit(cache=True)
def _set_rank(s, q, r):
    s[RANK + q] = r
    s[PRANK + s[PIECE + q]] = r


@nb.njit(cache=True)
def nb_determinize(s, player, rng):
    """Deal the opponent's unrevealed ranks uniformly in place, Bombs and the Flag only on
    pieces that never moved (as ``StrategoKernel.resample``; see the module docstring)."""
    other = 1 - player
    squares = np.empty(NUM_PIECES, np.int64)
    ranks = np.empty(NUM_PIECES, np.int64)
    placed = s[H_PLACED]
    if placed < NUM_PIECES:
        n = 0
        for q in range(NUM_SQUARES):
            if s[OWNER + q] == other:
                squares[n] = q
                ranks[n] = s[RANK + q]
                n += 1
        m = n
        placing_other = (placed < 40) == (other == 0)
        if placing_other:
            for r in range(NUM_RANKS):
                for _ in range(s[POOL + r]):
                    ranks[m] = r
                    m += 1
        _shuffle(ranks, m, rng)
        for i in range(n):
            _set_rank(s, squares[i], ranks[i])
        if placing_other:
            for r in range(NUM_RANKS):
                s[POOL + r] = 0
            for i in range(n, m):
                s[POOL + ranks[i]] += 1
        return
    fixed = np.empty(NUM_PIECES, np.int64)
    nfixed = nmobile = nunmoved = nmoved = 0
    moved = np.empty(NUM_PIECES, np.int64)
    for q in range(NUM_SQUARES):
        if s[OWNER + q] != other or s[REVEALED + q]:
            continue
        r = s[RANK + q]
        if r == FLAG or r == BOMB:
            fixed[nfixed] = r
            nfixed += 1
        else:
            ranks[nmobile] = r
            nmobile += 1
        if s[MOVED + q]:
            moved[nmoved] = q
            nmoved += 1
        else:
            squares[nunmoved] = q
            nunmoved += 1
    _shuffle(squares, nunmoved, rng)
    for i in range(nfixed):
        _set_rank(s, squares[i], fixed[i])
    _shuffle(ranks, nmobile, rng)
    k = 0
    for i in range(nfixed, nunmoved):
        _set_rank(s, squares[i], ranks[k])
        k += 1
    for i in range(nmoved):
        _set_rank(s, moved[i], ranks[k])
        k += 1


# -- conversions (Python) ----------------------------------------------------------------------
def array_from_history(history, max_moves: int) -> np.ndarray:
    """The state array ``history`` (pyspiel action ids) reaches."""
    s = new_state(max_moves)
    for action in history:
        nb_apply_action(s, int(action))
    return s


def array_history(s: np.ndarray) -> list[int]:
    """The history reaching ``s``: each placed piece's rank (its setup outcome), then the moves."""
    placed = int(s[H_PLACED])
    return s[PRANK : PRANK + placed].tolist() + s[MOVES : MOVES + s[H_MOVES]].tolist()


# -- the engine's view of this game (infosets.games.kernels) --------------------------------
RULES = sys.modules[__name__]  # the jitted functions the compiled engine calls


def kernel_for(game) -> FieldKernel:
    """This game's kernel for a loaded pyspiel ``game`` (every ``max_moves`` is covered;
    ``infosets.games.kernels.kernel_for``)."""
    return kernel_record("stratego", RULES, game)
