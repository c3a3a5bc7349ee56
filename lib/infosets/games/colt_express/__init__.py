"""colt_express: Colt Express (Christophe Raimbault, 2014) as an OpenSpiel game, short name ``colt_express``.

This folder holds everything about the game:
* ``game.py``: the pyspiel game (registration, rules as OpenSpiel sees them, strings, tensors)
* ``kernel.py``: its numba rules for the compiled engine (infosets.games.kernels)

Its tests are in ``tests/games/colt_express/``.
"""
