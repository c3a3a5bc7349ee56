"""Two-player Belote's cards as integers and bitmasks: the tables the kernel's rules read.

Follows Boudier, "Information Set Monte Carlo Tree Search for Two-players Belote"
(docs/papers/belote_ismcts.md) and the authors' published code as summarised in docs/papers/belote_ismcts.md:
32 cards, clubs always trump, 6 cards in hand and 5 piles (a face-up card on a face-down
card) per player, 16 two-card tricks, follow / trump / overtrump duties, 152 card points
plus 10 for the last trick.

A card is an int ``suit * 8 + rank`` with suits C D H S (clubs = 0 = trump) and ranks
7 8 9 10 J Q K A (0..7). A set of cards is a 32-bit mask. This module is data: card names,
points, strengths and the per-card tables ``FOLLOW`` (the first duty on a lead) and ``BEATS``
(the replies that win a trick). The rules that use them (legal cards, playing a card, the
deal, scoring) are written once, in the numba kernel ``belote2p/kernel.py``; search code
(the double-dummy solver) reads the tables directly.
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
