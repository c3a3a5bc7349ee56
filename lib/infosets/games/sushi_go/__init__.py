"""sushi_go: Sushi Go! (Phil Walker-Harding, 2013) as an OpenSpiel game, short name ``sushi_go``.

This folder holds everything about the game:
* ``game.py``: the pyspiel game (registration, rules as OpenSpiel sees them, strings, tensors)
* ``kernel.py``: its numba rules for the compiled engine (infosets.games.kernels)

Its tests are in ``tests/games/sushi_go/``.
"""
