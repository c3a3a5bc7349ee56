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
from infosets.games import _tabletop as tt
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
    for name in PORTS:
        game = pyspiel.load_game(name)
        assert sampler_for(game) is not tt.sample_world
