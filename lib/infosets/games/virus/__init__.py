"""virus: Virus! (Tranjis Games, 2015) as an OpenSpiel game, short name ``virus``.

This folder holds everything about the game:
* ``kernel.py``: its rules, once, in numba (both engines and the pyspiel adapter run them)
* ``game.py``: the pyspiel game (registration, string views, tensors, public log, world
  sampler, history planning) over those rules (``infosets.games.array_kernel``)

Its tests are in ``tests/games/virus/`` (with the former Python rules as a frozen oracle).
"""
