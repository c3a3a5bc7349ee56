"""Two-player Belote as an OpenSpiel game (``belote2p``), after Boudier's ISMCTS paper.

Boudier, "Information Set Monte Carlo Tree Search for Two-players Belote"
(docs/papers/belote_ismcts.md). Importing this package registers ``belote2p`` with pyspiel.
``rules`` is the integer/bitmask kernel, ``deal`` the fair deal, ``game`` the pyspiel adapter;
The game runs with pyspiel and numpy alone; playing it against the ISMCTS (terminal, widget,
command line) lives in the app layer ``infosets.play``.
"""

from .deal import DealConstraint, fair_deal
from .game import GAME_NAME, BeloteGame, BeloteState, sample_world
from .rules import KernelState, card_name, parse_card

__all__ = [
    "GAME_NAME", "BeloteGame", "BeloteState", "DealConstraint", "KernelState", "card_name",
    "fair_deal", "parse_card", "sample_world",
]
