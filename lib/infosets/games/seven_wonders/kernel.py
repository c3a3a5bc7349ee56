"""Numba kernel of the ``seven_wonders`` port (7 Wonders, 3 players) for the compiled engine.

Serves the compiled PI-MCTS / IS-MCTS engine (``infosets.search.compiled``) of Ravichandran,
Goodman and Lucas, "PIMCTS evaluation in tabletop games" (docs/papers/pimcts_aggregation.md),
where 7 Wonders is one of the games PI-MCTS does worse on. These are the game's only rules:
the pyspiel adapter and the Python reference engine play them too, through
``infosets.games.seven_wonders.game.WondersKernel`` (an ``array_kernel.ArrayKernel`` that reads
this array for its strings, tensors, log and worlds). Action ids: ``kind * 68 + card``; chance
outcomes: the wonders, the age III guilds and the deals in card-id order; returns: win shares
on points, then coins (``tests/games/seven_wonders/test_seven_wonders_oracle.py`` plays them
against the former Python rules, step by step). The cheapest purchase is a depth-first search
over unit groups in a fixed order (own flexible units, then the left neighbour's, then the
right's), so the split of a payment between the two neighbours is determined.

State array (3 players; ``MAXB`` built cards per player, ``MAX_HIST`` history entries):

* header: age, turn, player to choose, done, the chance queue (kind and position), the
  history length, a running hash of the public log and one of each player's private log;
* per player: wonder, coins, stages, military tokens, hidden choice, packet held, number
  of built cards; hands as 3 x 68 flags; built cards in building order (the order decides
  the neighbours' payment split); the deck as 68 flags;
* the history (pyspiel action ids) and, per entry, what it was (wonder deal, guild, card
  dealt to a packet, or a choice with its age, turn, actor and packet), which the
  determinizer and the adapter read as the game's records;
* every player's military tokens after each age (the public log shows them).

``nb_infostate_key`` is a 64-bit hash of the public log (wonders, who was dealt a card, the
revealed kinds and face-up cards, military) and the player's private log (own cards dealt,
own hand after every pass, own revealed choices), with the player, the mover and the
player's hidden choice: equal information-state strings give equal keys, distinct ones
collide with probability ~2**-64 per pair.

``nb_determinize`` draws the new history with the distribution of ``game.WondersKernel.world_history``: age by
age the unseen card identities (free places filled uniformly, face-down cards between two
looks at the same hand a uniform permutation of the cards that vanished, the age III guilds
that are in the world's deck), then the others' hidden choices of this turn uniformly among
their legal moves with the same rejection step (accept with probability legal moves / 3 *
hand size, else redraw everything); the state is rebuilt by replaying that history.

``nb_heuristic`` is TAG's PureScoreHeuristic, each player's
points if the game were scored now / 100, clipped to [0, 1]; the returns at the end.
"""

from __future__ import annotations

import math
import sys

import numba as nb
import numpy as np

from infosets.core.pcg32 import rng_bounded
from infosets.games.kernels import Kernel
from infosets.games.seven_wonders import cards as wc

CHANCE = -1
TERMINAL = -4
NP = 3
HAND = 7
TURNS = 6
NC = wc.NUM_CARDS
NUM_ACTIONS = 3 * NC
PLAY, STAGE, DISCARD = 0, 1, 2
START_COINS = 3
DISCARD_COINS = 3
GUILDS_PER_GAME = wc.GUILDS_PER_GAME
FIRST_GUILD = wc.GUILD_IDS[0]
NUM_GUILDS = len(wc.GUILD_IDS)
MAXB = 3 * TURNS  # cards a player can build in a game
MAX_HIST = NP + GUILDS_PER_GAME + 3 * (NP * HAND + NP * TURNS)
SCORE_SCALE = 100.0  # PureScoreHeuristic: points / 100, clipped to [0, 1]

# header slots
AGE, TURN, CUR, DONE, QTYPE, QIDX, HLEN, PUBHASH = range(8)
WONDERS, COINS, STAGES, MILITARY, PENDING, PACKET, PRIV, NBUILT = (8 + 3 * i for i in range(8))
HANDS = 32
BUILT = HANDS + NP * NC
DECK = BUILT + NP * MAXB
HIST = DECK + NC
META = HIST + MAX_HIST
MILLOG = META + MAX_HIST  # military tokens after age a: MILLOG + (a - 1) * NP + p
STATE_SIZE = MILLOG + 3 * NP
# chance queue kinds
Q_NONE, Q_WONDER, Q_GUILD, Q_DEAL = 0, 1, 2, 3
# history entry kinds (META & 7); META = kind | packet << 3 | turn << 6 | actor << 10 | age << 13
M_WONDER, M_GUILD, M_DEAL, M_MOVE = 1, 2, 3, 4

# -- card and wonder tables ---------------------------------------------------------------
E_NONE, E_RAW_RIGHT, E_RAW_LEFT, E_MANUFACTURED, E_VINEYARD, E_HAVEN, E_LIGHTHOUSE, E_ARENA = range(8)
E_NEIGHBOURS, E_SHIPOWNERS, E_BUILDERS, E_DECORATORS, E_SCIENCE = range(8, 13)
_EFFECTS = {
    "": E_NONE,
    "raw_right": E_RAW_RIGHT,
    "raw_left": E_RAW_LEFT,
    "manufactured": E_MANUFACTURED,
    "vineyard": E_VINEYARD,
    "haven": E_HAVEN,
    "lighthouse": E_LIGHTHOUSE,
    "arena": E_ARENA,
    "shipowners": E_SHIPOWNERS,
    "builders": E_BUILDERS,
    "decorators": E_DECORATORS,
    "science_choice": E_SCIENCE,
}
S_NONE, S_VP, S_SHIELDS, S_COINS, S_RAW_CHOICE, S_SCIENCE = range(6)
_STAGE_EFFECTS = {
    "none": S_NONE,
    "vp": S_VP,
    "shields": S_SHIELDS,
    "coins": S_COINS,
    "raw_choice": S_RAW_CHOICE,
    "science_choice": S_SCIENCE,
}
RAW_MASK = sum(1 << r for r in wc.RAW)


def _mask(unit) -> int:
    return sum(1 << r for r in unit)


def _card_tables():
    names = sorted({card.name for card in wc.CARDS})
    t = {
        key: np.zeros(NC, np.int64)
        for key in ("color", "coins", "ncost", "nprod", "vp", "shields", "effect", "ecolor", "name")
    }
    t["science"] = np.full(NC, -1, np.int64)
    t["cost"] = np.zeros((NC, 7), np.int64)
    t["chain"] = np.full((NC, 2), -1, np.int64)
    t["prod"] = np.zeros((NC, 2), np.int64)
    for c, card in enumerate(wc.CARDS):
        t["color"][c], t["coins"][c], t["vp"][c] = card.color, card.coins, card.vp
        t["shields"][c], t["science"][c], t["name"][c] = card.shields, card.science, names.index(card.name)
        t["ncost"][c] = len(card.cost)
        t["cost"][c, : len(card.cost)] = card.cost
        for j, name in enumerate(card.chain):
            t["chain"][c, j] = names.index(name)
        t["nprod"][c] = len(card.produce)
        for j, unit in enumerate(card.produce):
            t["prod"][c, j] = _mask(unit)
        if card.effect.startswith("neighbours_"):
            t["effect"][c] = E_NEIGHBOURS
            t["ecolor"][c] = wc.COLOR_NAMES.index(card.effect.split("_")[1])
        else:
            t["effect"][c] = _EFFECTS[card.effect]
    return t


def _wonder_tables():
    w = len(wc.WONDERS)
    res = np.zeros(w, np.int64)
    cost = np.zeros((w, 3, 4), np.int64)
    ncost = np.zeros((w, 3), np.int64)
    effect = np.zeros((w, 3), np.int64)
    value = np.zeros((w, 3), np.int64)
    for i, wonder in enumerate(wc.WONDERS):
        res[i] = wonder.resource
        for k in range(3):
            ncost[i, k] = len(wonder.stage_costs[k])
            cost[i, k, : ncost[i, k]] = wonder.stage_costs[k]
            e = wonder.stage_effects[k]
            effect[i, k] = _STAGE_EFFECTS[e[0]]
            value[i, k] = e[1] if len(e) > 1 else 0
    return res, cost, ncost, effect, value


_T = _card_tables()
C_COLOR, C_COINS, C_NCOST, C_COST = _T["color"], _T["coins"], _T["ncost"], _T["cost"]
C_CHAIN, C_NPROD, C_PROD, C_VP = _T["chain"], _T["nprod"], _T["prod"], _T["vp"]
C_SHIELDS, C_SCIENCE, C_EFFECT, C_ECOLOR, C_NAME = (
    _T["shields"],
    _T["science"],
    _T["effect"],
    _T["ecolor"],
    _T["name"],
)
W_RES, W_COST, W_NCOST, W_EFFECT, W_VALUE = _wonder_tables()
NUM_WONDERS = len(wc.WONDERS)
MILITARY_WIN = np.array([0, 1, 3, 5], np.int64)
AGE_FIRST = np.array([0, 0, 21, 42], np.int64)
AGE_END = np.array([0, 21, 42, 58], np.int64)
BROWN, GREY, YELLOW = wc.BROWN, wc.GREY, wc.YELLOW
_COMB = np.array([[math.comb(a, b) for b in range(HAND + 1)] for a in range(NC + 1)], np.int64)


def new_state() -> np.ndarray:
    """The initial state array (chance deals player 0's wonder)."""
    s = np.zeros(STATE_SIZE, dtype=np.int64)
    _init(s)
    return s


@nb.njit(cache=True)
def _mix(h, v):
    """One step of a running hash (multiply-xorshift; int64 arithmetic wraps)."""
    h = (h ^ (v + 0x9E3779B9)) * 0x5851F42D4C957F2D
    return h ^ (h >> 29)


@nb.njit(cache=True)
def _init(s):
    s[:] = 0
    for p in range(NP):
        s[WONDERS + p] = -1
        s[COINS + p] = START_COINS
        s[PENDING + p] = -1
        s[PACKET + p] = p
    s[QTYPE] = Q_WONDER
    s[PUBHASH] = 0x5EED


# -- flow ---------------------------------------------------------------------------------
@nb.njit(cache=True)
def nb_current_player(s):
    if s[DONE]:
        return TERMINAL
    if s[QTYPE] != Q_NONE:
        return CHANCE
    return s[CUR]


@nb.njit(cache=True)
def _sorted_draw(s, flags_start, lo, hi, previous, slots, actions, probs):
    """Next card of a sorted uniform ``slots``-subset of the flagged cards in [lo, hi) above
    ``previous``: each hand of ``slots`` cards equally likely, one history per hand."""
    above = 0
    for c in range(max(lo, previous + 1), hi):
        if s[flags_start + c]:
            above += 1
    total = _COMB[above, slots]
    n = 0
    i = 0
    for c in range(max(lo, previous + 1), hi):
        if not s[flags_start + c]:
            continue
        ways = _COMB[above - i - 1, slots - 1]
        i += 1
        if ways:
            actions[n] = c
            probs[n] = ways / total
            n += 1
    return n


@nb.njit(cache=True)
def nb_chance_outcomes(s, actions, probs):
    kind = s[QTYPE]
    if kind == Q_WONDER:
        free = 0
        for w in range(NUM_WONDERS):
            if not _wonder_taken(s, w):
                free += 1
        n = 0
        for w in range(NUM_WONDERS):
            if not _wonder_taken(s, w):
                actions[n] = w
                probs[n] = 1.0 / free
                n += 1
        return n
    if kind == Q_GUILD:
        previous = -1
        for c in range(FIRST_GUILD, NC):
            if s[DECK + c]:
                previous = c
        # the pool is the guilds not picked: flags inverted through a scratch-free scan
        above = 0
        for c in range(max(FIRST_GUILD, previous + 1), NC):
            if not s[DECK + c]:
                above += 1
        slots = GUILDS_PER_GAME - s[QIDX]
        total = _COMB[above, slots]
        n = 0
        i = 0
        for c in range(max(FIRST_GUILD, previous + 1), NC):
            if s[DECK + c]:
                continue
            ways = _COMB[above - i - 1, slots - 1]
            i += 1
            if ways:
                actions[n] = c
                probs[n] = ways / total
                n += 1
        return n
    packet = s[QIDX] // HAND
    slots = HAND - s[QIDX] % HAND
    previous = -1
    for c in range(NC):
        if s[HANDS + packet * NC + c]:
            previous = c
    return _sorted_draw(s, DECK, 0, NC, previous, slots, actions, probs)


@nb.njit(cache=True)
def _wonder_taken(s, w):
    for p in range(NP):
        if s[WONDERS + p] == w:
            return True
    return False


@nb.njit(cache=True)
def _push(s, action, meta):
    h = s[HLEN]
    s[HIST + h] = action
    s[META + h] = meta
    s[HLEN] = h + 1


@nb.njit(cache=True)
def _start_age(s, age):
    s[AGE] = age
    s[TURN] = 0
    s[CUR] = 0
    for p in range(NP):
        s[PACKET + p] = p
    for i in range(NP * NC):
        s[HANDS + i] = 0
    for c in range(NC):
        s[DECK + c] = 1 if AGE_FIRST[age] <= c < AGE_END[age] else 0
    s[QIDX] = 0
    s[QTYPE] = Q_GUILD if age == 3 else Q_DEAL


@nb.njit(cache=True)
def _apply_chance(s, action):
    kind, i = s[QTYPE], s[QIDX]
    if kind == Q_WONDER:
        s[WONDERS + i] = action
        _push(s, action, M_WONDER | i << 3)
        s[PUBHASH] = _mix(_mix(s[PUBHASH], 1000 + i), action)
        if i + 1 == NP:
            _start_age(s, 1)
        else:
            s[QIDX] = i + 1
        return
    if kind == Q_GUILD:
        s[DECK + action] = 1
        _push(s, action, M_GUILD | 3 << 13)
        if i + 1 == GUILDS_PER_GAME:
            s[QTYPE], s[QIDX] = Q_DEAL, 0
        else:
            s[QIDX] = i + 1
        return
    p = i // HAND
    s[HANDS + p * NC + action] = 1
    s[DECK + action] = 0
    _push(s, action, M_DEAL | p << 3 | s[AGE] << 13)
    s[PUBHASH] = _mix(s[PUBHASH], 2000 + p)
    s[PRIV + p] = _mix(s[PRIV + p], action)
    if i + 1 == NP * HAND:
        s[QTYPE], s[QIDX] = Q_NONE, 0
    else:
        s[QIDX] = i + 1


@nb.njit(cache=True)
def nb_apply_action(s, action):
    if s[QTYPE] != Q_NONE:
        _apply_chance(s, action)
        return
    p = s[CUR]
    s[PENDING + p] = action
    _push(s, action, M_MOVE | s[PACKET + p] << 3 | s[TURN] << 6 | p << 10 | s[AGE] << 13)
    if p < NP - 1:
        s[CUR] = p + 1
    else:
        _resolve(s)


# -- production and costs -----------------------------------------------------------------
@nb.njit(cache=True)
def _stage_effect(s, p, effect):
    w = s[WONDERS + p]
    for k in range(s[STAGES + p]):
        if W_EFFECT[w, k] == effect:
            return True
    return False


@nb.njit(cache=True)
def _has_effect(s, p, effect):
    for i in range(s[NBUILT + p]):
        if C_EFFECT[s[BUILT + p * MAXB + i]] == effect:
            return True
    return False


@nb.njit(cache=True)
def _units(s, p, sellable, units):
    """Production units of ``p`` as resource masks, in a fixed order (wonder, built cards, stage choice)."""
    m = 0
    units[m] = 1 << W_RES[s[WONDERS + p]]
    m += 1
    for i in range(s[NBUILT + p]):
        c = s[BUILT + p * MAXB + i]
        if C_NPROD[c] > 0 and (not sellable or C_COLOR[c] == BROWN or C_COLOR[c] == GREY):
            for j in range(C_NPROD[c]):
                units[m] = C_PROD[c, j]
                m += 1
    if not sellable and _stage_effect(s, p, S_RAW_CHOICE):
        units[m] = RAW_MASK
        m += 1
    return m


@nb.njit(cache=True)
def _single(mask):
    return mask & (mask - 1) == 0


@nb.njit(cache=True)
def _bit(mask):
    r = 0
    while not (mask >> r) & 1:
        r += 1
    return r


@nb.njit(cache=True)
def _add_groups(units, m, side, needmask, gmask, gside, gcount, g):
    for i in range(m):
        u = units[i]
        if u & needmask == 0:
            continue
        found = -1
        for j in range(g):
            if gmask[j] == u and gside[j] == side:
                found = j
                break
        if found >= 0:
            gcount[found] += 1
        else:
            gmask[g], gside[g], gcount[g] = u, side, 1
            g += 1
    return g


PREP = 8 + 4 * 48  # what a player's purchases share (see _prepare_purchase)
SCRATCH = 8 + 4 * 48 + 8 + 27 + PREP  # the purchase search's scratch (see _pay)
_PREP_AT = SCRATCH - PREP


@nb.njit(cache=True)
def _prepare_purchase(s, p, w):
    """What every purchase of ``p`` on this state shares, into ``w[_PREP_AT:]``, so that pricing
    a whole hand (``nb_legal_actions``, ``_resolve``) reads the production units and trading
    prices once: counts and prices in ``prep[0:7]``, then the resources of ``p``'s single units,
    its flexible units, and the sellable units of its left and right neighbours, each in
    ``_units``' order."""
    prep = w[_PREP_AT:]
    units = w[8:56]
    ns = nf = 0
    m = _units(s, p, False, units)
    for i in range(m):
        u = units[i]
        if _single(u):
            prep[8 + ns] = _bit(u)
            ns += 1
        else:
            prep[56 + nf] = u
            nf += 1
    left, right = (p + NP - 1) % NP, (p + 1) % NP
    prep[0], prep[1] = ns, nf
    prep[2] = _units(s, left, True, prep[104:152])
    prep[3] = _units(s, right, True, prep[152:200])
    prep[4] = 1 if _has_effect(s, p, E_MANUFACTURED) else 2
    prep[5] = 1 if _has_effect(s, p, E_RAW_LEFT) else 2
    prep[6] = 1 if _has_effect(s, p, E_RAW_RIGHT) else 2


@nb.njit(cache=True)
def _pay(cost, ncost, out, w):
    """(coins for resources, to left, to right) of ``cost[:ncost]`` into ``out`` for the player
    the scratch ``w`` was prepared for (``_prepare_purchase``); False if impossible. Own single
    units first, then the first cheapest purchase in depth-first order over the unit groups
    (own flexible units, left neighbour, right neighbour)."""
    out[0] = out[1] = out[2] = 0
    if ncost == 0:
        return True
    prep = w[_PREP_AT:]
    need = w[0:8]
    nn = 0
    for i in range(ncost):
        need[nn] = cost[i]
        nn += 1
    for i in range(prep[0]):
        r = prep[8 + i]
        for j in range(nn):
            if need[j] == r:
                need[j] = need[nn - 1]
                nn -= 1
                break
    if nn == 0:
        return True
    for i in range(1, nn):  # insertion sort of ``need``
        v = need[i]
        j = i - 1
        while j >= 0 and need[j] > v:
            need[j + 1] = need[j]
            j -= 1
        need[j + 1] = v
    needmask = 0
    for i in range(nn):
        needmask |= 1 << need[i]
    manufactured, price_left, price_right = prep[4], prep[5], prep[6]
    gmask = w[56:104]
    gside = w[104:152]
    gcount = w[152:200]
    g = _add_groups(prep[56:104], prep[1], 0, needmask, gmask, gside, gcount, 0)
    g = _add_groups(prep[104:152], prep[2], 1, needmask, gmask, gside, gcount, g)
    g = _add_groups(prep[152:200], prep[3], 2, needmask, gmask, gside, gcount, g)
    # depth-first search, first strictly cheaper leaf wins (the search order fixes the neighbours' split)
    choice = w[200:208]
    acc = w[208:235]  # 9 levels x (cost, to left, to right)
    choice[0] = -1
    acc[0] = acc[1] = acc[2] = 0
    best = -1
    i = 0
    while i >= 0:
        if choice[i] >= 0:
            gcount[choice[i]] += 1
        j = choice[i] + 1
        r = need[i]
        while j < g and not (gcount[j] > 0 and (gmask[j] >> r) & 1):
            j += 1
        if j == g:
            choice[i] = -1
            i -= 1
            continue
        choice[i] = j
        gcount[j] -= 1
        side = gside[j]
        if side == 0:
            price = 0
        elif r >= 4:
            price = manufactured
        else:
            price = price_left if side == 1 else price_right
        c = acc[3 * i] + price
        if best >= 0 and c >= best:
            continue
        lft = acc[3 * i + 1] + (price if side == 1 else 0)
        rgt = acc[3 * i + 2] + (price if side == 2 else 0)
        if i + 1 == nn:
            best = c
            out[0], out[1], out[2] = c, lft, rgt
            continue
        acc[3 * i + 3], acc[3 * i + 4], acc[3 * i + 5] = c, lft, rgt
        i += 1
        choice[i] = -1
    return best >= 0


@nb.njit(cache=True)
def _owns_name(s, p, name):
    for i in range(s[NBUILT + p]):
        if C_NAME[s[BUILT + p * MAXB + i]] == name:
            return True
    return False


@nb.njit(cache=True)
def _play_price(s, p, c, out, w):
    """Coins for building card ``c`` (total, to left, to right) into ``out``; False if not.
    ``w``: scratch prepared for ``p`` (``_prepare_purchase``)."""
    if _owns_name(s, p, C_NAME[c]):
        return False
    for j in range(2):
        if C_CHAIN[c, j] >= 0 and _owns_name(s, p, C_CHAIN[c, j]):
            out[0] = out[1] = out[2] = 0
            return True
    if not _pay(C_COST[c], C_NCOST[c], out, w):
        return False
    out[0] += C_COINS[c]
    return out[0] <= s[COINS + p]


@nb.njit(cache=True)
def _stage_price(s, p, out, w):
    """Coins for building ``p``'s next wonder stage into ``out``; False if not. ``w``: scratch
    prepared for ``p`` (``_prepare_purchase``)."""
    k = s[STAGES + p]
    if k >= 3:
        return False
    wonder = s[WONDERS + p]
    if not _pay(W_COST[wonder, k], W_NCOST[wonder, k], out, w):
        return False
    return out[0] <= s[COINS + p]


@nb.njit(cache=True)
def nb_legal_actions(s, buf):
    """Legal choices, ascending (every play, then every stage, then every discard); chance
    outcomes at chance nodes."""
    if s[DONE]:
        return 0
    if s[QTYPE] != Q_NONE:
        probs = np.empty(NUM_ACTIONS, np.float64)
        return nb_chance_outcomes(s, buf, probs)
    p = s[CUR]
    price = np.empty(3 + SCRATCH, np.int64)
    w = price[3:]
    _prepare_purchase(s, p, w)
    stage_ok = _stage_price(s, p, price, w)
    n = 0
    h = HANDS + p * NC
    for c in range(NC):
        if s[h + c] and _play_price(s, p, c, price, w):
            buf[n] = c
            n += 1
    if stage_ok:
        for c in range(NC):
            if s[h + c]:
                buf[n] = NC + c
                n += 1
    for c in range(NC):
        if s[h + c]:
            buf[n] = 2 * NC + c
            n += 1
    return n


@nb.njit(cache=True)
def _count(s, p, color):
    k = 0
    for i in range(s[NBUILT + p]):
        if C_COLOR[s[BUILT + p * MAXB + i]] == color:
            k += 1
    return k


@nb.njit(cache=True)
def _yellow_coins(s, p, effect):
    if effect == E_VINEYARD:
        return _count(s, p, BROWN) + _count(s, (p + NP - 1) % NP, BROWN) + _count(s, (p + 1) % NP, BROWN)
    if effect == E_HAVEN:
        return _count(s, p, BROWN)
    if effect == E_LIGHTHOUSE:
        return _count(s, p, YELLOW)
    if effect == E_ARENA:
        return 3 * s[STAGES + p]
    return 0


@nb.njit(cache=True)
def _resolve(s):
    prices = np.zeros((NP, 3), np.int64)
    w = np.empty(SCRATCH, np.int64)
    for p in range(NP):
        kind, c = s[PENDING + p] // NC, s[PENDING + p] % NC
        if kind == PLAY:
            _prepare_purchase(s, p, w)
            _play_price(s, p, c, prices[p], w)
        elif kind == STAGE:
            _prepare_purchase(s, p, w)
            _stage_price(s, p, prices[p], w)
    for p in range(NP):
        kind, c = s[PENDING + p] // NC, s[PENDING + p] % NC
        s[COINS + p] -= prices[p, 0]
        s[COINS + (p + NP - 1) % NP] += prices[p, 1]
        s[COINS + (p + 1) % NP] += prices[p, 2]
        s[HANDS + p * NC + c] = 0
        if kind == PLAY:
            s[BUILT + p * MAXB + s[NBUILT + p]] = c
            s[NBUILT + p] += 1
        elif kind == STAGE:
            wonder, k = s[WONDERS + p], s[STAGES + p]
            s[STAGES + p] = k + 1
            if W_EFFECT[wonder, k] == S_COINS:
                s[COINS + p] += W_VALUE[wonder, k]
        else:
            s[COINS + p] += DISCARD_COINS
    for p in range(NP):
        kind, c = s[PENDING + p] // NC, s[PENDING + p] % NC
        if kind == PLAY:
            s[COINS + p] += _yellow_coins(s, p, C_EFFECT[c])
    h = _mix(s[PUBHASH], 3000 + s[AGE] * 10 + s[TURN])
    for p in range(NP):
        a = s[PENDING + p]
        h = _mix(h, a if a < NC else 10000 + a // NC)
        s[PRIV + p] = _mix(s[PRIV + p], a)
        s[PENDING + p] = -1
    s[PUBHASH] = h
    s[CUR] = 0
    s[TURN] += 1
    if s[TURN] < TURNS:
        _pass_hands(s)
    else:
        _end_age(s)


@nb.njit(cache=True)
def _pass_hands(s):
    step = NP - 1 if s[AGE] == 2 else 1  # ages I, III: player i receives i + 1's hand
    old = s[HANDS : HANDS + NP * NC].copy()
    packets = s[PACKET : PACKET + NP].copy()
    for i in range(NP):
        src = (i + step) % NP
        s[HANDS + i * NC : HANDS + (i + 1) * NC] = old[src * NC : (src + 1) * NC]
        s[PACKET + i] = packets[src]
    for p in range(NP):
        h = _mix(s[PRIV + p], 4000 + s[TURN])
        for c in range(NC):
            if s[HANDS + p * NC + c]:
                h = _mix(h, c)
        s[PRIV + p] = h


@nb.njit(cache=True)
def _shields(s, p):
    total = 0
    for i in range(s[NBUILT + p]):
        total += C_SHIELDS[s[BUILT + p * MAXB + i]]
    w = s[WONDERS + p]
    for k in range(s[STAGES + p]):
        if W_EFFECT[w, k] == S_SHIELDS:
            total += W_VALUE[w, k]
    return total


@nb.njit(cache=True)
def _end_age(s):
    age = s[AGE]
    for i in range(NP * NC):
        s[HANDS + i] = 0
    shields = np.empty(NP, np.int64)
    for p in range(NP):
        shields[p] = _shields(s, p)
    h = _mix(s[PUBHASH], 5000 + age)
    for p in range(NP):
        for q in ((p + NP - 1) % NP, (p + 1) % NP):
            if shields[p] > shields[q]:
                s[MILITARY + p] += MILITARY_WIN[age]
            elif shields[p] < shields[q]:
                s[MILITARY + p] -= 1
        h = _mix(h, s[MILITARY + p])
        s[MILLOG + (age - 1) * NP + p] = s[MILITARY + p]
    s[PUBHASH] = h
    if age == 3:
        s[DONE] = 1
        s[CUR] = -1
        return
    _start_age(s, age + 1)


# -- scoring ------------------------------------------------------------------------------
@nb.njit(cache=True)
def _science_points(a, b, c, wild):
    """Best science score with ``wild`` wildcards spread over the three symbols."""
    best = -1
    for i in range(wild + 1):
        for j in range(wild - i + 1):
            x, y, z = a + i, b + j, c + wild - i - j
            v = x * x + y * y + z * z + 7 * min(x, min(y, z))
            if v > best:
                best = v
    return best


@nb.njit(cache=True)
def _score(s, p):
    left, right = (p + NP - 1) % NP, (p + 1) % NP
    total = s[MILITARY + p] + s[COINS + p] // 3
    science = np.zeros(3, np.int64)
    wild = 0
    w = s[WONDERS + p]
    if w >= 0:
        for k in range(s[STAGES + p]):
            if W_EFFECT[w, k] == S_VP:
                total += W_VALUE[w, k]
            elif W_EFFECT[w, k] == S_SCIENCE:
                wild += 1
    for i in range(s[NBUILT + p]):
        c = s[BUILT + p * MAXB + i]
        total += C_VP[c]
        if C_SCIENCE[c] >= 0:
            science[C_SCIENCE[c]] += 1
        e = C_EFFECT[c]
        if e == E_HAVEN:
            total += _count(s, p, BROWN)
        elif e == E_LIGHTHOUSE:
            total += _count(s, p, YELLOW)
        elif e == E_ARENA:
            total += s[STAGES + p]
        elif e == E_NEIGHBOURS:
            color = C_ECOLOR[c]
            per = 2 if color == GREY else 1
            total += per * (_count(s, left, color) + _count(s, right, color))
        elif e == E_SHIPOWNERS:
            total += _count(s, p, BROWN) + _count(s, p, GREY) + _count(s, p, wc.PURPLE)
        elif e == E_BUILDERS:
            total += s[STAGES + p] + s[STAGES + left] + s[STAGES + right]
        elif e == E_DECORATORS:
            total += 7 if s[STAGES + p] == 3 else 0
        elif e == E_SCIENCE:
            wild += 1
    return total + _science_points(science[0], science[1], science[2], wild)


@nb.njit(cache=True)
def nb_returns(s, out):
    """Win shares at the end (most points, then most coins; ties share), zeros before."""
    for p in range(NP):
        out[p] = 0.0
    if not s[DONE]:
        return
    scores = np.empty(NP, np.int64)
    for p in range(NP):
        scores[p] = _score(s, p)
    best, coins = scores[0], s[COINS]
    for p in range(1, NP):
        if scores[p] > best or (scores[p] == best and s[COINS + p] > coins):
            best, coins = scores[p], s[COINS + p]
    k = 0
    for p in range(NP):
        if scores[p] == best and s[COINS + p] == coins:
            k += 1
    for p in range(NP):
        if scores[p] == best and s[COINS + p] == coins:
            out[p] = 1.0 / k


@nb.njit(cache=True)
def nb_heuristic(s, out):
    """TAG's PureScoreHeuristic (named by Wonders7_3P.json):
    each player's points if the game were scored now, / 100, clipped to [0, 1]; zeros
    before the wonders are dealt; the returns at the end."""
    if s[DONE]:
        nb_returns(s, out)
        return
    for p in range(NP):
        out[p] = 0.0
        if s[WONDERS + NP - 1] < 0:
            continue
        out[p] = min(1.0, max(0.0, _score(s, p) / SCORE_SCALE))


@nb.njit(cache=True)
def nb_infostate_key(s, player):
    """A 64-bit hash of ``player``'s information state (see the module docstring)."""
    h = _mix(s[PUBHASH], 7000 + player)
    h = _mix(h, s[PRIV + player])
    h = _mix(h, nb_current_player(s))
    return _mix(h, s[PENDING + player])


# -- worlds -------------------------------------------------------------------------------
@nb.njit(cache=True)
def _shuffle(a, n, rng):
    for i in range(n - 1, 0, -1):
        j = rng_bounded(rng, i + 1)
        a[i], a[j] = a[j], a[i]


@nb.njit(cache=True)
def _holder(age, packet, turn):
    return (packet + turn) % NP if age == 2 else (packet - turn + NP * TURNS) % NP


@nb.njit(cache=True)
def _index_age(hist, meta, hlen, age):
    """The age's history by kind: deals per packet, guild picks, moves per packet and turn."""
    deal_idx = np.full((NP, HAND), -1, np.int64)
    deal_card = np.zeros((NP, HAND), np.int64)
    ndeal = np.zeros(NP, np.int64)
    guild_idx = np.zeros(GUILDS_PER_GAME, np.int64)
    ng = 0
    mv_idx = np.full((NP, TURNS), -1, np.int64)
    mv_actor = np.zeros((NP, TURNS), np.int64)
    mv_action = np.zeros((NP, TURNS), np.int64)
    for i in range(hlen):
        m = meta[i]
        if (m >> 13) != age:
            continue
        kind, packet = m & 7, (m >> 3) & 7
        if kind == M_DEAL:
            deal_idx[packet, ndeal[packet]] = i
            deal_card[packet, ndeal[packet]] = hist[i]
            ndeal[packet] += 1
        elif kind == M_GUILD:
            guild_idx[ng] = i
            ng += 1
        elif kind == M_MOVE:
            t = (m >> 6) & 15
            mv_idx[packet, t], mv_actor[packet, t], mv_action[packet, t] = i, (m >> 10) & 7, hist[i]
    return deal_idx, deal_card, ndeal, guild_idx, ng, mv_idx, mv_actor, mv_action


@nb.njit(cache=True)
def _packet_contents(age, k, player, deal_card, ndeal, mv_action, resolved, begun):
    """Packet ``k``'s cards at the start of each begun turn, and the turns ``player`` holds it."""
    contents = np.zeros((TURNS, NC), np.bool_)
    holds = np.zeros(TURNS, np.int64)
    content = np.zeros(NC, np.bool_)
    for j in range(ndeal[k]):
        content[deal_card[k, j]] = True
    for t in range(begun):
        contents[t] = content
        if t < resolved:
            content[mv_action[k, t] % NC] = False
    nholds = 0
    for t in range(begun):
        if _holder(age, k, t) == player:
            holds[nholds] = t
            nholds += 1
    return contents, holds, nholds


@nb.njit(cache=True)
def _moves_before(
    k, player, first, resolved, mv_idx, mv_actor, mv_action, known, world, nworld, free_k, free_idx, nfree
):
    """Packet ``k``'s moves before ``player`` holds it: seen cards known, hidden ones free places."""
    for t in range(min(first, resolved)):
        action = mv_action[k, t]
        card = action % NC
        if action < NC or mv_actor[k, t] == player:
            known[card] = True
            if k != player:
                world[k, nworld[k]] = card
                nworld[k] += 1
        else:
            free_k[nfree], free_idx[nfree] = k, mv_idx[k, t]
            nfree += 1
    return nfree


@nb.njit(cache=True)
def _hold_groups(
    k,
    holds,
    nholds,
    resolved,
    contents,
    mv_idx,
    mv_action,
    known,
    group_idx,
    group_nidx,
    group_pool,
    group_npool,
    ngroups,
):
    """One group per hold of packet ``k``: the hidden moves until the next hold, and their pool."""
    for i in range(nholds):
        hold = holds[i]
        if hold >= resolved:
            break
        mine = mv_action[k, hold] % NC
        known[mine] = True
        end = holds[i + 1] if i + 1 < nholds else -1
        stop = end if end >= 0 else resolved
        pool = contents[hold].copy()
        pool[mine] = False
        nidx = 0
        for t in range(hold + 1, min(stop, resolved)):
            action = mv_action[k, t]
            if action < NC:
                known[action] = True
                pool[action] = False
            else:
                group_idx[ngroups, nidx] = mv_idx[k, t]
                nidx += 1
        group_nidx[ngroups] = nidx
        npool = 0
        for c in range(NC):
            if pool[c] and (end < 0 or not contents[end, c]):
                group_pool[ngroups, npool] = c
                npool += 1
        group_npool[ngroups] = npool
        ngroups += 1
    return ngroups


@nb.njit(cache=True)
def _unseen_cards(age, known, nfree, rng):
    """The age's unseen cards (topped up with shuffled unseen guilds in age III), shuffled."""
    cards = np.zeros(NC, np.int64)
    ncards = 0
    for c in range(AGE_FIRST[age], AGE_END[age]):
        if not known[c]:
            cards[ncards] = c
            ncards += 1
    if age == 3:
        guilds = np.zeros(NUM_GUILDS, np.int64)
        nguild = 0
        for c in range(FIRST_GUILD, NC):
            if not known[c]:
                guilds[nguild] = c
                nguild += 1
        _shuffle(guilds, nguild, rng)
        for j in range(nfree - ncards):
            cards[ncards] = guilds[j]
            ncards += 1
    _shuffle(cards, ncards, rng)
    return cards, ncards


@nb.njit(cache=True)
def _place_unseen(cards, ncards, free_k, free_idx, nfree, world, nworld, work):
    """The shuffled unseen cards fill the free places in order (world hands, face-down moves)."""
    for j in range(min(nfree, ncards)):
        k = free_k[j]
        world[k, nworld[k]] = cards[j]
        nworld[k] += 1
        if free_idx[j] >= 0:
            work[free_idx[j]] = cards[j]


@nb.njit(cache=True)
def _draw_groups(group_idx, group_nidx, group_pool, group_npool, ngroups, work, rng):
    """Each group's hidden moves take a uniform draw of its pool, in group order."""
    for g in range(ngroups):
        _shuffle(group_pool[g], group_npool[g], rng)
        for j in range(min(group_nidx[g], group_npool[g])):
            work[group_idx[g, j]] = group_pool[g, j]


@nb.njit(cache=True)
def _write_world(
    work, world, nworld, deal_idx, ndeal, guild_idx, ng, mv_idx, mv_actor, mv_action, resolved, player
):
    """The world's deals (in card-id order), guild picks and face-down moves into ``work``."""
    # deals in card-id order; the age III guilds are those the world's hands hold
    in_world = np.zeros(NC, np.bool_)
    for k in range(NP):
        dealt = np.sort(world[k, : nworld[k]])
        for j in range(min(ndeal[k], nworld[k])):
            work[deal_idx[k, j]] = dealt[j]
            in_world[dealt[j]] = True
    j = 0
    for c in range(FIRST_GUILD, NC):
        if in_world[c] and j < ng:
            work[guild_idx[j]] = c
            j += 1
    # face-down card ids live in the action ids: rewrite them with their kind
    for k in range(NP):
        for t in range(resolved):
            action = mv_action[k, t]
            if mv_idx[k, t] >= 0 and mv_actor[k, t] != player and action >= NC:
                work[mv_idx[k, t]] = (action // NC) * NC + work[mv_idx[k, t]]


@nb.njit(cache=True)
def _draw_age(hist, meta, hlen, work, player, age, cur_age, cur_turn, done, rng):
    """Redraw the unseen card identities of ``age`` into ``work`` (as ``game.WondersKernel._draw_age``)."""
    deal_idx, deal_card, ndeal, guild_idx, ng, mv_idx, mv_actor, mv_action = _index_age(hist, meta, hlen, age)
    if ndeal[0] + ndeal[1] + ndeal[2] == 0:
        return
    finished = age < cur_age or done
    resolved = TURNS if finished else cur_turn
    begun = TURNS if finished else cur_turn + 1
    known = np.zeros(NC, np.bool_)
    world = np.zeros((NP, HAND), np.int64)
    nworld = np.zeros(NP, np.int64)
    free_k = np.zeros(NP * HAND, np.int64)
    free_idx = np.zeros(NP * HAND, np.int64)
    nfree = 0
    group_idx = np.zeros((NP * TURNS, TURNS), np.int64)
    group_nidx = np.zeros(NP * TURNS, np.int64)
    group_pool = np.zeros((NP * TURNS, HAND), np.int64)
    group_npool = np.zeros(NP * TURNS, np.int64)
    ngroups = 0
    for k in range(NP):
        contents, holds, nholds = _packet_contents(
            age, k, player, deal_card, ndeal, mv_action, resolved, begun
        )
        if k == player:
            world[k, : ndeal[k]] = deal_card[k, : ndeal[k]]
            nworld[k] = ndeal[k]
        first = holds[0] if nholds > 0 else begun
        nfree = _moves_before(
            k,
            player,
            first,
            resolved,
            mv_idx,
            mv_actor,
            mv_action,
            known,
            world,
            nworld,
            free_k,
            free_idx,
            nfree,
        )
        if nholds == 0:  # never held: the cards left after those moves are unseen
            for _ in range(HAND - min(first, resolved)):
                free_k[nfree], free_idx[nfree] = k, -1
                nfree += 1
            continue
        for c in range(NC):  # the packet as the player first saw it
            if contents[first, c]:
                known[c] = True
                if k != player:
                    world[k, nworld[k]] = c
                    nworld[k] += 1
        ngroups = _hold_groups(
            k,
            holds,
            nholds,
            resolved,
            contents,
            mv_idx,
            mv_action,
            known,
            group_idx,
            group_nidx,
            group_pool,
            group_npool,
            ngroups,
        )
    # unseen cards of the age fill the free places uniformly
    cards, ncards = _unseen_cards(age, known, nfree, rng)
    _place_unseen(cards, ncards, free_k, free_idx, nfree, world, nworld, work)
    _draw_groups(group_idx, group_nidx, group_pool, group_npool, ngroups, work, rng)
    _write_world(
        work, world, nworld, deal_idx, ndeal, guild_idx, ng, mv_idx, mv_actor, mv_action, resolved, player
    )


@nb.njit(cache=True)
def nb_determinize(s, player, rng):
    """A world for ``player`` in place, distributed as ``WondersKernel.world_history`` (see
    the module docstring); the state is rebuilt by replaying the drawn history."""
    if s[QTYPE] != Q_NONE or s[AGE] == 0:
        return  # worlds are drawn at decision or terminal nodes
    hlen = s[HLEN]
    hist = s[HIST : HIST + hlen].copy()
    meta = s[META : META + hlen].copy()
    work = np.empty(hlen, np.int64)
    cur_age, cur_turn, done = s[AGE], s[TURN], s[DONE] != 0
    start = hlen
    if not done:
        for i in range(hlen):
            m = meta[i]
            if m & 7 == M_MOVE and (m >> 13) == cur_age and ((m >> 6) & 15) == cur_turn:
                start = i
                break
    buf = np.empty(NUM_ACTIONS, np.int64)
    while True:
        work[:] = hist
        for age in range(1, cur_age + 1):
            _draw_age(hist, meta, hlen, work, player, age, cur_age, cur_turn, done, rng)
        _init(s)
        for i in range(start):
            nb_apply_action(s, work[i])
        accepted = True
        for i in range(start, hlen):
            actor = (meta[i] >> 10) & 7
            if actor == player:
                nb_apply_action(s, hist[i])
                continue
            m = nb_legal_actions(s, buf)
            size = 0
            for c in range(NC):
                size += s[HANDS + actor * NC + c]
            if rng_bounded(rng, 3 * size) >= m:
                accepted = False
                break
            nb_apply_action(s, buf[rng_bounded(rng, m)])
        if accepted:
            return


@nb.njit(cache=True)
def nb_apply_history(s, actions):
    for i in range(len(actions)):
        nb_apply_action(s, actions[i])


# -- the engine's view of this game (infosets.games.kernels) --------------------------------
RULES = sys.modules[__name__]  # the jitted functions the compiled engine calls


def array_from_history(history) -> np.ndarray:
    """The state array reached by playing ``history`` (pyspiel action ids) from the start."""
    s = new_state()
    nb_apply_history(s, np.asarray(list(history), dtype=np.int64))
    return s


def array_history(s: np.ndarray) -> list[int]:
    """The pyspiel action history of a state array."""
    return s[HIST : HIST + s[HLEN]].tolist()


def kernel_for(game) -> Kernel | None:
    """This game's kernel for a loaded pyspiel ``game``, or None where the kernel does not
    cover its parameters (``infosets.games.kernels.kernel_for``). Its strings are the
    adapter's (``game.py``)."""
    if game.num_players() != NP:
        return None
    wrap = type(game.new_kernel()).wrap

    def infostate_string(array: np.ndarray, player: int) -> str:
        return wrap(array).information_state_string(player)

    return Kernel(
        "seven_wonders",
        RULES,
        NP,
        NUM_ACTIONS,
        array_from_history,
        array_history,
        infostate_string,
        state_of_array=lambda g, array: g.state_from_history(array_history(array)),
    )
