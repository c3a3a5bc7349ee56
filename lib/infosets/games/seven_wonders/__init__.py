"""seven_wonders: 7 Wonders (Antoine Bauza, 2010) as TAG plays it, an OpenSpiel game, short name
``seven_wonders``.

This folder holds everything about the game:
* ``cards.py``: its card tables
* ``game.py``: the pyspiel game (registration, rules as OpenSpiel sees them, strings, tensors)
* ``kernel.py``: its numba rules for the compiled engine (infosets.games.kernels)

Its tests are in ``tests/games/seven_wonders/``.
"""
