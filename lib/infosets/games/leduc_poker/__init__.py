"""leduc_poker: Integer kernel of OpenSpiel's ``leduc_poker`` and a fast world sampler for IS-MCTS.

This folder holds everything about the game:
* ``kernel.py``: its numba rules for the compiled engine (infosets.games.kernels)

Its tests are in ``tests/games/leduc_poker/``.
"""
