"""A tabletop kernel over a game's array rules: one set of rules for both engines.

Serves the PI-MCTS study of Ravichandran, Goodman and Lucas, "Evaluation of
Perfect-Information Monte Carlo Tree Search in Imperfect-Information Games"
(docs/papers/pimcts_aggregation.md), whose tabletop ports run in a Python reference engine
(on ``state.kernel``, through the pyspiel adapter of ``infosets.games._tabletop``) and in the
compiled engine (on the numba rules of ``games/<name>/kernel.py``, contract in
``infosets.games.kernels``).

``ArrayKernel`` is a ``_tabletop.Kernel`` whose whole state is the kernel module's int64 array
(``self.s``) and whose rules are that module's jitted functions: ``current_player``,
``legal_actions``, ``chance_outcomes``, ``apply``, ``is_terminal`` and ``returns`` call
``nb_current_player``, ``nb_legal_actions``, ``nb_chance_outcomes``, ``nb_apply_action`` and
``nb_returns``; ``copy`` copies the array. So the pyspiel adapter (registration, strings,
tensors, ``resample_from_infostate``, serialization) and the Python reference engine play the
very rules the compiled engine plays, with the same action ids and orders.

A game subclasses it with ``RULES`` (its kernel module), ``NUM_ACTIONS`` (its action bound)
and ``MAX_PLAYERS`` (its largest player count), gives ``n`` (its player count, read from the
array) and writes what is not rules: the string views and tensors (reading the array's
fields), the public log, and its world sampler.

``kernel_record`` builds the game's ``kernels.FieldKernel`` (the engine's view) from the
adapter: a pyspiel state's array is its kernel's array, and an array becomes a pyspiel state
by wrapping it, with no replay either way.
"""

from __future__ import annotations

from types import ModuleType

import numpy as np

from infosets.games import _tabletop as tt
from infosets.games.kernels import FieldKernel, no_history

_new = object.__new__


class ArrayKernel(tt.Kernel):
    """A game's state array driven by its jitted rules (see the module docstring)."""

    __slots__ = ("s",)
    RULES: ModuleType | None = None
    NUM_ACTIONS = 0
    MAX_PLAYERS = 0

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        rules = cls.__dict__.get("RULES")
        if rules is None:
            return
        # Bound once per game: the rules as static functions, and the buffers they fill
        # (the lists handed out are copies, so one buffer per class is enough).
        cls._current_player = staticmethod(rules.nb_current_player)
        cls._legal_actions = staticmethod(rules.nb_legal_actions)
        cls._chance_outcomes = staticmethod(rules.nb_chance_outcomes)
        cls._apply = staticmethod(rules.nb_apply_action)
        cls._returns = staticmethod(rules.nb_returns)
        cls._actions = np.zeros(cls.NUM_ACTIONS, np.int64)
        cls._probs = np.zeros(cls.NUM_ACTIONS, np.float64)
        cls._out = np.zeros(cls.MAX_PLAYERS, np.float64)

    def __init__(self, s: np.ndarray):
        self.s = s

    @classmethod
    def wrap(cls, s: np.ndarray) -> ArrayKernel:
        """The kernel holding state array ``s`` (not copied; no subclass ``__init__`` runs)."""
        kernel = _new(cls)
        kernel.s = s
        return kernel

    def copy(self) -> ArrayKernel:
        kernel = _new(type(self))
        kernel.s = self.s.copy()
        return kernel

    clone = copy

    @property
    def n(self) -> int:
        raise NotImplementedError

    def current_player(self) -> int:
        return self._current_player(self.s)

    def is_terminal(self) -> bool:
        return self._current_player(self.s) == tt.TERMINAL

    def legal_actions(self) -> list[int]:
        """The legal actions (at a chance node: the possible outcomes, the kernel contract)."""
        buf = self._actions
        return buf[: self._legal_actions(self.s, buf)].tolist()

    legal_actions_or_chance = legal_actions

    def chance_outcomes(self) -> list[tuple[int, float]]:
        actions, probs = self._actions, self._probs
        count = self._chance_outcomes(self.s, actions, probs)
        return list(zip(actions[:count].tolist(), probs[:count].tolist()))

    def apply(self, action: int) -> None:
        self._apply(self.s, action)

    apply_action = apply

    def returns(self) -> list[float]:
        out = self._out
        self._returns(self.s, out)
        return out[: self.n].tolist()


# -- the engine's view of an array-kernel game (infosets.games.kernels) ------------------------


def replayed_array(game, history) -> np.ndarray:
    """The array ``history`` (pyspiel action ids) reaches from ``game``'s initial state."""
    kernel = game.new_kernel()
    for action in history:
        kernel.apply(int(action))
    return kernel.s


def kernel_record(name: str, rules: ModuleType, game) -> FieldKernel:
    """The ``kernels.Kernel`` of a loaded ``game`` whose adapter runs on ``ArrayKernel``.

    A pyspiel state's array is a copy of its kernel's array, and an array becomes a pyspiel
    state by wrapping it (no replay either way; such a state's ``history()`` is empty, as an
    array drawn by ``nb_determinize`` has no history of its own). An array's information
    state string is the adapter's.
    """
    kernel_class = type(game.new_kernel())

    def infostate_string(array: np.ndarray, player: int) -> str:
        return kernel_class.wrap(array).information_state_string(player)

    return FieldKernel(
        name,
        rules,
        game.num_players(),
        kernel_class.NUM_ACTIONS,
        lambda history: replayed_array(game, history),
        no_history,
        infostate_string,
        from_kernel=_array_copy,
        to_kernel=kernel_class.wrap,
    )


def _array_copy(kernel: ArrayKernel) -> np.ndarray:
    return kernel.s.copy()
