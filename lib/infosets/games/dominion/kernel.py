"""Dominion's rules, written once: the numba kernel both engines run.

Dominion (Donald X. Vaccarino, 2008), base set, for Ravichandran, Goodman and Lucas,
"Evaluation of Perfect-Information Monte Carlo Tree Search in Imperfect-Information Games"
(docs/papers/pimcts_aggregation.md); rules and modelling choices in ``game.py``'s docstring.
The compiled PI-MCTS / IS-MCTS engine calls these jitted functions directly (contract in
``infosets.games.kernels``); the pyspiel adapter and the Python reference engine call them
through ``game.DominionKernel`` (an ``array_kernel.ArrayKernel``), which reads the array for
the string views, tensors, public log and world sampler. Phases, action ids, draws as chance
nodes on the drawer's draw-pile counts in card order with probability count / total, and
win-share returns with the fewer-turns tie-break are those of the former Python rules, kept
frozen as the test oracle (``tests/games/dominion/oracle.py``).

A state is an int64 array: a header (``H_*``), then ``supply``, ``trash`` and ``play`` (17
counts each), per player ``draw``, ``hand``, ``discard``, ``known`` and ``held`` (4 x 17 counts
each; ``held``: the hand cards from before the player's last reshuffle, as the reference's), and
the public log (``player * 1024 + code``: the action id of a play, buy, trash, discard or gain,
``MOAT_CODE`` for a Moat reveal, ``CELLAR_CODE + k`` for a Cellar discard of k cards). A running
64-bit hash of the log (``H_LOG_HASH``) keeps ``nb_infostate_key`` cheap; past ``LOG_CAP``
entries the log is no longer stored (the key stays exact, the string views refuse).

The array keeps no action history (games run to thousands of actions): the engine's record
(``array_kernel.kernel_record``) replays one, and wraps an array as a pyspiel state with an
empty ``history()``.

Heuristic (``nb_heuristic``): TAG's setting for Dominion (``json/players/gameSpecific/
Dominion.json``) is ``PureScoreHeuristic``, the raw game score (victory points). On the
returns' [0, 1] scale: ``clip(VP / 100, 0, 1)`` per player (the scale the seven_wonders port
uses for the same heuristic); the returns at the end.

Determinization (``nb_determinize``): ``game.DominionKernel.resample``'s law, draw for draw (its
Fisher-Yates swaps ``rng_bounded(i + 1)``, as the reference does given a ``PCG32``): for every
other player the hand keeps ``max(known, held)`` of each type (the cards publicly there) and
the rest of it is re-dealt uniformly from those cards plus the draw pile (a uniform shuffle of
that multiset; the first cards go to the hand, the rest to the draw pile), treasures left out
of the shuffle for the mover in the Buy phase (all were played). It does not reject placements
that no history consistent with the player's view deals (a hidden Moat that Militia would have
revealed, no Action card in the hand of a mover in the Action phase): only the pyspiel sampler
(``_tabletop.sample_rebuilt_world``) draws those again.
"""

from __future__ import annotations

import sys

import numba as nb
import numpy as np

from infosets.core.pcg32 import rng_bounded
from infosets.games.array_kernel import kernel_record
from infosets.games.kernels import Kernel

(
    COPPER,
    SILVER,
    GOLD,
    ESTATE,
    DUCHY,
    PROVINCE,
    CURSE,
    CELLAR,
    MARKET,
    MERCHANT,
    MILITIA,
    MINE,
    MOAT,
    REMODEL,
    SMITHY,
    VILLAGE,
    WORKSHOP,
) = range(17)
NUM_TYPES = 17
CARD_NAMES = (
    "Copper",
    "Silver",
    "Gold",
    "Estate",
    "Duchy",
    "Province",
    "Curse",
    "Cellar",
    "Market",
    "Merchant",
    "Militia",
    "Mine",
    "Moat",
    "Remodel",
    "Smithy",
    "Village",
    "Workshop",
)
COST = (0, 3, 6, 2, 5, 8, 0, 2, 5, 3, 4, 5, 2, 4, 4, 3, 3)
COINS = (1, 2, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
VP = (0, 0, 0, 1, 3, 6, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
TREASURES = (COPPER, SILVER, GOLD)
ACTIONS = tuple(range(CELLAR, NUM_TYPES))
END, PLAY, BUY, DROP, GAIN = 0, 1, 1 + NUM_TYPES, 1 + 2 * NUM_TYPES, 1 + 3 * NUM_TYPES
NUM_ACTIONS = 1 + 4 * NUM_TYPES
HAND_SIZE = 5

# Phases.
(
    ACTION,
    BUYING,
    CELLAR_DROP,
    MILITIA_DROP,
    MINE_TRASH,
    MINE_GAIN,
    REMODEL_TRASH,
    REMODEL_GAIN,
    WORKSHOP_GAIN,
    DRAWING,
    OVER,
) = range(11)


def _supply(n: int) -> list[int]:
    victory = 8 if n == 2 else 12
    supply = [60 - 7 * n, 40, 30, victory, victory, victory, 10 * (n - 1)]
    return supply + [10] * len(ACTIONS)


CHANCE = -1
TERMINAL = -4
MAX_PLAYERS = 4
LOG_CAP = 4096
MOAT_CODE, CELLAR_CODE = 99, 100
AFTER_DEAL, AFTER_TURN, AFTER_ACTION = 0, 1, 2
VP_SCALE = 100.0
(
    H_N,
    H_CUR,
    H_PHASE,
    H_ACTIONS,
    H_BUYS,
    H_COINS,
    H_MERCHANTS,
    H_TO_DRAW,
    H_DRAWER,
    H_AFTER,
    H_AFTER_ARG,
    H_VICTIM,
    H_MARK,
    H_DROPPED,
    H_TURNS,
    H_MAX_TURNS,
    H_NLOG,
    H_LOG_HASH,
) = range(18)
SUPPLY = 20
TRASH = SUPPLY + NUM_TYPES
PLAYAREA = TRASH + NUM_TYPES
DRAW = PLAYAREA + NUM_TYPES
HAND = DRAW + MAX_PLAYERS * NUM_TYPES
DISCARD = HAND + MAX_PLAYERS * NUM_TYPES
KNOWN = DISCARD + MAX_PLAYERS * NUM_TYPES
HELD = KNOWN + MAX_PLAYERS * NUM_TYPES
LOG = HELD + MAX_PLAYERS * NUM_TYPES
STATE_SIZE = LOG + LOG_CAP
COST_A = np.array(COST, dtype=np.int64)
COINS_A = np.array(COINS, dtype=np.int64)
VP_A = np.array(VP, dtype=np.int64)
IS_ACTION = np.array([c in ACTIONS for c in range(NUM_TYPES)], dtype=np.bool_)
TREASURE_TYPES = 3  # Copper, Silver, Gold are types 0..2
_M1 = np.uint64(0x9E3779B97F4A7C15)
_M2 = np.uint64(0xBF58476D1CE4E5B9)
_M3 = np.uint64(0x94D049BB133111EB)


def new_state(n: int, max_turns: int) -> np.ndarray:
    """The initial state array (chance draws player 0's opening hand)."""
    s = np.zeros(STATE_SIZE, dtype=np.int64)
    s[H_N] = n
    s[H_PHASE] = DRAWING
    s[H_ACTIONS] = s[H_BUYS] = 1
    s[H_VICTIM] = -1
    s[H_MAX_TURNS] = max_turns
    s[H_TO_DRAW] = HAND_SIZE
    s[H_AFTER], s[H_AFTER_ARG] = AFTER_DEAL, 1
    s[SUPPLY : SUPPLY + NUM_TYPES] = _supply(n)
    for p in range(n):
        s[DRAW + p * NUM_TYPES + 0] = 7  # Coppers
        s[DRAW + p * NUM_TYPES + ESTATE] = 3
    return s


@nb.njit(cache=True)
def _mix(h, v):
    z = h * _M1 + np.uint64(v + 1)
    z = (z ^ (z >> np.uint64(30))) * _M2
    z = (z ^ (z >> np.uint64(27))) * _M3
    return z ^ (z >> np.uint64(31))


@nb.njit(cache=True)
def nb_current_player(s):
    phase = s[H_PHASE]
    if phase == OVER:
        return TERMINAL
    if phase == DRAWING:
        return CHANCE
    if phase == MILITIA_DROP:
        return s[H_VICTIM]
    return s[H_CUR]


@nb.njit(cache=True)
def _total(s, zone, q):
    base = zone + q * NUM_TYPES
    total = 0
    for c in range(NUM_TYPES):
        total += s[base + c]
    return total


@nb.njit(cache=True)
def nb_chance_outcomes(s, actions, probs):
    base = DRAW + s[H_DRAWER] * NUM_TYPES
    total = 0
    for c in range(NUM_TYPES):
        total += s[base + c]
    m = 0
    for c in range(NUM_TYPES):
        k = s[base + c]
        if k > 0:
            actions[m] = c
            probs[m] = k / total
            m += 1
    return m


@nb.njit(cache=True)
def _gains(s, cost, kinds, buf):
    m = 0
    for c in range(kinds):
        if s[SUPPLY + c] > 0 and COST_A[c] <= cost:
            buf[m] = GAIN + c
            m += 1
    return m


@nb.njit(cache=True)
def nb_legal_actions(s, buf):
    phase = s[H_PHASE]
    p = s[H_CUR]
    hand = HAND + p * NUM_TYPES
    if phase == ACTION:
        buf[0] = END
        m = 1
        for c in range(NUM_TYPES):
            if IS_ACTION[c] and s[hand + c] > 0:
                buf[m] = PLAY + c
                m += 1
        return m
    if phase == BUYING:
        buf[0] = END
        m = 1
        for c in range(NUM_TYPES):
            if s[SUPPLY + c] > 0 and COST_A[c] <= s[H_COINS]:
                buf[m] = BUY + c
                m += 1
        return m
    if phase == CELLAR_DROP or phase == MILITIA_DROP or phase == REMODEL_TRASH or phase == MINE_TRASH:
        m = 0
        if phase == CELLAR_DROP or phase == MINE_TRASH:
            buf[0] = END
            m = 1
        if phase == MILITIA_DROP:
            hand = HAND + s[H_VICTIM] * NUM_TYPES
        kinds = TREASURE_TYPES if phase == MINE_TRASH else NUM_TYPES
        for c in range(kinds):
            if s[hand + c] > 0:
                buf[m] = DROP + c
                m += 1
        return m
    if phase == MINE_GAIN:
        return _gains(s, s[H_MARK] + 3, TREASURE_TYPES, buf)
    if phase == REMODEL_GAIN:
        return _gains(s, s[H_MARK] + 2, NUM_TYPES, buf)
    if phase == WORKSHOP_GAIN:
        return _gains(s, 4, NUM_TYPES, buf)
    if phase == DRAWING:
        return nb_chance_outcomes(s, buf, np.empty(NUM_TYPES, np.float64))
    return 0


@nb.njit(cache=True)
def _log(s, player, code):
    entry = player * 1024 + code
    i = s[H_NLOG]
    if i < LOG_CAP:
        s[LOG + i] = entry
    s[H_NLOG] = i + 1
    s[H_LOG_HASH] = np.int64(_mix(np.uint64(s[H_LOG_HASH]), entry))


@nb.njit(cache=True)
def _leave_hand(s, q, c, dest):
    s[HAND + q * NUM_TYPES + c] -= 1
    s[dest + c] += 1
    if s[KNOWN + q * NUM_TYPES + c] > 0:
        s[KNOWN + q * NUM_TYPES + c] -= 1
    if s[HELD + q * NUM_TYPES + c] > 0:
        s[HELD + q * NUM_TYPES + c] -= 1


@nb.njit(cache=True)
def _start_buying(s):
    p = s[H_CUR]
    hand = HAND + p * NUM_TYPES
    for c in range(TREASURE_TYPES):
        k = s[hand + c]
        if k > 0:
            s[H_COINS] += COINS_A[c] * k
            s[PLAYAREA + c] += k
            s[hand + c] = 0
            s[KNOWN + p * NUM_TYPES + c] = 0
            s[HELD + p * NUM_TYPES + c] = 0
    if s[PLAYAREA + SILVER] > 0:
        s[H_COINS] += s[H_MERCHANTS]
    s[H_PHASE] = BUYING


@nb.njit(cache=True)
def _resume_actions(s):
    p = s[H_CUR]
    if s[H_ACTIONS] > 0:
        hand = HAND + p * NUM_TYPES
        for c in range(NUM_TYPES):
            if IS_ACTION[c] and s[hand + c] > 0:
                s[H_PHASE] = ACTION
                return
    _start_buying(s)


@nb.njit(cache=True)
def _begin_turn(s):
    s[H_ACTIONS] = 1
    s[H_BUYS] = 1
    s[H_COINS] = 0
    s[H_MERCHANTS] = 0
    _resume_actions(s)


@nb.njit(cache=True)
def _continue_drawing(s):
    while True:
        q = s[H_DRAWER]
        if s[H_TO_DRAW] > 0:
            if _total(s, DRAW, q) == 0:  # shuffle the discards in
                for c in range(NUM_TYPES):
                    s[DRAW + q * NUM_TYPES + c] = s[DISCARD + q * NUM_TYPES + c]
                    s[DISCARD + q * NUM_TYPES + c] = 0
                if _total(s, DRAW, q) > 0:
                    for c in range(NUM_TYPES):  # the hand now is public (see HELD)
                        s[HELD + q * NUM_TYPES + c] = s[HAND + q * NUM_TYPES + c]
                    s[H_PHASE] = DRAWING
                    return
            else:
                s[H_PHASE] = DRAWING
                return
        s[H_TO_DRAW] = 0
        after = s[H_AFTER]
        if after == AFTER_DEAL:
            nxt = s[H_AFTER_ARG]
            if nxt < s[H_N]:
                s[H_DRAWER] = nxt
                s[H_TO_DRAW] = HAND_SIZE
                s[H_AFTER_ARG] = nxt + 1
                s[H_PHASE] = DRAWING
                continue
            _begin_turn(s)
        elif after == AFTER_TURN:
            _begin_turn(s)
        else:
            _resume_actions(s)
        return


@nb.njit(cache=True)
def _draw_then(s, player, count, after):
    s[H_DRAWER] = player
    s[H_TO_DRAW] = count
    s[H_AFTER] = after
    s[H_AFTER_ARG] = 0  # only the opening deal chain (AFTER_DEAL) has an argument
    s[H_PHASE] = DRAWING
    _continue_drawing(s)


@nb.njit(cache=True)
def _next_militia_victim(s, start):
    for q in range(start, s[H_N]):
        if q == s[H_CUR] or _total(s, HAND, q) <= 3:
            continue
        if s[HAND + q * NUM_TYPES + MOAT] > 0:
            if s[KNOWN + q * NUM_TYPES + MOAT] < 1:
                s[KNOWN + q * NUM_TYPES + MOAT] = 1
            _log(s, q, MOAT_CODE)
            continue
        s[H_VICTIM] = q
        s[H_PHASE] = MILITIA_DROP
        return
    s[H_VICTIM] = -1
    _resume_actions(s)


@nb.njit(cache=True)
def _play_action(s, c):
    p = s[H_CUR]
    _leave_hand(s, p, c, PLAYAREA)
    s[H_ACTIONS] -= 1
    _log(s, p, PLAY + c)
    draws = 0
    if c == CELLAR:
        s[H_ACTIONS] += 1
        s[H_DROPPED] = 0
        s[H_PHASE] = CELLAR_DROP
        return
    if c == MARKET:
        draws = 1
        s[H_ACTIONS] += 1
        s[H_BUYS] += 1
        s[H_COINS] += 1
    elif c == MERCHANT:
        draws = 1
        s[H_ACTIONS] += 1
        s[H_MERCHANTS] += 1
    elif c == MILITIA:
        s[H_COINS] += 2
        _next_militia_victim(s, 0)
        return
    elif c == MINE:
        s[H_PHASE] = MINE_TRASH
        hand = HAND + p * NUM_TYPES
        if s[hand] + s[hand + 1] + s[hand + 2] == 0:
            _resume_actions(s)
        return
    elif c == REMODEL:
        s[H_PHASE] = REMODEL_TRASH
        if _total(s, HAND, p) == 0:
            _resume_actions(s)
        return
    elif c == WORKSHOP:
        s[H_PHASE] = WORKSHOP_GAIN
        if not _any_gain(s, 4, NUM_TYPES):
            _resume_actions(s)
        return
    elif c == MOAT:
        draws = 2
    elif c == SMITHY:
        draws = 3
    elif c == VILLAGE:
        draws = 1
        s[H_ACTIONS] += 2
    _draw_then(s, p, draws, AFTER_ACTION)


@nb.njit(cache=True)
def _any_gain(s, cost, kinds):
    for c in range(kinds):
        if s[SUPPLY + c] > 0 and COST_A[c] <= cost:
            return True
    return False


@nb.njit(cache=True)
def _cleanup(s):
    p = s[H_CUR]
    n = s[H_N]
    for c in range(NUM_TYPES):
        s[DISCARD + p * NUM_TYPES + c] += s[HAND + p * NUM_TYPES + c] + s[PLAYAREA + c]
        s[HAND + p * NUM_TYPES + c] = 0
        s[KNOWN + p * NUM_TYPES + c] = 0
        s[HELD + p * NUM_TYPES + c] = 0
        s[PLAYAREA + c] = 0
    s[H_TURNS] += 1
    empty = 0
    for c in range(NUM_TYPES):
        if s[SUPPLY + c] == 0:
            empty += 1
    if s[SUPPLY + PROVINCE] == 0 or empty >= 3 or s[H_TURNS] >= s[H_MAX_TURNS]:
        s[H_PHASE] = OVER
        return
    s[H_CUR] = (p + 1) % n
    _draw_then(s, p, HAND_SIZE, AFTER_TURN)


@nb.njit(cache=True)
def nb_apply_action(s, action):
    phase = s[H_PHASE]
    if phase == DRAWING:
        q = s[H_DRAWER]
        s[DRAW + q * NUM_TYPES + action] -= 1
        s[HAND + q * NUM_TYPES + action] += 1
        s[H_TO_DRAW] -= 1
        _continue_drawing(s)
        return
    p = s[H_CUR]
    if phase == ACTION:
        if action == END:
            _start_buying(s)
        else:
            _play_action(s, action - PLAY)
    elif phase == BUYING:
        if action == END:
            _cleanup(s)
        else:
            c = action - BUY
            s[SUPPLY + c] -= 1
            s[DISCARD + p * NUM_TYPES + c] += 1
            s[H_COINS] -= COST_A[c]
            s[H_BUYS] -= 1
            _log(s, p, action)
            if s[H_BUYS] == 0:
                _cleanup(s)
    elif phase == CELLAR_DROP:
        if action == END:
            _log(s, p, CELLAR_CODE + s[H_DROPPED])
            _draw_then(s, p, s[H_DROPPED], AFTER_ACTION)
        else:
            _leave_hand(s, p, action - DROP, DISCARD + p * NUM_TYPES)
            s[H_DROPPED] += 1
    elif phase == MILITIA_DROP:
        q = s[H_VICTIM]
        _leave_hand(s, q, action - DROP, DISCARD + q * NUM_TYPES)
        _log(s, q, action)
        if _total(s, HAND, q) <= 3:
            _next_militia_victim(s, q + 1)
    elif phase == MINE_TRASH or phase == REMODEL_TRASH:
        if action == END:
            _resume_actions(s)
        else:
            c = action - DROP
            _leave_hand(s, p, c, TRASH)
            _log(s, p, action)
            s[H_MARK] = COST_A[c]
            if phase == MINE_TRASH:
                s[H_PHASE] = MINE_GAIN
                if not _any_gain(s, s[H_MARK] + 3, TREASURE_TYPES):
                    _resume_actions(s)
            else:
                s[H_PHASE] = REMODEL_GAIN
                if not _any_gain(s, s[H_MARK] + 2, NUM_TYPES):
                    _resume_actions(s)
    else:  # a gain
        c = action - GAIN
        s[SUPPLY + c] -= 1
        _log(s, p, action)
        if phase == MINE_GAIN:
            s[HAND + p * NUM_TYPES + c] += 1
            s[KNOWN + p * NUM_TYPES + c] += 1
        else:
            s[DISCARD + p * NUM_TYPES + c] += 1
        _resume_actions(s)


@nb.njit(cache=True)
def _victory_points(s, p):
    total = 0
    for c in (ESTATE, DUCHY, PROVINCE, CURSE):
        k = s[DRAW + p * NUM_TYPES + c] + s[HAND + p * NUM_TYPES + c] + s[DISCARD + p * NUM_TYPES + c]
        if p == s[H_CUR]:
            k += s[PLAYAREA + c]
        total += VP_A[c] * k
    return total


@nb.njit(cache=True)
def nb_returns(s, out):
    n = s[H_N]
    for p in range(n):
        out[p] = 0.0
    if s[H_PHASE] != OVER:
        return
    last = (s[H_TURNS] - 1) % n
    best_vp, best_tie = -1 << 30, -1
    for p in range(n):
        vp, tie = _victory_points(s, p), 1 if p > last else 0
        if vp > best_vp or (vp == best_vp and tie > best_tie):
            best_vp, best_tie = vp, tie
    winners = 0
    for p in range(n):
        if _victory_points(s, p) == best_vp and (1 if p > last else 0) == best_tie:
            winners += 1
    for p in range(n):
        if _victory_points(s, p) == best_vp and (1 if p > last else 0) == best_tie:
            out[p] = 1.0 / winners


@nb.njit(cache=True)
def nb_heuristic(s, out):
    """TAG's PureScoreHeuristic (victory points) as ``clip(VP / 100, 0, 1)``; the returns at
    the end."""
    if s[H_PHASE] == OVER:
        nb_returns(s, out)
        return
    for p in range(s[H_N]):
        out[p] = min(1.0, max(0.0, _victory_points(s, p) / VP_SCALE))


@nb.njit(cache=True)
def nb_infostate_key(s, player):
    """A 64-bit hash of ``player``'s information state: the header the string shows, own
    hand, play area, supply, trash, every player's hand and draw sizes, known hand cards and
    discards, and the log (by its running hash)."""
    h = _mix(np.uint64(player), nb_current_player(s) + 8)
    for i in (H_PHASE, H_TURNS, H_ACTIONS, H_BUYS, H_COINS, H_LOG_HASH):
        h = _mix(h, s[i])
    own = HAND + player * NUM_TYPES
    for c in range(NUM_TYPES):
        h = _mix(h, s[own + c])
        h = _mix(h, s[PLAYAREA + c])
        h = _mix(h, s[SUPPLY + c])
        h = _mix(h, s[TRASH + c])
    for q in range(s[H_N]):
        h = _mix(h, _total(s, HAND, q) * 4096 + _total(s, DRAW, q))
        for c in range(NUM_TYPES):
            h = _mix(h, s[KNOWN + q * NUM_TYPES + c] * 4096 + s[DISCARD + q * NUM_TYPES + c])
    return np.int64(h)


@nb.njit(cache=True)
def nb_determinize(s, player, rng):
    """Re-deal every other player's hand cards not publicly there from their hand plus draw
    pile, in place, as ``DominionKernel.resample`` (draw for draw with a ``PCG32``): a hand
    keeps ``max(known, held)`` of each type; the Buy-phase mover's re-dealt cards hold no
    treasure (its treasures stay in the draw pile). The cards to deal, in type order, are
    shuffled by Fisher-Yates; the first go to the hand, the rest stay in the draw pile."""
    cards = np.empty(512, np.int64)
    no_treasure_of = s[H_CUR] if s[H_PHASE] == BUYING else -1
    for q in range(s[H_N]):
        if q == player:
            continue
        hand, draw = HAND + q * NUM_TYPES, DRAW + q * NUM_TYPES
        known, held = KNOWN + q * NUM_TYPES, HELD + q * NUM_TYPES
        m = 0
        size = 0
        for c in range(NUM_TYPES):
            kept = max(s[known + c], s[held + c])
            pool = s[draw + c] + s[hand + c] - kept
            size += s[hand + c] - kept
            s[hand + c] = kept
            s[draw + c] = pool
            k = 0 if q == no_treasure_of and c < TREASURE_TYPES else pool
            if m + k > cards.shape[0]:
                grown = np.empty(2 * (m + k), np.int64)
                grown[:m] = cards[:m]
                cards = grown
            for _ in range(k):
                cards[m] = c
                m += 1
        for i in range(m - 1, 0, -1):
            j = rng_bounded(rng, i + 1)
            cards[i], cards[j] = cards[j], cards[i]
        for i in range(size):
            s[hand + cards[i]] += 1
            s[draw + cards[i]] -= 1


# -- the engine's view of this game (infosets.games.kernels) --------------------------------
RULES = sys.modules[__name__]  # the jitted functions the compiled engine calls


def kernel_for(game) -> Kernel | None:
    """This game's kernel for a loaded pyspiel ``game`` (every parameter is covered;
    ``infosets.games.kernels.kernel_for``)."""
    return kernel_record("dominion", RULES, game)
