"""dominion: Dominion (Donald X. Vaccarino, 2008), base set, as an OpenSpiel game, short name ``dominion``.

This folder holds everything about the game:
* ``game.py``: the pyspiel game (registration, rules as OpenSpiel sees them, strings, tensors)
* ``kernel.py``: its numba rules for the compiled engine (infosets.games.kernels)

Its tests are in ``tests/games/dominion/``.
"""
