"""A two-player Belote position read from the kernel's state array, for search and play code.

Boudier, "Information Set Monte Carlo Tree Search for Two-players Belote"
(docs/papers/belote_ismcts.md). The rules live once, in the numba kernel
(``belote2p/kernel.py``); ``Position`` wraps one of its int64 state arrays and reads its fields
as Python ints (card masks, see ``rules``), so that the double-dummy solver, the bots and the
play interface see the game without a second copy of the rules: a card is played by the
kernel's ``nb_apply_action`` and the legal cards are the kernel's ``legal_mask``.

The adapter's ``state.kernel`` is a ``Position`` on the state's own array (not a copy).
"""

from __future__ import annotations

import numpy as np

from infosets.core.bitmask import set_bits as cards_of
from infosets.games.belote2p import kernel as K
from infosets.games.belote2p.rules import NUM_CARDS, NUM_TRICKS

_new = object.__new__


class Position:
    """A Belote position on a kernel state array ``s`` (see the module docstring).

    Attributes (read from the array):
      hand, up, down: per player, the masks of the cards in hand, of the face-up pile cards
        and of the face-down pile cards still covered.
      under: per card, the card it covers (for a pile top), else -1.
      leader, lead: who led the current trick and the card led (-1 before the lead).
      to_move: the player to move (-1 when the game is over).
      points: card points won per player (no bonus); ``score`` adds the last-trick bonus.
      trick: number of completed tricks; last_winner: the last trick's winner (else -1).
    """

    __slots__ = ("s",)

    def __init__(self, s: np.ndarray):
        self.s = s

    @classmethod
    def from_deal(cls, deal, first_leader: int) -> Position:
        """The position right after chance dealt ``deal`` (32 cards in slot order, see
        ``deal.py``) and drew ``first_leader``; any permutation (fair or not)."""
        if first_leader not in (0, 1):
            raise ValueError(f"first_leader must be 0 or 1, got {first_leader!r}")
        deal = [int(c) for c in deal]
        if sorted(deal) != list(range(NUM_CARDS)):
            raise ValueError("deal must be a permutation of the 32 cards 0..31")
        return cls(K.array_from_history(deal + [first_leader]))

    @classmethod
    def from_cards(cls, hand, up, down, under, leader: int, trick: int = 0, points=(0, 0)) -> Position:
        """A position at the start of a trick from its card masks (no deal record): ``leader``
        to lead, ``trick`` tricks played, ``points`` won so far."""
        s = K.array_from_position(_Fields(hand, up, down, under, leader, trick, points))
        return cls(s)

    def clone(self) -> Position:
        position = _new(Position)
        position.s = self.s.copy()
        return position

    # -- fields --------------------------------------------------------------------------
    @property
    def hand(self) -> tuple[int, int]:
        return int(self.s[K.HAND]), int(self.s[K.HAND + 1])

    @property
    def up(self) -> tuple[int, int]:
        return int(self.s[K.UP]), int(self.s[K.UP + 1])

    @property
    def down(self) -> tuple[int, int]:
        return int(self.s[K.DOWN]), int(self.s[K.DOWN + 1])

    @property
    def under(self) -> list[int]:
        return self.s[K.UNDER : K.UNDER + NUM_CARDS].tolist()

    @property
    def leader(self) -> int:
        return int(self.s[K.LEADER])

    @property
    def lead(self) -> int:
        return int(self.s[K.LEAD])

    @property
    def to_move(self) -> int:
        player = int(self.s[K.TO_MOVE])
        return -1 if player == K.TERMINAL else player

    @property
    def points(self) -> list[int]:
        return [int(self.s[K.PTS]), int(self.s[K.PTS + 1])]

    @property
    def trick(self) -> int:
        return int(self.s[K.TRICK])

    @property
    def last_winner(self) -> int:
        return int(self.s[K.LAST_WINNER])

    def excluded(self, player: int) -> int:
        """Cards ``player``'s past replies proved it no longer holds in hand (the kernel's
        record of its revealed voids: off-suit, no trump when trumping was due, no
        overtrump)."""
        return int(self.s[K.EXCL + player])

    # -- setters for world samplers (a world redeals the hidden cards) -----------------------
    def set_hand(self, player: int, mask: int) -> None:
        self.s[K.HAND + player] = mask

    def set_down(self, player: int, mask: int) -> None:
        self.s[K.DOWN + player] = mask

    def set_under(self, top: int, card: int) -> None:
        self.s[K.UNDER + top] = card

    # -- the rules, by the kernel ------------------------------------------------------------
    def is_terminal(self) -> bool:
        return int(self.s[K.TRICK]) >= NUM_TRICKS

    def playable(self, player: int) -> int:
        return int(self.s[K.HAND + player] | self.s[K.UP + player])

    def legal_mask(self) -> int:
        if self.is_terminal():
            return 0
        return int(K.legal_mask(self.s))

    def legal_moves(self) -> list[int]:
        return cards_of(self.legal_mask())

    def score(self, player: int) -> int:
        """Card points plus the last-trick bonus if earned."""
        return int(self.s[K.PTS + player]) + (K.LAST_TRICK_BONUS if self.last_winner == player else 0)

    def play(self, card: int) -> tuple[int, int]:
        """Play ``card`` for the player to move.

        Returns:
          (revealed card or -1, trick winner or -1 if the trick is not complete).
        Raises ValueError on an illegal card.
        """
        if not (self.legal_mask() >> card) & 1:
            raise ValueError(f"card {card!r} is not legal here")
        before = int(self.s[K.TRICK])
        K.nb_apply_action(self.s, card)
        i = int(self.s[K.NPLAYS]) - 1
        winner = int(self.s[K.LEADER]) if int(self.s[K.TRICK]) > before else -1
        return int(self.s[K.PLAY_REVEAL + i]), winner

    def hidden_from(self, player: int) -> int:
        """Cards ``player`` cannot see: the opponent's hand and all covered pile cards."""
        s = self.s
        return int(s[K.HAND + 1 - player] | s[K.DOWN] | s[K.DOWN + 1])

    def covered_tops(self) -> list[int]:
        """The face-up cards that still cover a face-down card, in card order."""
        under = self.s[K.UNDER : K.UNDER + NUM_CARDS]
        return [t for t in cards_of(int(self.s[K.UP] | self.s[K.UP + 1])) if under[t] >= 0]


class _Fields:
    """The fields ``kernel.array_from_position`` reads, for ``Position.from_cards``."""

    def __init__(self, hand, up, down, under, leader, trick, points):
        self.hand, self.up, self.down = list(hand), list(up), list(down)
        self.under = list(under)
        self.leader = self.to_move = int(leader)
        self.lead, self.last_winner = -1, -1
        self.trick, self.points = int(trick), list(points)

    def is_terminal(self) -> bool:
        return self.trick >= NUM_TRICKS
