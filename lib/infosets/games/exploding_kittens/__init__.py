"""exploding_kittens: Exploding Kittens (Lee, Inman, Small, 2015) as an OpenSpiel game, short name
``exploding_kittens``.

This folder holds everything about the game:
* ``game.py``: the pyspiel game (registration, rules as OpenSpiel sees them, strings, tensors)
* ``kernel.py``: its numba rules for the compiled engine (infosets.games.kernels)
* ``worlds.py``: its world sampler (determinizer)

Its tests are in ``tests/games/exploding_kittens/``.
"""
