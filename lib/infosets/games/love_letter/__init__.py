"""love_letter: Love Letter (Seiji Kanai, 2012) as an OpenSpiel game, short name ``love_letter``.

This folder holds everything about the game:
* ``kernel.py``: its rules, once, in numba (both engines and the pyspiel adapter run them),
  with the compiled engine's determinizer and the record and witness history it shares with
  the adapter's sampler
* ``game.py``: the pyspiel game (registration, string views, tensors, public log, world
  sampler, history planning) over those rules (``infosets.games.array_kernel``)

Its tests are in ``tests/games/love_letter/`` (with the former Python rules as a frozen oracle).
"""
