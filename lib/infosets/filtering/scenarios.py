"""Random ``oh_hell`` public states reached under a joint policy (the experiments' inputs).

Solinas, Rebstock, Sturtevant, Buro, "History Filtering in Imperfect Information Games"
(arXiv 2311.14651), section 5.4: public states of controlled size come from the deck size,
the number of cards dealt and how far play has gone. A game is played in OpenSpiel's
``oh_hell`` with uniform chance and the joint policy, and stopped after ``cards_played``
plays.
"""

from __future__ import annotations

import numpy as np
import pyspiel

from infosets.core.rng import as_generator
from infosets.filtering.policies import OhHellSpec, SoftmaxQPolicy, decision_keys
from infosets.filtering.public_state import OhHellPublicState


def game_for(spec: OhHellSpec):
    return pyspiel.load_game(
        f"oh_hell(players={spec.num_players},num_suits={spec.num_suits},"
        f"num_cards_per_suit={spec.num_cards_per_suit},num_tricks_fixed={spec.num_tricks})"
    )


def current_hand(state, player: int) -> int:
    """The player's current hand (bitmask) in a pyspiel ``oh_hell`` state."""
    ps = OhHellPublicState.from_state(state)
    history = state.history()
    n = ps.num_players
    hand = 0
    for i, card in enumerate(history[2:2 + n * ps.num_tricks]):
        if i % n == player:
            hand |= 1 << card
    for p, card, _, _ in ps.play_sequence():
        if p == player:
            hand &= ~(1 << card)
    return hand


def policy_action(state, policy: SoftmaxQPolicy, rng: np.random.Generator) -> int:
    """Sample the joint policy's action at a pyspiel ``oh_hell`` decision node."""
    player = state.current_player()
    ps = OhHellPublicState.from_state(state)
    actions, keys = decision_keys(ps, player, current_hand(state, player))
    return actions[rng.choice(len(actions), p=np.asarray(policy.probs(player, keys)))]


def sample_public_state(spec: OhHellSpec, policy: SoftmaxQPolicy, cards_played: int, rng):
    """Play under the policy and stop after ``cards_played`` plays.

    Returns:
      (public state, the true pyspiel state).
    """
    if not 0 <= cards_played <= spec.num_players * spec.num_tricks:
        raise ValueError(
            f"cards_played: {cards_played} must be in [0, {spec.num_players * spec.num_tricks}]"
        )
    rng = as_generator(rng)
    state = game_for(spec).new_initial_state()
    target = 2 + spec.num_players * spec.num_tricks + 1 + spec.num_players + cards_played
    while len(state.history()) < target:
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            actions, probs = zip(*outcomes)
            state.apply_action(actions[rng.choice(len(actions), p=np.asarray(probs))])
        else:
            state.apply_action(policy_action(state, policy, rng))
    return OhHellPublicState.from_state(state), state


def true_hands(state) -> tuple[int, ...]:
    """Initial hand bitmasks of every player in a pyspiel ``oh_hell`` state."""
    ps = OhHellPublicState.from_state(state)
    n = ps.num_players
    hands = [0] * n
    for i, card in enumerate(state.history()[2:2 + n * ps.num_tricks]):
        hands[i % n] |= 1 << card
    return tuple(hands)

