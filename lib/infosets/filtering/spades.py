"""OpenSpiel's ``spades`` on the history-filtering machinery: a second trick-taking game.

Solinas, Rebstock, Sturtevant, Buro, "History Filtering in Imperfect Information Games:
Algorithms and Complexity" (arXiv 2311.14651; docs/papers/history_filtering.md), section 5.1:
a public observation sequence says which cards each player must have held (the cards they
played) and which suits they cannot hold (a suit they failed to follow). ``oh_hell``
(``public_state.OhHellPublicState``) is the paper's game; this module is the worked example of
plugging another game into the same ``DealConstraints``, ``AssignmentTable`` (exact uniform
deals) and ``RingSwapChain`` (Metropolis over deals), through ``worlds.DealWorlds``, so that
its worlds feed our IS-MCTS and PI-MCTS through their ``sampler`` argument.

Spades in OpenSpiel 2.0.2 (``games/spades/spades.cc``): 52 deal actions give card
``history[i]`` to player ``i % 4``; four bids follow (actions 52 + bid), then 52 plays, card =
suit * 13 + rank with suits clubs, diamonds, hearts, spades. A player must follow the led
suit. Spades are never "broken" in this version (its flag is never set), so a player leads a
spade only when holding nothing else: a spade lead makes its leader void in the three other
suits. The play sequence is read by replaying the history on a fresh state, so who played
each card comes from OpenSpiel's own rules, not from a copy of them.

A sampled world is a real state: the true history with the unseen deal positions refilled.
The acting player's own deal positions keep their cards; every other position gets a card of
the drawn hands, in a random order (the order of the deal changes no observation).
"""

from __future__ import annotations

from dataclasses import dataclass

import pyspiel

from infosets.core.bitmask import set_bits
from infosets.core.checks import check_callable
from infosets.filtering.public_state import DealConstraints, TrickTakingPublicState, popcount
from infosets.filtering.worlds import DealWorlds

NUM_PLAYERS = 4
NUM_CARDS = 52
CARDS_PER_SUIT = 13
NUM_SUITS = 4
SPADES = 3
HAND_SIZE = NUM_CARDS // NUM_PLAYERS


def suit_of(card: int) -> int:
    return card // CARDS_PER_SUIT


@dataclass(frozen=True)
class SpadesPublicState(TrickTakingPublicState):
    """What every player of a ``spades`` game has seen after the deal.

    Attributes:
      actions: the history after the deal (bids, then plays), in order.
      plays: (player, card) of every card played, in order.
      void: per player, per suit, True when the player is known to hold none of that suit.
    """

    actions: tuple[int, ...]
    plays: tuple[tuple[int, int], ...]
    void: tuple[tuple[bool, ...], ...]

    @classmethod
    def from_state(cls, state) -> SpadesPublicState:
        """The public part of a pyspiel ``spades`` state past the deal."""
        game = state.get_game()
        if game.get_type().short_name != "spades":
            raise ValueError(f"state: a spades state is needed, got {game.get_type().short_name}")
        history = state.history()
        if len(history) < NUM_CARDS:
            raise ValueError("state: still dealing; the public state starts after the deal")
        replay = game.new_initial_state()
        for action in history[:NUM_CARDS]:
            replay.apply_action(action)
        plays, void, trick = [], [[False] * NUM_SUITS for _ in range(NUM_PLAYERS)], []
        for action in history[NUM_CARDS:]:
            if action < NUM_CARDS:
                player, suit = replay.current_player(), suit_of(action)
                if trick and suit != suit_of(trick[0]):
                    void[player][suit_of(trick[0])] = True  # failed to follow
                elif not trick and suit == SPADES:
                    for other in range(SPADES):  # led a spade: held only spades
                        void[player][other] = True
                plays.append((player, action))
                trick = [] if len(trick) == NUM_PLAYERS - 1 else trick + [action]
            replay.apply_action(action)
        return cls(tuple(history[NUM_CARDS:]), tuple(plays), tuple(map(tuple, void)))

    def played_by(self) -> list[int]:
        """Per player, the bitmask of cards they played."""
        played = [0] * NUM_PLAYERS
        for player, card in self.plays:
            played[player] |= 1 << card
        return played

    def constraints(self, fixed_hands: dict[int, int] | None = None) -> DealConstraints:
        known = self.played_by()
        for player, hand in (fixed_hands or {}).items():
            if hand & known[player] != known[player]:
                raise ValueError(f"fixed_hands: player {player}'s hand lacks cards they played")
            known[player] = hand
        all_known = 0
        for hand in known:
            if hand & all_known:
                raise ValueError("fixed_hands: a card is known to two players")
            all_known |= hand
        unknown_by_suit = tuple(
            tuple(c for c in range(s * CARDS_PER_SUIT, (s + 1) * CARDS_PER_SUIT)
                  if not (all_known >> c) & 1) for s in range(NUM_SUITS))
        return DealConstraints(
            num_players=NUM_PLAYERS, num_suits=NUM_SUITS,
            suit_of=tuple(suit_of(c) for c in range(NUM_CARDS)), known=tuple(known),
            need=tuple(HAND_SIZE - popcount(hand) for hand in known), void=self.void,
            unknown_by_suit=unknown_by_suit)


def dealt_hands(state) -> tuple[int, ...]:
    """Each player's initial hand (bitmask) in a spades state past the deal."""
    hands = [0] * NUM_PLAYERS
    for i, card in enumerate(state.history()[:NUM_CARDS]):
        hands[i % NUM_PLAYERS] |= 1 << card
    return tuple(hands)


def world_from_hands(state, player: int, hands, rand) -> pyspiel.State:
    """The state with ``hands`` dealt: ``player``'s deal positions keep their cards, the
    others take the drawn hands' cards in a random order, then the public actions replay."""
    history = state.history()
    cards = [list(set_bits(hand)) for hand in hands]
    for p, hand in enumerate(cards):
        if p != player:
            rand.shuffle(hand)
    world = state.get_game().new_initial_state()
    for i in range(NUM_CARDS):
        holder = i % NUM_PLAYERS
        world.apply_action(history[i] if holder == player else cards[holder].pop())
    for action in history[NUM_CARDS:]:
        world.apply_action(action)
    return world


class SpadesWorlds(DealWorlds):
    """A sampler ``sampler(state, player, rng) -> world`` for spades, for ``ISMCTSBot`` and
    ``PIMCTSBot`` (their ``sampler`` argument; ``engine="python"``): ``worlds.DealWorlds``
    with this module's public state and worlds.

    ``mode="uniform"`` draws exactly uniformly among the deals consistent with the player's
    information state (``AssignmentTable``). ``mode="mcmc"`` runs a RingSwap chain whose
    target is ``exp(log_reach(hands))``: an opponent model's reach probability of the public
    actions given a deal (uniform by default), advanced ``transitions`` steps per world after
    ``burn_in`` steps at a new information state, as the paper's IS-MCTS does.

    Draws come only from the ``rng`` of each call, so one seed drives the search and its
    worlds.
    """

    def __init__(self, mode: str = "uniform", log_reach=None, transitions: int = 5,
                 burn_in: int = 20):
        super().__init__(mode, transitions, burn_in)
        self._log_reach = (check_callable(log_reach, "log_reach") if log_reach is not None
                           else (lambda hands: 0.0))

    def public_state(self, state) -> SpadesPublicState:
        return SpadesPublicState.from_state(state)

    def own_hand(self, state, player: int) -> int:
        return dealt_hands(state)[player]

    def log_reach(self, public: SpadesPublicState):
        return self._log_reach

    def world(self, state, player: int, public: SpadesPublicState, hands, rand):
        return world_from_hands(state, player, hands, rand)
