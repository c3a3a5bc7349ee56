"""Public states of trick-taking games and the deal constraints they imply.

Follows Solinas, Rebstock, Sturtevant, Buro, "History Filtering in Imperfect Information
Games: Algorithms and Complexity" (arXiv 2311.14651), section 5.1: a public observation
sequence says which cards each player must have been dealt (the cards they played) and
which suits they are void in (they failed to follow suit). ``DealConstraints`` is the
generic interface every other part of ``infosets.filtering`` works on; ``OhHellPublicState``
derives it for OpenSpiel's ``oh_hell`` (a second trick-taking game implements
``TrickTakingPublicState.constraints`` the same way).

Cards use OpenSpiel's ``oh_hell`` encoding: ``card = rank * num_suits + suit``. A deal is a
tuple of per-player hand bitmasks (initial hands). Histories that differ only in the order
in which cards were dealt are identified: the order changes no public or private
observation and multiplies every reach probability by the same constant.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from math import comb

import pyspiel

from infosets.core.bitmask import set_bits as bits  # noqa: F401  (re-exported: policies, tests)

_PRE_DEAL_CHANCE = 2  # num_tricks, dealer
MADE_BID_BONUS = 10  # oh_hell.h kMadeBidBonus


def popcount(mask: int) -> int:
    return mask.bit_count()


@dataclass(frozen=True)
class DealConstraints:
    """What a public state says about the hidden deal (generic over trick-taking games).

    Rows are the hidden holders: ``num_players`` players, then (if ``pile_size`` > 0) one
    row for the undealt pile, which is never void and never plays.

    Attributes:
      num_players: players.
      num_suits: suits.
      suit_of: suit of each card index.
      known: per player, bitmask of cards the player must have been dealt (cards played, plus
        any hand fixed by conditioning on an information state).
      need: per row, how many unknown cards the row still holds.
      void: per row, a tuple of bools per suit (True: the row cannot hold that suit).
      unknown_by_suit: per suit, the tuple of unknown cards in that suit.
    """

    num_players: int
    num_suits: int
    suit_of: tuple[int, ...]
    known: tuple[int, ...]
    need: tuple[int, ...]
    void: tuple[tuple[bool, ...], ...]
    unknown_by_suit: tuple[tuple[int, ...], ...]
    suit_totals: tuple[int, ...] = field(init=False)
    suit_masks: tuple[int, ...] = field(init=False)

    def __post_init__(self):
        object.__setattr__(self, "suit_totals", tuple(len(c) for c in self.unknown_by_suit))
        object.__setattr__(self, "suit_masks", tuple(
            sum(1 << card for card in cards) for cards in self.unknown_by_suit))
        if sum(self.need) != sum(self.suit_totals):
            raise ValueError(
                f"public state: rows need {sum(self.need)} unknown cards but "
                f"{sum(self.suit_totals)} are unknown; no history can produce it"
            )

    @property
    def num_rows(self) -> int:
        return len(self.need)

    def allowed(self, row: int, suit: int) -> bool:
        return not self.void[row][suit]

    def deals_in_assignment(self, assignment) -> int:
        """Number of deals with this suit-length assignment (rows x suits, row-major)."""
        total = 1
        n_suits = self.num_suits
        for s in range(n_suits):
            left = self.suit_totals[s]
            for r in range(self.num_rows):
                k = assignment[r * n_suits + s]
                total *= comb(left, k)
                left -= k
        return total

    def hands_consistent(self, hands) -> bool:
        """True when the player hands (initial hand bitmasks) satisfy every constraint."""
        unknown = 0
        for cards in self.unknown_by_suit:
            for c in cards:
                unknown |= 1 << c
        seen = 0
        for p in range(self.num_players):
            hand = hands[p]
            if hand & self.known[p] != self.known[p] or hand & seen:
                return False
            extra = hand & ~self.known[p]
            if extra & ~unknown or popcount(extra) != self.need[p]:
                return False
            if any(self.void[p][self.suit_of[c]] for c in bits(extra)):
                return False
            seen |= hand
        return True


class TrickTakingPublicState:
    """Interface: a public state of a trick-taking game (section 5 of the paper)."""

    def constraints(self, fixed_hands: dict[int, int] | None = None) -> DealConstraints:
        """Deal constraints; ``fixed_hands`` conditions on known hands (player -> bitmask)."""
        raise NotImplementedError


@dataclass(frozen=True)
class OhHellPublicState(TrickTakingPublicState):
    """The public observation sequence of an ``oh_hell`` game after the deal.

    Attributes: game parameters, the number of tricks, dealer, trump card, bids (in bidding
    order, starting left of the dealer) and the plays (card indices, in order).
    """

    num_players: int
    num_suits: int
    num_cards_per_suit: int
    num_tricks: int
    dealer: int
    trump: int
    bids: tuple[int, ...]
    plays: tuple[int, ...]

    # ----------------------------------------------------------------- construction
    @classmethod
    def from_state(cls, state) -> OhHellPublicState:
        """The public part of a pyspiel ``oh_hell`` state in the bidding or play phase."""
        game = state.get_game()
        params = game.get_parameters()
        n, suits = params["players"], params["num_suits"]
        history = state.history()
        if len(history) < _PRE_DEAL_CHANCE + 1:
            raise ValueError("state: the deal has not started; no public state to filter")
        num_tricks, dealer = history[0], history[1]
        deal_end = _PRE_DEAL_CHANCE + n * num_tricks
        if len(history) <= deal_end:
            raise ValueError("state: still dealing; the public state starts at the trump card")
        num_cards = suits * params["num_cards_per_suit"]
        trump = history[deal_end]
        post = history[deal_end + 1:]
        bids = tuple(a - num_cards for a in post[:n])
        plays = tuple(post[n:])
        return cls(n, suits, params["num_cards_per_suit"], num_tricks, dealer, trump, bids, plays)

    @property
    def num_cards(self) -> int:
        return self.num_suits * self.num_cards_per_suit

    @property
    def trump_suit(self) -> int:
        return self.trump % self.num_suits

    def game_string(self) -> str:
        return (
            f"oh_hell(players={self.num_players},num_suits={self.num_suits},"
            f"num_cards_per_suit={self.num_cards_per_suit},num_tricks_fixed={self.num_tricks})"
        )

    def load_game(self):
        return pyspiel.load_game(self.game_string())

    def play_sequence(self):
        """Yield (player, card, led_suit_or_None, trick_index) for every play, in order."""
        n, suits = self.num_players, self.num_suits
        trump_suit = self.trump_suit
        leader = (self.dealer + 1) % n
        player = leader
        led = None
        win_card = win_player = None
        for i, card in enumerate(self.plays):
            pos = i % n
            if pos == 0:
                led = None
                player = leader
            yield player, card, led, i // n
            suit, rank = card % suits, card // suits
            if pos == 0:
                led = suit
                win_card, win_player = card, player
            else:
                ws, wr = win_card % suits, win_card // suits
                if (suit == ws and rank > wr) or (suit == trump_suit and ws != trump_suit):
                    win_card, win_player = card, player
            if pos == n - 1:
                leader = win_player
            player = (player + 1) % n

    def played_by(self) -> list[int]:
        """Per player, the bitmask of cards they played."""
        played = [0] * self.num_players
        for player, card, _, _ in self.play_sequence():
            played[player] |= 1 << card
        return played

    def voids(self) -> list[list[bool]]:
        """Per player and suit: True when the player failed to follow that suit."""
        void = [[False] * self.num_suits for _ in range(self.num_players)]
        for player, card, led, _ in self.play_sequence():
            if led is not None and card % self.num_suits != led:
                void[player][led] = True
        return void

    def constraints(self, fixed_hands: dict[int, int] | None = None) -> DealConstraints:
        n, suits = self.num_players, self.num_suits
        self._check_shape()
        played = self.played_by()
        known = list(played)
        void = self.voids()
        for p, hand in (fixed_hands or {}).items():
            if hand & known[p] != known[p]:
                raise ValueError(f"fixed_hands: player {p}'s hand lacks cards they played")
            known[p] = hand
        all_known = 0
        for p in range(n):
            if popcount(known[p]) > self.num_tricks:
                raise ValueError(
                    f"public state: player {p} holds {popcount(known[p])} known cards, "
                    f"more than the {self.num_tricks} dealt; no history can produce it"
                )
            if known[p] & all_known:
                raise ValueError("public state: a card is known to two players")
            all_known |= known[p]
            for c in bits(known[p]):
                if void[p][c % suits] and not (played[p] >> c) & 1:
                    raise ValueError(f"fixed_hands: player {p} holds a suit they are void in")
        self._check_voids_against_plays()
        if (all_known >> self.trump) & 1:
            raise ValueError("public state: the trump card was played; no history can produce it")
        unknown_by_suit = [[] for _ in range(suits)]
        for c in range(self.num_cards):
            if c != self.trump and not (all_known >> c) & 1:
                unknown_by_suit[c % suits].append(c)
        need = [self.num_tricks - popcount(known[p]) for p in range(n)]
        pile = self.num_cards - 1 - n * self.num_tricks
        rows_void = [tuple(v) for v in void]
        if pile > 0:
            need.append(pile)
            rows_void.append((False,) * suits)
        return DealConstraints(
            num_players=n,
            num_suits=suits,
            suit_of=tuple(c % suits for c in range(self.num_cards)),
            known=tuple(known),
            need=tuple(need),
            void=tuple(rows_void),
            unknown_by_suit=tuple(tuple(c) for c in unknown_by_suit),
        )

    def _check_shape(self):
        n = self.num_players
        if len(self.bids) not in (0, n) and len(self.plays) > 0:
            raise ValueError("public state: plays recorded before all bids")
        if len(self.bids) > n or any(not 0 <= b <= self.num_tricks for b in self.bids):
            raise ValueError(f"public state: bids must be {n} values in [0, {self.num_tricks}]")
        if len(self.plays) > n * self.num_tricks:
            raise ValueError("public state: more plays than cards dealt")
        if len(set(self.plays)) != len(self.plays) or any(
            not 0 <= c < self.num_cards for c in self.plays
        ):
            raise ValueError("public state: plays must be distinct cards of the deck")

    def _check_voids_against_plays(self):
        """A player cannot play a suit after having shown void in it."""
        shown = [[False] * self.num_suits for _ in range(self.num_players)]
        for player, card, led, _ in self.play_sequence():
            if shown[player][card % self.num_suits]:
                raise ValueError(
                    f"public state: player {player} plays a suit they showed void in; "
                    "no history can produce it"
                )
            if led is not None and card % self.num_suits != led:
                shown[player][led] = True

    # ----------------------------------------------------------------- replay
    def to_state(self, hands, check: bool = True):
        """Replay a deal (initial hand bitmasks) and S through pyspiel.

        Raises ValueError when ``check`` and an action of S is illegal under the deal.
        """
        game = self.load_game()
        state = game.new_initial_state()
        state.apply_action(self.num_tricks)
        state.apply_action(self.dealer)
        per_player = [bits(h) for h in hands]
        for i in range(self.num_players * self.num_tricks):
            state.apply_action(per_player[i % self.num_players][i // self.num_players])
        state.apply_action(self.trump)
        for a in [b + self.num_cards for b in self.bids] + list(self.plays):
            if check and a not in state.legal_actions():
                raise ValueError(f"hands: action {a} of the public state is illegal")
            state.apply_action(a)
        return state

    def reproduced_by(self, hands) -> bool:
        """True when replaying the deal through pyspiel yields exactly this public state."""
        if any(popcount(h) != self.num_tricks for h in hands):
            return False
        try:
            state = self.to_state(hands)
        except (ValueError, pyspiel.SpielError):
            return False
        return OhHellPublicState.from_state(state) == self

