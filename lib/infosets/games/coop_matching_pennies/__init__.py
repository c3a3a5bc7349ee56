"""coop_matching_pennies: Cooperative Matching Pennies as an OpenSpiel game, short name
``coop_matching_pennies``.

This folder holds everything about the game:
* ``game.py``: the pyspiel game (registration, rules as OpenSpiel sees them, strings, tensors)

Its tests are in ``tests/games/coop_matching_pennies/``.
"""
