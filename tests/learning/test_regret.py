"""Regret minimisers (infosets.learning.regret), used by CFR and progressive hiding."""

import numpy as np
import pytest

from infosets.learning import regret

# Weighted rock-paper-scissors (rock beats scissors by 2, the other wins by 1): skew-symmetric,
# with the unique equilibrium (1/4, 1/2, 1/4) for both players. Not uniform on purpose: with
# plain RPS a minimiser whose decide() always returned the uniform distribution passed.
WRPS = np.array([[0, -1, 2], [1, 0, -1], [-2, 1, 0]], dtype=float)
WRPS_EQUILIBRIUM = np.array([1, 2, 1]) / 4


def test_regret_matching_follows_positive_regrets():
    rm = regret.RegretMatching(np.ones((1, 3), bool))
    np.testing.assert_allclose(rm.decide(), [[1 / 3] * 3])
    rm.observe(np.array([[3.0, 0.0, 0.0]]))  # regrets 2, -1, -1
    np.testing.assert_allclose(rm.decide(), [[1.0, 0.0, 0.0]])
    rm.observe(np.array([[0.0, 4.0, 0.0]]))  # regrets +0, +4, +0 -> 2, 3, -1
    np.testing.assert_allclose(rm.decide(), [[0.4, 0.6, 0.0]])


def test_regret_matching_plus_floors_regrets():
    rmp = regret.RegretMatching(np.ones((1, 2), bool), plus=True)
    rmp.observe(np.array([[0.0, 2.0]]))
    np.testing.assert_allclose(rmp.cumulative_regret, [[0.0, 1.0]])
    rmp.observe(np.array([[5.0, 0.0]]))
    np.testing.assert_allclose(rmp.cumulative_regret, [[5.0, 1.0]])


def test_ftrl_is_softmax_of_cumulative_rewards():
    init = np.array([[0.2, 0.3, 0.5]])
    ftrl = regret.EntropicFTRL(np.ones((1, 3), bool), init, step_size=0.5)
    ftrl.observe(np.array([[1.0, 0.0, 2.0]]))
    ftrl.observe(np.array([[1.0, 1.0, 0.0]]))
    logits = np.log(init) + 0.5 * np.array([[2.0, 1.0, 2.0]])
    np.testing.assert_allclose(ftrl.decide(), np.exp(logits) / np.exp(logits).sum())


def test_illegal_slots_get_zero_and_batches_are_independent():
    mask = np.array([[True, False, True], [True, True, True]])
    rm = regret.make_minimizer("rm", mask)
    rm.observe(np.array([[0.0, 10.0, 1.0], [1.0, 0.0, 0.0]]))
    p = rm.decide()
    assert p[0, 1] == 0.0 and p[0, 2] == 1.0
    np.testing.assert_allclose(p[1], [1.0, 0.0, 0.0])


@pytest.mark.parametrize("name", ["rm", "rm+", "ftrl"])
def test_self_play_average_approaches_rps_equilibrium(name):
    mask = np.ones((2, 3), bool)
    rng = np.random.default_rng(0)
    learner = regret.make_minimizer(name, mask, regret.random_policy(mask, rng), step_size=0.1)
    total = np.zeros((2, 3))
    for _ in range(3000):
        p = learner.decide()
        total += p
        learner.observe(np.stack([WRPS @ p[1], WRPS @ p[0]]))
    # observed errors 0.013 (rm), 0.008 (rm+), 0.028 (ftrl); uniform play is 0.167 away
    np.testing.assert_allclose(total / 3000, np.broadcast_to(WRPS_EQUILIBRIUM, (2, 3)), atol=0.04)


def test_bad_inputs_raise_one_line():
    with pytest.raises(ValueError, match=r"^step_size: must be > 0"):
        regret.make_minimizer("ftrl", np.ones((1, 2), bool), step_size=0.0)
    with pytest.raises(ValueError, match=r"^minimizer: 'hedge'"):
        regret.make_minimizer("hedge", np.ones((1, 2), bool))
    with pytest.raises(ValueError, match=r"^mask:"):
        regret.RegretMatching(np.zeros((1, 2), bool))
