"""Two-player Belote as an OpenSpiel game (``belote2p``), after Boudier's ISMCTS paper.

Boudier, "Information Set Monte Carlo Tree Search for Two-players Belote"
(docs/papers/belote_ismcts.md). Importing this package registers ``belote2p`` with pyspiel.
``kernel`` holds the rules (numba, on an int64 state array), ``rules`` the card tables,
``position`` a read view of a state array for search and play code, ``deal`` the fair deal,
``game`` the pyspiel adapter. The game runs with pyspiel, numpy and numba alone; playing it
against the ISMCTS (terminal, widget, command line) lives in the app layer ``infosets.play``.
"""

from .deal import DealConstraint, fair_deal
from .game import GAME_NAME, BeloteGame, BeloteState, sample_world
from .position import Position
from .rules import card_name, parse_card

__all__ = [
    "GAME_NAME", "BeloteGame", "BeloteState", "DealConstraint", "Position", "card_name",
    "fair_deal", "parse_card", "sample_world",
]
