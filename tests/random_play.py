"""Random play to a decision, shared by the determinizer and sampler tests."""

import numpy as np


def play_until(game, rng, moves):
    """Random play (chance by its probabilities, players uniformly) until ``moves`` player
    moves were made and a player is to move; fails if the game ends first."""
    state = game.new_initial_state()
    made = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            probs = np.array([p for _, p in outcomes])
            state.apply_action(outcomes[rng.choice(len(outcomes), p=probs / probs.sum())][0])
            continue
        if made == moves:
            return state
        legal = state.legal_actions()
        state.apply_action(legal[rng.integers(len(legal))])
        made += 1
    raise AssertionError("game ended early")
