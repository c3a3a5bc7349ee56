"""The game kernels of the compiled search engine: a registry and one jitted dispatch per call.

Serves the compiled PI-MCTS / IS-MCTS engine (``infosets.search.compiled``) of Ravichandran,
Goodman and Lucas, "PIMCTS evaluation in tabletop games" (slug ``pimcts_aggregation``).

A kernel state is a flat int64 numpy array. Each kernel module provides jitted functions
with one contract (``s`` a state array, ``buf``/``actions`` int64 buffers, ``probs``/``out``
float64 buffers, ``rng`` a PCG32 ``uint64[2]`` array from ``infosets.games._pcg32``):

* ``nb_current_player(s)``: the player to move, ``CHANCE`` (-1) or ``TERMINAL`` (-4);
* ``nb_legal_actions(s, buf) -> n``: the legal actions (chance outcomes at chance nodes), in
  OpenSpiel's order;
* ``nb_chance_outcomes(s, actions, probs) -> n``: outcomes and their probabilities;
* ``nb_apply_action(s, a)``: in place;
* ``nb_returns(s, out)``: every player's return (zeros before the end);
* ``nb_heuristic(s, out)``: a cut-off score per player on the returns' scale (the engine
  normalises it as it normalises returns);
* ``nb_infostate_key(s, player) -> int64``: injective over (player, information state);
* ``nb_determinize(s, player, rng)``: in place, a world consistent with everything
  ``player`` has seen, with the distribution of the adapter's determinizer.

The engine is written once over these names. It calls the ``k_*`` functions below, which
branch on a kernel id; numba compiles the branches once and caches them on disk
(``cache=True``), which function arguments or closures would not allow.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numba as nb
import numpy as np

from infosets.games import _dominion_kernel as dominion
from infosets.games import _exploding_kittens_kernel as kittens
from infosets.games import _leduc_kernel as leduc
from infosets.games import _liars_dice_kernel as liars
from infosets.games import _stratego_kernel as stratego
from infosets.games._pcg32 import PCG32

LEDUC, LIARS_DICE = 0, 1
# -- tabletop-port kernels (ids 20+; one ``if kid == ...`` block in each k_* below) --
STRATEGO, EXPLODING_KITTENS, DOMINION = 20, 21, 22


@nb.njit(cache=True)
def k_current_player(kid, s):
    # -- tabletop ports --
    if kid == STRATEGO:
        return stratego.nb_current_player(s)
    if kid == EXPLODING_KITTENS:
        return kittens.nb_current_player(s)
    if kid == DOMINION:
        return dominion.nb_current_player(s)
    # -- end tabletop ports --
    if kid == LEDUC:
        return leduc.nb_current_player(s)
    return liars.nb_current_player(s)


@nb.njit(cache=True)
def k_legal_actions(kid, s, buf):
    # -- tabletop ports --
    if kid == STRATEGO:
        return stratego.nb_legal_actions(s, buf)
    if kid == EXPLODING_KITTENS:
        return kittens.nb_legal_actions(s, buf)
    if kid == DOMINION:
        return dominion.nb_legal_actions(s, buf)
    # -- end tabletop ports --
    if kid == LEDUC:
        return leduc.nb_legal_actions(s, buf)
    return liars.nb_legal_actions(s, buf)


@nb.njit(cache=True)
def k_chance_outcomes(kid, s, actions, probs):
    # -- tabletop ports --
    if kid == STRATEGO:
        return stratego.nb_chance_outcomes(s, actions, probs)
    if kid == EXPLODING_KITTENS:
        return kittens.nb_chance_outcomes(s, actions, probs)
    if kid == DOMINION:
        return dominion.nb_chance_outcomes(s, actions, probs)
    # -- end tabletop ports --
    if kid == LEDUC:
        return leduc.nb_chance_outcomes(s, actions, probs)
    return liars.nb_chance_outcomes(s, actions, probs)


@nb.njit(cache=True)
def k_apply_action(kid, s, action):
    # -- tabletop ports --
    if kid == STRATEGO:
        stratego.nb_apply_action(s, action)
        return
    if kid == EXPLODING_KITTENS:
        kittens.nb_apply_action(s, action)
        return
    if kid == DOMINION:
        dominion.nb_apply_action(s, action)
        return
    # -- end tabletop ports --
    if kid == LEDUC:
        leduc.nb_apply_action(s, action)
    else:
        liars.nb_apply_action(s, action)


@nb.njit(cache=True)
def k_returns(kid, s, out):
    # -- tabletop ports --
    if kid == STRATEGO:
        stratego.nb_returns(s, out)
        return
    if kid == EXPLODING_KITTENS:
        kittens.nb_returns(s, out)
        return
    if kid == DOMINION:
        dominion.nb_returns(s, out)
        return
    # -- end tabletop ports --
    if kid == LEDUC:
        leduc.nb_returns(s, out)
    else:
        liars.nb_returns(s, out)


@nb.njit(cache=True)
def k_heuristic(kid, s, out):
    # -- tabletop ports --
    if kid == STRATEGO:
        stratego.nb_heuristic(s, out)
        return
    if kid == EXPLODING_KITTENS:
        kittens.nb_heuristic(s, out)
        return
    if kid == DOMINION:
        dominion.nb_heuristic(s, out)
        return
    # -- end tabletop ports --
    if kid == LEDUC:
        leduc.nb_heuristic(s, out)
    else:
        liars.nb_heuristic(s, out)


@nb.njit(cache=True)
def k_infostate_key(kid, s, player):
    # -- tabletop ports --
    if kid == STRATEGO:
        return stratego.nb_infostate_key(s, player)
    if kid == EXPLODING_KITTENS:
        return kittens.nb_infostate_key(s, player)
    if kid == DOMINION:
        return dominion.nb_infostate_key(s, player)
    # -- end tabletop ports --
    if kid == LEDUC:
        return leduc.nb_infostate_key(s, player)
    return liars.nb_infostate_key(s, player)


@nb.njit(cache=True)
def k_determinize(kid, s, player, rng):
    # -- tabletop ports --
    if kid == STRATEGO:
        stratego.nb_determinize(s, player, rng)
        return
    if kid == EXPLODING_KITTENS:
        kittens.nb_determinize(s, player, rng)
        return
    if kid == DOMINION:
        dominion.nb_determinize(s, player, rng)
        return
    # -- end tabletop ports --
    if kid == LEDUC:
        leduc.nb_determinize(s, player, rng)
    else:
        liars.nb_determinize(s, player, rng)


@dataclass(frozen=True)
class Kernel:
    """One game's kernel as the engine and the adapters see it.

    ``kid`` selects the jitted branch; ``num_actions`` bounds every legal list (chance
    included) and every action id; ``from_history``/``history`` convert to and from pyspiel
    action histories; ``infostate_string`` is OpenSpiel's string of a state array.
    """

    name: str
    kid: int
    num_players: int
    num_actions: int
    from_history: Callable[[list], np.ndarray]
    history: Callable[[np.ndarray], list]
    infostate_string: Callable[[np.ndarray, int], str]
    # Ports whose worlds keep the real history (a tabletop adapter's ``resample`` changes hidden
    # cards only) convert through the adapter's kernel object instead of by replay.
    array_of_state: Callable | None = None   # pyspiel state -> array
    state_of_array: Callable | None = None   # (game, array) -> pyspiel state

    def from_state(self, state) -> np.ndarray:
        """The state array of a pyspiel state of this game (by its history)."""
        if self.array_of_state is not None:
            return self.array_of_state(state)
        return self.from_history(state.history())

    def to_state(self, game, array: np.ndarray):
        """The pyspiel state of ``game`` reached by the array's history."""
        if self.state_of_array is not None:
            return self.state_of_array(game, array)
        state = game.new_initial_state()
        for action in self.history(array):
            state.apply_action(action)
        return state


def _leduc(game) -> Kernel | None:
    params = game.get_parameters()
    if params.get("players", 2) != 2 or params.get("action_mapping") or params.get("suit_isomorphism"):
        return None
    return Kernel("leduc_poker", LEDUC, 2, leduc.NUM_ACTIONS, leduc.array_from_history,
                  leduc.array_history, leduc.array_infostate_string)


def _liars_dice(game) -> Kernel | None:
    params = game.get_parameters()
    sides = int(params.get("dice_sides", 6))
    if (params.get("players", 2) != 2 or params.get("numdice", 1) != 1
            or params.get("bidding_rule", "reset-face") != "reset-face" or sides > liars.MAX_SIDES):
        return None
    return Kernel("liars_dice", LIARS_DICE, 2, liars.num_actions(sides),
                  lambda history: liars.array_from_history(history, sides), liars.array_history,
                  liars.array_infostate_string)


# -- tabletop ports --
def _stratego(game) -> Kernel | None:
    max_moves = int(game.max_moves)
    return Kernel("stratego", STRATEGO, 2, stratego.NUM_ACTIONS,
                  lambda history: stratego.array_from_history(history, max_moves), stratego.array_history,
                  stratego.array_infostate_string)


def _exploding_kittens(game) -> Kernel | None:
    players = game.num_players()
    return Kernel("exploding_kittens", EXPLODING_KITTENS, players, kittens.NUM_ACTIONS,
                  lambda history: kittens.array_from_history(history, players), kittens.array_history,
                  kittens.array_infostate_string, kittens.array_from_state, kittens.state_from_array)


def _dominion(game) -> Kernel | None:
    players, max_turns = game.num_players(), int(game.max_turns)
    return Kernel("dominion", DOMINION, players, dominion.NUM_ACTIONS,
                  lambda history: dominion.array_from_history(history, players, max_turns),
                  dominion.array_history, dominion.array_infostate_string, dominion.array_from_state,
                  dominion.state_from_array)


_TABLETOP_FACTORIES = {"stratego": _stratego, "exploding_kittens": _exploding_kittens, "dominion": _dominion}
# -- end tabletop ports --

_FACTORIES = {"leduc_poker": _leduc, "liars_dice": _liars_dice, **_TABLETOP_FACTORIES}


def kernel_games() -> tuple[str, ...]:
    """Games with a kernel (for some parameters: see ``kernel_for``)."""
    return tuple(sorted(_FACTORIES))


def kernel_for(game) -> Kernel | None:
    """The kernel of a loaded pyspiel game, or None (no kernel for the game or its parameters)."""
    factory = _FACTORIES.get(game.get_type().short_name)
    return factory(game) if factory is not None else None


def require_kernel(game, other_engine: str | None) -> Kernel:
    """The game's kernel, or a one-line ValueError naming the engines the game has."""
    kernel = kernel_for(game)
    if kernel is None:
        name = game.get_type().short_name
        engines = "'python'" + (f" or '{other_engine}'" if other_engine else "")
        raise ValueError(f"engine: 'compiled' needs a game kernel and '{name}' (with these parameters) "
                         f"has none (kernels: {', '.join(kernel_games())}); use engine={engines}")
    return kernel


class KernelSampler:
    """``sampler(state, player, rng)`` for pyspiel states of a kernel game: the kernel's
    ``determinize``, drawing from the search's PCG32 (``rng``; a numpy Generator seeds one).

    The Python reference engines use it so that their worlds are the compiled engine's,
    draw for draw. The state's array is cached by history (one search, many worlds).
    """

    uses_pcg = True

    def __init__(self, game, kernel: Kernel):
        self.game, self.kernel = game, kernel
        self._history: list | None = None
        self._array: np.ndarray | None = None

    def array(self, state) -> np.ndarray:
        history = state.history()
        if history != self._history:
            self._array, self._history = self.kernel.from_history(history), history
        return self._array

    def __call__(self, state, player: int, rng):
        if not isinstance(rng, PCG32):
            rng = PCG32.from_generator(rng)
        world = self.array(state).copy()
        stream = rng.to_array()
        k_determinize(self.kernel.kid, world, player, stream)
        rng.load(stream)
        return self.kernel.to_state(self.game, world)


def kernel_sampler(game, kernel: Kernel | None = None) -> KernelSampler:
    kernel = require_kernel(game, None) if kernel is None else kernel
    return KernelSampler(game, kernel)


def kernel_heuristic(game, kernel: Kernel | None = None):
    """``heuristic(state) -> list`` of a pyspiel state, by the kernel's jitted heuristic
    (the one the compiled engine uses, so both engines score cut-offs alike)."""
    kernel = require_kernel(game, None) if kernel is None else kernel

    def heuristic(state) -> list[float]:
        out = np.zeros(kernel.num_players)
        k_heuristic(kernel.kid, kernel.from_state(state), out)
        return out.tolist()

    heuristic.__doc__ = f"The {kernel.name} kernel's cut-off heuristic (see its nb_heuristic)."
    return heuristic
