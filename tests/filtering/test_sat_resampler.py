"""The 3-FSAT demo and the IS-MCTS resampler (infosets.filtering)."""

import collections

import numpy as np
import pytest
from scipy.stats import chisquare

from infosets.filtering import sat_demo
from infosets.filtering.enumerate import iter_histories
from infosets.filtering.policies import OhHellSpec, SoftmaxQPolicy, train_q_tables
from infosets.filtering.public_state import OhHellPublicState
from infosets.filtering.resampler import InfostateSampler
from infosets.filtering.scenarios import sample_public_state, true_hands


def test_fsat_construction_solves_the_formula():
    for seed in range(5):
        hidden, clauses = sat_demo.public_state(8, 30, seed)
        assert sat_demo.is_consistent(hidden, clauses)
        built = sat_demo.construct_brute_force(8, clauses)
        assert built.assignment is not None and sat_demo.is_consistent(built.assignment, clauses)
        brute = sum(sat_demo.is_consistent(a, clauses) for a in range(2**8))
        assert sat_demo.count_consistent(8, clauses) == brute >= 1
        assert built.checked == built.assignment + 1


def test_fsat_unsatisfiable_public_state_has_no_history():
    clauses = [((0, s0), (1, s1), (2, s2)) for s0 in (True, False) for s1 in (True, False)
               for s2 in (True, False)]
    assert sat_demo.construct_brute_force(3, clauses).assignment is None
    assert sat_demo.count_consistent(3, clauses) == 0
    with pytest.raises(ValueError, match="m: 2"):
        sat_demo.public_state(2, 1, 0)


SPEC = OhHellSpec(3, 2, 4, 2)


@pytest.fixture(scope="module")
def setting():
    policy = SoftmaxQPolicy(train_q_tables(SPEC, 500, 0), 0.2)
    ps, state = sample_public_state(SPEC, policy, 1, 2)
    return policy, ps, state


@pytest.mark.parametrize("mode", ["mcmc", "uniform"])
def test_resampled_worlds_keep_the_information_state(setting, mode):
    policy, ps, state = setting
    player = state.current_player()
    sampler = InfostateSampler(policy, mode, transitions=2, burn_in=5)
    rng = np.random.default_rng(0)
    for _ in range(30):
        world = sampler(state, player, rng)
        assert world.information_state_string(player) == state.information_state_string(player)
        assert world.history()[-len(ps.plays) - 3:] == state.history()[-len(ps.plays) - 3:]


def test_uniform_resampler_hidden_part_is_uniform(setting):
    policy, ps, state = setting
    player = state.current_player()
    own = true_hands(state)[player]
    consistent = list(iter_histories(ps.constraints(fixed_hands={player: own})))
    sampler = InfostateSampler(policy, "uniform")
    n = 40 * len(consistent)
    rng = np.random.default_rng(1)
    counts = collections.Counter(sampler.sample_hands(state, player, rng) for _ in range(n))
    assert set(counts) <= set(consistent) and len(consistent) > 1
    assert chisquare([counts[h] for h in consistent]).pvalue > 1e-3


def test_resampler_rejects_bad_arguments(setting):
    policy, _, _ = setting
    with pytest.raises(ValueError, match="mode"):
        InfostateSampler(policy, "exact")
    with pytest.raises(ValueError, match="burn_in: -1"):
        InfostateSampler(policy, "mcmc", burn_in=-1)
    assert isinstance(OhHellPublicState.from_state(setting[2]), OhHellPublicState)
    finished = setting[2].clone()
    while not finished.is_terminal():
        finished.apply_action(finished.legal_actions()[0])
    with pytest.raises(ValueError, match="state: sample worlds at a player's decision"):
        InfostateSampler(policy, "uniform")(finished, 0, np.random.default_rng(0))
    assert np.isfinite(policy.temperature)


@pytest.mark.parametrize("mode", ["mcmc", "uniform"])
def test_resampler_draws_from_the_rng_it_is_handed(setting, mode):
    """Regression: the sampler had its own default seed (0) and ignored the search's rng, so
    every seed of the search gave the same worlds."""
    policy, _, state = setting
    player = state.current_player()

    def worlds(seed):
        sampler = InfostateSampler(policy, mode, transitions=2, burn_in=5)
        rng = np.random.default_rng(seed)
        return [sampler.sample_hands(state, player, rng) for _ in range(12)]

    assert worlds(1) == worlds(1)
    assert worlds(1) != worlds(2)
    with pytest.raises(ValueError, match="rng"):
        InfostateSampler(policy, mode).sample_hands(state, player, None)
