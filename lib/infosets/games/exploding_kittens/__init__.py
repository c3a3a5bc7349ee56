"""exploding_kittens: Exploding Kittens (Lee, Inman, Small, 2015) as an OpenSpiel game, short name
``exploding_kittens``.

This folder holds everything about the game:
* ``kernel.py``: its rules, written once in numba (both engines play them), and its constants
* ``game.py``: the pyspiel game over those rules (registration, strings, tensors, public log)
* ``worlds.py``: its world sampler (determinizer)

Its tests are in ``tests/games/exploding_kittens/``.
"""
