"""poker_tag: TAG's Poker (Texas Hold'em over several hands) as an OpenSpiel game, short name ``poker_tag``.

This folder holds everything about the game:
* ``kernel.py``: its rules, once, in numba (both engines and the pyspiel adapter run them)
* ``game.py``: the pyspiel game (registration, string views, tensors, public log, world
  sampler, heuristic) over those rules (``infosets.games.array_kernel``)

Its tests are in ``tests/games/poker_tag/`` (with the former Python rules as a frozen oracle).
"""
