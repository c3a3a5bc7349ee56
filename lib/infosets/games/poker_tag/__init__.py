"""poker_tag: TAG's Poker (Texas Hold'em over several hands) as an OpenSpiel game, short name ``poker_tag``.

This folder holds everything about the game:
* ``game.py``: the pyspiel game (registration, rules as OpenSpiel sees them, strings, tensors)
* ``kernel.py``: its numba rules for the compiled engine (infosets.games.kernels)

Its tests are in ``tests/games/poker_tag/``.
"""
