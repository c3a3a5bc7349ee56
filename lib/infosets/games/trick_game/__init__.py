"""trick_game: pyspiel game ``trick_game``: the small no-trump trick-taking game "CG nC".

This folder holds everything about the game:
* ``array_rules.py``: its integer-array rules for the exact solvers
* ``game.py``: the pyspiel game (registration, rules as OpenSpiel sees them, strings, tensors)
* ``kernel.py``: its numba rules for the compiled engine (infosets.games.kernels)

Its tests are in ``tests/games/trick_game/``.
"""
