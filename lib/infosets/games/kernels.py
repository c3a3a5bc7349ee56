"""The registry of game kernels: each game's numba rules as the compiled engine sees them.

Serves the compiled PI-MCTS / IS-MCTS engine (``infosets.search.compiled``) of Ravichandran,
Goodman and Lucas, "PIMCTS evaluation in tabletop games" (docs/papers/pimcts_aggregation.md).

A game's kernel is its module ``games/<name>/kernel.py``. A kernel state is a flat int64 numpy
array, and the module provides jitted functions with one contract (``s`` a state array,
``buf``/``actions`` int64 buffers, ``probs``/``out`` float64 buffers, ``rng`` a PCG32
``uint64[2]`` array from ``infosets.core.pcg32``):

* ``nb_current_player(s)``: the player to move, ``CHANCE`` (-1) or ``TERMINAL`` (-4);
* ``nb_legal_actions(s, buf) -> n``: the legal actions (chance outcomes at chance nodes), in
  OpenSpiel's order;
* ``nb_chance_outcomes(s, actions, probs) -> n``: outcomes and their probabilities;
* ``nb_apply_action(s, a)``: in place;
* ``nb_returns(s, out)``: every player's return (zeros before the end);
* ``nb_heuristic(s, out)``: a cut-off score per player on the returns' scale (the engine
  normalises it as it normalises returns);
* ``nb_infostate_key(s, player) -> int64``: injective over (player, information state), or
  a 64-bit hash of it where the state does not fit;
* ``nb_determinize(s, player, rng)``: in place, a world consistent with everything
  ``player`` has seen, with the distribution of the adapter's determinizer;

and ``kernel_for(game) -> Kernel | None``, its ``Kernel`` for a loaded game (None where its
parameters are not covered; a module may say why with ``uncovered(params)``).

Optional, for TAG's rollout terminations END_TURN and END_ROUND (``MCTSSettings.rollout_termination``,
docs/tag_agents.md section 3) and only in the games whose TAG agent uses one: TAG's turn and
round counters (``AbstractGameState.getTurnCounter``/``getRoundCounter``, GAIGResearch/TabletopGames
c4d7687), whose change over one player action is what the rules read:

* ``nb_turn(s) -> int``: changes exactly when an action ends a turn (the turn owner's turn);
* ``nb_round(s) -> int``: changes exactly when an action ends a round;

and their Python twins ``turn_counter(state)``/``round_counter(state)`` of a pyspiel state in
the module ``COUNTER_MODULES`` names (the Python engine's; also for games without a kernel).
``rollout_counter`` hands the Python twin to the searches and refuses, in one line, a game
(or a kernel, for the compiled engine) without the counter.

``KERNEL_MODULES`` lists the games with a kernel, one line each, and imports a module on its
game's first use: nothing here lists a game's functions, and the engine
(``search.compiled.engine_for``) compiles its code for one game at a time.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType

import numpy as np

from infosets.core.pcg32 import PCG32

# game short name -> its kernel module (one line per game)
KERNEL_MODULES = {
    "belote2p": "infosets.games.belote2p.kernel",
    "colt_express": "infosets.games.colt_express.kernel",
    "dominion": "infosets.games.dominion.kernel",
    "exploding_kittens": "infosets.games.exploding_kittens.kernel",
    "hearts": "infosets.games.hearts.kernel",
    "leduc_poker": "infosets.games.leduc_poker.kernel",
    "liars_dice": "infosets.games.liars_dice.kernel",
    "love_letter": "infosets.games.love_letter.kernel",
    "monopoly_deal": "infosets.games.monopoly_deal.kernel",
    "poker_tag": "infosets.games.poker_tag.kernel",
    "seven_wonders": "infosets.games.seven_wonders.kernel",
    "stratego": "infosets.games.stratego.kernel",
    "sushi_go": "infosets.games.sushi_go.kernel",
    "trick_game": "infosets.games.trick_game.kernel",
    "virus": "infosets.games.virus.kernel",
}

# game short name -> the module of its Python counters (one line per game; see above)
COUNTER_MODULES = {
    "hearts": "infosets.games.hearts.kernel",
    "monopoly_deal": "infosets.games.monopoly_deal.game",
}
# rollout termination -> (its Python counter, its kernel counter)
COUNTERS = {"END_TURN": ("turn_counter", "nb_turn"), "END_ROUND": ("round_counter", "nb_round")}


@dataclass(frozen=True)
class Kernel:
    """One game's kernel as the engine and the adapters see it.

    ``rules`` is the game's kernel module (``games/<name>/kernel.py``) with the jitted
    functions the engine calls; ``num_actions`` bounds every legal list (chance
    included) and every action id; ``from_history``/``history`` convert to and from pyspiel
    action histories; ``infostate_string`` is OpenSpiel's string of a state array.
    ``state_history`` reads the action history of a pyspiel state where ``history()`` does
    not hold all of it (None: ``state.history()``).
    """

    name: str
    rules: ModuleType
    num_players: int
    num_actions: int
    from_history: Callable[[list], np.ndarray]
    history: Callable[[np.ndarray], list]
    infostate_string: Callable[[np.ndarray, int], str]
    state_history: Callable[[object], list] | None = None
    # Ports whose worlds keep the real history (a tabletop adapter's ``resample`` changes hidden
    # cards only) convert through the adapter's kernel object instead of by replay.
    array_of_state: Callable | None = None   # pyspiel state -> array
    state_of_array: Callable | None = None   # (game, array) -> pyspiel state

    def history_of(self, state) -> list:
        """The action history of a pyspiel state of this game, as ``from_history`` reads it."""
        return state.history() if self.state_history is None else self.state_history(state)

    def from_state(self, state) -> np.ndarray:
        """The state array of a pyspiel state of this game (by its history)."""
        if self.array_of_state is not None:
            return self.array_of_state(state)
        return self.from_history(self.history_of(state))

    def to_state(self, game, array: np.ndarray):
        """The pyspiel state of ``game`` reached by the array's history."""
        if self.state_of_array is not None:
            return self.state_of_array(game, array)
        state = game.new_initial_state()
        for action in self.history(array):
            state.apply_action(action)
        return state


@dataclass(frozen=True)
class FieldKernel(Kernel):
    """A kernel of a tabletop port whose array holds exactly the fields of the port's Python
    kernel (``state.kernel``): states convert both ways directly, without replaying moves.
    For a port whose Python kernel is an ``array_kernel.ArrayKernel`` (its rules written once,
    in the kernel module) the array *is* the Python kernel's state.

    ``to_state`` gives a pyspiel state whose ``kernel`` is built from the array; its
    ``history()`` is empty (a determinized world has no history of its own: its hidden cards
    are not the dealt ones). ``history`` is unavailable for the same reason.
    """

    from_kernel: Callable | None = None
    to_kernel: Callable | None = None

    def from_state(self, state) -> np.ndarray:
        return self.from_kernel(state.kernel)

    def to_state(self, game, array: np.ndarray):
        state = game.new_initial_state()
        state.kernel = self.to_kernel(array)
        return state


def no_history(array: np.ndarray) -> list:
    raise ValueError("array: this kernel's states carry no action history; use to_state")



def kernel_games() -> tuple[str, ...]:
    """Games with a kernel (for some parameters: see ``kernel_for``)."""
    return tuple(sorted(KERNEL_MODULES))


def kernel_module(name: str) -> ModuleType:
    """The kernel module of game ``name`` (imported on first use)."""
    return importlib.import_module(KERNEL_MODULES[name])


def kernel_for(game) -> Kernel | None:
    """The kernel of a loaded pyspiel game, or None (no kernel for the game or its parameters)."""
    name = game.get_type().short_name
    return kernel_module(name).kernel_for(game) if name in KERNEL_MODULES else None


def kernel_gap(game) -> str | None:
    """None if ``game`` has a kernel, else one line saying why not (for engine="auto")."""
    name = game.get_type().short_name
    if name not in KERNEL_MODULES:
        return f"no kernel for {name} (kernels: {', '.join(kernel_games())})"
    if kernel_for(game) is not None:
        return None
    # a kernel that covers only some parameters declares them: ``uncovered(params)`` is None or
    # one line naming the first parameter outside the kernel
    check = getattr(kernel_module(name), "uncovered", None)
    reason = check(game.get_parameters()) if check is not None else None
    return reason or f"the {name} kernel does not cover these parameters ({game})"


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
        history = self.kernel.history_of(state)
        if history != self._history:
            self._array, self._history = self.kernel.from_history(history), history
        return self._array

    def __call__(self, state, player: int, rng):
        if not isinstance(rng, PCG32):
            rng = PCG32.from_generator(rng)
        world = self.array(state).copy()
        stream = rng.to_array()
        self.kernel.rules.nb_determinize(world, player, stream)
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
        kernel.rules.nb_heuristic(kernel.from_state(state), out)
        return out.tolist()

    heuristic.__doc__ = f"The {kernel.name} kernel's cut-off heuristic (see its nb_heuristic)."
    return heuristic


def rollout_counter(game, termination: str, compiled: bool = False) -> Callable | None:
    """The Python counter ``state -> int`` a rollout ``termination`` reads in ``game`` (None for
    "EXACT"); ``compiled``: the game's kernel must have the numba twin too. A one-line
    ValueError when the game lacks it, before any search."""
    if termination == "EXACT":
        return None
    if termination not in COUNTERS:
        raise ValueError(f"rollout_termination: must be 'EXACT' or one of {tuple(COUNTERS)}, "
                         f"got {termination!r}")
    python_name, kernel_name = COUNTERS[termination]
    name = game.get_type().short_name
    module = importlib.import_module(COUNTER_MODULES[name]) if name in COUNTER_MODULES else None
    counter = getattr(module, python_name, None)
    if counter is None:
        raise ValueError(f"rollout_termination: {termination} needs the game's {python_name} "
                         f"(infosets.games.kernels) and {name} has none")
    kernel = kernel_for(game) if compiled else None
    if kernel is not None and not hasattr(kernel.rules, kernel_name):
        raise ValueError(f"rollout_termination: {termination} needs {kernel_name} in {kernel.rules.__name__} "
                         "for the compiled engine")
    return counter
