"""seven_wonders: 7 Wonders (Antoine Bauza, 2010) as TAG plays it, an OpenSpiel game, short name
``seven_wonders``.

This folder holds everything about the game:
* ``cards.py``: its card tables
* ``game.py``: the pyspiel game (registration, strings, tensors, log, world sampler), on the rules
* ``kernel.py``: its rules, once (numba, on an int64 array), for the adapter and the compiled engine

Its tests are in ``tests/games/seven_wonders/``.
"""
