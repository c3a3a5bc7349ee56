"""Exact Spades worlds: uniform deals consistent with one player's view.

Determinization for PI-MCTS and IS-MCTS on OpenSpiel's ``spades`` (Ravichandran, Goodman and
Lucas, docs/papers/pimcts_aggregation.md), served by ``determinizers.sampler_for``. A world is
drawn uniformly among the deals that give ``player`` its view, which is the chance-weighted
posterior: every deal order has the same chance probability and the bids and plays are public,
so no opponent model enters. (``filtering.spades.SpadesWorlds`` draws the same uniform deals
from the history-filtering machinery, and adds an opponent model through a Markov chain.)

What the player knows, read from the history by OpenSpiel 2.0.2's rules (``spades.cc``): 52
deal actions give card ``history[i]`` to player ``i % 4``; four bids follow, then the plays
(card = suit * 13 + rank; clubs, diamonds, hearts, spades). A player who does not follow the
led suit holds none of it. Spades are never "broken" in this version, so a player leads a
spade only when holding nothing else: a spade lead makes its leader void in the three other
suits. Nothing else limits a hand.

The unseen cards go to the opponents' current hands uniformly under those voids by the exact
counts of ``trick_deals.TrickDeal`` (shared with oh_hell). Spades has no information-state
string in OpenSpiel, so each world's replay is checked against the player's
action-observation history (``history_replay.infostate_key``), on top of the legality of every
play; a refused world is drawn again (``refused`` counts them). This replaces the generic
replay chain, which mixed slowly late in a deal (docs/paper_scale.md).
"""

from __future__ import annotations

import pyspiel

from infosets.games.checked_worlds import CheckedWorlds
from infosets.games.history_replay import infostate_key
from infosets.games.trick_deals import TrickDeal

NUM_PLAYERS = 4
NUM_CARDS = 52
CARDS_PER_SUIT = 13
NUM_SUITS = 4
SPADES = 3
FIRST_PLAY = NUM_CARDS + NUM_PLAYERS  # after the deal and the four bids


def suit_of(card: int) -> int:
    return card // CARDS_PER_SUIT


def read_plan(state: pyspiel.State, player: int) -> TrickDeal:
    """The deal ``player``'s view allows in a ``spades`` state past the deal."""
    history = state.history()
    if len(history) < NUM_CARDS:
        raise ValueError("state: still dealing; spades worlds start after the deal")
    plays = [(item.player, item.action) for item in state.full_history()[FIRST_PLAY:]]
    void = [set() for _ in range(NUM_PLAYERS)]
    led = None
    for i, (q, card) in enumerate(plays):
        if i % NUM_PLAYERS == 0:
            led = suit_of(card)
            if led == SPADES:  # led a spade: held nothing else
                void[q].update(s for s in range(NUM_SUITS) if s != SPADES)
        elif suit_of(card) != led:
            void[q].add(led)
    return TrickDeal(player=player, players=NUM_PLAYERS, prefix=[], deal=history[:NUM_CARDS],
                     suffix=history[NUM_CARDS:], first_play=FIRST_PLAY, plays=plays, shown=[],
                     void=void, num_cards=NUM_CARDS, num_suits=NUM_SUITS, suit_of=suit_of,
                     game="spades")


class SpadesWorlds(CheckedWorlds):
    """``sampler(state, player, rng)`` for OpenSpiel's ``spades``: exact, checked worlds."""

    GAME = "spades"

    def new_plan(self, state: pyspiel.State, player: int) -> TrickDeal:
        return read_plan(state, player)

    def first_play(self, plan: TrickDeal, history: list[int]) -> int:
        return plan.first_play

    def view(self, state: pyspiel.State, player: int) -> str:
        return infostate_key(state, player)
