"""Tensors of the newer ports (poker_tag, seven_wonders, colt_express, monopoly_deal).

Same contract as the other games (tests/tensor_checks.py): fixed shapes, no leak under the
game's own world sampler, random_sim_test with tensors, rl_environment with a learner.
"""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest

import infosets.games  # noqa: F401  (registers the games)
import tensor_checks as tc
from infosets.games import _history_worlds as hw
from infosets.games.determinizers import sampler_for

PORTS = ["poker_tag", "seven_wonders", "colt_express", "monopoly_deal"]


def _chance(state, rng):
    actions, probs = zip(*state.chance_outcomes())
    return int(rng.choice(actions, p=np.asarray(probs) / sum(probs)))


@pytest.mark.parametrize("name", PORTS)
def test_tensors_declared_fixed_and_not_leaking(name):
    game = pyspiel.load_game(name)
    tc.check_declares_tensors(game)
    rng = np.random.default_rng(17)
    states = tc.random_states(game, rng, 12, _chance, max_moves=200, keep=0.1)
    tc.check_tensors_no_leak(game, states, sampler_for(game), rng, worlds=2)


@pytest.mark.parametrize("name", PORTS)
def test_random_sim_and_rl_environment(name):
    game = pyspiel.load_game(name)
    tc.check_random_sim(game)
    tc.check_q_learning_runs(game, steps=300)


def test_sampler_is_the_ports_own():
    """``sampler_for`` hands each port the history sampler of ``_history_worlds`` (the one
    every port module exports as ``sample_world``), not ``_tabletop``'s count-vector sampler
    or the generic replay determinizer. And it behaves as that sampler is documented to: with
    one seed, the world is the game's replay of ``kernel.world_history(player, rng)`` (same
    history, draw for draw), it keeps ``player``'s information state, and its own
    ``history()`` rebuilds it (every player's information state string)."""
    import importlib

    for name in PORTS:
        game = pyspiel.load_game(name)
        sampler = sampler_for(game)
        assert sampler is hw.sample_world, name
        assert importlib.import_module(f"infosets.games.{name}.game").sample_world is hw.sample_world
        state, rng, moves = game.new_initial_state(), np.random.default_rng(5), 0
        while state.is_chance_node() or moves < 8:  # a decision after 8 random moves
            assert not state.is_terminal()
            if state.is_chance_node():
                state.apply_action(_chance(state, rng))
            else:
                state.apply_action(int(rng.choice(state.legal_actions())))
                moves += 1
        for player in range(game.num_players()):
            world = sampler(state, player, np.random.default_rng(100 + player))
            expected = state.kernel.world_history(player, np.random.default_rng(100 + player))
            assert world.history() == list(expected), (name, player)
            assert world.information_state_string(player) == state.information_state_string(player)
            rebuilt = game.state_from_history(world.history())
            assert all(rebuilt.information_state_string(p) == world.information_state_string(p)
                       for p in range(game.num_players())), (name, player)
