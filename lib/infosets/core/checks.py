"""Argument checks for the public entry points (all papers): a one-line ``ValueError`` that
names the bad parameter, raised before any compute.

Each check returns the value it accepted, converted where that is lossless (a numpy integer
becomes an ``int``), so a caller can write ``iterations = check_int(iterations, "iterations",
lo=1)``. A bool is never a number here (``True`` is not a budget of 1), and NaN or an infinity
is a number only where ``finite=False`` says so.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable
from typing import Any

import pyspiel


def check_int(value: Any, name: str, *, lo: int | None = None, hi: int | None = None) -> int:
    """``value`` as an ``int``: an integer (Python or numpy, never a bool) within [lo, hi]."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ValueError(f"{name}: must be an integer, got {value!r}")
    value = int(value)
    if lo is not None and value < lo:
        raise ValueError(f"{name}: must be >= {lo}, got {value}")
    if hi is not None and value > hi:
        raise ValueError(f"{name}: must be <= {hi}, got {value}")
    return value


def check_real(value: Any, name: str, *, lo: float | None = None, hi: float | None = None,
               lo_open: bool = False, hi_open: bool = False, finite: bool = True) -> float:
    """``value`` as a ``float``: a real number (never a bool), finite unless ``finite=False``
    (NaN is refused always), within the bounds (open where ``lo_open``/``hi_open``)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError(f"{name}: must be a number, got {value!r}")
    value = float(value)
    if math.isnan(value) or (finite and math.isinf(value)):
        raise ValueError(f"{name}: must be a finite number, got {value!r}")
    if lo is not None and (value <= lo if lo_open else value < lo):
        raise ValueError(f"{name}: must be {'>' if lo_open else '>='} {lo}, got {value!r}")
    if hi is not None and (value >= hi if hi_open else value > hi):
        raise ValueError(f"{name}: must be {'<' if hi_open else '<='} {hi}, got {value!r}")
    return value


def check_confidence(value: Any, name: str = "confidence") -> float:
    """A confidence level strictly between 0 and 1 (0.95, not 95)."""
    return check_real(value, name, lo=0.0, hi=1.0, lo_open=True, hi_open=True)


def check_callable(value: Any, name: str) -> Callable:
    if not callable(value):
        raise ValueError(f"{name}: must be callable, got {type(value).__name__}")
    return value


def check_game(game: Any, name: str = "game", *, sequential: bool = True) -> pyspiel.Game:
    """A loaded ``pyspiel.Game`` (not its name); turn-based unless ``sequential=False``."""
    if not isinstance(game, pyspiel.Game):
        raise ValueError(f"{name}: must be a loaded pyspiel.Game, got {type(game).__name__} "
                         f"(use pyspiel.load_game)")
    if sequential and game.get_type().dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL:
        raise ValueError(f"{name}: {game.get_type().short_name!r} has simultaneous moves; "
                         "only turn-based games are supported")
    return game


def check_player(player: Any, num_players: int, name: str = "player") -> int:
    """A seat number in 0 .. num_players - 1 (a negative index is not a seat)."""
    return check_int(player, name, lo=0, hi=num_players - 1)


def check_sampler_call(state: Any, player: Any, num_players: int) -> None:
    """Refuse, in one line naming the parameter, a world sampler's call that draws no world: a
    seat out of range (``player``), or a chance, terminal or simultaneous-move ``state``. Any
    seat may ask, not only the mover. It draws nothing, and a good call (a Python int seat, a
    decision state) costs two comparisons and one C++ call: samplers run it on every world."""
    if type(player) is int and 0 <= player < num_players and state.current_player() >= 0:
        return
    check_player(player, num_players)  # a numpy integer seat passes here
    mover = state.current_player()
    if mover < 0:
        kind = ("a chance node" if state.is_chance_node() else "terminal" if state.is_terminal()
                else f"not a decision state (current player {mover})")
        raise ValueError(f"state: worlds are sampled at a decision state, this one is {kind}")
