"""Colt Express's rules (as TAG models them) on a flat int64 array, written once.

Serves the compiled PI-MCTS / IS-MCTS engine (``infosets.search.compiled``) of Ravichandran,
Goodman and Lucas, "Evaluation of Perfect-Information Monte Carlo Tree Search in
Imperfect-Information Games" (docs/papers/pimcts_aggregation.md), who evaluate Colt Express
with 3 players, and the pyspiel adapter (``game.py``'s ``ColtExpressKernel``, an
``array_kernel.ArrayKernel`` running these ``nb_*`` functions; the modelled rules are in its
module docstring). Action ids, chance outcomes (ascending), returns (win shares, ties broken
by fewer bullet cards received) are the adapter's because they are these;
tests/games/colt_express/test_colt_express_oracle.py checks them step by step against the
frozen former Python rules.

State array (one compiled kernel serves 2-6 players):

* header: players, phase, round, round card, planning step, marshal, spare strongbox, end
  flag, the chance queue's ring bounds, the pile's bounds, used car configurations and round
  cards (bit masks), the history length and capacity, a running hash of the public record;
* per bandit: character, car, roof flag, bullets left, deck and hand (counts of the 7 card
  types), loot (counts of the 8 loot kinds), a running hash of their private record;
* the purse pool, the planning schedule (mover, turn, turn type), the pile (owner, card,
  face down, history index), the chance queue (kind * 8 + bandit), the loot at every spot,
  every bandit's whole deck at each round's shuffle;
* the history: ``action | kind << 8 | bandit << 12 | round << 16 | extra << 20`` per entry
  (``kind`` one of the K_* record kinds below; ``extra`` the round card, the number of cards
  drawn or the resolved card), from which the public log and each bandit's draws are read.

``nb_infostate_key`` is a 64-bit hash of the information state, not a strict injection: the
public record (every log entry, and "a card dealt to bandit q" for each private draw) is hashed
as it grows, and so is each bandit's private record (the cards they drew, their face-down
cards); the key mixes the public hash, the player and the player's private hash. Equal strings
give equal keys; distinct strings collide with probability about 2**-64.

``nb_determinize`` is the adapter's ``world_history``: for every opponent and every round,
the opponent's draws and unrevealed face-down cards are redrawn by rejection (the deck dealt
in chance order, each face-up play must be in hand, each face-down card a uniformly chosen
playable type in hand, equal to the revealed type where it has been resolved since); the
state is then rebuilt by replaying the rewritten history, as the adapter's world is.

``nb_heuristic`` is the adapter's ``heuristic``: TAG's LeaderHeuristic on the dollars, the
shooter reward counted in proportion to the rounds played, scaled by 5000 dollars into
[0, 1]; the returns at the end.
"""

from __future__ import annotations

import sys

import numba as nb
import numpy as np

from infosets.core.pcg32 import rng_bounded
from infosets.games.kernels import Kernel

CHANCE = -1
TERMINAL = -4
MAXP = 6
NUM_ACTIONS = 147
NT = 7          # card types (6 playable and the bullet card)
PLAYABLE = 6
BULLET = 6
NUM_LOOT = 8
JEWEL, STRONGBOX = 6, 7
GHOST, CHEYENNE, DJANGO, TUCO, DOC, BELLE = range(6)
SIDEWAYS, VERTICAL, PUNCH, MARSHAL_CARD, SHOOT, ROB = range(6)
NORMAL, HIDDEN, DOUBLE, REVERSE = range(4)
CH_CHARACTER, CH_CAR, CH_PURSE, CH_ROUND, CH_DRAW = range(5)
PLAN, RESOLVE = 0, 1
DRAW = 6
MOVE_TO, CLIMB, MARSHAL_TO, ROB_KIND, ROB_NOTHING = 7, 14, 15, 22, 30
PUNCH_BASE, PUNCH_NOBODY, SHOOT_AT, SHOOT_NOBODY = 31, 139, 140, 146
NO_DROP = 8
NUM_ROUNDS, NUM_REGULAR = 5, 7
HAND_SIZE, CARDS_PER_DRAW, ROOF_MOVE, BULLETS = 6, 3, 3, 6
SHOOTER_REWARD = 1000
LEADER_SCALE = 5000.0
MAX_REJECTIONS = 200_000

# history record kinds
K_CHAR, K_CAR, K_PURSE, K_ROUND, K_DEAL, K_DRAW, K_UP, K_HIDDEN, K_RESOLVE = range(9)

_START_CARDS = np.array([2, 2, 1, 1, 2, 2, 0], dtype=np.int64)
_PURSE_POOL = np.array([8, 2, 2, 2, 2, 2], dtype=np.int64)
_CONF_PURSES = np.array([1, 2, 3, 1, 4, 0], dtype=np.int64)
_CONF_JEWELS = np.array([0, 0, 0, 1, 1, 3], dtype=np.int64)
_LOOT_VALUES = np.array([250, 300, 350, 400, 450, 500, 500, 1000], dtype=np.int64)
# turn types per round card, -1 padded (TAG's 2-4 and 5-6 player sequences)
_TURNS_SMALL = np.array([[0, 0, 1, 3, -1], [0, 1, 0, 1, -1], [0, 2, 0, -1, -1], [0, 0, 1, 0, 0],
                         [0, 1, 0, 0, -1], [0, 1, 2, 3, -1], [0, 1, 0, 1, 0], [0, 0, 1, 0, -1],
                         [0, 0, 1, 0, -1], [0, 0, 1, 0, -1]], dtype=np.int64)
_TURNS_LARGE = np.array([[0, 0, 3, -1, -1], [0, 1, 1, 1, -1], [0, 2, -1, -1, -1], [0, 1, 0, 3, -1],
                         [0, 1, 0, -1, -1], [0, 2, 3, -1, -1], [0, 1, 0, 1, -1], [0, 0, 1, 0, -1],
                         [0, 0, 1, 0, -1], [0, 0, 1, 0, -1]], dtype=np.int64)

# header slots
N, PHASE, ROUND, CARD, SCHED_I, SCHED_LEN, MARSHAL, SPARE, DONE = 0, 1, 2, 3, 4, 5, 6, 7, 8
QHEAD, QLEN, PHEAD, PEND, USED_CONF, USED_CARDS, HLEN, HCAP, PUBHASH = 9, 10, 11, 12, 13, 14, 15, 16, 17
# regions
CHARS, CAR, ROOF, BLEFT, PPOOL = 32, 38, 44, 50, 56
SCHED = 64        # 30 steps x (mover, turn, type)
PILE = 160        # 30 cards x (owner, card, face down, history index)
QUEUE = 280       # ring of 64: kind * 8 + bandit
QCAP = 64
DECK = 344        # 6 x 7
HAND = 386        # 6 x 7
PLOOT = 428       # 6 x 8
LOOT = 476        # 14 spots x 8
RDECK = 588       # 5 rounds x 6 x 7
PRIV = 798        # 6 private hashes
HIST = 808

_M1 = 0x9E3779B97F4A7C15 - (1 << 64)  # as int64
_M2 = 0xBF58476D1CE4E5B9 - (1 << 64)


def max_game_length(n: int) -> int:
    """Same bound as the adapter's ``max_game_length``."""
    steps = 5 * n
    return 6 * n + NUM_ROUNDS * (1 + n * (HAND_SIZE + 1) + steps * (2 + CARDS_PER_DRAW))


def new_state(players: int) -> np.ndarray:
    """The initial state array (characters are dealt next)."""
    if not 2 <= players <= MAXP:
        raise ValueError(f"players: must be in [2, {MAXP}] for the kernel, got {players}")
    cap = max_game_length(players)
    s = np.zeros(HIST + cap, dtype=np.int64)
    s[N], s[HCAP] = players, cap
    _init(s)
    return s


@nb.njit(cache=True)
def _mix(h, token):
    h = (h ^ token) * _M1
    h ^= (h >> 31) & 0x1FFFFFFFF
    return h


@nb.njit(cache=True)
def _push(s, kind, who):
    s[QUEUE + (s[QHEAD] + s[QLEN]) % QCAP] = kind * 8 + who
    s[QLEN] += 1


@nb.njit(cache=True)
def _init(s):
    """Reset ``s`` to the initial state of its player count (history emptied)."""
    n, cap = s[N], s[HCAP]
    s[:HIST] = 0
    s[N], s[HCAP] = n, cap
    s[CARD] = -1
    s[MARSHAL] = n
    s[SPARE] = 1
    s[PUBHASH] = 0x5EED
    for p in range(n):
        s[CHARS + p] = -1
        s[CAR + p] = p % 2
        s[BLEFT + p] = BULLETS
        s[PLOOT + 8 * p] = 1
        for t in range(NT):
            s[DECK + 7 * p + t] = _START_CARDS[t]
    for t in range(6):
        s[PPOOL + t] = _PURSE_POOL[t]
    s[LOOT + 8 * (2 * n) + STRONGBOX] = 1
    for p in range(n):
        _push(s, CH_CHARACTER, p)
    for c in range(n):
        _push(s, CH_CAR, c)
    _push(s, CH_ROUND, 0)


@nb.njit(cache=True)
def nb_current_player(s):
    if s[DONE]:
        return TERMINAL
    if s[QLEN] > 0:
        return CHANCE
    if s[PHASE] == PLAN:
        return s[SCHED + 3 * s[SCHED_I]]
    return s[PILE + 4 * s[PHEAD]]


@nb.njit(cache=True)
def _front(s):
    return s[QUEUE + s[QHEAD]]


@nb.njit(cache=True)
def nb_chance_outcomes(s, actions, probs):
    """The chance outcomes at the queue's front, ascending, with their probabilities."""
    code = _front(s)
    kind, who = code // 8, code % 8
    m = 0
    if kind == CH_CHARACTER:
        for c in range(6):
            free = True
            for q in range(s[N]):
                if s[CHARS + q] == c:
                    free = False
            if free:
                actions[m] = c
                m += 1
    elif kind == CH_CAR:
        for c in range(6):
            if not (s[USED_CONF] >> c) & 1:
                actions[m] = c
                m += 1
    elif kind == CH_ROUND:
        if s[ROUND] < NUM_ROUNDS - 1:
            for c in range(NUM_REGULAR):
                if not (s[USED_CARDS] >> c) & 1:
                    actions[m] = c
                    m += 1
        else:
            for c in range(3):
                actions[m] = c
                m += 1
    else:
        base = PPOOL if kind == CH_PURSE else DECK + 7 * who
        width = 6 if kind == CH_PURSE else NT
        total = 0
        for t in range(width):
            total += s[base + t]
        for t in range(width):
            c = s[base + t]
            if c:
                actions[m] = t
                probs[m] = c / total
                m += 1
        return m
    for i in range(m):
        probs[i] = 1 / m
    return m


@nb.njit(cache=True)
def _spare_belle(s, targets, k):
    """Belle is no target when another is available (``targets[:k]``, ascending): new count."""
    if k <= 1:
        return k
    j = 0
    for i in range(k):
        if s[CHARS + targets[i]] != BELLE:
            targets[j] = targets[i]
            j += 1
    return j


@nb.njit(cache=True)
def _shot_targets(s, p, targets):
    """The bandits ``p`` can shoot, ascending (as a bit mask turned into a list); their number."""
    n, car, roof = s[N], s[CAR + p], s[ROOF + p]
    mask = 0
    if roof:
        for step in (-1, 1):
            c = car + step
            while 0 <= c <= n:
                found = False
                for q in range(n):
                    if q != p and s[CAR + q] == c and s[ROOF + q]:
                        mask |= 1 << q
                        found = True
                if found:
                    break
                c += step
    else:
        for q in range(n):
            if q != p and abs(s[CAR + q] - car) == 1 and not s[ROOF + q]:
                mask |= 1 << q
    if s[CHARS + p] == TUCO:
        for q in range(n):
            if q != p and s[CAR + q] == car and s[ROOF + q] != roof:
                mask |= 1 << q
    k = 0
    for q in range(n):
        if (mask >> q) & 1:
            targets[k] = q
            k += 1
    return k


@nb.njit(cache=True)
def _resolve_options(s, p, card, buf):
    n, car, roof = s[N], s[CAR + p], s[ROOF + p]
    m = 0
    if card == SIDEWAYS:
        reach = ROOF_MOVE if roof else 1
        for c in range(max(0, car - reach), min(n, car + reach) + 1):
            if c != car:
                buf[m] = MOVE_TO + c
                m += 1
        return m
    if card == VERTICAL:
        buf[0] = CLIMB
        return 1
    if card == MARSHAL_CARD:
        for c in (s[MARSHAL] - 1, s[MARSHAL] + 1):
            if 0 <= c <= n:
                buf[m] = MARSHAL_TO + c
                m += 1
        return m
    if card == ROB:
        spot = LOOT + 8 * (2 * car + roof)
        for k in range(NUM_LOOT):
            if s[spot + k]:
                buf[m] = ROB_KIND + k
                m += 1
        if m == 0:
            buf[0] = ROB_NOTHING
            m = 1
        return m
    targets = np.empty(MAXP, np.int64)
    if card == PUNCH:
        k = 0
        for q in range(n):
            if q != p and s[CAR + q] == car and s[ROOF + q] == roof:
                targets[k] = q
                k += 1
        k = _spare_belle(s, targets, k)
        for i in range(k):
            q = targets[i]
            has = False
            for d in range(NUM_LOOT):
                if s[PLOOT + 8 * q + d]:
                    has = True
            for forward in range(2):
                if 0 <= car + (1 if forward else -1) <= n:
                    for d in range(NUM_LOOT + 1):
                        if (d < NUM_LOOT and s[PLOOT + 8 * q + d]) or (d == NO_DROP and not has):
                            buf[m] = PUNCH_BASE + (q * 2 + forward) * 9 + d
                            m += 1
        if m == 0:
            buf[0] = PUNCH_NOBODY
            m = 1
        return m
    k = _spare_belle(s, targets, _shot_targets(s, p, targets))
    for i in range(k):
        buf[i] = SHOOT_AT + targets[i]
    if k == 0:
        buf[0] = SHOOT_NOBODY
        k = 1
    return k


@nb.njit(cache=True)
def nb_legal_actions(s, buf):
    """Legal actions ascending (chance outcomes at chance nodes)."""
    if s[DONE]:
        return 0
    if s[QLEN] > 0:
        probs = np.empty(NUM_ACTIONS)
        return nb_chance_outcomes(s, buf, probs)
    p = nb_current_player(s)
    if s[PHASE] == PLAN:
        m = 0
        for t in range(PLAYABLE):
            if s[HAND + 7 * p + t]:
                buf[m] = t
                m += 1
        deck = 0
        for t in range(NT):
            deck += s[DECK + 7 * p + t]
        if deck or m == 0:
            buf[m] = DRAW
            m += 1
        return m
    return _resolve_options(s, p, s[PILE + 4 * s[PHEAD] + 1], buf)


@nb.njit(cache=True)
def _record(s, action, kind, who, extra):
    """Append a history entry; update the public hash and, for private entries, ``who``'s."""
    h = s[HLEN]
    entry = action | (kind << 8) | (who << 12) | (s[ROUND] << 16) | (extra << 20)
    s[HIST + h] = entry
    s[HLEN] = h + 1
    if kind == K_DEAL:
        s[PUBHASH] = _mix(s[PUBHASH], 1000 + who)
        s[PRIV + who] = _mix(s[PRIV + who], 2000 + action)
    elif kind == K_HIDDEN:
        s[PUBHASH] = _mix(s[PUBHASH], (entry & ~255) | 255)
        s[PRIV + who] = _mix(s[PRIV + who], 3000 + action)
    else:
        s[PUBHASH] = _mix(s[PUBHASH], entry)


@nb.njit(cache=True)
def nb_apply_action(s, action):
    if s[QLEN] > 0:
        _apply_chance(s, action)
    elif s[PHASE] == PLAN:
        _plan(s, action)
    else:
        _resolve(s, action)
    _settle(s)


@nb.njit(cache=True)
def _apply_chance(s, outcome):
    code = _front(s)
    kind, who = code // 8, code % 8
    s[QHEAD] = (s[QHEAD] + 1) % QCAP
    s[QLEN] -= 1
    if kind == CH_CHARACTER:
        _record(s, outcome, K_CHAR, who, 0)
        s[CHARS + who] = outcome
    elif kind == CH_CAR:
        _record(s, outcome, K_CAR, who, 0)
        s[LOOT + 8 * (2 * who) + JEWEL] += _CONF_JEWELS[outcome]
        s[USED_CONF] |= 1 << outcome
        for _ in range(_CONF_PURSES[outcome]):   # in front of the queue
            s[QHEAD] = (s[QHEAD] - 1 + QCAP) % QCAP
            s[QLEN] += 1
            s[QUEUE + s[QHEAD]] = CH_PURSE * 8 + who
    elif kind == CH_PURSE:
        _record(s, outcome, K_PURSE, who, 0)
        s[PPOOL + outcome] -= 1
        s[LOOT + 8 * (2 * who) + outcome] += 1
    elif kind == CH_ROUND:
        card = outcome if s[ROUND] < NUM_ROUNDS - 1 else NUM_REGULAR + outcome
        _record(s, outcome, K_ROUND, 0, card)
        _start_round(s, card)
    else:
        _record(s, outcome, K_DEAL, who, 0)
        s[DECK + 7 * who + outcome] -= 1
        s[HAND + 7 * who + outcome] += 1


@nb.njit(cache=True)
def _start_round(s, card):
    n = s[N]
    s[CARD] = card
    s[USED_CARDS] |= 1 << card
    first = s[ROUND] % n
    k = 0
    for t in range(5):
        kind = _TURNS_SMALL[card, t] if n <= 4 else _TURNS_LARGE[card, t]
        if kind < 0:
            break
        step = -1 if kind == REVERSE else 1
        for i in range(n):
            p = (first + step * i + n * n) % n
            for _ in range(2 if kind == DOUBLE else 1):
                s[SCHED + 3 * k] = p
                s[SCHED + 3 * k + 1] = t
                s[SCHED + 3 * k + 2] = kind
                k += 1
    s[SCHED_LEN] = k
    s[SCHED_I] = 0
    s[PHASE] = PLAN
    s[PHEAD] = 0
    s[PEND] = 0
    r = s[ROUND]
    for p in range(n):
        for t in range(NT):
            s[DECK + 7 * p + t] += s[HAND + 7 * p + t]
            s[HAND + 7 * p + t] = 0
            s[RDECK + 42 * r + 7 * p + t] = s[DECK + 7 * p + t]
    for p in range(n):
        for _ in range(HAND_SIZE + (1 if s[CHARS + p] == DOC else 0)):
            _push(s, CH_DRAW, p)


@nb.njit(cache=True)
def _plan(s, action):
    i = s[SCHED_I]
    p, turn, kind = s[SCHED + 3 * i], s[SCHED + 3 * i + 1], s[SCHED + 3 * i + 2]
    if action == DRAW:
        deck = 0
        for t in range(NT):
            deck += s[DECK + 7 * p + t]
        count = min(CARDS_PER_DRAW, deck)
        _record(s, action, K_DRAW, p, count)
        for _ in range(count):
            _push(s, CH_DRAW, p)
    else:
        s[HAND + 7 * p + action] -= 1
        hidden = kind == HIDDEN or (s[CHARS + p] == GHOST and turn == 0)
        e = PILE + 4 * s[PEND]
        s[e], s[e + 1], s[e + 2], s[e + 3] = p, action, 1 if hidden else 0, s[HLEN]
        s[PEND] += 1
        _record(s, action, K_HIDDEN if hidden else K_UP, p, 0)
    s[SCHED_I] = i + 1
    if i + 1 == s[SCHED_LEN]:
        s[PHASE] = RESOLVE


@nb.njit(cache=True)
def _settle(s):
    while s[QLEN] == 0 and not s[DONE] and s[PHASE] == RESOLVE and s[PHEAD] == s[PEND]:
        _round_event(s)
        s[ROUND] += 1
        if s[ROUND] == NUM_ROUNDS:
            s[DONE] = 1
        else:
            _push(s, CH_ROUND, 0)


@nb.njit(cache=True)
def _bullet(s, q):
    s[DECK + 7 * q + BULLET] += 1


@nb.njit(cache=True)
def _enter(s, q, car, roof):
    if not roof and car == s[MARSHAL]:
        _bullet(s, q)
        roof = 1
    s[CAR + q] = car
    s[ROOF + q] = roof


@nb.njit(cache=True)
def _move_marshal(s, car):
    s[MARSHAL] = car
    for q in range(s[N]):
        if s[CAR + q] == car and not s[ROOF + q]:
            _bullet(s, q)
            s[ROOF + q] = 1


@nb.njit(cache=True)
def _resolve(s, action):
    e = PILE + 4 * s[PHEAD]
    p, card = s[e], s[e + 1]
    s[PHEAD] += 1
    s[DECK + 7 * p + card] += 1
    _record(s, action, K_RESOLVE, p, card)
    n = s[N]
    if MOVE_TO <= action < CLIMB:
        _enter(s, p, action - MOVE_TO, s[ROOF + p])
    elif action == CLIMB:
        _enter(s, p, s[CAR + p], 1 - s[ROOF + p])
    elif MARSHAL_TO <= action < ROB_KIND:
        _move_marshal(s, action - MARSHAL_TO)
    elif ROB_KIND <= action < ROB_NOTHING:
        k = action - ROB_KIND
        s[LOOT + 8 * (2 * s[CAR + p] + s[ROOF + p]) + k] -= 1
        s[PLOOT + 8 * p + k] += 1
    elif PUNCH_BASE <= action < PUNCH_NOBODY:
        rest, dropped = divmod(action - PUNCH_BASE, 9)
        q, forward = divmod(rest, 2)
        spot = 2 * s[CAR + q] + s[ROOF + q]
        if dropped != NO_DROP:
            s[PLOOT + 8 * q + dropped] -= 1
            if s[CHARS + p] == CHEYENNE and dropped < JEWEL:
                s[PLOOT + 8 * p + dropped] += 1
            else:
                s[LOOT + 8 * spot + dropped] += 1
        _enter(s, q, s[CAR + q] + (1 if forward else -1), s[ROOF + q])
    elif SHOOT_AT <= action < SHOOT_NOBODY:
        q = action - SHOOT_AT
        if s[BLEFT + p] > 0:
            s[BLEFT + p] -= 1
            _bullet(s, q)
        if s[CHARS + p] == DJANGO and s[CAR + q] != s[CAR + p]:
            dest = s[CAR + q] + (1 if s[CAR + q] > s[CAR + p] else -1)
            if 0 <= dest <= n:
                _enter(s, q, dest, s[ROOF + q])


@nb.njit(cache=True)
def _round_event(s):
    n, card = s[N], s[CARD]
    on_roof = 0
    for q in range(n):
        if s[ROOF + q]:
            on_roof |= 1 << q
    if card == 0:      # Angry Marshal
        for q in range(n):
            if (on_roof >> q) & 1 and s[CAR + q] == s[MARSHAL]:
                _bullet(s, q)
        if s[MARSHAL] > 0:
            _move_marshal(s, s[MARSHAL] - 1)
    elif card == 1:    # Braking
        for q in range(n):
            if (on_roof >> q) & 1:
                s[CAR + q] = min(s[CAR + q] + 1, n)
    elif card == 3:    # Passenger Rebellion
        for q in range(n):
            if not s[ROOF + q]:
                _bullet(s, q)
    elif card == 4:    # Swivel Arm
        for q in range(n):
            if (on_roof >> q) & 1:
                s[CAR + q] = 0
    elif card == 5:    # Take It All
        if s[SPARE]:
            s[SPARE] = 0
            s[LOOT + 8 * (2 * s[MARSHAL]) + STRONGBOX] += 1
    elif card == 7:    # Marshal's Revenge: the cheapest purse
        for q in range(n):
            if (on_roof >> q) & 1 and s[CAR + q] == s[MARSHAL]:
                for k in range(JEWEL):
                    if s[PLOOT + 8 * q + k]:
                        s[PLOOT + 8 * q + k] -= 1
                        break
    elif card == 8:    # Hostage
        for q in range(n):
            if s[CAR + q] == n:
                s[PLOOT + 8 * q] += 1
    elif card == 9:    # Pick Pocket: the best purse
        for q in range(n):
            spot = 2 * s[CAR + q] + s[ROOF + q]
            alone = True
            for r in range(n):
                if r != q and 2 * s[CAR + r] + s[ROOF + r] == spot:
                    alone = False
            if alone:
                for k in range(JEWEL - 1, -1, -1):
                    if s[LOOT + 8 * spot + k]:
                        s[LOOT + 8 * spot + k] -= 1
                        s[PLOOT + 8 * q + k] += 1
                        break


@nb.njit(cache=True)
def _score(s, q):
    total = 0
    for k in range(NUM_LOOT):
        total += s[PLOOT + 8 * q + k] * _LOOT_VALUES[k]
    return total


@nb.njit(cache=True)
def _fewest_bullets(s):
    fewest = BULLETS + 1
    for q in range(s[N]):
        fewest = min(fewest, s[BLEFT + q])
    return fewest


@nb.njit(cache=True)
def nb_returns(s, out):
    """Win shares by dollars, ties broken by fewer bullet cards received (zeros before the end)."""
    n = s[N]
    for q in range(n):
        out[q] = 0.0
    if not s[DONE]:
        return
    fewest = _fewest_bullets(s)
    best_score, best_tie, k = -1, 0, 0
    scores = np.empty(MAXP, np.int64)
    ties = np.empty(MAXP, np.int64)
    for q in range(n):
        scores[q] = _score(s, q) + (SHOOTER_REWARD if s[BLEFT + q] == fewest else 0)
        ties[q] = -(s[DECK + 7 * q + BULLET] + s[HAND + 7 * q + BULLET])
        if k == 0 or scores[q] > best_score or (scores[q] == best_score and ties[q] > best_tie):
            best_score, best_tie, k = scores[q], ties[q], 1
        elif scores[q] == best_score and ties[q] == best_tie:
            k += 1
    for q in range(n):
        if scores[q] == best_score and ties[q] == best_tie:
            out[q] = 1.0 / k


@nb.njit(cache=True)
def nb_heuristic(s, out):
    """TAG's LeaderHeuristic (``colt_express.heuristic``): 0.5 + 0.5 * clip((own dollars - the
    best other's) / 5000, -1, 1), the shooter reward counted as rounds played / 5; the returns
    at the end."""
    if s[DONE]:
        nb_returns(s, out)
        return
    n = s[N]
    fewest = _fewest_bullets(s)
    progress = s[ROUND] / NUM_ROUNDS
    scores = np.empty(MAXP)
    for q in range(n):
        scores[q] = float(_score(s, q))
        if s[BLEFT + q] == fewest:
            scores[q] += SHOOTER_REWARD * progress
    for p in range(n):
        best_other = -1e300
        for q in range(n):
            if q != p and scores[q] > best_other:
                best_other = scores[q]
        margin = max(-1.0, min(1.0, (scores[p] - best_other) / LEADER_SCALE))
        out[p] = 0.5 + 0.5 * margin


@nb.njit(cache=True)
def nb_infostate_key(s, player):
    """A 64-bit hash of ``player``'s information state (see the module docstring)."""
    h = _mix(_mix(s[PUBHASH], 50000 + player), s[PRIV + player])
    h ^= (h >> 29) & 0x7FFFFFFFF
    return h * _M2


@nb.njit(cache=True)
def _redraw_block(actions, kinds, idx, m, deck, revealed, rng, out):
    """One opponent's draws and face-down cards of one round (entries ``idx[:m]``), redrawn by
    rejection into ``out`` (the adapter's ``_redraw_block``)."""
    pool = np.empty(NT, np.int64)
    hand = np.empty(NT, np.int64)
    for _ in range(MAX_REJECTIONS):
        total = 0
        for t in range(NT):
            pool[t] = deck[t]
            hand[t] = 0
            total += deck[t]
        ok = True
        for j in range(m):
            i = idx[j]
            kind = kinds[i]
            if kind == K_DEAL:
                r = rng_bounded(rng, total)
                t = 0
                while r >= pool[t]:
                    r -= pool[t]
                    t += 1
                pool[t] -= 1
                total -= 1
                hand[t] += 1
                out[i] = t
                continue
            if kind == K_UP:
                t = actions[i]
                if not hand[t]:
                    ok = False
                    break
            else:
                playable = 0
                for c in range(PLAYABLE):
                    if hand[c]:
                        playable += 1
                if playable == 0:
                    ok = False
                    break
                pick = rng_bounded(rng, playable)
                t = 0
                while True:
                    if hand[t]:
                        if pick == 0:
                            break
                        pick -= 1
                    t += 1
                if revealed[i]:
                    if t != actions[i]:
                        ok = False
                        break
                else:
                    out[i] = t
            hand[t] -= 1
        if ok:
            return
    raise RuntimeError("colt_express: no consistent world found (rejection limit reached)")


@nb.njit(cache=True)
def nb_determinize(s, player, rng):
    """Redraw every opponent's draws and unrevealed face-down cards, round by round, then
    rebuild the state by replay (see the module docstring)."""
    n, hl = s[N], s[HLEN]
    actions = np.empty(hl, np.int64)
    kinds = np.empty(hl, np.int64)
    revealed = np.ones(hl, np.bool_)
    for i in range(hl):
        e = s[HIST + i]
        actions[i] = e & 255
        kinds[i] = (e >> 8) & 15
    for j in range(s[PHEAD], s[PEND]):
        revealed[s[PILE + 4 * j + 3]] = False
    out = actions.copy()
    idx = np.empty(hl, np.int64)
    rounds = min(s[ROUND], NUM_ROUNDS - 1) + 1
    for r in range(rounds):
        for q in range(n):
            if q == player:
                continue
            m = 0
            for i in range(hl):
                e = s[HIST + i]
                kind = kinds[i]
                if ((kind == K_DEAL or kind == K_UP or kind == K_HIDDEN)
                        and (e >> 12) & 15 == q and (e >> 16) & 15 == r):
                    idx[m] = i
                    m += 1
            if m:
                _redraw_block(actions, kinds, idx, m, s[RDECK + 42 * r + 7 * q:RDECK + 42 * r + 7 * q + 7],
                              revealed, rng, out)
    _init(s)
    for i in range(hl):
        nb_apply_action(s, out[i])


@nb.njit(cache=True)
def nb_apply_history(s, actions):
    for i in range(len(actions)):
        nb_apply_action(s, actions[i])


# -- the engine's view of this game (infosets.games.kernels) --------------------------------
RULES = sys.modules[__name__]  # the jitted functions the compiled engine calls


def array_from_history(history, players: int) -> np.ndarray:
    s = new_state(players)
    nb_apply_history(s, np.asarray(history, dtype=np.int64))
    return s


def kernel_for(game) -> Kernel | None:
    """This game's kernel for a loaded pyspiel ``game`` (every player count is covered;
    ``infosets.games.kernels.kernel_for``). Its strings and history are the adapter's
    (``game.py``, reading the array)."""
    players = game.num_players()
    wrap = type(game.new_kernel()).wrap

    def history(array: np.ndarray) -> list[int]:
        return wrap(array).history

    def infostate_string(array: np.ndarray, player: int) -> str:
        return wrap(array).information_state_string(player)

    return Kernel("colt_express", RULES, players, NUM_ACTIONS,
                  lambda actions: array_from_history(actions, players), history, infostate_string)
