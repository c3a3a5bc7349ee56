"""The rules of the trick-taking game "CG nC" (``trick_game``), written once, in numba.

Follows the trick-taking benchmark of Arjonilla, Saffidine and Cazenave, "Mixture of public
and private distributions in imperfect information games" (2024), section 4.1.1, as read in
docs/papers/belief_mixtures.md (belief_mixtures slug for the game, pimcts_aggregation slug for
the engine). Both engines play these functions: the compiled engine directly
(``infosets.games.kernels``), the pyspiel adapter (``game.py``), the Python reference searches
and the exact solvers through ``array_rules.TrickState``, which holds one state array.

Rules (every interpretation is a named parameter or stated here; the deck is ``deck.py``'s):
- Deal: ``hand_size`` cards to each of two players, one chance outcome per card, uniformly
  among the cards not yet dealt; player 0 receives the first ``hand_size`` cards, then
  player 1. The other ``num_cards - 2 * hand_size`` cards stay undealt and hidden.
- Play: player 0 leads the first trick; the leader plays any card; the other player must
  follow the led suit when able, otherwise plays any card and cannot win the trick. The
  highest card of the led suit wins and the winner leads the next trick. No trump.
- Result: more than half the ``hand_size`` tricks wins (+1 / -1); exactly half is a draw
  (0 / 0).

A state is an int64 array:

``[num_cards, hand_size, dealt0, dealt1, hand0, hand1, lead, player, tricks0, tricks1,
voids0, voids1, deals made, plays made, suit masks (4), deal order (2 * hand_size), plays
(2 * hand_size)]``

``nb_determinize`` redraws the opponent's unplayed cards uniformly among the cards the
player has not seen, outside the suits the opponent has shown void in (Knuth's selection
sampling, as the adapter's ``resample_from_infostate``); the opponent's slots in the deal
order are rewritten in ascending order, so the array's history rebuilds the world.
"""

from __future__ import annotations

import sys

import numba as nb
import numpy as np

from infosets.core.pcg32 import rng_random
from infosets.games.kernels import Kernel
from infosets.games.trick_game.deck import CHANCE, TERMINAL, check_sizes, make_deck

_HEADER = 18
NUM_CARDS, HAND_SIZE, DEALT, HANDS, LEAD, PLAYER = 0, 1, 2, 4, 6, 7  # DEALT, HANDS: two slots
TRICKS, VOIDS, NDEALS, NPLAYS, SUIT_MASKS = 8, 10, 12, 13, 14  # two slots each; four masks


def state_size(hand_size: int) -> int:
    return _HEADER + 4 * hand_size


def new_state(num_cards: int, hand_size: int) -> np.ndarray:
    check_sizes(num_cards, hand_size)
    state = np.zeros(state_size(hand_size), dtype=np.int64)
    state[NUM_CARDS], state[HAND_SIZE], state[LEAD], state[PLAYER] = num_cards, hand_size, -1, CHANCE
    state[SUIT_MASKS:SUIT_MASKS + 4] = make_deck(num_cards).suit_mask
    return state


@nb.njit(cache=True, inline="always")
def _popcount(mask):
    count = 0
    while mask:
        mask &= mask - 1
        count += 1
    return count


@nb.njit(cache=True)
def _suit_of(num_cards, card):
    """Suit of ``card``: the first ``num_cards % 4`` suits hold one extra card."""
    base, extra = num_cards // 4, num_cards % 4
    big = extra * (base + 1)
    if card < big:
        return card // (base + 1)
    return extra + (card - big) // base


@nb.njit(cache=True)
def _bits_into(mask, buf):
    n = 0
    c = 0
    while mask:
        if mask & 1:
            buf[n] = c
            n += 1
        mask >>= 1
        c += 1
    return n


@nb.njit(cache=True)
def nb_current_player(s):
    return s[PLAYER]


@nb.njit(cache=True)
def _legal_mask(s):
    player = s[PLAYER]
    if player < 0:
        return 0
    hand = s[HANDS + player]
    if s[LEAD] < 0:
        return hand
    follow = hand & s[SUIT_MASKS + _suit_of(s[NUM_CARDS], s[LEAD])]
    return follow if follow else hand


@nb.njit(cache=True)
def legal_mask(s):
    """Bitmask of the legal actions: the undealt cards at a chance node, the mover's legal
    cards at a decision, 0 at the end."""
    if s[PLAYER] == CHANCE:
        return ((1 << s[NUM_CARDS]) - 1) & ~(s[DEALT] | s[DEALT + 1])
    return _legal_mask(s)


@nb.njit(cache=True)
def nb_legal_actions(s, buf):
    return _bits_into(legal_mask(s), buf)


@nb.njit(cache=True)
def nb_chance_outcomes(s, actions, probs):
    n = nb_legal_actions(s, actions)
    p = 1.0 / n
    for i in range(n):
        probs[i] = p
    return n


@nb.njit(cache=True)
def nb_apply_action(s, action):
    bit = 1 << action
    h = s[HAND_SIZE]
    if s[PLAYER] == CHANCE:
        receiver = 0 if _popcount(s[DEALT]) < h else 1
        s[DEALT + receiver] |= bit
        s[HANDS + receiver] |= bit
        s[_HEADER + s[NDEALS]] = action
        s[NDEALS] += 1
        if receiver == 1 and _popcount(s[DEALT + 1]) == h:
            s[PLAYER] = 0
        return
    p = s[PLAYER]
    s[HANDS + p] &= ~bit
    s[_HEADER + 2 * h + s[NPLAYS]] = action
    s[NPLAYS] += 1
    lead = s[LEAD]
    if lead < 0:
        s[LEAD] = action
        s[PLAYER] = 1 - p
        return
    num_cards = s[NUM_CARDS]
    led_suit = _suit_of(num_cards, lead)
    if _suit_of(num_cards, action) == led_suit:
        winner = p if action > lead else 1 - p
    else:
        winner = 1 - p
        s[VOIDS + p] |= 1 << led_suit
    s[TRICKS + winner] += 1
    s[LEAD] = -1
    s[PLAYER] = TERMINAL if s[NPLAYS] == 2 * h else winner


@nb.njit(cache=True)
def apply_if_legal(s, action):
    """Applies ``action`` if it is legal here (``legal_mask``) and says whether it was."""
    if s[PLAYER] == TERMINAL or not 0 <= action < s[NUM_CARDS] or not legal_mask(s) >> action & 1:
        return False
    nb_apply_action(s, action)
    return True


@nb.njit(cache=True)
def nb_returns(s, out):
    out[0], out[1] = 0.0, 0.0
    if s[PLAYER] != TERMINAL:
        return
    diff = 2 * s[TRICKS] - s[HAND_SIZE]
    if diff > 0:
        out[0], out[1] = 1.0, -1.0
    elif diff < 0:
        out[0], out[1] = -1.0, 1.0


@nb.njit(cache=True)
def play_movers(s, out):
    """Writes who made each play so far into ``out``; returns the number of plays. Replays the
    array's deal order and plays on a fresh array, so the movers follow ``nb_apply_action``."""
    replay = np.zeros_like(s)
    replay[NUM_CARDS], replay[HAND_SIZE] = s[NUM_CARDS], s[HAND_SIZE]
    replay[LEAD], replay[PLAYER] = -1, CHANCE
    replay[SUIT_MASKS:SUIT_MASKS + 4] = s[SUIT_MASKS:SUIT_MASKS + 4]
    for i in range(s[NDEALS]):
        nb_apply_action(replay, s[_HEADER + i])
    base = _HEADER + 2 * s[HAND_SIZE]
    for i in range(s[NPLAYS]):
        out[i] = replay[PLAYER]
        nb_apply_action(replay, s[base + i])
    return s[NPLAYS]


@nb.njit(cache=True)
def nb_heuristic(s, out):
    """Cut-off score on the returns' scale: the trick lead so far over the hand size
    (player 0 gets ``(tricks0 - tricks1) / hand_size``, player 1 the opposite); the
    returns at the end."""
    if s[PLAYER] == TERMINAL:
        nb_returns(s, out)
        return
    lead = (s[TRICKS] - s[TRICKS + 1]) / s[HAND_SIZE]
    out[0], out[1] = lead, -lead


@nb.njit(cache=True)
def nb_infostate_key(s, player):
    """A 64-bit hash of ``player``'s information state (own dealt hand, deals made during
    the deal, every play): splitmix64 steps over the fields. Two information states share a
    key with probability about 2**-64 per pair."""
    h = np.uint64(0x9E3779B97F4A7C15) * np.uint64(player + 1)
    dealing = s[NDEALS] if s[PLAYER] == CHANCE else -1
    n = s[NPLAYS]
    base = _HEADER + 2 * s[HAND_SIZE]
    for i in range(n + 2):
        if i == 0:
            v = s[DEALT + player]
        elif i == 1:
            v = dealing
        else:
            v = s[base + i - 2]
        h = (h ^ np.uint64(v)) * np.uint64(0xBF58476D1CE4E5B9)
        h = (h ^ (h >> np.uint64(31))) * np.uint64(0x94D049BB133111EB)
        h ^= h >> np.uint64(29)
    return np.int64(h >> np.uint64(1))


@nb.njit(cache=True)
def nb_determinize(s, player, rng):
    num_cards, h = s[NUM_CARDS], s[HAND_SIZE]
    opp = 1 - player
    played = 0
    base = _HEADER + 2 * h
    for i in range(s[NPLAYS]):
        played |= 1 << s[base + i]
    opp_played = s[DEALT + opp] & ~s[HANDS + opp]
    hidden = ((1 << num_cards) - 1) & ~s[DEALT + player] & ~played
    void_cards = 0
    for suit in range(4):
        if s[VOIDS + opp] >> suit & 1:
            void_cards |= s[SUIT_MASKS + suit]
    free = hidden & ~void_cards
    need = _popcount(s[HANDS + opp])
    remaining = _popcount(free)
    hand = 0
    for card in range(num_cards):
        if free >> card & 1:
            if need and rng_random(rng) * remaining < need:
                hand |= 1 << card
                need -= 1
            remaining -= 1
    s[HANDS + opp] = hand
    s[DEALT + opp] = hand | opp_played
    slot = _HEADER + (h if opp == 1 else 0)
    dealt = s[DEALT + opp]
    for card in range(num_cards):
        if dealt >> card & 1:
            s[slot] = card
            slot += 1


def array_history(s: np.ndarray) -> list[int]:
    h = int(s[HAND_SIZE])
    return [int(a) for a in s[_HEADER:_HEADER + s[NDEALS]]] + \
        [int(a) for a in s[_HEADER + 2 * h:_HEADER + 2 * h + s[NPLAYS]]]


def array_from_history(history, num_cards: int, hand_size: int) -> np.ndarray:
    state = new_state(num_cards, hand_size)
    for action in history:
        nb_apply_action(state, int(action))
    return state


# -- the engine's view of this game (infosets.games.kernels) --------------------------------
RULES = sys.modules[__name__]  # the jitted functions the compiled engine calls


def kernel_for(game) -> Kernel | None:
    """This game's kernel for a loaded pyspiel ``game``, or None where the kernel does not
    cover its parameters (``infosets.games.kernels.kernel_for``)."""
    num_cards, hand_size = game.num_cards, game.hand_size
    if num_cards > 62:
        return None
    wrap = type(game.new_initial_state().kernel).wrap  # the adapter's state class

    def infostate_string(s: np.ndarray, player: int) -> str:
        """The adapter's information state string of the array."""
        return wrap(s).information_state_string(player)

    return Kernel("trick_game", RULES, 2, num_cards,
                  lambda history: array_from_history(history, num_cards, hand_size),
                  array_history, infostate_string)
