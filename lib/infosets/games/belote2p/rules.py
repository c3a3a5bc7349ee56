"""Two-player Belote rules on integers and bitmasks, the kernel that search runs on.

Follows Boudier, "Information Set Monte Carlo Tree Search for Two-players Belote"
(docs/papers/belote_ismcts.md) and the authors' published code as summarised in docs/papers/belote_ismcts.md:
32 cards, clubs always trump, 6 cards in hand and 5 piles (a face-up card on a face-down
card) per player, 16 two-card tricks, follow / trump / overtrump duties, 152 card points
plus 10 for the last trick.

A card is an int ``suit * 8 + rank`` with suits C D H S (clubs = 0 = trump) and ranks
7 8 9 10 J Q K A (0..7). A set of cards is a 32-bit mask. ``KernelState`` is the whole
position; the tables below (``FOLLOW``, ``BEATS``, ``POINTS``) let search inline the rules.
"""

from __future__ import annotations

from infosets.core.bitmask import set_bits as cards_of  # noqa: F401  (re-exported: the card-set helper)

SUITS = "CDHS"
RANKS = ("7", "8", "9", "10", "J", "Q", "K", "A")
TRUMP_SUIT = 0
NUM_CARDS = 32
NUM_TRICKS = 16
HAND_SIZE = 6
NUM_PILES = 5
LAST_TRICK_BONUS = 10
TOTAL_CARD_POINTS = 152
TOTAL_POINTS = TOTAL_CARD_POINTS + LAST_TRICK_BONUS

ALL_CARDS = (1 << NUM_CARDS) - 1
SUIT_MASK = tuple(0xFF << (8 * s) for s in range(4))
TRUMP_MASK = SUIT_MASK[TRUMP_SUIT]

# Points by rank index (7 8 9 10 J Q K A).
_PLAIN_POINTS = (0, 0, 0, 10, 2, 3, 4, 11)
_TRUMP_POINTS = (0, 0, 14, 10, 20, 3, 4, 11)
# Strength by rank index, higher is stronger: plain A 10 K Q J 9 8 7; trump J 9 A 10 K Q 8 7.
_PLAIN_ORDER = (0, 1, 2, 6, 3, 4, 5, 7)
_TRUMP_ORDER = (0, 1, 6, 4, 7, 2, 3, 5)


def suit_of(card: int) -> int:
    return card >> 3


POINTS = tuple(
    (_TRUMP_POINTS if c >> 3 == TRUMP_SUIT else _PLAIN_POINTS)[c & 7] for c in range(NUM_CARDS)
)
STRENGTH = tuple(
    (_TRUMP_ORDER if c >> 3 == TRUMP_SUIT else _PLAIN_ORDER)[c & 7] for c in range(NUM_CARDS)
)


def _beats(lead: int) -> int:
    """Mask of the replies that win the trick against ``lead``."""
    s = lead >> 3
    mask = 0
    for c in range(s * 8, s * 8 + 8):
        if STRENGTH[c] > STRENGTH[lead]:
            mask |= 1 << c
    if s != TRUMP_SUIT:
        mask |= TRUMP_MASK
    return mask


# BEATS[lead] >> reply & 1: the reply wins the trick.
BEATS = tuple(_beats(c) for c in range(NUM_CARDS))
# First duty on a lead: a higher trump on a trump lead, the led suit otherwise.
FOLLOW = tuple(
    (BEATS[c] & TRUMP_MASK) if c >> 3 == TRUMP_SUIT else SUIT_MASK[c >> 3]
    for c in range(NUM_CARDS)
)


def card_name(card: int) -> str:
    """``0 -> '7C'``, ``11 -> '10D'``."""
    if not 0 <= card < NUM_CARDS:
        raise ValueError(f"card must be in 0..31, got {card!r}")
    return RANKS[card & 7] + SUITS[card >> 3]


_NAME_TO_CARD = {card_name(c): c for c in range(NUM_CARDS)}
_NAME_TO_CARD.update({name.replace("10", "T"): c for name, c in _NAME_TO_CARD.items()})


def parse_card(text: str) -> int:
    """Parse a card name such as ``10H``, ``TH``, ``jc`` or ``7 s``; ValueError if unknown."""
    key = str(text).strip().upper().replace(" ", "")
    if key not in _NAME_TO_CARD:
        raise ValueError(
            f"card {text!r} is unknown; use rank 7 8 9 10 J Q K A then suit C D H S, e.g. 10H"
        )
    return _NAME_TO_CARD[key]


def mask_of(cards) -> int:
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


def legal_reply_mask(playable: int, lead: int) -> int:
    """The duties: follow (overtrump on a trump lead), else trump, else anything."""
    return (playable & FOLLOW[lead]) or (playable & TRUMP_MASK) or playable


def hand_exclusions(plays, player: int) -> int:
    """Cards ``player`` can no longer hold in hand, proved by its own past replies.

    A reply outside the first duty (the led suit; a higher trump on a trump lead) shows that
    no such card was playable, so none is in hand for the rest of the game (a hand only
    shrinks); a reply that is not a trump when trumping was the next duty shows no trump.
    Face-down cards were not playable then, so they are not constrained.

    Args:
      plays: the play history, ``(player, card, revealed, winner)`` per card, in order.
      player: whose hand is constrained.
    Returns:
      A card mask; every world consistent with the history keeps these out of that hand.
    """
    excluded = 0
    lead = -1
    for who, card, _, _ in plays:
        if lead < 0:
            lead = card
            continue
        if who == player:
            follow = FOLLOW[lead]
            if not (follow >> card & 1):
                excluded |= follow
                if not (TRUMP_MASK >> card & 1):
                    excluded |= TRUMP_MASK
        lead = -1
    return excluded


class KernelState:
    """A full Belote position.

    Attributes:
      hand: per player, mask of the cards in hand (hidden from the opponent).
      up: per player, mask of the face-up pile cards (playable, seen by both).
      down: per player, mask of the face-down pile cards still covered (seen by nobody).
      under: per card, the card it covers (for a pile top), else -1.
      leader, lead: who led the current trick and the card led (-1 before the lead).
      to_move: the player to move (-1 when the game is over).
      points: card points won per player (no bonus); ``score`` adds the last-trick bonus.
      trick: number of completed tricks.
    """

    __slots__ = ("hand", "up", "down", "under", "leader", "lead", "to_move", "points",
                 "trick", "last_winner")

    def __init__(self, hand, up, down, under, first_leader: int):
        self.hand = list(hand)
        self.up = list(up)
        self.down = list(down)
        self.under = list(under)
        self.leader = first_leader
        self.lead = -1
        self.to_move = first_leader
        self.points = [0, 0]
        self.trick = 0
        self.last_winner = -1

    @classmethod
    def from_deal(cls, deal, first_leader: int) -> KernelState:
        """Build from 32 cards in slot order (see ``deal.py``) and the first leader."""
        if first_leader not in (0, 1):
            raise ValueError(f"first_leader must be 0 or 1, got {first_leader!r}")
        deal = list(deal)
        if sorted(deal) != list(range(NUM_CARDS)):
            raise ValueError("deal must be a permutation of the 32 cards 0..31")
        hand, up, down = [0, 0], [0, 0], [0, 0]
        under = [-1] * NUM_CARDS
        for p in (0, 1):
            base = 16 * p
            hand[p] = mask_of(deal[base:base + HAND_SIZE])
            tops = deal[base + HAND_SIZE:base + HAND_SIZE + NUM_PILES]
            bottoms = deal[base + HAND_SIZE + NUM_PILES:base + 16]
            up[p] = mask_of(tops)
            down[p] = mask_of(bottoms)
            for t, b in zip(tops, bottoms):
                under[t] = b
        return cls(hand, up, down, under, first_leader)

    def clone(self) -> KernelState:
        s = KernelState.__new__(KernelState)
        s.hand = self.hand[:]
        s.up = self.up[:]
        s.down = self.down[:]
        s.under = self.under[:]
        s.leader = self.leader
        s.lead = self.lead
        s.to_move = self.to_move
        s.points = self.points[:]
        s.trick = self.trick
        s.last_winner = self.last_winner
        return s

    def is_terminal(self) -> bool:
        return self.trick >= NUM_TRICKS

    def playable(self, player: int) -> int:
        return self.hand[player] | self.up[player]

    def legal_mask(self) -> int:
        if self.trick >= NUM_TRICKS:
            return 0
        playable = self.hand[self.to_move] | self.up[self.to_move]
        if self.lead < 0:
            return playable
        return legal_reply_mask(playable, self.lead)

    def legal_moves(self) -> list[int]:
        return cards_of(self.legal_mask())

    def score(self, player: int) -> int:
        """Card points plus the last-trick bonus if earned."""
        return self.points[player] + (LAST_TRICK_BONUS if self.last_winner == player else 0)

    def play(self, card: int) -> tuple[int, int]:
        """Play ``card`` for the player to move.

        Returns:
          (revealed card or -1, trick winner or -1 if the trick is not complete).
        Raises ValueError on an illegal card (checked; search code inlines without checks).
        """
        if not (self.legal_mask() >> card) & 1:
            raise ValueError(f"card {card!r} is not legal here")
        p = self.to_move
        bit = 1 << card
        revealed = -1
        if self.hand[p] & bit:
            self.hand[p] ^= bit
        else:
            self.up[p] ^= bit
            below = self.under[card]
            if below >= 0:
                self.up[p] |= 1 << below
                self.down[p] ^= 1 << below
                revealed = below
        if self.lead < 0:
            self.lead = card
            self.to_move = 1 - p
            return revealed, -1
        lead = self.lead
        winner = p if BEATS[lead] >> card & 1 else self.leader
        self.points[winner] += POINTS[lead] + POINTS[card]
        self.trick += 1
        self.lead = -1
        self.leader = winner
        if self.trick >= NUM_TRICKS:
            self.last_winner = winner
            self.to_move = -1
        else:
            self.to_move = winner
        return revealed, winner

    def hidden_from(self, player: int) -> int:
        """Cards ``player`` cannot see: the opponent's hand and all covered pile cards."""
        return self.hand[1 - player] | self.down[0] | self.down[1]

    def covered_tops(self) -> list[int]:
        """The face-up cards that still cover a face-down card, in card order."""
        return [t for t in cards_of(self.up[0] | self.up[1]) if self.under[t] >= 0]
