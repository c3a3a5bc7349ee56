"""Numba kernel of OpenSpiel's ``liars_dice`` with one k-sided die per player (2 players).

Serves the compiled search engine of Ravichandran, Goodman and Lucas, "PIMCTS evaluation in
tabletop games" (docs/papers/pimcts_aggregation.md). Same rules, action ids, returns and
information state strings as OpenSpiel 2.0.2's C++ ``liars_dice(players=2, numdice=1,
dice_sides=k, bidding_rule=reset-face)``:
- Chance rolls player 0's die, then player 1's: actions 0..k-1 are faces 1..k, uniform.
- Player 0 bids first, then the players alternate. Bid ``b`` in 0..2k-1 means "at least
  ``b // k + 1`` dice show face ``b % k + 1``"; each bid must exceed the last; action ``2k``
  calls "Liar" (legal once a bid stands) and ends the game.
- The highest face is wild. If the dice showing the bid face (or the wild face) reach the bid
  quantity, the caller loses (-1, the bidder +1); otherwise the bidder loses.

A state is an int64 array ``[k, die0, die1, last bid, player, caller, history length,
history...]`` (``-1`` for a die not rolled or no bid/caller).
"""

from __future__ import annotations

import sys

import numba as nb
import numpy as np

from infosets.core.pcg32 import rng_bounded
from infosets.games.kernels import Kernel

CHANCE = -1
TERMINAL = -4
MAX_SIDES = 20  # keeps the information-state key inside int64
_HEADER = 7
# The parameters of OpenSpiel's liars_dice this kernel covers, {name: (default, covered
# values)}: ``games.kernels`` gives a game a kernel only where ``uncovered`` finds nothing.
COVERS = {"players": (2, (2,)), "numdice": (1, (1,)),
          "bidding_rule": ("reset-face", ("reset-face",)),
          "dice_sides": (6, range(2, MAX_SIDES + 1))}


def uncovered(params: dict) -> str | None:
    """None if ``params`` (a game's parameters) are all in ``COVERS``, else one line naming
    the first one that is not, e.g. "liars_dice kernel covers numdice=1; got numdice=2"."""
    for key, (default, covered) in COVERS.items():
        value = params.get(key, default)
        if value not in covered:
            shown = (f"{covered[0]}..{covered[-1]}" if isinstance(covered, range)
                     else "/".join(map(str, covered)))
            return f"liars_dice kernel covers {key}={shown}; got {key}={value}"
    return None


def state_size(sides: int) -> int:
    return _HEADER + 2 + 2 * sides + 1


def num_actions(sides: int) -> int:
    return 2 * sides + 1


def new_state(sides: int) -> np.ndarray:
    """The initial state array (chance rolls player 0's die)."""
    if not 2 <= sides <= MAX_SIDES:
        raise ValueError(f"dice_sides: must be in [2, {MAX_SIDES}] for the kernel, got {sides}")
    state = np.zeros(state_size(sides), dtype=np.int64)
    state[0] = sides
    state[1] = state[2] = state[3] = state[5] = -1
    state[4] = CHANCE
    return state


@nb.njit(cache=True)
def nb_current_player(s):
    return s[4]


@nb.njit(cache=True)
def nb_legal_actions(s, buf):
    k = s[0]
    player = s[4]
    if player == CHANCE:
        for i in range(k):
            buf[i] = i
        return k
    if player == TERMINAL:
        return 0
    n = 0
    for b in range(s[3] + 1, 2 * k):
        buf[n] = b
        n += 1
    if s[3] >= 0:
        buf[n] = 2 * k
        n += 1
    return n


@nb.njit(cache=True)
def nb_chance_outcomes(s, actions, probs):
    n = nb_legal_actions(s, actions)
    p = 1.0 / n
    for i in range(n):
        probs[i] = p
    return n


@nb.njit(cache=True)
def nb_apply_action(s, action):
    h = s[6]
    s[_HEADER + h] = action
    s[6] = h + 1
    player = s[4]
    if player == CHANCE:
        if s[1] < 0:
            s[1] = action
        else:
            s[2] = action
            s[4] = 0
    elif action == 2 * s[0]:
        s[5] = player
        s[4] = TERMINAL
    else:
        s[3] = action
        s[4] = 1 - player


@nb.njit(cache=True)
def _bid_holds(s):
    k = s[0]
    quantity = s[3] // k + 1
    face = s[3] % k
    count = 0
    for p in range(2):
        if s[1 + p] == face or s[1 + p] == k - 1:
            count += 1
    return count >= quantity


@nb.njit(cache=True)
def nb_returns(s, out):
    out[0], out[1] = 0.0, 0.0
    if s[4] != TERMINAL:
        return
    caller = s[5]
    if _bid_holds(s):
        out[caller], out[1 - caller] = -1.0, 1.0
    else:
        out[caller], out[1 - caller] = 1.0, -1.0


@nb.njit(cache=True)
def nb_heuristic(s, out):
    """Cut-off score on the returns' scale: the result of a "Liar" call now (the last bidder
    scores +1 if the standing bid holds, else -1); the returns at the end; zeros before any
    bid."""
    if s[4] == TERMINAL:
        nb_returns(s, out)
        return
    out[0], out[1] = 0.0, 0.0
    if s[3] < 0:
        return
    bidder = 1 - s[4]
    if _bid_holds(s):
        out[bidder], out[1 - bidder] = 1.0, -1.0
    else:
        out[bidder], out[1 - bidder] = -1.0, 1.0


@nb.njit(cache=True)
def nb_infostate_key(s, player):
    """An injective integer of ``player``'s information state: bids made (a bit set; bids
    only increase), the "Liar" call, own die and the player."""
    k = s[0]
    mask = 0
    for i in range(2, s[6]):
        mask |= 1 << s[_HEADER + i]
    die = s[1 + player]
    return (mask * (k + 1) + (die if die >= 0 else k)) * 2 + player


@nb.njit(cache=True)
def nb_determinize(s, player, rng):
    """Reroll the opponent's die in place, uniform (it is independent of all ``player`` saw,
    as the adapter's redraw determinizer has it); both dice must be rolled."""
    face = rng_bounded(rng, s[0])
    s[2 - player] = face
    s[_HEADER + 1 - player] = face


def array_from_history(history, sides: int) -> np.ndarray:
    state = new_state(sides)
    for action in history:
        nb_apply_action(state, int(action))
    return state


def array_history(s: np.ndarray) -> list[int]:
    return [int(a) for a in s[_HEADER:_HEADER + s[6]]]


def array_infostate_string(s: np.ndarray, player: int) -> str:
    """OpenSpiel's ``information_state_string(player)`` of a state array."""
    k, die = int(s[0]), int(s[1 + player])
    if die < 0:
        return "-1"
    parts = [str(die + 1)]
    for action in array_history(s)[2:]:
        parts.append("Liar" if action == 2 * k else f"{action // k + 1}-{action % k + 1}")
    return " ".join(parts)

# -- the engine's view of this game (infosets.games.kernels) --------------------------------
RULES = sys.modules[__name__]  # the jitted functions the compiled engine calls


def kernel_for(game) -> Kernel | None:
    """This game's kernel for a loaded pyspiel ``game``, or None where the kernel does not
    cover its parameters (``infosets.games.kernels.kernel_for``)."""
    params = game.get_parameters()
    if uncovered(params) is not None:  # the kernel's declared coverage (COVERS)
        return None
    sides = int(params.get("dice_sides", 6))
    return Kernel("liars_dice", RULES, 2, num_actions(sides),
                  lambda history: array_from_history(history, sides), array_history,
                  array_infostate_string)
