"""stratego: Stratego (Jacques Johan Mogendorff; Jumbo, 1961) as an OpenSpiel game, short name ``stratego``.

This folder holds everything about the game:
* ``kernel.py``: its rules, once, in numba (both engines run them) and the game's constants
* ``game.py``: the pyspiel game on those rules (registration, strings, tensors, world sampler,
  history planning)

Its tests are in ``tests/games/stratego/`` (``oracle.py``: the former Python rules, frozen).
"""
