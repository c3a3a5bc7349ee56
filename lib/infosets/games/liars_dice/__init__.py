"""liars_dice: Numba kernel of OpenSpiel's ``liars_dice`` with one k-sided die per player (2 players).

This folder holds everything about the game:
* ``kernel.py``: its numba rules for the compiled engine (infosets.games.kernels)

Its tests are the shared kernel tests: ``tests/games/test_kernels_equivalence.py``,
``tests/games/test_kernel_twins.py`` and ``tests/games/test_kernels_boundscheck.py``.
"""
