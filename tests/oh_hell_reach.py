"""An independent oracle for the history-filtering tests (Solinas et al., arXiv 2311.14651;
docs/papers/history_filtering.md): the log-probability that the opponents' policy plays a
deal's public actions, summed along a plain pyspiel replay of the deal rather than through
the library's reach model."""

from __future__ import annotations

import math

from infosets.filtering.policies import decision_keys
from infosets.filtering.public_state import OhHellPublicState
from infosets.filtering.scenarios import current_hand


def policy_log_reach(ps: OhHellPublicState, hands, policy) -> float:
    """log P(public actions | deal ``hands``) under ``policy``, replaying the deal through
    pyspiel (chance deals every complete deal with the same probability, so this is the log of
    the belief P(h | S_i) up to a constant). Each decision's keyed actions must be the legal
    ones."""
    replay = ps.to_state(hands)
    game_state = replay.get_game().new_initial_state()
    total = 0.0
    for action in replay.history():
        if not game_state.is_chance_node():
            player = game_state.current_player()
            actions, keys = decision_keys(OhHellPublicState.from_state(game_state), player,
                                          current_hand(game_state, player))
            assert sorted(actions) == sorted(game_state.legal_actions())
            total += math.log(policy.probs(player, keys)[actions.index(action)])
        game_state.apply_action(action)
    return total
