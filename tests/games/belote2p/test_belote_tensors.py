"""Observation and information-state tensors of two-player Belote (games/belote2p/game.py).

The deal phase, the first tricks and the end game are all covered: a world sampled for a
player (``belote2p.game.sample_world``) keeps that player's tensors at every decision.
"""

from __future__ import annotations

import numpy as np
import pyspiel

import infosets.games  # noqa: F401  (registers the games)
import tensor_checks as tc
from infosets.games.belote2p.game import sample_world


def _chance(state, rng):
    actions, probs = zip(*state.chance_outcomes())
    return int(rng.choice(actions, p=np.asarray(probs) / sum(probs)))


def test_game_type_declares_tensors():
    game = pyspiel.load_game("belote2p")
    tc.check_declares_tensors(game)
    assert game.observation_tensor_shape() == [2 + 1 + 32 + 64 + 17 + 32 + 2 + 2]
    assert game.information_state_tensor_shape() == [2 + 1 + 32 + 64 + 2 + 32 * 66]


def _one_hot(cards):
    vector = np.zeros(32)
    vector[list(cards)] = 1
    return vector


def test_dealing_tensor_shows_only_own_hand_and_tops():
    """Mid-deal, after 20 of the 32 chance actions (the action at step i is the card of deal
    slot i: slots 0-5 are player 0's hand, 6-10 its pile tops, 11-15 the covered cards under
    them, 16-19 the first four of player 1's hand), both tensors of each player hold exactly
    its own dealt hand cards in ``hand`` (entries 3-34) and player 0's five tops in row 0 of
    ``tops``/``up`` (35-66), with row 1 (67-98) and everything after it (tricks, plays) still
    empty: no covered card and no card of the other hand is set anywhere. Card counts alone
    (the former check) also pass when the tops are read from the covered slots."""
    game = pyspiel.load_game("belote2p")
    rng = np.random.default_rng(5)
    state = game.new_initial_state()
    for _ in range(20):
        state.apply_action(_chance(state, rng))
    dealt = state.history()
    for player, hand in ((0, dealt[0:6]), (1, dealt[16:20])):
        for kind, tensor in (("infostate", state.information_state_tensor(player)),
                             ("observation", state.observation_tensor(player))):
            t = np.asarray(tensor)
            assert t[:3].tolist() == [player == 0, player == 1, 1], (player, kind)
            np.testing.assert_array_equal(t[3:35], _one_hot(hand), err_msg=f"{kind} hand of {player}")
            np.testing.assert_array_equal(t[35:67], _one_hot(dealt[6:11]), err_msg=f"{kind} tops of {player}")
            assert not t[67:].any(), (player, kind)


def test_tensors_no_leak_through_the_game():
    game = pyspiel.load_game("belote2p")
    rng = np.random.default_rng(13)
    states = tc.random_states(game, rng, 30, _chance, keep=0.15)
    tc.check_tensors_no_leak(game, states, sample_world, rng)


def test_random_sim_test_with_tensors():
    tc.check_random_sim(pyspiel.load_game("belote2p"))


def test_rl_environment_and_q_learning():
    tc.check_q_learning_runs(pyspiel.load_game("belote2p"))


def test_every_registered_game_of_ours_runs_in_rl_environment():
    """Every game this package registers (not only the ports) trains in rl_environment."""
    ours = [t.short_name for t in pyspiel.registered_games()
            if t.short_name in ("trick_game", "coop_matching_pennies", "belote2p", "sushi_go",
                                "love_letter", "exploding_kittens", "virus", "dominion",
                                "stratego")]
    assert len(ours) == 9
    for name, infostates in (("trick_game", 10), ("coop_matching_pennies", 2)):
        game = pyspiel.load_game(name)
        tc.check_declares_tensors(game)
        tc.check_q_learning_runs(game, steps=100, min_infostates=infostates)
