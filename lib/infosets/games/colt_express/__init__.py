"""colt_express: Colt Express (Christophe Raimbault, 2014) as an OpenSpiel game, short name ``colt_express``.

This folder holds everything about the game:
* ``kernel.py``: its rules, once (numba, on a state array; both engines play them)
* ``game.py``: the pyspiel game over those rules (registration, strings, tensors, public log,
  world sampler, heuristic)

Its tests are in ``tests/games/colt_express/``.
"""
