"""The coop_matching_pennies game (infosets.games.coop_matching_pennies.game)."""

import pyspiel
import pytest
from open_spiel.python import policy as policy_lib
from open_spiel.python.algorithms import expected_game_score

import infosets.games  # noqa: F401


def test_random_sim():
    game = pyspiel.load_game("coop_matching_pennies(pass_payoff=0.6)")
    pyspiel.random_sim_test(game, num_sims=50, serialize=False, verbose=False)


def _value(game, table):
    policy = policy_lib.TabularPolicy(game)
    for key, probs in table.items():
        policy.policy_for_key(key)[:] = probs
    return expected_game_score.policy_value(game.new_initial_state(), [policy, policy])


def test_signalling_pays_one_and_passing_pays_the_pass_payoff():
    game = pyspiel.load_game("coop_matching_pennies(pass_payoff=0.6)")
    signal = {"coin:heads": [1, 0, 0], "coin:tails": [0, 1, 0],
              "alice:heads": [1, 0, 0], "alice:tails": [0, 1, 0]}
    assert _value(game, signal) == pytest.approx([1.0, 1.0])
    passing = dict(signal, **{"alice:heads": [0, 0, 1], "alice:tails": [0, 0, 1]})
    assert _value(game, passing) == pytest.approx([0.6, 0.6])
    babble = {"coin:heads": [0.5, 0.5, 0], "coin:tails": [0.5, 0.5, 0],
              "alice:heads": [1, 0, 0], "alice:tails": [1, 0, 0]}
    assert _value(game, babble) == pytest.approx([0.5, 0.5])


def test_bob_does_not_see_the_coin():
    game = pyspiel.load_game("coop_matching_pennies")
    heads = game.new_initial_state().child(0).child(1)
    tails = game.new_initial_state().child(1).child(1)
    assert heads.current_player() == 1
    assert heads.legal_actions() == [0, 1, 2]
    assert heads.information_state_string(1) == tails.information_state_string(1)
    assert heads.information_state_string(0) != tails.information_state_string(0)


def test_bad_pass_payoff():
    with pytest.raises(Exception, match="pass_payoff"):
        pyspiel.load_game("coop_matching_pennies(pass_payoff=1.5)")
