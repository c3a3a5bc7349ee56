"""oh_hell: Exact Oh Hell worlds: uniform deals consistent with one player's view.

This folder holds everything about the game:
* ``worlds.py``: its world sampler (determinizer)

Its tests are in ``tests/games/oh_hell/``.
"""
