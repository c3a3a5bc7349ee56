"""Numba kernel of OpenSpiel's ``hearts`` for the compiled search engine.

Serves the compiled PI-MCTS / IS-MCTS engine of Ravichandran, Goodman and Lucas, "PIMCTS
evaluation in tabletop games" (docs/papers/pimcts_aggregation.md), who play Hearts with four
players. The rules are OpenSpiel's C++ ``hearts`` (``open_spiel/games/hearts/hearts.cc`` as
installed with pyspiel 2.0.2), which stays the oracle: this module is a second implementation
of them, with the same action ids and orders (the pass direction 0..3, then the deal, passes
and plays as card ids ``rank * 4 + suit``, suits C D H S, each list ascending), chance
outcomes, returns (26 minus the points taken, after shooting the moon and the optional
bonuses) and information-state strings (tests/games/hearts/test_hearts_kernel.py checks them
on random games). Every rule flag of the game is covered except ``pass_cards=false``
(``uncovered``).

State array (int64): the phase (pass direction, deal, pass, play, over), the player to move
(``CHANCE``/``TERMINAL`` included), the pass direction, cards dealt, passed and played, hearts
broken, the current trick (leader, winner, winning rank, points, led suit), the first leader,
per seat its current hand and dealt hand as 52-bit masks and its points, the eight rule flags,
per trick its winner and points, and the action history (what ``history`` returns).

``nb_heuristic`` is TAG's ``LeaderHeuristic`` as ``infosets.games.heuristics`` scores Hearts on
the Python engine: minus the points taken, 0.5 + (own - best other) / (2 x 26) clipped to
[0, 1], mapped to the return span 0 .. 36; the returns at the end.

Round counter (the kernel contract's optional ``nb_round``, and ``round_counter`` for a pyspiel
``hearts`` state): TAG's Hearts ends a round when a hand's last trick is taken
(``HeartsForwardModel.endTrick`` calls ``endRound``), and OpenSpiel's game is one hand, so the
counter is the hands finished: 0, then 1 at the end. TAG's agent for Hearts rolls out with
``rolloutTermination`` END_ROUND and length 0, which thus plays to the end of the game, scored
by its returns (docs/tag_agents.md section 9).

``nb_determinize`` draws from the distribution of ``games/hearts/worlds.py`` (``HeartsWorlds``):
the opponents' current hands uniform among those consistent with the player's view (own deal
and passes, the cards passed to it, the plays, the voids and rule facts they reveal) by exact
counts over the cards grouped by which opponents may hold them; the passes the player did not
see uniform ordered subsets of their receivers' post-pass cards (of the passer's dealt hand
during the passing); each opponent's dealt cards in a uniform order in its deal slots. The
world's history is rewritten with it, so ``history(world)`` rebuilds the world on pyspiel.
"""

from __future__ import annotations

import sys

import numba as nb
import numpy as np

from infosets.core.pcg32 import rng_bounded, rng_next_u32
from infosets.games.kernels import Kernel

CHANCE = -1
TERMINAL = -4
NUM_PLAYERS, NUM_CARDS, PASS_SIZE, NUM_TRICKS, HAND_SIZE = 4, 52, 3, 13, 13
CLUBS, DIAMONDS, HEARTS, SPADES = 0, 1, 2, 3
TWO_OF_CLUBS = 0
QUEEN_OF_SPADES = 10 * 4 + SPADES
JACK_OF_DIAMONDS = 9 * 4 + DIAMONDS
TOTAL_POINTS = 26  # all hearts and the queen of spades
AVOID_ALL_TRICKS_BONUS = -5
MIN_UTILITY, MAX_UTILITY = 0.0, 36.0  # OpenSpiel's kMinScore, kMaxScore (26 + 10)
HEURISTIC_SCALE = 26.0  # infosets.games.heuristics.SCALES["hearts"]
NUM_ACTIONS = NUM_CARDS

SUIT_MASKS = np.array([sum(1 << c for c in range(NUM_CARDS) if c % 4 == s) for s in range(4)], dtype=np.int64)
ONLY_HEARTS = int(SUIT_MASKS[HEARTS])
ONLY_POINTS = ONLY_HEARTS | 1 << QUEEN_OF_SPADES
ALL_CARDS = (1 << NUM_CARDS) - 1
BINOM = np.zeros((NUM_CARDS + 1, NUM_CARDS + 1), dtype=np.int64)  # binomial coefficients
for _n in range(NUM_CARDS + 1):
    BINOM[_n, 0] = 1
    for _k in range(1, _n + 1):
        BINOM[_n, _k] = BINOM[_n - 1, _k - 1] + (BINOM[_n - 1, _k] if _k < _n else 0)

# The rule flags, in the order of the array's FLAGS slots (OpenSpiel's parameter names).
RULE_NAMES = (
    "pass_cards",
    "no_pts_on_first_trick",
    "can_lead_any_club",
    "jd_bonus",
    "avoid_all_tricks_bonus",
    "must_break_hearts",
    "qs_breaks_hearts",
    "can_lead_hearts_instead_of_qs",
)
DEFAULT_RULES = {
    "pass_cards": True,
    "no_pts_on_first_trick": True,
    "can_lead_any_club": False,
    "jd_bonus": False,
    "avoid_all_tricks_bonus": False,
    "must_break_hearts": True,
    "qs_breaks_hearts": True,
    "can_lead_hearts_instead_of_qs": False,
}
(R_PASS, R_NO_PTS_FIRST, R_ANY_CLUB, R_JD, R_AVOID_ALL, R_MUST_BREAK, R_QS_BREAKS, R_HEARTS_NOT_QS) = range(8)

PH_PASS_DIR, PH_DEAL, PH_PASS, PH_PLAY, PH_OVER = range(5)
(
    PHASE,
    PLAYER,
    PASS_DIR,
    NDEALT,
    NPASSED,
    NPLAYED,
    BROKEN,
    LEADER,
    WINNER,
    WIN_RANK,
    TRICK_POINTS,
    LED_SUIT,
    FIRST_LEADER,
) = range(13)
HAND = 13  # 4 current-hand masks
DEALT = HAND + NUM_PLAYERS  # 4 dealt-hand masks
POINTS = DEALT + NUM_PLAYERS  # 4 point totals
FLAGS = POINTS + NUM_PLAYERS  # 8 rule flags
TRICK_WINNERS = FLAGS + 8  # 13 trick winners
TRICK_PTS = TRICK_WINNERS + NUM_TRICKS  # 13 trick points
HIST_LEN = TRICK_PTS + NUM_TRICKS
HIST = HIST_LEN + 1
MAX_HISTORY = 1 + NUM_CARDS + NUM_PLAYERS * PASS_SIZE + NUM_CARDS
STATE_SIZE = HIST + MAX_HISTORY
PASSES_START = 1 + NUM_CARDS  # history index where the passes start


def new_state(rules: dict | None = None) -> np.ndarray:
    """The initial state array (chance picks the pass direction) under ``rules`` (flags by
    OpenSpiel's parameter names; OpenSpiel's defaults for those not given)."""
    flags = {**DEFAULT_RULES, **(rules or {})}
    s = np.zeros(STATE_SIZE, dtype=np.int64)
    s[PLAYER], s[LEADER], s[FIRST_LEADER] = CHANCE, -1, -1
    s[BROKEN] = 0 if flags["must_break_hearts"] else 1
    for i, name in enumerate(RULE_NAMES):
        s[FLAGS + i] = int(bool(flags[name]))
    return s


# -- rules --------------------------------------------------------------------------------------
@nb.njit(cache=True, inline="always")
def _bit(card):
    return np.int64(1) << card


@nb.njit(cache=True)
def _bits_into(mask, buf):
    n = 0
    for c in range(NUM_CARDS):
        if mask >> c & 1:
            buf[n] = c
            n += 1
    return n


@nb.njit(cache=True)
def _card_points(s, card):
    if card % 4 == HEARTS:
        return 1
    if card == QUEEN_OF_SPADES:
        return 13
    if card == JACK_OF_DIAMONDS and s[FLAGS + R_JD]:
        return -10
    return 0


@nb.njit(cache=True)
def nb_current_player(s):
    return s[PLAYER]


@nb.njit(cache=True)
def _play_mask(s):
    """The legal plays of the player to move (OpenSpiel's ``PlayLegalActions``) as a mask."""
    hand = s[HAND + s[PLAYER]]
    played = s[NPLAYED]
    if played % 4 != 0:
        follow = hand & SUIT_MASKS[s[LED_SUIT]]
        if follow:
            return follow
    if played == 0:
        if s[FLAGS + R_ANY_CLUB]:
            return hand & SUIT_MASKS[CLUBS]
        return _bit(TWO_OF_CLUBS)
    if s[FLAGS + R_NO_PTS_FIRST] and played < NUM_PLAYERS:
        safe = hand & ~ONLY_POINTS
        if safe:
            return safe
    if played % 4 == 0:
        lead = hand if s[BROKEN] else hand & ~ONLY_HEARTS
        if s[FLAGS + R_HEARTS_NOT_QS] and lead == _bit(QUEEN_OF_SPADES):
            lead = 0
        if lead:
            return lead
    return hand


@nb.njit(cache=True)
def nb_legal_actions(s, buf):
    phase = s[PHASE]
    if phase == PH_PASS_DIR:
        for d in range(NUM_PLAYERS):
            buf[d] = d
        return NUM_PLAYERS
    if phase == PH_DEAL:
        dealt = s[HAND] | s[HAND + 1] | s[HAND + 2] | s[HAND + 3]
        return _bits_into(ALL_CARDS & ~dealt, buf)
    if phase == PH_PASS:
        return _bits_into(s[HAND + s[PLAYER]], buf)
    if phase == PH_PLAY:
        return _bits_into(_play_mask(s), buf)
    return 0


@nb.njit(cache=True)
def nb_chance_outcomes(s, actions, probs):
    n = nb_legal_actions(s, actions)
    p = 1.0 / n
    for i in range(n):
        probs[i] = p
    return n


@nb.njit(cache=True)
def _holder(s, card):
    for p in range(NUM_PLAYERS):
        if s[HAND + p] >> card & 1:
            return p
    return -1


@nb.njit(cache=True)
def _deal(s, card):
    s[HAND + s[NDEALT] % NUM_PLAYERS] |= _bit(card)
    s[NDEALT] += 1
    if s[NDEALT] < NUM_CARDS:
        return
    for p in range(NUM_PLAYERS):
        s[DEALT + p] = s[HAND + p]
    if s[PASS_DIR] == 0:
        s[PHASE], s[PLAYER] = PH_PLAY, _holder(s, TWO_OF_CLUBS)
    else:
        s[PHASE], s[PLAYER] = PH_PASS, 0


@nb.njit(cache=True)
def _pass(s, card):
    s[HAND + s[PLAYER]] &= ~_bit(card)
    s[NPASSED] += 1
    if s[NPASSED] % PASS_SIZE == 0:
        s[PLAYER] += 1
    if s[PLAYER] < NUM_PLAYERS:
        return
    for i in range(NUM_PLAYERS * PASS_SIZE):  # the passes reach their receivers together
        passer = i // PASS_SIZE
        s[HAND + (passer + s[PASS_DIR]) % NUM_PLAYERS] |= _bit(s[HIST + PASSES_START + i])
    s[PHASE], s[PLAYER] = PH_PLAY, _holder(s, TWO_OF_CLUBS)


@nb.njit(cache=True)
def _score_end(s):
    """OpenSpiel's ``ComputeScore``: shooting the moon, then the avoid-all-tricks bonus."""
    shooter, moon = -1, True
    for t in range(NUM_TRICKS):
        pts = s[TRICK_PTS + t]
        if pts != 0 and pts != -10:
            if shooter == -1:
                shooter = s[TRICK_WINNERS + t]
            elif shooter != s[TRICK_WINNERS + t]:
                moon = False
                break
    if moon:
        for p in range(NUM_PLAYERS):
            s[POINTS + p] += -TOTAL_POINTS if p == shooter else TOTAL_POINTS
    if s[FLAGS + R_AVOID_ALL] and not moon:
        for p in range(NUM_PLAYERS):
            took = False
            for t in range(NUM_TRICKS):
                took = took or s[TRICK_WINNERS + t] == p
            if not took:
                s[POINTS + p] += AVOID_ALL_TRICKS_BONUS


@nb.njit(cache=True)
def _play(s, card):
    p = s[PLAYER]
    s[HAND + p] &= ~_bit(card)
    suit, rank = card % 4, card // 4
    if s[NPLAYED] == 0:
        s[FIRST_LEADER] = p
    if s[NPLAYED] % 4 == 0:
        s[LEADER], s[WINNER], s[WIN_RANK], s[LED_SUIT] = p, p, rank, suit
        s[TRICK_POINTS] = _card_points(s, card)
    else:
        s[TRICK_POINTS] += _card_points(s, card)
        if suit == s[LED_SUIT] and rank > s[WIN_RANK]:
            s[WINNER], s[WIN_RANK] = p, rank
    if suit == HEARTS or (s[FLAGS + R_QS_BREAKS] and card == QUEEN_OF_SPADES):
        s[BROKEN] = 1
    s[NPLAYED] += 1
    if s[NPLAYED] % 4 == 0:
        t = s[NPLAYED] // 4 - 1
        s[TRICK_WINNERS + t], s[TRICK_PTS + t] = s[WINNER], s[TRICK_POINTS]
        s[POINTS + s[WINNER]] += s[TRICK_POINTS]
        s[PLAYER] = s[WINNER]
    else:
        s[PLAYER] = (p + 1) % NUM_PLAYERS
    if s[NPLAYED] == NUM_CARDS:
        s[PHASE], s[PLAYER] = PH_OVER, TERMINAL
        _score_end(s)


@nb.njit(cache=True)
def nb_apply_action(s, action):
    s[HIST + s[HIST_LEN]] = action
    s[HIST_LEN] += 1
    phase = s[PHASE]
    if phase == PH_PASS_DIR:
        s[PASS_DIR], s[PHASE] = action, PH_DEAL
    elif phase == PH_DEAL:
        _deal(s, action)
    elif phase == PH_PASS:
        _pass(s, action)
    else:
        _play(s, action)


@nb.njit(cache=True)
def nb_returns(s, out):
    """OpenSpiel's returns: 26 minus each seat's points at the end, zeros before."""
    for p in range(NUM_PLAYERS):
        out[p] = TOTAL_POINTS - s[POINTS + p] if s[PHASE] == PH_OVER else 0.0


@nb.njit(cache=True)
def nb_round(s):
    """TAG's round counter: the hands finished, 1 once the hand is over, else 0
    (``round_counter``'s twin; infosets.games.kernels, END_ROUND)."""
    return 1 if s[PHASE] == PH_OVER else 0


def round_counter(state) -> int:
    """TAG's round counter of a pyspiel ``hearts`` state (one hand): 1 once it is over, else 0
    (twin ``nb_round``)."""
    return int(state.is_terminal())


@nb.njit(cache=True)
def nb_heuristic(s, out):
    """TAG's LeaderHeuristic as ``infosets.games.heuristics`` scores Hearts: with score = minus
    the points taken, 0.5 + (own score - best other score) / 52 clipped to [0, 1], mapped to
    the return span 0 .. 36; the returns at the end."""
    if s[PHASE] == PH_OVER:
        nb_returns(s, out)
        return
    for p in range(NUM_PLAYERS):
        best = -1e9
        for q in range(NUM_PLAYERS):
            if q != p and -s[POINTS + q] > best:
                best = -s[POINTS + q]
        v = min(1.0, max(0.0, 0.5 + (-s[POINTS + p] - best) / (2 * HEURISTIC_SCALE)))
        out[p] = MIN_UTILITY + v * (MAX_UTILITY - MIN_UTILITY)


# -- information states ----------------------------------------------------------------------
@nb.njit(cache=True, inline="always")
def _mix(h, v):
    h = (h ^ np.uint64(v)) * np.uint64(0xBF58476D1CE4E5B9)
    h = (h ^ (h >> np.uint64(31))) * np.uint64(0x94D049BB133111EB)
    return h ^ (h >> np.uint64(29))


@nb.njit(cache=True)
def _pass_mask(s, passer, count):
    """The first ``count`` cards ``passer`` passed, as a mask."""
    mask = np.int64(0)
    for i in range(count):
        mask |= _bit(s[HIST + PASSES_START + PASS_SIZE * passer + i])
    return mask


@nb.njit(cache=True)
def _first_play(s):
    return PASSES_START + (NUM_PLAYERS * PASS_SIZE if s[PASS_DIR] != 0 else 0)


@nb.njit(cache=True)
def nb_infostate_key(s, player):
    """A 64-bit hash of ``player``'s information state as OpenSpiel's string shows it: the pass
    direction, the current hand, the cards it passed and (once every pass is made) received,
    and every card played (their order fixes the tricks' leaders and the points). At the end,
    where OpenSpiel's string is the state's: every dealt hand, the passes in their order and
    the plays. Two information states share a key with probability about 2**-64 per pair."""
    h = _mix(np.uint64(0x9E3779B97F4A7C15) * np.uint64(player + 1), s[PASS_DIR])
    if s[PHASE] == PH_OVER:
        for p in range(NUM_PLAYERS):
            h = _mix(h, s[DEALT + p])
        for i in range(PASSES_START, s[HIST_LEN]):
            h = _mix(h, s[HIST + i])
        return np.int64(h >> np.uint64(1))
    made = min(PASS_SIZE, max(0, s[NPASSED] - PASS_SIZE * player))
    h = _mix(h, s[HAND + player])
    h = _mix(h, _pass_mask(s, player, made))
    received = -1
    if s[NPASSED] == NUM_PLAYERS * PASS_SIZE:
        received = _pass_mask(s, (player - s[PASS_DIR]) % NUM_PLAYERS, PASS_SIZE)
    h = _mix(h, received)
    start = _first_play(s)
    for i in range(s[NPLAYED]):
        h = _mix(h, s[HIST + start + i])
    return np.int64(h >> np.uint64(1))


# -- worlds ------------------------------------------------------------------------------------
@nb.njit(cache=True)
def _popcount(mask):
    n = 0
    while mask:
        mask &= mask - 1
        n += 1
    return n


@nb.njit(cache=True)
def _bounded64(rng, n):
    """Uniform in [0, n) for 1 <= n < 2**63: ``rng_bounded`` below 2**32, else two outputs
    joined with rejection (no modulo bias)."""
    if n < 4294967296:
        return rng_bounded(rng, n)
    un = np.uint64(n)
    limit = (np.uint64(0xFFFFFFFFFFFFFFFF) // un) * un
    while True:
        x = (rng_next_u32(rng) << np.uint64(32)) | rng_next_u32(rng)
        if x < limit:
            return np.int64(x % un)


@nb.njit(cache=True)
def _shuffled(mask, rng, out):
    """The cards of ``mask`` in a uniform order into ``out``; their number."""
    n = _bits_into(mask, out)
    for i in range(n - 1, 0, -1):
        j = rng_bounded(rng, i + 1)
        out[i], out[j] = out[j], out[i]
    return n


@nb.njit(cache=True)
def _hand_limits(s, player, played_by):
    """Per seat, the cards its current hand lies inside by the public play (as
    ``worlds._hand_limits``): voids, points-only discards on the first trick, hearts-only
    leads before hearts are broken, the two of clubs with the first leader."""
    limits = np.full(NUM_PLAYERS, ALL_CARDS, dtype=np.int64)
    broken = not s[FLAGS + R_MUST_BREAK]
    start = _first_play(s)
    led = -1
    seat = s[FIRST_LEADER]
    for i in range(s[NPLAYED]):
        card = s[HIST + start + i]
        suit = card % 4
        if i % 4 == 0:
            seat = s[FIRST_LEADER] if i == 0 else s[TRICK_WINNERS + i // 4 - 1]
            if i > 0 and suit == HEARTS and not broken:
                limits[seat] &= ONLY_POINTS if s[FLAGS + R_HEARTS_NOT_QS] else ONLY_HEARTS
            led = suit
        elif suit != led:
            limits[seat] &= ~SUIT_MASKS[led]
            if i < 4 and s[FLAGS + R_NO_PTS_FIRST] and (suit == HEARTS or card == QUEEN_OF_SPADES):
                limits[seat] &= ONLY_POINTS
        played_by[seat] |= _bit(card)
        if suit == HEARTS or (s[FLAGS + R_QS_BREAKS] and card == QUEEN_OF_SPADES):
            broken = True
        seat = (seat + 1) % NUM_PLAYERS
    leader = s[FIRST_LEADER] if s[NPLAYED] else s[PLAYER]
    if not _any_played(s, TWO_OF_CLUBS):
        for p in range(NUM_PLAYERS):
            if p != leader:
                limits[p] &= ~_bit(TWO_OF_CLUBS)
    return limits


@nb.njit(cache=True)
def _any_played(s, card):
    start = _first_play(s)
    for i in range(s[NPLAYED]):
        if s[HIST + start + i] == card:
            return True
    return False


@nb.njit(cache=True)
def _deal_counts(sizes, kinds, num, need):
    """counts[k, n0, n1]: the ways to deal classes k..num-1 onto the opponents' needs (n0, n1,
    rest), each class's cards split by a multinomial among the opponents its kind (a mask of
    opponents) allows; only needs up to ``need`` are counted."""
    rem = np.zeros(num + 1, dtype=np.int64)
    for k in range(num - 1, -1, -1):
        rem[k] = rem[k + 1] + sizes[k]
    counts = np.zeros((num + 1, need[0] + 1, need[1] + 1), dtype=np.int64)
    counts[num, 0, 0] = 1
    split = np.zeros(3, np.int64)
    for k in range(num - 1, -1, -1):
        for n0 in range(need[0] + 1):
            for n1 in range(need[1] + 1):
                n2 = rem[k] - n0 - n1
                if 0 <= n2 <= need[2]:
                    counts[k, n0, n1] = _class_splits(
                        sizes[k], kinds[k], n0, n1, n2, counts[k + 1], -1, split
                    )
    return counts


@nb.njit(cache=True)
def _class_splits(m, kind, n0, n1, n2, after, pick, split):
    """The weight of every split (a0, a1, a2) of a class of ``m`` cards among needs (n0, n1,
    n2), in worlds.py's order; returns their sum. ``pick`` >= 0: the split whose cumulative
    weight passes ``pick`` is written to ``split``."""
    cap0 = n0 if kind & 1 else 0
    cap1 = n1 if kind & 2 else 0
    cap2 = n2 if kind & 4 else 0
    total = np.int64(0)
    for a0 in range(min(cap0, m) + 1):
        for a1 in range(min(cap1, m - a0) + 1):
            a2 = m - a0 - a1
            if a2 <= cap2:
                w = BINOM[m, a0] * BINOM[m - a0, a1] * after[n0 - a0, n1 - a1]
                total += w
                if 0 <= pick < total:
                    split[0], split[1], split[2] = a0, a1, a2
                    return total
    return total


@nb.njit(cache=True)
def _draw_hands(unknown, allowed, need, rng):
    """The opponents' unseen cards (``need`` each, inside ``allowed``), uniform among every
    such deal of ``unknown``; masks in opponent order, or -1s when none fits. The cards are
    grouped by which opponents may hold them (their kind); a class's split is drawn with the
    weight of the deals it leaves, then its cards in a uniform order."""
    by_kind = np.zeros(8, dtype=np.int64)
    for c in range(NUM_CARDS):
        if unknown >> c & 1:
            by_kind[(allowed[0] >> c & 1) | (allowed[1] >> c & 1) << 1 | (allowed[2] >> c & 1) << 2] |= _bit(
                c
            )
    kinds = np.zeros(8, dtype=np.int64)
    sizes = np.zeros(8, dtype=np.int64)
    num = 0
    for kind in range(8):
        if by_kind[kind]:
            kinds[num], sizes[num] = kind, _popcount(by_kind[kind])
            num += 1
    counts = _deal_counts(sizes, kinds, num, need)
    hands = np.full(3, -1, dtype=np.int64)
    if counts[0, need[0], need[1]] == 0:
        return hands
    hands[:] = 0
    n = need.copy()
    split = np.zeros(3, np.int64)
    order = np.empty(NUM_CARDS, np.int64)
    for k in range(num):
        pick = _bounded64(rng, counts[k, n[0], n[1]])
        _class_splits(sizes[k], kinds[k], n[0], n[1], n[2], counts[k + 1], pick, split)
        _shuffled(by_kind[kinds[k]], rng, order)
        i = 0
        for o in range(3):
            for _ in range(split[o]):
                hands[o] |= _bit(order[i])
                i += 1
            n[o] -= split[o]
    return hands


@nb.njit(cache=True)
def _ordered_subset(mask, size, rng, out):
    """A uniform ordered choice of ``size`` cards of ``mask`` into ``out[:size]``."""
    n = _bits_into(mask, out)
    for i in range(size):
        j = i + rng_bounded(rng, n - i)
        out[i], out[j] = out[j], out[i]


@nb.njit(cache=True)
def _write_deal(s, p, dealt, rng):
    """Seat ``p``'s dealt cards, in a uniform order, into its deal slots of the history."""
    order = np.empty(NUM_CARDS, np.int64)
    n = _shuffled(dealt, rng, order)
    for i in range(n):
        s[HIST + 1 + p + NUM_PLAYERS * i] = order[i]
    s[DEALT + p] = dealt


@nb.njit(cache=True)
def _write_pass(s, p, cards, count):
    for i in range(count):
        s[HIST + PASSES_START + PASS_SIZE * p + i] = cards[i]


@nb.njit(cache=True)
def nb_determinize(s, player, rng):
    """In place, a world consistent with ``player``'s view, drawn as ``HeartsWorlds`` draws
    (see the module docstring). States before the end of the deal and at the end are left as
    they are (no search starts there)."""
    if s[PHASE] != PH_PASS and s[PHASE] != PH_PLAY:
        return
    d = s[PASS_DIR]
    opp = np.zeros(3, np.int64)
    i = 0
    for p in range(NUM_PLAYERS):
        if p != player:
            opp[i] = p
            i += 1
    if s[PHASE] == PH_PASS:
        _determinize_passing(s, player, opp, rng)
    else:
        _determinize_play(s, player, d, opp, rng)


@nb.njit(cache=True)
def _determinize_passing(s, player, opp, rng):
    unknown = ALL_CARDS & ~s[DEALT + player]
    allowed = np.full(3, unknown, dtype=np.int64)
    need = np.full(3, HAND_SIZE, dtype=np.int64)
    hands = _draw_hands(unknown, allowed, need, rng)
    if hands[0] < 0:
        return
    cards = np.empty(NUM_CARDS, np.int64)
    for o in range(3):
        p = opp[o]
        made = min(PASS_SIZE, max(0, s[NPASSED] - PASS_SIZE * p))
        passed = np.int64(0)
        if made:
            _ordered_subset(hands[o], made, rng, cards)
            _write_pass(s, p, cards, made)
            passed = _pass_mask(s, p, made)
        _write_deal(s, p, hands[o], rng)
        s[HAND + p] = hands[o] & ~passed


@nb.njit(cache=True)
def _determinize_play(s, player, d, opp, rng):
    played_by = np.zeros(NUM_PLAYERS, np.int64)
    limits = _hand_limits(s, player, played_by)
    own = s[DEALT + player]
    receiver, passer = (player + d) % NUM_PLAYERS, (player - d) % NUM_PLAYERS
    known_held = np.zeros(NUM_PLAYERS, np.int64)
    if d != 0:
        own = (own & ~_pass_mask(s, player, PASS_SIZE)) | _pass_mask(s, passer, PASS_SIZE)
        known_held[receiver] = _pass_mask(s, player, PASS_SIZE) & ~played_by[receiver]
    played = played_by[0] | played_by[1] | played_by[2] | played_by[3]
    unknown = ALL_CARDS & ~own & ~played & ~known_held[receiver]
    need = np.zeros(3, np.int64)
    allowed = np.zeros(3, np.int64)
    for o in range(3):
        p = opp[o]
        need[o] = HAND_SIZE - _popcount(played_by[p]) - _popcount(known_held[p])
        allowed[o] = unknown & limits[p]
    hands = _draw_hands(unknown, allowed, need, rng)
    if hands[0] < 0:
        return
    post = np.zeros(NUM_PLAYERS, np.int64)  # post-pass hands (played cards included)
    for o in range(3):
        post[opp[o]] = hands[o] | known_held[opp[o]] | played_by[opp[o]]
        s[HAND + opp[o]] = hands[o] | known_held[opp[o]]
    if d == 0:
        for o in range(3):
            _write_deal(s, opp[o], post[opp[o]], rng)
        return
    cards = np.empty(NUM_CARDS, np.int64)
    for o in range(3):
        p = opp[o]
        if p != passer:  # an unseen pass: a uniform 3 of its receiver's cards
            _ordered_subset(post[(p + d) % NUM_PLAYERS], PASS_SIZE, rng, cards)
            _write_pass(s, p, cards, PASS_SIZE)
    for o in range(3):
        p = opp[o]
        got = _pass_mask(s, (p - d) % NUM_PLAYERS, PASS_SIZE)
        _write_deal(s, p, (post[p] & ~got) | _pass_mask(s, p, PASS_SIZE), rng)


# -- Python side: histories and OpenSpiel's strings ----------------------------------------------
RANKS, SUITS, SEATS = "23456789TJQKA", "CDHS", "NESW"
PASS_DIRECTIONS = ("No Pass", "Left", "Across", "Right")


def card_string(card: int) -> str:
    return RANKS[card // 4] + SUITS[card % 4]


def array_from_history(history, rules: dict | None = None) -> np.ndarray:
    """The state array reached by playing ``history`` (pyspiel action ids) from the start."""
    s = new_state(rules)
    for action in history:
        nb_apply_action(s, int(action))
    return s


def array_history(s: np.ndarray) -> list[int]:
    return [int(a) for a in s[HIST : HIST + s[HIST_LEN]]]


def _passes(s: np.ndarray, passer: int) -> list[int]:
    made = min(PASS_SIZE, max(0, int(s[NPASSED]) - PASS_SIZE * passer))
    start = HIST + PASSES_START + PASS_SIZE * passer
    return [int(c) for c in s[start : start + made]]


def _hand_lines(mask: int, mark_voids: bool) -> list[str]:
    """OpenSpiel's ``FormatHand``: per suit C D H S, the suit letter and ranks high to low."""
    lines = []
    for suit in range(4):
        ranks = "".join(RANKS[r] for r in range(12, -1, -1) if mask >> (4 * r + suit) & 1)
        lines.append(f"{SUITS[suit]} {ranks or ('none' if mark_voids else '')}")
    return lines


def _tricks_text(s: np.ndarray) -> str:
    """OpenSpiel's ``FormatPlay`` and ``FormatPoints``."""
    played = int(s[NPLAYED])
    plays = array_history(s)[int(_first_play(s)) :][:played]
    text = "\nTricks:\nN  E  S  W  N  E  S"
    for t in range((played - 1) // 4 + 1):
        leader = int(s[FIRST_LEADER]) if t == 0 else int(s[TRICK_WINNERS + t - 1])
        text += "\n" + " " * (3 * leader) + "".join(card_string(c) + " " for c in plays[4 * t : 4 * t + 4])
    return text + "\n\nPoints:" + "".join(f"\n{SEATS[p]}: {int(s[POINTS + p])}" for p in range(4))


def _all_passed(s: np.ndarray) -> bool:
    return int(s[NPASSED]) == NUM_PLAYERS * PASS_SIZE


def array_state_string(s: np.ndarray) -> str:
    """OpenSpiel's ``ToString`` of a state array."""
    hands = [int(s[(DEALT if s[PHASE] == PH_OVER else HAND) + p]) for p in range(4)]
    cards = [_hand_lines(h, mark_voids=False) for h in hands]
    pad = " " * 8
    deal = "".join(f"{pad}{cards[0][suit]}\n" for suit in range(3, -1, -1))
    deal += "".join(f"{cards[3][suit]:<8}{pad}{cards[1][suit]}\n" for suit in range(3, -1, -1))
    deal += "".join(f"{pad}{cards[2][suit]}\n" for suit in range(3, -1, -1))
    text = f"Pass Direction: {PASS_DIRECTIONS[int(s[PASS_DIR])]}\n\n{deal}"
    if _passes(s, 0):
        text += "\n\nPassed Cards:" + "".join(
            f"\n{SEATS[p]}: " + "".join(card_string(c) + " " for c in _passes(s, p)) for p in range(4)
        )
        if _all_passed(s):
            d = int(s[PASS_DIR])
            text += "\n\nReceived Cards:" + "".join(
                f"\n{SEATS[p]}: " + "".join(card_string(c) + " " for c in _passes(s, (p - d) % 4))
                for p in range(4)
            )
        text += "\n"
    return text + (_tricks_text(s) if s[NPLAYED] else "")


def array_infostate_string(s: np.ndarray, player: int) -> str:
    """OpenSpiel's ``InformationStateString(player)`` of a state array."""
    if s[PHASE] == PH_OVER:
        return array_state_string(s)
    text = f"Pass Direction: {PASS_DIRECTIONS[int(s[PASS_DIR])]}\n\nHand: \n"
    text += "".join(line + "\n" for line in reversed(_hand_lines(int(s[HAND + player]), mark_voids=True)))
    passed = _passes(s, player)
    if passed:
        text += "\nPassed Cards: " + "".join(card_string(c) + " " for c in sorted(passed))
        if _all_passed(s):
            received = _passes(s, (player - int(s[PASS_DIR])) % 4)
            text += "\n\nReceived Cards: " + "".join(card_string(c) + " " for c in sorted(received))
        text += "\n"
    return text + (_tricks_text(s) if s[NPLAYED] else "")


# -- the engine's view of this game (infosets.games.kernels) --------------------------------
RULES = sys.modules[__name__]  # the jitted functions the compiled engine calls


def uncovered(params: dict) -> str | None:
    """None if the kernel covers these ``hearts`` parameters, else one line naming the first
    it does not."""
    if not params.get("pass_cards", True):
        return (
            "pass_cards=false: OpenSpiel's chance outcomes then list four pass directions "
            "its legal actions refuse"
        )
    unknown = sorted(set(params) - set(RULE_NAMES))
    return f"unknown hearts parameter {unknown[0]!r}" if unknown else None


def kernel_for(game) -> Kernel | None:
    """This game's kernel for a loaded pyspiel ``game``, or None where the kernel does not
    cover its parameters (``infosets.games.kernels.kernel_for``)."""
    params = game.get_parameters()
    if uncovered(params) is not None:
        return None
    rules = {name: bool(params.get(name, DEFAULT_RULES[name])) for name in RULE_NAMES}
    return Kernel(
        "hearts",
        RULES,
        NUM_PLAYERS,
        NUM_ACTIONS,
        lambda history: array_from_history(history, rules),
        array_history,
        array_infostate_string,
    )
