"""dominion: Dominion (Donald X. Vaccarino, 2008), base set, as an OpenSpiel game, short name ``dominion``.

This folder holds everything about the game:
* ``kernel.py``: its rules, written once in numba (the compiled engine and the pyspiel adapter
  both run them; infosets.games.kernels, infosets.games.array_kernel)
* ``game.py``: the pyspiel game (registration, string views, tensors, public log, world sampler)

Its tests, and the frozen former Python rules they check against, are in ``tests/games/dominion/``.
"""
