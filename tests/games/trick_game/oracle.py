"""The former pure-Python rules of the card game "CG nC" (``trick_game``), frozen: an independent
oracle for differential tests.

``TrickState`` and its helpers exactly as ``lib/infosets/games/trick_game/array_rules.py`` held
them at commit 1a45502 (the rules on Python ints and bitmasks), before the game ran on its numba
rules (``infosets.games.trick_game.kernel``) alone. Do not edit: ``test_trick_game_oracle.py``
plays the live game against this code, so a change to the rules shows up as a disagreement here.

The original module docstring follows.

Integer/bitmask kernel of the small no-trump trick-taking game "CG nC".

Follows the trick-taking benchmark of Arjonilla, Saffidine and Cazenave, "Mixture of public
and private distributions in imperfect information games" (2024), section 4.1.1, as read in
docs/papers/belief_mixtures.md. ``trick_game.py`` wrapped these rules as a pyspiel game;
search code used this kernel directly.

Rules (every interpretation is a named parameter or stated here):
- ``num_cards`` cards in four suits C, D, H, S, as even as possible: the first
  ``num_cards % 4`` suits (in that order) get one extra card. Within a suit a card with a
  larger id ranks higher; ids are suit-major (all clubs, then diamonds, ...), so card ids
  are the bit positions of the hand bitmasks.
- Deal: ``hand_size`` cards to each of two players, one chance outcome per card, uniformly
  among the cards not yet dealt; player 0 receives the first ``hand_size`` cards, then
  player 1. The other ``num_cards - 2 * hand_size`` cards stay undealt and hidden.
- Play: player 0 leads the first trick; the leader plays any card; the other player must
  follow the led suit when able, otherwise plays any card and cannot win the trick. The
  highest card of the led suit wins and the winner leads the next trick. No trump.
- Result: more than half the ``hand_size`` tricks wins (+1 / -1); exactly half is a draw
  (0 / 0).
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
    """The deck of ``num_cards`` cards (2..52) split into four suits as evenly as possible.

    A suit of m cards holds the m highest ranks (a 3-card suit is Q K A).
    """
    if not 2 <= num_cards <= MAX_CARDS:
        raise ValueError(f"num_cards must be in [2, {MAX_CARDS}], got {num_cards}")
    sizes = [num_cards // 4 + (1 if s < num_cards % 4 else 0) for s in range(4)]
    suit_of, names, masks = [], [], []
    card = 0
    for s, size in enumerate(sizes):
        mask = 0
        for rank in RANK_NAMES[len(RANK_NAMES) - size:]:
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
        raise ValueError(f"hand_size must be in [1, {num_cards // 2}] for num_cards="
                         f"{num_cards}, got {hand_size}")


class TrickState:
    """A mutable game state on ints and bitmasks.

    Attributes:
      deck: the static card tables.
      hand_size: cards dealt to each player.
      dealt: the two initial hands (bitmasks; partial during the deal).
      hands: the two current hands (bitmasks).
      plays: card ids played so far, in order.
      lead: card led in the current trick, or -1 when the trick is empty.
      player: player to move (0 or 1), CHANCE during the deal, TERMINAL at the end.
      tricks: tricks won by each player.
      voids: per player, a 4-bit mask of the suits that player has shown void in.
    """

    __slots__ = ("deck", "hand_size", "dealt", "hands", "plays", "lead", "player", "tricks",
                 "voids")

    def __init__(self, num_cards: int, hand_size: int):
        check_sizes(num_cards, hand_size)
        self.deck = make_deck(num_cards)
        self.hand_size = hand_size
        self.dealt = [0, 0]
        self.hands = [0, 0]
        self.plays: list[int] = []
        self.lead = -1
        self.player = CHANCE
        self.tricks = [0, 0]
        self.voids = [0, 0]

    def copy(self) -> TrickState:
        new = TrickState.__new__(TrickState)
        new.deck = self.deck
        new.hand_size = self.hand_size
        new.dealt = self.dealt[:]
        new.hands = self.hands[:]
        new.plays = self.plays[:]
        new.lead = self.lead
        new.player = self.player
        new.tricks = self.tricks[:]
        new.voids = self.voids[:]
        return new

    def __deepcopy__(self, memo) -> TrickState:
        return self.copy()

    # --- queries -------------------------------------------------------------------------
    def is_chance(self) -> bool:
        return self.player == CHANCE

    def is_terminal(self) -> bool:
        return self.player == TERMINAL

    def num_dealt(self) -> int:
        return popcount(self.dealt[0] | self.dealt[1])

    def undealt_mask(self) -> int:
        """Cards not dealt to anyone (so far)."""
        return self.deck.full_mask & ~(self.dealt[0] | self.dealt[1])

    def played_mask(self) -> int:
        mask = 0
        for card in self.plays:
            mask |= 1 << card
        return mask

    def legal_mask(self) -> int:
        """Bitmask of the legal cards of the player to move (0 at chance/terminal)."""
        if self.player < 0:
            return 0
        hand = self.hands[self.player]
        if self.lead < 0:
            return hand
        follow = hand & self.deck.suit_mask[self.deck.suit_of[self.lead]]
        return follow if follow else hand

    def legal_actions(self) -> list[int]:
        if self.player == CHANCE:
            return cards_of(self.undealt_mask())
        return cards_of(self.legal_mask())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        cards = cards_of(self.undealt_mask())
        p = 1.0 / len(cards)
        return [(c, p) for c in cards]

    def returns(self) -> list[float]:
        """[+1, -1], [-1, +1] or [0, 0] at the end; [0, 0] before."""
        if self.player != TERMINAL:
            return [0.0, 0.0]
        diff = 2 * self.tricks[0] - self.hand_size
        if diff > 0:
            return [1.0, -1.0]
        if diff < 0:
            return [-1.0, 1.0]
        return [0.0, 0.0]

    def plays_string(self) -> str:
        """Plays as ``player:card`` grouped by trick, e.g. ``0:CA 1:C9 | 0:DK``."""
        names, suit_of = self.deck.names, self.deck.suit_of
        out, player, lead = [], 0, -1
        for i, card in enumerate(self.plays):
            if i and i % 2 == 0:
                out.append("|")
            out.append(f"{player}:{names[card]}")
            if lead < 0:
                lead, player = card, 1 - player
            else:
                follows = suit_of[card] == suit_of[lead]
                player = player if follows and card > lead else 1 - player
                lead = -1
        return " ".join(out)

    def information_state_string(self, player: int) -> str:
        """The player's dealt hand and every play (what the pyspiel adapter returns)."""
        dealing = f" dealt:{self.num_dealt()}" if self.player == CHANCE else ""
        return (f"p{player} hand:{self.deck.card_string(self.dealt[player])}{dealing} "
                f"plays:{self.plays_string()}")

    def trick_leader(self) -> int:
        """Player who led (or will lead) the current trick."""
        if self.lead < 0:
            return self.player
        return 1 - self.player

    # --- transitions ---------------------------------------------------------------------
    def apply(self, action: int) -> None:
        """Deals card ``action`` (chance node) or plays it (decision node). No legality check."""
        bit = 1 << action
        if self.player == CHANCE:
            receiver = 0 if popcount(self.dealt[0]) < self.hand_size else 1
            self.dealt[receiver] |= bit
            self.hands[receiver] |= bit
            if receiver == 1 and popcount(self.dealt[1]) == self.hand_size:
                self.player = 0  # player 0 leads the first trick
            return
        p = self.player
        self.hands[p] &= ~bit
        self.plays.append(action)
        lead = self.lead
        if lead < 0:
            self.lead = action
            self.player = 1 - p
            return
        suit_of = self.deck.suit_of
        led_suit = suit_of[lead]
        if suit_of[action] == led_suit:
            winner = p if action > lead else 1 - p
        else:
            winner = 1 - p
            self.voids[p] |= 1 << led_suit
        self.tricks[winner] += 1
        self.lead = -1
        self.player = TERMINAL if len(self.plays) == 2 * self.hand_size else winner

    # --- the SearchState protocol of infosets.core.search_state (pyspiel names) -------
    def current_player(self) -> int:
        return self.player

    def is_chance_node(self) -> bool:
        return self.player == CHANCE

    def apply_action(self, action: int) -> None:
        self.apply(action)

    def clone(self) -> TrickState:
        return self.copy()

    def child(self, action: int) -> TrickState:
        new = self.copy()
        new.apply(action)
        return new

    def check_legal(self, action: int) -> None:
        """Raises ValueError if ``action`` is not legal here."""
        if self.player == TERMINAL:
            raise ValueError("action: the game is over")
        legal = self.undealt_mask() if self.player == CHANCE else self.legal_mask()
        if not 0 <= action < self.deck.num_cards or not legal >> action & 1:
            raise ValueError(f"action must be one of {cards_of(legal)}, got {action}")


def from_deal(num_cards: int, hand_size: int, hands: tuple[int, int],
              plays: list[int] | tuple[int, ...] = ()) -> TrickState:
    """The state after dealing ``hands`` (bitmasks; a partial deal is allowed only in
    dealing order) and playing ``plays``; raises ValueError on an illegal sequence."""
    state = TrickState(num_cards, hand_size)
    n0, n1 = popcount(hands[0]), popcount(hands[1])
    if hands[0] & hands[1] or hands[0] >> num_cards or hands[1] >> num_cards or \
            n0 > hand_size or n1 > hand_size or (n1 and n0 < hand_size):
        raise ValueError(f"hands must be disjoint masks of at most hand_size={hand_size} "
                         f"cards below {num_cards} (hand 0 full before hand 1), got "
                         f"{hands[0]:#x}, {hands[1]:#x}")
    for p in (0, 1):
        for card in cards_of(hands[p]):
            state.check_legal(card)
            state.apply(card)
    for card in plays:
        state.check_legal(card)
        state.apply(card)
    return state


def deal_actions(hands: tuple[int, int]) -> list[int]:
    """Canonical chance actions that deal ``hands``: player 0's cards then player 1's,
    each ascending."""
    return cards_of(hands[0]) + cards_of(hands[1])


def random_playout(state: TrickState, rng) -> list[float]:
    """Plays ``state`` to the end in place with uniform random deals and moves.

    Args:
      state: the state to advance (modified).
      rng: anything with ``random()`` uniform in [0, 1): a ``numpy.random.Generator``, or a
        seeded ``random.Random`` (several times faster per draw).
    Returns:
      The returns at the end.
    """
    while state.player != TERMINAL:
        if state.player == CHANCE:
            options = cards_of(state.undealt_mask())
        else:
            options = cards_of(state.legal_mask())
        state.apply(options[int(rng.random() * len(options))])
    return state.returns()
