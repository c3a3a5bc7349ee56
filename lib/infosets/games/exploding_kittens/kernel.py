"""Exploding Kittens' rules, written once: the numba functions both engines play.

Serves Ravichandran, Goodman and Lucas, "Evaluation of Perfect-Information Monte Carlo Tree
Search in Imperfect-Information Games" (docs/papers/pimcts_aggregation.md). The compiled engine
calls these functions directly; the pyspiel adapter (``game.ExplodingKittensKernel``, an
``infosets.games.array_kernel.ArrayKernel``) and the Python reference engine call them on the
same array, so both play one set of rules (phases, action ids, chance outcomes in card-type
order with probability count / total, hand order and the per-card knowledge masks, win-share
returns). The rules and modelling choices are in ``game.py``'s module docstring; this module
also holds the game's constants.

A state is an int64 array: a header (``H_*`` below), then ``pool`` (13 card counts of the
unordered deck remainder), ``discards`` (13), ``alive`` (5), ``hand_len`` (5), ``hands`` and
``seen`` (5 x ``HAND_CAP`` card types and knowledge bitmasks, in hand order), ``top`` and
``top_seen`` (the ordered deck top), ``responders`` (Nope window order), the public ``log``
(``player * 32 + event`` with event the index in ``LOG_EVENTS``), ``hcount`` (5 x 13 hand
counts by type, kept with the hands) and the action ``history``
(its first ``HISTORY_CAP`` actions, counted past that).

Heuristic (``nb_heuristic``): TAG's setting for Exploding Kittens (``json/players/gameSpecific/
ExplodingKittens.json``) is ``OrdinalPosition`` (n minus the player's ordinal position, where
every player still in is jointly first). On the returns' win-share scale: each player still in
gets 1/k (k players in: the current shared first place), knocked-out players 0, and the returns
at the end.

Determinization (``nb_determinize``): as ``game.ExplodingKittensKernel.resample``: the cards the
player does not know (in other hands, on the deck top, in the remainder) are pooled; hand slots
get a uniform draw of the non-kitten ones; the rest and the kittens are shuffled onto the
unknown deck-top slots, the remainder becoming the new pool. ``nb_infostate_key`` is a 64-bit
hash of everything the information state string shows (collisions possible at about n^2 / 2^64).
"""

from __future__ import annotations

import sys

import numba as nb
import numpy as np

from infosets.core.pcg32 import rng_bounded
from infosets.games.array_kernel import kernel_record
from infosets.games.kernels import Kernel

KITTEN, DEFUSE, ATTACK, SKIP, FAVOR, SHUFFLE, FUTURE = range(7)
CATS = tuple(range(7, 12))
NOPE = 12
NUM_TYPES = 13
CARD_NAMES = (
    "Kitten",
    "Defuse",
    "Attack",
    "Skip",
    "Favor",
    "Shuffle",
    "Future",
    "Tacocat",
    "Melon",
    "Beard",
    "Rainbow",
    "Furry",
    "Nope",
)
BASE_COUNTS = (0, 0, 4, 4, 4, 4, 5, 4, 4, 4, 4, 4, 5)
HAND_SIZE = 7
TOTAL_DEFUSES = 6
FUTURE_DEPTH = 3
MAX_PLAYERS = 5
MAX_DECK = sum(BASE_COUNTS) + TOTAL_DEFUSES + MAX_PLAYERS

# Actions.
DRAW, PLAY_ATTACK, PLAY_SKIP, PLAY_SHUFFLE, PLAY_FUTURE = range(5)
FAVOR_BASE = 5  # + target
CAT_BASE = FAVOR_BASE + MAX_PLAYERS  # + kind * MAX_PLAYERS + target
GIVE_BASE = CAT_BASE + len(CATS) * MAX_PLAYERS  # + card type
PLACE_BASE = GIVE_BASE + NUM_TYPES  # + position from the top
PASS = PLACE_BASE + MAX_DECK + 1  # let the pending card (or Nope) stand
PLAY_NOPE = PASS + 1
NUM_ACTIONS = PLAY_NOPE + 1
# The plays of one action card with no target: action -> (card, log entry).
SINGLE_PLAYS = {
    PLAY_ATTACK: (ATTACK, "attack"),
    PLAY_SKIP: (SKIP, "skip"),
    PLAY_SHUFFLE: (SHUFFLE, "shuffle"),
    PLAY_FUTURE: (FUTURE, "future"),
}

# Phases.
DEAL, MAIN, GIVE, PLACE, DRAW_CHANCE, STEAL, FILL, OVER, NOPE_WINDOW = range(9)
NUM_PHASES = 9
# Every entry the public log can hold (the information-state tensor counts them).
LOG_EVENTS = (
    tuple(event for _, event in SINGLE_PLAYS.values())
    + tuple(f"favor{q}" for q in range(MAX_PLAYERS))
    + tuple(f"steal{q}" for q in range(MAX_PLAYERS))
    + ("nope", "noped", "placed", "defused", "exploded")
)

CHANCE = -1
TERMINAL = -4
TOTAL_CARDS = sum(BASE_COUNTS) + TOTAL_DEFUSES + MAX_PLAYERS - 1
HAND_CAP = TOTAL_CARDS  # every card but the kittens could end in one hand
TOP_CAP = TOTAL_CARDS + 1
LOG_CAP = 4 * TOTAL_CARDS  # plays, "noped" entries, placements, defuses, explosions
HISTORY_CAP = 1024  # actions kept (random games take about 100-300)
(
    H_N,
    H_PHASE,
    H_CUR,
    H_TURNS,
    H_TO_DEAL,
    H_ACTOR,
    H_VICTIM,
    H_FILL_TO,
    H_FILL_THEN,
    H_PENDING,
    H_NOPES,
    H_NTOP,
    H_NRESP,
    H_NLOG,
    H_NHIST,
) = range(15)
POOL = 16
DISCARDS = POOL + NUM_TYPES
ALIVE = DISCARDS + NUM_TYPES
HAND_LEN = ALIVE + MAX_PLAYERS
HANDS = HAND_LEN + MAX_PLAYERS
SEEN = HANDS + MAX_PLAYERS * HAND_CAP
TOP = SEEN + MAX_PLAYERS * HAND_CAP
TOP_SEEN = TOP + TOP_CAP
RESP = TOP_SEEN + TOP_CAP
LOG = RESP + MAX_PLAYERS
HCOUNT = LOG + LOG_CAP  # per player, hand card counts by type (kept with the hands)
HISTORY = HCOUNT + MAX_PLAYERS * NUM_TYPES
STATE_SIZE = HISTORY + HISTORY_CAP
EV_ATTACK, EV_SKIP, EV_SHUFFLE, EV_FUTURE = 0, 1, 2, 3
EV_FAVOR, EV_STEAL = 4, 9
EV_NOPE, EV_NOPED, EV_PLACED, EV_DEFUSED, EV_EXPLODED = 14, 15, 16, 17, 18
assert LOG_EVENTS[EV_NOPE] == "nope" and LOG_EVENTS[EV_EXPLODED] == "exploded"
assert LOG_EVENTS[EV_FAVOR] == "favor0" and LOG_EVENTS[EV_STEAL] == "steal0"
# Single-card plays: action -> (card, event).
SINGLE_CARD = np.array([-1, ATTACK, SKIP, SHUFFLE, FUTURE], dtype=np.int64)
SINGLE_EVENT = np.array([-1, EV_ATTACK, EV_SKIP, EV_SHUFFLE, EV_FUTURE], dtype=np.int64)
BASE = np.array(BASE_COUNTS, dtype=np.int64)
FIRST_CAT = CATS[0]
NUM_CATS = len(CATS)
assert PLAY_ATTACK == 1 and PLAY_FUTURE == 4 and PLAY_SKIP == 2 and PLAY_SHUFFLE == 3


def new_state(n: int) -> np.ndarray:
    """The initial state array of an ``n``-player game (chance deals)."""
    s = np.zeros(STATE_SIZE, dtype=np.int64)
    s[H_N] = n
    s[H_PHASE] = DEAL
    s[H_TURNS] = 1
    s[H_TO_DEAL] = n * HAND_SIZE
    s[H_ACTOR] = s[H_VICTIM] = s[H_FILL_THEN] = s[H_PENDING] = -1
    s[POOL : POOL + NUM_TYPES] = BASE_COUNTS
    for p in range(n):
        s[ALIVE + p] = 1
        s[HAND_LEN + p] = 1
        s[HANDS + p * HAND_CAP] = DEFUSE
        s[SEEN + p * HAND_CAP] = (1 << n) - 1
        s[HCOUNT + p * NUM_TYPES + DEFUSE] = 1
    return s


# -- flow ---------------------------------------------------------------------------------------
@nb.njit(cache=True)
def nb_current_player(s):
    phase = s[H_PHASE]
    if phase == OVER:
        return TERMINAL
    if phase == DEAL or phase == DRAW_CHANCE or phase == STEAL or phase == FILL:
        return CHANCE
    if phase == GIVE:
        return s[H_VICTIM]
    if phase == NOPE_WINDOW:
        return s[RESP]
    return s[H_CUR]


@nb.njit(cache=True)
def _count(s, q, card):
    return s[HCOUNT + q * NUM_TYPES + card]


@nb.njit(cache=True)
def _deck_size(s):
    total = s[H_NTOP]
    for t in range(NUM_TYPES):
        total += s[POOL + t]
    return total


@nb.njit(cache=True)
def _chance_counts(s, actions, counts):
    """Chance outcomes (card types, ascending) into ``actions`` and their card counts into
    ``counts`` (a float64 buffer); their number."""
    m = 0
    if s[H_PHASE] == STEAL:
        q = s[H_VICTIM]
        for t in range(NUM_TYPES):
            c = _count(s, q, t)
            if c > 0:
                actions[m] = t
                counts[m] = c
                m += 1
        return m
    for t in range(NUM_TYPES):
        c = s[POOL + t]
        if c > 0:
            actions[m] = t
            counts[m] = c
            m += 1
    return m


@nb.njit(cache=True)
def nb_chance_outcomes(s, actions, probs):
    m = _chance_counts(s, actions, probs)
    total = 0.0
    for i in range(m):
        total += probs[i]
    for i in range(m):
        probs[i] = probs[i] / total  # whole numbers: exactly count / total, as the adapter
    return m


@nb.njit(cache=True)
def nb_legal_actions(s, buf):
    phase = s[H_PHASE]
    n = s[H_N]
    if phase == MAIN:
        p = s[H_CUR]
        m = 0
        buf[m] = DRAW
        m += 1
        for a in range(1, 5):
            if _count(s, p, SINGLE_CARD[a]) > 0:
                buf[m] = a
                m += 1
        if _count(s, p, FAVOR) > 0:
            for q in range(n):
                if q != p and s[ALIVE + q] and s[HAND_LEN + q] > 0:
                    buf[m] = FAVOR_BASE + q
                    m += 1
        for k in range(NUM_CATS):
            if _count(s, p, FIRST_CAT + k) >= 2:
                for q in range(n):
                    if q != p and s[ALIVE + q] and s[HAND_LEN + q] > 0:
                        buf[m] = CAT_BASE + k * MAX_PLAYERS + q
                        m += 1
        return m
    if phase == GIVE:
        q = s[H_VICTIM]
        m = 0
        for t in range(NUM_TYPES):
            if _count(s, q, t) > 0:
                buf[m] = GIVE_BASE + t
                m += 1
        return m
    if phase == PLACE:
        size = _deck_size(s)
        for i in range(size + 1):
            buf[i] = PLACE_BASE + i
        return size + 1
    if phase == NOPE_WINDOW:
        buf[0] = PASS
        if _count(s, s[RESP], NOPE) > 0:
            buf[1] = PLAY_NOPE
            return 2
        return 1
    if phase == OVER:
        return 0
    m = 0
    if phase == STEAL:
        for t in range(NUM_TYPES):
            if _count(s, s[H_VICTIM], t) > 0:
                buf[m] = t
                m += 1
        return m
    for t in range(NUM_TYPES):
        if s[POOL + t] > 0:
            buf[m] = t
            m += 1
    return m


@nb.njit(cache=True)
def _log(s, player, event):
    s[LOG + s[H_NLOG]] = player * 32 + event
    s[H_NLOG] += 1


@nb.njit(cache=True)
def _append(s, q, card, mask):
    i = s[HAND_LEN + q]
    s[HANDS + q * HAND_CAP + i] = card
    s[SEEN + q * HAND_CAP + i] = mask
    s[HAND_LEN + q] = i + 1
    s[HCOUNT + q * NUM_TYPES + card] += 1


@nb.njit(cache=True)
def _remove(s, q, card, watchers):
    """Take one ``card`` from q's hand (its first copy); returns the card's mask. Everyone
    but q who is among ``watchers`` sees which type went: a watcher who knew a copy of
    ``card`` now knows one copy fewer; anyone else forgets q's hand (they cannot tell which
    card left)."""
    hb = HANDS + q * HAND_CAP
    sb = SEEN + q * HAND_CAP
    length = s[HAND_LEN + q]
    i = 0
    while s[hb + i] != card:
        i += 1
    mask = s[sb + i]
    for j in range(i, length - 1):
        s[hb + j] = s[hb + j + 1]
        s[sb + j] = s[sb + j + 1]
    length -= 1
    s[hb + length] = 0  # vacated slots are zero: one array per state
    s[sb + length] = 0
    s[HCOUNT + q * NUM_TYPES + card] -= 1
    s[HAND_LEN + q] = length
    n = s[H_N]
    for r in range(n):
        if r == q:
            continue
        bit = 1 << r
        if watchers & bit:
            if mask & bit:
                continue
            for j in range(length):
                if s[hb + j] == card and s[sb + j] & bit:
                    s[sb + j] &= ~bit
                    break
        else:
            for j in range(length):
                s[sb + j] &= ~bit
    return mask


@nb.njit(cache=True)
def _play(s, q, card):
    _remove(s, q, card, (1 << s[H_N]) - 1)
    s[DISCARDS + card] += 1


@nb.njit(cache=True)
def _move_card(s, giver, taker, card):
    both = (1 << giver) | (1 << taker)
    _remove(s, giver, card, both)
    _append(s, taker, card, both)


@nb.njit(cache=True)
def _next_player(s, turns):
    n = s[H_N]
    q = (s[H_CUR] + 1) % n
    while not s[ALIVE + q]:
        q = (q + 1) % n
    s[H_CUR] = q
    s[H_TURNS] = turns
    s[H_PHASE] = MAIN


@nb.njit(cache=True)
def _end_one_turn(s):
    s[H_PHASE] = MAIN
    s[H_TURNS] -= 1
    if s[H_TURNS] <= 0:
        _next_player(s, 1)


@nb.njit(cache=True)
def _open_window(s, last):
    n = s[H_N]
    m = 0
    for i in range(1, n):
        q = (last + i) % n
        if s[ALIVE + q]:
            s[RESP + m] = q
            m += 1
    s[H_NRESP] = m
    for i in range(m, MAX_PLAYERS):
        s[RESP + i] = 0
    s[H_PHASE] = NOPE_WINDOW


@nb.njit(cache=True)
def _after_fill(s):
    p = s[H_CUR]
    ntop = s[H_NTOP]
    if s[H_FILL_THEN] < 0:
        for i in range(s[H_FILL_TO]):
            s[TOP_SEEN + i] |= 1 << p
        s[H_PHASE] = MAIN
        return
    keep = 1 << p
    for i in range(ntop):
        s[TOP_SEEN + i] &= keep
    at = s[H_FILL_THEN]
    for i in range(ntop, at, -1):
        s[TOP + i] = s[TOP + i - 1]
        s[TOP_SEEN + i] = s[TOP_SEEN + i - 1]
    s[TOP + at] = KITTEN
    s[TOP_SEEN + at] = keep
    s[H_NTOP] = ntop + 1
    _end_one_turn(s)


@nb.njit(cache=True)
def _fill(s, length, then):
    s[H_FILL_TO] = length
    s[H_FILL_THEN] = then
    if s[H_NTOP] >= length:
        _after_fill(s)
    else:
        s[H_PHASE] = FILL


@nb.njit(cache=True)
def _drawn(s, card, mask):
    p = s[H_CUR]
    if card == KITTEN:
        if _count(s, p, DEFUSE) > 0:
            _play(s, p, DEFUSE)
            _log(s, p, EV_DEFUSED)
            s[H_PHASE] = PLACE
            return
        s[DISCARDS + KITTEN] += 1
        for i in range(s[HAND_LEN + p]):
            s[DISCARDS + s[HANDS + p * HAND_CAP + i]] += 1
            s[HANDS + p * HAND_CAP + i] = 0
            s[SEEN + p * HAND_CAP + i] = 0
        for t in range(NUM_TYPES):
            s[HCOUNT + p * NUM_TYPES + t] = 0
        s[HAND_LEN + p] = 0
        s[ALIVE + p] = 0
        _log(s, p, EV_EXPLODED)
        alive = 0
        for q in range(s[H_N]):
            alive += s[ALIVE + q]
        if alive == 1:
            s[H_PHASE] = OVER
            return
        _next_player(s, 1)
        return
    _append(s, p, card, mask)
    s[H_PHASE] = MAIN
    _end_one_turn(s)


@nb.njit(cache=True)
def _resolve(s, action):
    p = s[H_CUR]
    if action == PLAY_ATTACK:
        _next_player(s, 2)
    elif action == PLAY_SKIP:
        _end_one_turn(s)
    elif action == PLAY_SHUFFLE:
        for i in range(s[H_NTOP]):
            s[POOL + s[TOP + i]] += 1
            s[TOP + i] = 0
            s[TOP_SEEN + i] = 0
        s[H_NTOP] = 0
    elif action == PLAY_FUTURE:
        _fill(s, min(FUTURE_DEPTH, _deck_size(s)), -1)
    else:
        if action < CAT_BASE:
            target, phase = action - FAVOR_BASE, GIVE
        else:
            target, phase = (action - CAT_BASE) % MAX_PLAYERS, STEAL
        if s[HAND_LEN + target] > 0:
            s[H_ACTOR] = p
            s[H_VICTIM] = target
            s[H_PHASE] = phase


@nb.njit(cache=True)
def _main(s, action):
    p = s[H_CUR]
    if action == DRAW:
        if s[H_NTOP] > 0:
            card, mask = s[TOP], s[TOP_SEEN]
            ntop = s[H_NTOP] - 1
            for i in range(ntop):
                s[TOP + i] = s[TOP + i + 1]
                s[TOP_SEEN + i] = s[TOP_SEEN + i + 1]
            s[TOP + ntop] = 0
            s[TOP_SEEN + ntop] = 0
            s[H_NTOP] = ntop
            _drawn(s, card, mask | (1 << p))
        else:
            s[H_PHASE] = DRAW_CHANCE
        return
    if action < FAVOR_BASE:
        _play(s, p, SINGLE_CARD[action])
        _log(s, p, SINGLE_EVENT[action])
    elif action < CAT_BASE:
        _play(s, p, FAVOR)
        _log(s, p, EV_FAVOR + action - FAVOR_BASE)
    else:
        rest = action - CAT_BASE
        kind = rest // MAX_PLAYERS
        _play(s, p, FIRST_CAT + kind)
        _play(s, p, FIRST_CAT + kind)
        _log(s, p, EV_STEAL + rest - kind * MAX_PLAYERS)
    s[H_PENDING] = action
    s[H_NOPES] = 0
    _open_window(s, p)


@nb.njit(cache=True)
def _respond(s, action):
    q = s[RESP]
    m = s[H_NRESP] - 1
    for i in range(m):
        s[RESP + i] = s[RESP + i + 1]
    s[RESP + m] = 0
    s[H_NRESP] = m
    if action == PLAY_NOPE:
        _play(s, q, NOPE)
        _log(s, q, EV_NOPE)
        s[H_NOPES] += 1
        _open_window(s, q)
        return
    if m == 0:
        s[H_PHASE] = MAIN
        if s[H_NOPES] % 2:
            _log(s, s[H_CUR], EV_NOPED)
        else:
            _resolve(s, s[H_PENDING])
        s[H_PENDING] = -1


@nb.njit(cache=True)
def nb_apply_action(s, action):
    h = s[H_NHIST]
    if h < HISTORY_CAP:  # past the cap the history is counted, not kept
        s[HISTORY + h] = action
    s[H_NHIST] = h + 1
    phase = s[H_PHASE]
    if phase == DEAL:
        n = s[H_N]
        s[POOL + action] -= 1
        p = (n * HAND_SIZE - s[H_TO_DEAL]) // HAND_SIZE
        _append(s, p, action, 1 << p)
        s[H_TO_DEAL] -= 1
        if s[H_TO_DEAL] == 0:
            s[POOL + KITTEN] += n - 1
            s[POOL + DEFUSE] += TOTAL_DEFUSES - n
            s[H_PHASE] = MAIN
    elif phase == MAIN:
        _main(s, action)
    elif phase == DRAW_CHANCE:
        s[POOL + action] -= 1
        _drawn(s, action, 1 << s[H_CUR])
    elif phase == GIVE:
        _move_card(s, s[H_VICTIM], s[H_ACTOR], action - GIVE_BASE)
        s[H_PHASE] = MAIN
    elif phase == STEAL:
        _move_card(s, s[H_VICTIM], s[H_ACTOR], action)
        s[H_PHASE] = MAIN
    elif phase == FILL:
        s[POOL + action] -= 1
        ntop = s[H_NTOP]
        s[TOP + ntop] = action
        s[TOP_SEEN + ntop] = 0
        s[H_NTOP] = ntop + 1
        if ntop + 1 == s[H_FILL_TO]:
            _after_fill(s)
    elif phase == PLACE:
        position = action - PLACE_BASE
        _log(s, s[H_CUR], EV_PLACED)
        _fill(s, position, position)
    elif phase == NOPE_WINDOW:
        _respond(s, action)


@nb.njit(cache=True)
def nb_returns(s, out):
    n = s[H_N]
    for p in range(n):
        out[p] = 0.0
    if s[H_PHASE] != OVER:
        return
    for p in range(n):
        out[p] = 1.0 if s[ALIVE + p] else 0.0


@nb.njit(cache=True)
def nb_heuristic(s, out):
    """TAG's OrdinalPosition as win shares: 1/k to each of the k players still in, 0 to the
    others (the returns at the end)."""
    n = s[H_N]
    k = 0
    for p in range(n):
        k += s[ALIVE + p]
    for p in range(n):
        out[p] = 1.0 / k if s[ALIVE + p] else 0.0


# -- information ----------------------------------------------------------------------------
_M1 = np.uint64(0x9E3779B97F4A7C15)
_M2 = np.uint64(0xBF58476D1CE4E5B9)
_M3 = np.uint64(0x94D049BB133111EB)


@nb.njit(cache=True)
def _mix(h, v):
    z = h * _M1 + np.uint64(v + 1)
    z = (z ^ (z >> np.uint64(30))) * _M2
    z = (z ^ (z >> np.uint64(27))) * _M3
    return z ^ (z >> np.uint64(31))


@nb.njit(cache=True)
def nb_infostate_key(s, player):
    """A 64-bit hash of ``player``'s information state string's content: header, own hand,
    others' sizes, status and known cards, the known deck top, deck size, discards and log."""
    n = s[H_N]
    bit = 1 << player
    h = _mix(np.uint64(player), nb_current_player(s) + 8)
    for i in (H_PHASE, H_TURNS, H_PENDING, H_NOPES):
        h = _mix(h, s[i] + 2)
    counts = np.zeros(NUM_TYPES, np.int64)
    for q in range(n):
        counts[:] = 0
        base = q * HAND_CAP
        for i in range(s[HAND_LEN + q]):
            if q == player or s[SEEN + base + i] & bit:
                counts[s[HANDS + base + i]] += 1
        h = _mix(h, s[HAND_LEN + q] * 2 + s[ALIVE + q])
        for t in range(NUM_TYPES):
            h = _mix(h, counts[t])
    last = 0
    for i in range(s[H_NTOP]):
        if s[TOP_SEEN + i] & bit:
            last = i + 1
    for i in range(last):
        h = _mix(h, s[TOP + i] if s[TOP_SEEN + i] & bit else NUM_TYPES)
    h = _mix(h, _deck_size(s) * 64 + last)
    for t in range(NUM_TYPES):
        h = _mix(h, s[DISCARDS + t])
    for i in range(s[H_NLOG]):
        h = _mix(h, s[LOG + i])
    return np.int64(h)


@nb.njit(cache=True)
def _shuffle(items, n, rng):
    for i in range(n - 1, 0, -1):
        j = rng_bounded(rng, i + 1)
        items[i], items[j] = items[j], items[i]


@nb.njit(cache=True)
def nb_determinize(s, player, rng):
    """Redeal the cards ``player`` does not know, in place (as ``game.ExplodingKittensKernel.
    resample``, draw for draw; see the module docstring)."""
    n = s[H_N]
    bit = 1 << player
    pool = np.zeros(NUM_TYPES, np.int64)
    for t in range(NUM_TYPES):
        pool[t] = s[POOL + t]
    slots = np.empty(TOTAL_CARDS, np.int64)  # flat indices into HANDS of unknown hand cards
    nslots = 0
    for q in range(n):
        base = q * HAND_CAP
        for i in range(s[HAND_LEN + q]):
            if not s[SEEN + base + i] & bit:
                pool[s[HANDS + base + i]] += 1
                slots[nslots] = base + i
                nslots += 1
    tops = np.empty(TOP_CAP, np.int64)
    ntops = 0
    for i in range(s[H_NTOP]):
        if not s[TOP_SEEN + i] & bit:
            pool[s[TOP + i]] += 1
            tops[ntops] = i
            ntops += 1
    kittens = pool[KITTEN]
    pool[KITTEN] = 0
    cards = np.empty(TOTAL_CARDS, np.int64)
    m = 0
    for t in range(NUM_TYPES):
        for _ in range(pool[t]):
            cards[m] = t
            m += 1
    _shuffle(cards, m, rng)
    for i in range(nslots):
        q = slots[i] // HAND_CAP
        s[HCOUNT + q * NUM_TYPES + s[HANDS + slots[i]]] -= 1
        s[HANDS + slots[i]] = cards[i]
        s[HCOUNT + q * NUM_TYPES + cards[i]] += 1
    rest = np.empty(TOTAL_CARDS, np.int64)
    r = m - nslots
    rest[:r] = cards[nslots:m]
    for _ in range(kittens):
        rest[r] = KITTEN
        r += 1
    _shuffle(rest, r, rng)
    for i in range(ntops):
        s[TOP + tops[i]] = rest[i]
    for t in range(NUM_TYPES):
        s[POOL + t] = 0
    for i in range(ntops, r):
        s[POOL + rest[i]] += 1


# -- the engine's view of this game (infosets.games.kernels) --------------------------------
RULES = sys.modules[__name__]  # the jitted functions the compiled engine calls


def kernel_for(game) -> Kernel | None:
    """This game's kernel for a loaded pyspiel ``game`` (``infosets.games.kernels.kernel_for``)."""
    return kernel_record("exploding_kittens", RULES, game)
