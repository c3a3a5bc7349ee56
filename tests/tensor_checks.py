"""Checks of observation and information-state tensors shared by the games' tests.

Every game we register must be usable by OpenSpiel's learning algorithms: fixed tensor
shapes, no leaks (a world sampled for a player gives that player the same tensors as the
true state), ``random_sim_test`` with tensors checked, and ``rl_environment`` training.
"""

from __future__ import annotations

import numpy as np
import pyspiel


def random_states(game, rng, count: int, chance, max_moves: int = 400, keep: float = 0.08):
    """Decision and terminal states along random games (``chance(state, rng)`` draws chance)."""
    out = []
    while len(out) < count:
        state = game.new_initial_state()
        moves = 0
        while not state.is_terminal() and moves < max_moves:
            if state.is_chance_node():
                state.apply_action(chance(state, rng))
                continue
            if rng.random() < keep:
                out.append(state.clone())
            legal = state.legal_actions()
            state.apply_action(legal[rng.integers(len(legal))])
            moves += 1
        if state.is_terminal():
            out.append(state.clone())
    return out[:count]


def check_declares_tensors(game):
    assert game.get_type().provides_observation_tensor
    assert game.get_type().provides_information_state_tensor
    assert game.observation_tensor_size() > 0
    assert game.information_state_tensor_size() > 0


def check_tensors_no_leak(game, states, sample_world, rng, worlds: int = 3):
    """Fixed shapes; a world drawn for a player keeps that player's tensors.

    The worlds must still differ for the other players where their hidden cards differ (the
    tensors encode private information, not only public information).
    """
    obs_size, info_size = game.observation_tensor_size(), game.information_state_tensor_size()
    differs = 0
    for state in states:
        for player in range(game.num_players()):
            obs = np.asarray(state.observation_tensor(player))
            info = np.asarray(state.information_state_tensor(player))
            assert obs.shape == (obs_size,) and info.shape == (info_size,)
            assert np.isfinite(obs).all() and np.isfinite(info).all()
            if state.is_terminal() or state.is_chance_node():
                continue
            for _ in range(worlds):
                world = sample_world(state, player, rng)
                assert world.information_state_string(player) == state.information_state_string(player)
                np.testing.assert_array_equal(world.observation_tensor(player), obs)
                np.testing.assert_array_equal(world.information_state_tensor(player), info)
                others = [q for q in range(game.num_players()) if q != player]
                if str(world) != str(state) and any(
                        world.information_state_tensor(q) != state.information_state_tensor(q)
                        for q in others):
                    differs += 1
    assert differs > 0, "no sampled world ever changed another player's tensor"


def check_q_learning_runs(game, steps: int = 300, min_infostates: int = 10):
    """rl_environment runs the game and OpenSpiel's tabular Q-learner trains ``steps`` steps.

    The Q-learner keys its table by the information-state tensor (OpenSpiel's deep learners
    need TensorFlow, JAX or PyTorch, which this project does not install).
    """
    from open_spiel.python import rl_environment
    from open_spiel.python.algorithms import tabular_qlearner

    env = rl_environment.Environment(game, seed=3)
    info_size = env.observation_spec()["info_state"][0]
    num_actions = env.action_spec()["num_actions"]
    assert info_size == game.information_state_tensor_size()
    agents = [tabular_qlearner.QLearner(player_id=p, num_actions=num_actions, step_size=0.5)
              for p in range(game.num_players())]
    time_step = env.reset()
    done = 0
    while done < steps:
        if time_step.last():
            for agent in agents:
                agent.step(time_step)
            time_step = env.reset()
            continue
        player = time_step.observations["current_player"]
        assert len(time_step.observations["info_state"][player]) == info_size
        output = agents[player].step(time_step)
        assert output.action in time_step.observations["legal_actions"][player]
        time_step = env.step([output.action])
        done += 1
    learned = sum(len(agent._q_values) for agent in agents)
    assert learned >= min_infostates, "the Q-learner saw almost no distinct information-state tensors"


def check_random_sim(game):
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)
