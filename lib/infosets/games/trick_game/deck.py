"""The deck of the card game "CG nC" (``trick_game``): card ids, suits and names (data, not rules).

Follows the trick-taking benchmark of Arjonilla, Saffidine and Cazenave, "Mixture of public
and private distributions in imperfect information games" (2024), section 4.1.1, as read in
docs/papers/belief_mixtures.md. ``num_cards`` cards in four suits C, D, H, S, as even as
possible: the first ``num_cards % 4`` suits (in that order) get one extra card, and a suit of m
cards holds the m highest ranks (a 3-card suit is Q K A). Within a suit a card with a larger id
ranks higher; ids are suit-major (all clubs, then diamonds, ...), so card ids are the bit
positions of the hand bitmasks. The rules that play these cards are ``kernel.py``'s.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from infosets.core.bitmask import set_bits as cards_of  # noqa: F401  (re-exported: the card-set helper)

CHANCE = -1  # pyspiel.PlayerId.CHANCE
TERMINAL = -4  # pyspiel.PlayerId.TERMINAL
SUIT_NAMES = "CDHS"
RANK_NAMES = "23456789TJQKA"
MAX_CARDS = 52


@dataclass(frozen=True)
class Deck:
    """Static card tables for one deck size.

    Attributes:
      num_cards: cards in the deck.
      suit_of: suit index (0..3) of each card id.
      suit_mask: bitmask of the cards of each suit.
      names: two-character name of each card, e.g. ``"CA"`` (ace of clubs).
    """

    num_cards: int
    suit_of: tuple[int, ...]
    suit_mask: tuple[int, ...]
    names: tuple[str, ...]

    @property
    def full_mask(self) -> int:
        return (1 << self.num_cards) - 1

    def card_string(self, mask: int) -> str:
        """Space-separated names of the cards in ``mask``, in id order."""
        return " ".join(self.names[c] for c in cards_of(mask))


@functools.cache
def make_deck(num_cards: int) -> Deck:
    """The deck of ``num_cards`` cards (2..52) split into four suits as evenly as possible."""
    if not 2 <= num_cards <= MAX_CARDS:
        raise ValueError(f"num_cards must be in [2, {MAX_CARDS}], got {num_cards}")
    sizes = [num_cards // 4 + (1 if s < num_cards % 4 else 0) for s in range(4)]
    suit_of, names, masks = [], [], []
    card = 0
    for s, size in enumerate(sizes):
        mask = 0
        for rank in RANK_NAMES[len(RANK_NAMES) - size :]:
            suit_of.append(s)
            names.append(SUIT_NAMES[s] + rank)
            mask |= 1 << card
            card += 1
        masks.append(mask)
    return Deck(num_cards, tuple(suit_of), tuple(masks), tuple(names))


def popcount(mask: int) -> int:
    return mask.bit_count()


def check_sizes(num_cards: int, hand_size: int) -> None:
    """Raises ValueError unless 2 <= num_cards <= 52 and 1 <= hand_size <= num_cards // 2."""
    if not 2 <= num_cards <= MAX_CARDS:
        raise ValueError(f"num_cards must be in [2, {MAX_CARDS}], got {num_cards}")
    if not 1 <= hand_size <= num_cards // 2:
        raise ValueError(
            f"hand_size must be in [1, {num_cards // 2}] for num_cards={num_cards}, got {hand_size}"
        )
