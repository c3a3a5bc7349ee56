"""monopoly_deal: Monopoly Deal (Hasbro, 2008) as an OpenSpiel game, short name ``monopoly_deal``.

This folder holds everything about the game:
* ``kernel.py``: its rules, once (numba, on a state array; both engines play them)
* ``game.py``: the pyspiel game over those rules (registration, strings, tensors, the history
  and public log kept beside the array, world sampler, heuristic, turn counter)

Its tests are in ``tests/games/monopoly_deal/``.
"""
