"""Exact Oh Hell worlds: uniform deals consistent with one player's view.

Determinization for PI-MCTS and IS-MCTS on OpenSpiel's ``oh_hell`` (Ravichandran, Goodman and
Lucas, docs/papers/pimcts_aggregation.md). A world is drawn uniformly among the deals that
give ``player`` its information state, which is the chance-weighted posterior: every deal
order has the same chance probability, and the bids and cards the opponents played are public,
so no opponent model enters. ``OhHellWorlds`` replaces OpenSpiel's resampler, which
reshuffles only the cards truly in the opponents' hands, so a card never dealt never reaches
an opponent in a world (docs/paper_scale.md: the player learns which unseen cards are out of
play).

What the player knows, read from the history by OpenSpiel's rules (``oh_hell.cc``): the
number of tricks and the dealer (public chance), its own hand, the trump card (the card dealt
after the hands), every bid and every card played and by whom. A player who does not follow
the led suit holds none of it: its current hand lies in the other suits. Nothing else limits a
hand (no rule on leads or discards).

The unseen cards (neither the player's, nor the trump, nor played) go to the opponents'
current hands and to the undealt rest uniformly under those voids and the hand sizes, by the
exact counts of ``trick_deals.TrickDeal`` (shared with spades). Each world is replayed with
legality checks on the plays and its information-state string compared, and redrawn if
refused; the counts make that a guard, not a filter (``refused`` counts it).
"""

from __future__ import annotations

import pyspiel

from infosets.games.checked_worlds import CheckedWorlds
from infosets.games.trick_deals import TrickDeal

PRE_DEAL = 2  # chance steps before the deal: the number of tricks, the dealer


def read_plan(state: pyspiel.State, player: int, num_suits: int, num_cards: int) -> TrickDeal:
    """The deal ``player``'s information state allows in an ``oh_hell`` state."""
    history = state.history()
    full = state.full_history()
    players = state.num_players()
    tricks = history[0]
    dealt = players * tricks
    trump = history[PRE_DEAL + dealt]
    plays_start = PRE_DEAL + dealt + 1 + players  # after the trump card and the bids
    plays = [(item.player, item.action) for item in full[plays_start:]]
    void = [set() for _ in range(players)]
    led = None
    for i, (q, card) in enumerate(plays):
        if i % players == 0:
            led = card % num_suits
        elif card % num_suits != led:
            void[q].add(led)
    return TrickDeal(player=player, players=players, prefix=history[:PRE_DEAL],
                     deal=history[PRE_DEAL:PRE_DEAL + dealt],
                     suffix=history[PRE_DEAL + dealt:], first_play=plays_start, plays=plays,
                     shown=[trump], void=void, num_cards=num_cards, num_suits=num_suits,
                     suit_of=lambda card: card % num_suits, game="oh_hell")


class OhHellWorlds(CheckedWorlds):
    """``sampler(state, player, rng)`` for OpenSpiel's ``oh_hell``: exact, checked worlds."""

    GAME = "oh_hell"

    def __init__(self, game: pyspiel.Game, max_tries: int = 1000, cache_size: int = 16):
        super().__init__(game, max_tries, cache_size)
        params = game.get_parameters()
        self.num_suits = int(params.get("num_suits", 4))
        self.num_cards = self.num_suits * int(params.get("num_cards_per_suit", 13))

    def new_plan(self, state: pyspiel.State, player: int) -> TrickDeal:
        return read_plan(state, player, self.num_suits, self.num_cards)

    def first_play(self, plan: TrickDeal, history: list[int]) -> int:
        return plan.first_play
