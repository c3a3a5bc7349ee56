"""sushi_go: Sushi Go! (Phil Walker-Harding, 2013) as an OpenSpiel game, short name ``sushi_go``.

This folder holds everything about the game:
* ``kernel.py``: its rules, once, in numba (both engines and the pyspiel adapter run them)
* ``game.py``: the pyspiel game (registration, string views, tensors, public log, world
  sampler) over those rules (``infosets.games.array_kernel``)

Its tests are in ``tests/games/sushi_go/`` (with the former Python rules as a frozen oracle).
"""
