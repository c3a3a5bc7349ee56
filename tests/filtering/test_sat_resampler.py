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
from oh_hell_reach import policy_log_reach


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
    truth = true_hands(state)
    dealt = set()
    for _ in range(30):
        world = sampler(state, player, rng)
        assert world.information_state_string(player) == state.information_state_string(player)
        assert world.history()[-len(ps.plays) - 3:] == state.history()[-len(ps.plays) - 3:]
        dealt.add(true_hands(world))
    # and the worlds are resampled: a sampler that handed back the true deal (or one deal
    # over and over) kept the information state too. 12 deals are consistent here, the
    # likeliest has probability 0.134 (mcmc) or 1/12 (uniform): 30 draws see several.
    assert len(dealt) >= 3 and dealt != {truth}


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


def test_mcmc_resampler_follows_the_opponents_policy(setting):
    """mode="mcmc" draws the hidden deal from the player's belief P(h | S_i) under the
    opponents' policy (Solinas et al., arXiv 2311.14651, sections 2.3 and 6), not uniformly:
    its frequencies over the 12 consistent deals match the belief computed here by replaying
    each deal through pyspiel under the policy. The belief is tilted (0.036 to 0.134; total
    variation 0.17 from uniform), so a policy-blind chain fails: chi-square p < 1e-30 on 50
    seeds. With 5 transitions per draw the draws are close to independent: the real sampler's
    p-value fell below 0.01 on 2 of 200 seeds and below 1e-3 on none."""
    policy, ps, state = setting
    player = state.current_player()
    own = true_hands(state)[player]
    consistent = list(iter_histories(ps.constraints(fixed_hands={player: own})))
    weights = np.exp([policy_log_reach(ps, h, policy) for h in consistent])
    belief = weights / weights.sum()
    assert len(consistent) == 12 and 0.5 * np.abs(belief - 1 / 12).sum() > 0.15
    sampler = InfostateSampler(policy, "mcmc", transitions=5, burn_in=5)
    rng = np.random.default_rng(0)
    n = 1200
    counts = collections.Counter(sampler.sample_hands(state, player, rng) for _ in range(n))
    assert set(counts) <= set(consistent)
    assert chisquare([counts[h] for h in consistent], belief * n).pvalue > 1e-3


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
    with pytest.raises(ValueError, match="^state: worlds are sampled at a decision state, this one is term"):
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
