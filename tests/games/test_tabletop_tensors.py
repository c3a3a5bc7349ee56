"""Observation and information-state tensors of the tabletop ports (lib/infosets/games/_tabletop.py)."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest

import infosets.games  # noqa: F401  (registers the games)
import tensor_checks as tc
from infosets.games import _tabletop as tt

PORTS = ["sushi_go", "sushi_go(players=5)", "love_letter", "exploding_kittens", "virus",
         "dominion", "stratego"]


def _chance(state, rng):
    return tt.sample_chance(state.kernel, rng)


@pytest.mark.parametrize("name", PORTS)
def test_game_type_declares_tensors(name):
    tc.check_declares_tensors(pyspiel.load_game(name))


@pytest.mark.parametrize("name", PORTS)
def test_tensors_have_fixed_shape_and_no_leak(name):
    game = pyspiel.load_game(name)
    rng = np.random.default_rng(11)
    tc.check_tensors_no_leak(game, tc.random_states(game, rng, 25, _chance), tt.sample_world, rng)


@pytest.mark.parametrize("name", PORTS)
def test_random_sim_test_with_tensors(name):
    tc.check_random_sim(pyspiel.load_game(name))


@pytest.mark.parametrize("name", PORTS)
def test_rl_environment_and_q_learning(name):
    tc.check_q_learning_runs(pyspiel.load_game(name))
