"""trick_game: pyspiel game ``trick_game``: the small no-trump trick-taking game "CG nC".

This folder holds everything about the game:
* ``kernel.py``: its rules, in numba (state array, legal actions, apply, chance outcomes,
  returns, world sampler of the compiled engine)
* ``array_rules.py``: a state of those rules for Python code (the adapter, the solvers)
* ``deck.py``: the deck's tables (card ids, suits, names)
* ``game.py``: the pyspiel game (registration, strings, tensors, world samplers)

Its tests are in ``tests/games/trick_game/``.
"""
