"""hearts: Exact Hearts worlds: uniform deals and passes consistent with one player's view.

This folder holds everything about the game:
* ``worlds.py``: its world sampler (determinizer)
* ``kernel.py``: its numba kernel for the compiled search engine (OpenSpiel's rules, the
  worlds' distribution)

Its tests are in ``tests/games/hearts/``.
"""
