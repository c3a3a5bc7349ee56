"""OpenSpiel games added by infosets, and determinizers for OpenSpiel games.

One folder per game (``games/<name>/``: ``game.py`` its pyspiel registration and rules,
``kernel.py`` its numba rules for the compiled engine, ``worlds.py`` its world sampler where
it has one; lib/infosets/games/README.md); the flat modules are shared by the games
(determinizers, the kernels' registry, heuristics, loading). Importing ``infosets.games``
registers every game with pyspiel (``loading.register_games``), so
``pyspiel.load_game("<name>")`` works; a shared module is imported where it is used.
"""

from infosets.games.loading import register_games

__all__ = ["register_games"]

register_games()
