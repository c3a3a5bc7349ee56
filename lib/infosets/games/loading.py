"""Load a game by its string, or fail in one line that names the parameter (all papers).

``load_game(name, game_string)`` is ``pyspiel.load_game`` with our games registered
(``infosets.games``). An unknown game gets its close matches and an invalid game string
OpenSpiel's first line, as a one-line ``GameLoadError`` (a ``ValueError``), never OpenSpiel's
list of every game. It checks the game parameters of the papers' configs
(``experiments.config.load_game`` re-raises it as a ``ConfigError`` with the same message;
e.g. docs/papers/pimcts_aggregation.md, docs/papers/belief_mixtures.md) and the game of the
tournament command line (``arena.main``), which sits below ``experiments``.
"""

from __future__ import annotations

import contextlib
import difflib
import importlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

_GAMES = Path(__file__).resolve().parent


def register_games() -> tuple[str, ...]:
    """Register every game of ``games/<name>/`` with pyspiel (by importing its ``game.py``);
    returns their names. Each folder is imported by name, so that a results key, which
    follows static imports (``experiments.store.import_closure``), covers a game's folder only
    where a run names the game."""
    names = tuple(sorted(p.parent.name for p in _GAMES.glob("*/game.py")))
    for name in names:
        importlib.import_module(f"infosets.games.{name}.game")
    return names


class GameLoadError(ValueError):
    """A game that does not load. The message is one line and names the parameter."""

    def __init__(self, message: str):
        super().__init__(" ".join(str(message).split()))  # one line, whatever the cause said


@contextlib.contextmanager
def _quiet_stderr() -> Iterator[list[str]]:
    """Hold back what C++ writes to file descriptor 2 (OpenSpiel prints every error there,
    an unknown game with the list of all ~140 names); the caught text is appended to the
    yielded list."""
    caught: list[str] = []
    try:
        saved = os.dup(2)
    except OSError:  # no stderr at all: nothing to hold back
        yield caught
        return
    with tempfile.TemporaryFile() as sink:
        os.dup2(sink.fileno(), 2)
        try:
            yield caught
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            sink.seek(0)
            caught.append(sink.read().decode(errors="replace"))


def game_names() -> list[str]:
    """Every game pyspiel can load, ours included."""
    import pyspiel

    import infosets.games  # noqa: F401  (registers our games)

    return list(pyspiel.registered_names())


def load_game(name: str, game_string: str):
    """``pyspiel.load_game`` or a one-line GameLoadError naming ``name``: an unknown game
    gets its close matches (never OpenSpiel's list of every game)."""
    import pyspiel

    names = game_names()
    short = game_string.split("(", 1)[0].strip()
    if short not in names:
        close = difflib.get_close_matches(short, names, n=3, cutoff=0.6)
        hint = (f"did you mean {' or '.join(repr(c) for c in close)}?" if close
                else "see pyspiel.registered_names()")
        raise GameLoadError(f"{name}: unknown game {short!r}; {hint}")
    try:
        with _quiet_stderr():
            return pyspiel.load_game(game_string)
    except Exception as exc:  # pyspiel raises SpielError (a RuntimeError subclass)
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise GameLoadError(f"{name}: invalid game {game_string!r} ({first})") from None
