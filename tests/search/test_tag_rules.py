"""TAG's tree policies, backups, MAST and rollout termination (``infosets.search.tag_rules``,
issue 56): hand-worked cases from TAG's formulas, bad inputs refused in one line, and the
numba twins (``infosets.search.tag_rules_nb``) equal to the reference on seeded random inputs,
draw for draw on the same PCG32 stream."""

from __future__ import annotations

import math

import numpy as np
import pytest

from infosets.core.pcg32 import PCG32
from infosets.search import tag_rules as tr
from infosets.search import tag_rules_nb as tn


def _stats(gen, m, players=1):
    """Random but consistent node statistics over ``m`` actions: visits (some zero),
    rewards in [-1, 3] per visit, availabilities at least the visits."""
    n = gen.integers(0, 6, size=m).astype(np.float64)
    n[gen.random(m) < 0.3] = 0
    w_all = np.zeros((m, players))
    q = np.zeros(m)
    for i in range(m):
        for _ in range(int(n[i])):
            r = gen.uniform(-1, 3, size=players)
            w_all[i] += r
            q[i] += r[0] * r[0]
    avail = n + gen.integers(0, 5, size=m)
    avail[avail == 0] = gen.integers(0, 3)
    return n, w_all, q, avail


# ---------------------------------------------------------------- UCB-Tuned


def test_ucb_tuned_hand_worked():
    """Rewards seen in [0, 1] (range 1). a0: rewards 1 and 0 (n 2, w 1, q 1), N 4: mean 0.5,
    mean square 0.5, var 0.25, ln 4 = 1.386294, min(1/4, 0.25 + sqrt(2 ln 4 / 2) = 1.427)
    = 0.25, so 0.5 + sqrt(1.386294 / 2 * 0.25) = 0.5 + 0.416277 = 0.916277. a1 unvisited,
    N 4, FPU 0.5: max(0.5, 1 * sqrt 4) = 2. a2: n 1, N 1: ln 1 = 0, no exploration: 0.5.

    Rewards in [-1, 3] (range 4), K 2, one action with rewards 3, -1, 1, 1 (w 4, q 12), N 10:
    normalised mean (1 + 1) / 4 = 0.5, mean square (3 + 1 + 2) / 16 = 0.375 (the normalised
    rewards 1, 0, .5, .5), var 0.125, min(1/4, 0.125 + sqrt(2 ln 10 / 4) = 1.198) = 0.25,
    score 0.5 + 2 sqrt(2.302585 / 4 * 0.25) = 0.5 + 0.758714 = 1.258714. Unnormalised:
    mean 1, V0 = sqrt(4 / 2) = 1.414214, var 3 - 1 = 2, min = 1.414214, score
    1 + 2 sqrt(2.302585 / 4 * 1.414214) = 1 + 1.804535 = 2.804535."""
    s = tr.ucb_tuned_scores([2, 0, 1], [1.0, 0.0, 0.5], [1.0, 0.0, 0.25], [4, 4, 1], 0.0, 1.0,
                            k=1.0, fpu=0.5)
    np.testing.assert_allclose(s, [0.916277, 2.0, 0.5], atol=1e-6)
    assert tr.ucb_tuned_scores([0], [0.0], [0.0], [4], math.inf, -math.inf)[0] == 1e6  # TAG's FPU
    s = tr.ucb_tuned_scores([4], [4.0], [12.0], [10], -1.0, 3.0, k=2.0)
    np.testing.assert_allclose(s, [1.258714], atol=1e-6)
    s = tr.ucb_tuned_scores([4], [4.0], [12.0], [10], -1.0, 3.0, k=2.0, normalise_rewards=False)
    np.testing.assert_allclose(s, [2.804535], atol=1e-6)


def test_argmax_tiebreak_is_uniform_among_ties_and_draws_only_on_ties():
    rng = PCG32(3)
    before = rng.state
    assert tr.argmax_tiebreak([0.1, 0.7, 0.3], rng) == 1
    assert rng.state == before
    picks = [tr.argmax_tiebreak([0.7, 0.2, 0.7, 0.7], rng) for _ in range(3000)]
    counts = np.bincount(picks, minlength=4)
    assert counts[1] == 0 and all(900 < c < 1100 for c in counts[[0, 2, 3]])


@pytest.mark.parametrize("call", [
    lambda: tr.ucb_tuned_scores([1, 2], [0.5], [0.3], [1, 2], 0.0, 1.0),
    lambda: tr.ucb_tuned_scores([3], [1.0], [1.0], [2], 0.0, 1.0),
    lambda: tr.ucb_tuned_scores([1], [1.0], [-1.0], [2], 0.0, 1.0),
    lambda: tr.ucb_tuned_scores([1], [1.0], [1.0], [2], 1.0, 0.0),
    lambda: tr.ucb_tuned_scores([1], [1.0], [1.0], [2], 0.0, 1.0, k=-1.0),
    lambda: tr.ucb_tuned_scores([1.5], [1.0], [1.0], [2], 0.0, 1.0),
    lambda: tr.argmax_tiebreak([], PCG32(0)),
    lambda: tr.update_reward_bounds(0.0, 1.0, [math.nan]),
])
def test_ucb_tuned_bad_inputs(call):
    with pytest.raises(ValueError) as info:
        call()
    assert "\n" not in str(info.value)


def test_ucb_tuned_twin():
    gen = np.random.default_rng(11)
    for trial in range(200):
        m = int(gen.integers(1, 8))
        n, w_all, q, avail = _stats(gen, m)
        w = w_all[:, 0]
        low, high = (-1.0, 3.0) if trial % 3 else (0.5, 0.5)
        k, fpu, norm = float(gen.uniform(0, 2)), float(gen.choice([0.5, 1e6])), bool(trial % 2)
        ref = tr.ucb_tuned_scores(n, w, q, avail, low, high, k, fpu, norm)
        out = np.empty(m)
        tn.nb_ucb_tuned_scores(n, w, q, avail, m, low, high, k, fpu, norm, out)
        np.testing.assert_array_equal(out, ref)
        seed = int(gen.integers(0, 2**31))
        a, b = PCG32(seed), PCG32(seed)
        arr = b.to_array()
        scores = np.round(ref, 1)  # ties on purpose
        assert tr.argmax_tiebreak(scores, a) == tn.nb_argmax_tiebreak(scores, m, arr)
        b.load(arr)
        assert a.state == b.state
    res = gen.uniform(-2, 2, size=4)
    assert tr.update_reward_bounds(0.0, 0.5, res) == tn.nb_update_reward_bounds(0.0, 0.5, res)


# ---------------------------------------------------------------- NoAveragingRM and EXP3


def test_rm_regrets_hand_worked():
    """a0: n 3, w 2.4 (mean 0.8); a1: n 1, w 0.2 (mean 0.2); a2 unvisited. Node: 4 visits,
    reward sum 2.6, value 0.65. Regrets: a0 4 (0.8 - 0.65) = 0.6; a1 4 (0.2 - 0.65) = -1.8,
    so 0; a2 0 - 2.6 + FPU 0.5 = -2.1, so 0 (with TAG's FPU 1e6: 1e6 - 2.6). The choice
    without exploration is then a0 whatever the draw; all regrets 0 is a uniform choice."""
    np.testing.assert_allclose(tr.rm_regrets([3, 1, 0], [2.4, 0.2, 0.0], 4, 2.6, fpu=0.5),
                               [0.6, 0.0, 0.0], atol=1e-12)
    np.testing.assert_allclose(tr.rm_regrets([3, 1, 0], [2.4, 0.2, 0.0], 4, 2.6),
                               [0.6, 0.0, 1e6 - 2.6], atol=1e-9)
    rng = PCG32(5)
    assert {tr.sample_tree_policy([0.6, 0.0, 0.0], rng, explore_epsilon=0.0) for _ in range(50)} == {0}
    picks = [tr.sample_tree_policy([0.0, 0.0], rng, 0.0) for _ in range(400)]
    assert 150 < sum(picks) < 250
    picks = [tr.sample_tree_policy([1.0, 3.0], rng, 0.0) for _ in range(4000)]
    assert 2850 < sum(picks) < 3150  # p(a1) = 3/4
    picks = [tr.sample_tree_policy([1.0, 0.0], rng, 0.3) for _ in range(4000)]
    assert 500 < sum(picks) < 700  # the epsilon move is uniform: p(a1) = 0.3 / 2


def test_exp3_hand_worked():
    """Normalised on [0, 1], exp3Boltzmann 0.1, FPU 0.5: a0 n 2, w 1 gives exp(0.5 / 0.1)
    = exp 5 = 148.413159; a1 unvisited gives exp(0) + 0.5 = 1.5. Unnormalised, node 3 visits
    with sum 1 (value 1/3): a0 (mean 0.5) exp((0.5 - 1/3) / 0.1) = exp(5/3) = 5.294490; a1
    (n 1, w 0) exp(-10/3) = 0.035674. A potential exp(1 / 0.001) overflows: 1e6."""
    np.testing.assert_allclose(tr.exp3_potentials([2, 0], [1.0, 0.0], 2, 1.0, 0.0, 1.0, fpu=0.5),
                               [148.413159, 1.5], rtol=1e-8)
    np.testing.assert_allclose(
        tr.exp3_potentials([2, 1], [1.0, 0.0], 3, 1.0, 0.0, 1.0, normalise_rewards=False),
        [5.294490, 0.035674], atol=1e-6)
    assert tr.exp3_potentials([1], [1.0], 1, 1.0, 0.0, 1.0, boltzmann=1e-3)[0] == 1e6


@pytest.mark.parametrize("call", [
    lambda: tr.rm_regrets([1, 0], [0.5], 1, 0.5),
    lambda: tr.rm_regrets([-1], [0.5], 1, 0.5),
    lambda: tr.rm_regrets([1], [0.5], -1, 0.5),
    lambda: tr.exp3_potentials([1], [0.5], 1, 0.5, 0.0, 1.0, boltzmann=0.0),
    lambda: tr.exp3_potentials([1], [0.5], 1, 0.5, 1.0, 0.0),
    lambda: tr.sample_tree_policy([0.5, -0.1], PCG32(0)),
    lambda: tr.sample_tree_policy([0.5], PCG32(0), explore_epsilon=1.5),
    lambda: tr.node_update(np.zeros(2), np.zeros(2), np.zeros(2), np.zeros(2),
                           np.array([True, False]), 1, 1.0),
])
def test_rm_exp3_bad_inputs(call):
    with pytest.raises(ValueError) as info:
        call()
    assert "\n" not in str(info.value)


def test_node_update_hand_worked():
    """Two of three actions available, the second taken with reward -0.5: availabilities
    (1, 1, 0), visits (0, 1, 0), sums (0, -0.5, 0), squares (0, 0.25, 0)."""
    n, w, q, avail = np.zeros(3), np.zeros(3), np.zeros(3), np.zeros(3)
    tr.node_update(n, w, q, avail, np.array([True, True, False]), 1, -0.5)
    assert (list(avail), list(n), list(w), list(q)) == ([1, 1, 0], [0, 1, 0], [0, -0.5, 0], [0, 0.25, 0])


def test_rm_exp3_twin():
    gen = np.random.default_rng(12)
    for trial in range(200):
        m = int(gen.integers(1, 8))
        n, w_all, q, avail = _stats(gen, m)
        w = w_all[:, 0]
        nv, nws = int(n.sum()), float(w.sum())
        fpu = float(gen.choice([0.5, 1e6]))
        ref = tr.rm_regrets(n, w, nv, nws, fpu)
        out = np.empty(m)
        tn.nb_rm_regrets(n, w, m, nv, nws, fpu, out)
        np.testing.assert_array_equal(out, ref)
        boltz, norm = float(gen.choice([0.1, 1.0, 1e-3])), bool(trial % 2)
        ref2 = tr.exp3_potentials(n, w, nv, nws, -1.0, 3.0, boltz, fpu, norm)
        out2 = np.empty(m)
        tn.nb_exp3_potentials(n, w, m, nv, nws, -1.0, 3.0, boltz, fpu, norm, out2)
        np.testing.assert_array_equal(out2, ref2)
        for values in (ref, ref2, np.zeros(m)):
            seed, eps, explore = int(gen.integers(0, 2**31)), float(gen.uniform(0, 0.5)), bool(trial % 3)
            a, b = PCG32(seed), PCG32(seed)
            arr = b.to_array()
            assert tr.sample_tree_policy(values, a, eps, explore) == \
                tn.nb_sample_tree_policy(values, m, eps, explore, arr)
            b.load(arr)
            assert a.state == b.state
        considered = gen.random(m) < 0.7
        taken = int(gen.integers(0, m))
        considered[taken] = True
        reward = float(gen.uniform(-1, 1))
        copies = [x.copy() for x in (n, w, q, avail)]
        tr.node_update(n, w, q, avail, considered, taken, reward)
        tn.nb_node_update(*copies, considered, m, taken, reward)
        for x, y in zip((n, w, q, avail), copies):
            np.testing.assert_array_equal(x, y)


# ---------------------------------------------------------------- MaxMC


def test_max_mc_hand_worked():
    """Monopoly Deal's threshold 10, a node at 12 visits after this iteration, three players,
    the decision player 0. a0: n 8, sums (4, 4, 0), means (0.5, 0.5, 0); a1: n 4, sums
    (3, 1, 0), means (0.75, 0.25, 0). a0 was taken with result (0, 1, 0); the best is a1
    (0.75 > 0.5); weight (12 - 10) / 12 = 1/6: (5/6)(0, 1, 0) + (1/6)(0.75, 0.25, 0) =
    (0.125, 0.875, 0). Had a1 been taken, or the node at 10 visits: the result unchanged."""
    n, w_all, result = [8, 4], [[4.0, 4.0, 0.0], [3.0, 1.0, 0.0]], [0.0, 1.0, 0.0]
    np.testing.assert_allclose(tr.max_mc_value(result, n, w_all, 0, 0, 12, 10), [0.125, 0.875, 0.0])
    assert list(tr.max_mc_value(result, n, w_all, 0, 1, 12, 10)) == result
    assert list(tr.max_mc_value(result, n, w_all, 0, 0, 10, 10)) == result
    assert list(tr.max_mc_value(result, n, w_all, 0, 0, 12)) == result  # TAG's default 1e6


@pytest.mark.parametrize("call", [
    lambda: tr.max_mc_value([0.0, 1.0], [1, 1], [[1.0, 0.0]], 0, 0, 2, 1),
    lambda: tr.max_mc_value([0.0, 1.0], [0, 1], [[1.0, 0.0], [1.0, 0.0]], 0, 0, 2, 1),
    lambda: tr.max_mc_value([0.0, 1.0], [1, 1], [[1.0, 0.0], [1.0, 0.0]], 2, 0, 2, 1),
    lambda: tr.max_mc_value([0.0, 1.0], [1, 1], [[1.0, 0.0], [1.0, 0.0]], 0, 0, 0, 1),
])
def test_max_mc_bad_inputs(call):
    with pytest.raises(ValueError) as info:
        call()
    assert "\n" not in str(info.value)


def test_max_mc_twin():
    gen = np.random.default_rng(13)
    for _ in range(200):
        m, players = int(gen.integers(1, 6)), int(gen.integers(2, 5))
        n, w_all, _, _ = _stats(gen, m, players)
        taken = int(gen.integers(0, m))
        n[taken] += 1
        w_all[taken] += gen.uniform(-1, 3, size=players)
        result = gen.uniform(-1, 3, size=players)
        nv, threshold = int(n.sum()), int(gen.integers(0, 12))
        dp = int(gen.integers(0, players))
        ref = tr.max_mc_value(result, n, w_all, dp, taken, nv, threshold)
        out = np.empty(players)
        tn.nb_max_mc_value(result, n, w_all, m, dp, taken, nv, threshold, out)
        np.testing.assert_array_equal(out, ref)


# ---------------------------------------------------------------- MAST


def test_mast_hand_worked():
    """Two players, four actions. An iteration with tree action (0, 1) and rollout actions
    (1, 2), (0, 1), (0, 3), rewards (1, 0): counts n[0,1] 2, n[1,2] 1, n[0,3] 1, sums
    w[0,1] 2, w[1,2] 0, w[0,3] 1. Decay by MASTGamma 0.5: n[0,1] floor(1) = 1, w 2 * 1/2 = 1;
    n[1,2] and n[0,3] floor(0.5) = 0, sums 0. Decay by 0.2 of n 7, w 3.5: floor(1.4) = 1,
    w 3.5 / 7 = 0.5. Player 0's values of actions (1, 3, 0), default 0: (1, 0, 0).
    MAST rollout choice over values (0.5, 0.4), MASTBoltzmann 0.1: potentials (1, e^-1), so
    p(first) = 1 / (1 + 0.367879) = 0.731059: the first iff the draw u <= 0.731059."""
    mast_n, mast_w = np.zeros((2, 4), dtype=np.int64), np.zeros((2, 4))
    tr.mast_update(mast_n, mast_w, [0, 1, 0, 0], [1, 2, 1, 3], [1.0, 0.0])
    assert mast_n[0, 1] == 2 and mast_n[1, 2] == 1 and mast_n[0, 3] == 1 and mast_n.sum() == 4
    assert (mast_w[0, 1], mast_w[1, 2], mast_w[0, 3]) == (2.0, 0.0, 1.0)
    tr.mast_decay(mast_n, mast_w, 0.5)
    assert mast_n.tolist() == [[0, 1, 0, 0], [0, 0, 0, 0]] and mast_w[0, 1] == 1.0 and mast_w.sum() == 1.0
    assert list(tr.mast_values(mast_n, mast_w, 0, [1, 3, 0])) == [1.0, 0.0, 0.0]
    one_n, one_w = np.array([[7]]), np.array([[3.5]])
    tr.mast_decay(one_n, one_w, 0.2)
    assert (one_n[0, 0], one_w[0, 0]) == (1, 0.5)
    tr.mast_decay(one_n, one_w, 0.0)  # TAG's default: the next decision starts empty
    assert (one_n[0, 0], one_w[0, 0]) == (0, 0.0)
    for seed in range(40):
        probe = PCG32(seed)
        u = probe.random()
        assert tr.mast_rollout_choice([0.5, 0.4], PCG32(seed)) == (0 if u <= 0.7310585786 else 1)
    assert {tr.mast_rollout_choice([0.5, 0.4], PCG32(s), temperature=0.0) for s in range(30)} == {0}
    rng = PCG32(1)
    before = rng.state
    assert tr.mast_rollout_choice([3.0], rng) == 0 and rng.state == before


@pytest.mark.parametrize("call", [
    lambda: tr.mast_update(np.zeros((2, 3)), np.zeros((2, 3)), [0], [3], [1.0, 0.0]),
    lambda: tr.mast_update(np.zeros((2, 3)), np.zeros((2, 3)), [0], [1], [1.0]),
    lambda: tr.mast_update(np.zeros((2, 3)), np.zeros((2, 2)), [0], [1], [1.0, 0.0]),
    lambda: tr.mast_decay(np.zeros((2, 3)), np.zeros((2, 3)), -0.5),
    lambda: tr.mast_values(np.zeros((2, 3)), np.zeros((2, 3)), 2, [0]),
    lambda: tr.mast_rollout_choice([], PCG32(0)),
    lambda: tr.mast_rollout_choice([0.1, 0.2], PCG32(0), epsilon=2.0),
])
def test_mast_bad_inputs(call):
    with pytest.raises(ValueError) as info:
        call()
    assert "\n" not in str(info.value)


def test_mast_twin():
    gen = np.random.default_rng(14)
    for _ in range(100):
        players, actions, count = int(gen.integers(1, 4)), int(gen.integers(1, 9)), int(gen.integers(0, 20))
        mast_n = gen.integers(0, 20, size=(players, actions))
        mast_w = gen.uniform(-1, 1, size=(players, actions)) * mast_n
        who, what = gen.integers(0, players, size=count), gen.integers(0, actions, size=count)
        delta = gen.uniform(-1, 3, size=players)
        n2, w2 = mast_n.copy(), mast_w.copy()
        tr.mast_update(mast_n, mast_w, who, what, delta)
        tn.nb_mast_update(n2, w2, who, what, count, delta)
        np.testing.assert_array_equal(mast_n, n2)
        np.testing.assert_array_equal(mast_w, w2)
        gamma = float(gen.choice([0.0, 0.2, 0.5, 0.9, 1.0]))
        tr.mast_decay(mast_n, mast_w, gamma)
        tn.nb_mast_decay(n2, w2, gamma)
        np.testing.assert_array_equal(mast_n, n2)
        np.testing.assert_array_equal(mast_w, w2)
        legal = gen.permutation(actions)[:int(gen.integers(1, actions + 1))]
        p = int(gen.integers(0, players))
        ref = tr.mast_values(mast_n, mast_w, p, legal, 0.0)
        out = np.empty(legal.size)
        tn.nb_mast_values(n2, w2, p, legal, legal.size, 0.0, out)
        np.testing.assert_array_equal(out, ref)
        seed = int(gen.integers(0, 2**31))
        temp, eps = float(gen.choice([0.1, 1.0, 0.0])), float(gen.choice([0.0, 0.3]))
        a, b = PCG32(seed), PCG32(seed)
        arr = b.to_array()
        assert tr.mast_rollout_choice(ref, a, temp, eps) == \
            tn.nb_mast_rollout_choice(ref, ref.size, temp, eps, arr, np.empty(ref.size))
        b.load(arr)
        assert a.state == b.state


# ---------------------------------------------------------------- rollout termination


def test_rollout_termination_hand_worked():
    """Monopoly Deal: rolloutLength 30 per player, 3 players, so 90 actions, END_TURN. At 89
    actions: go on. At 90: go on while the last action kept the turn, stop once it changed
    it. EXACT (TAG's default) stops at 90. Hearts: rolloutLength 0 with END_ROUND: at 0
    actions go on (a rollout to the end of the round), stop once the round counter moved. A
    terminal state always stops. END_ACTION stops when the root player's action is followed
    by another's turn; START_ACTION when another's is followed by the root player's."""
    limit = tr.rollout_max_length(30, True, 3)
    assert limit == 90 and tr.rollout_max_length(30, False, 3) == 30
    assert not tr.rollout_finished(False, 89, limit, tr.END_TURN, turn_changed=True)
    assert not tr.rollout_finished(False, 90, limit, tr.END_TURN, turn_changed=False)
    assert tr.rollout_finished(False, 90, limit, tr.END_TURN, turn_changed=True)
    assert tr.rollout_finished(False, 90, limit, tr.EXACT)
    assert tr.rollout_finished(False, 0, 0, tr.TERMINATIONS["DEFAULT"])
    assert not tr.rollout_finished(False, 0, 0, tr.END_ROUND, turn_changed=True)
    assert tr.rollout_finished(False, 3, 0, tr.END_ROUND, round_changed=True)
    assert tr.rollout_finished(True, 0, 90, tr.END_TURN)
    assert tr.rollout_finished(False, 5, 5, tr.END_ACTION, last_actor_is_root=True, actor_is_root=False)
    assert not tr.rollout_finished(False, 5, 5, tr.END_ACTION, last_actor_is_root=True, actor_is_root=True)
    assert tr.rollout_finished(False, 5, 5, tr.START_ACTION, last_actor_is_root=False, actor_is_root=True)
    assert tr.rollout_depth(tr.TICK, 7, 3, 1) == 7 and tr.rollout_depth(tr.TURN, 7, 3, 1) == 2
    assert tr.rollout_depth(tr.ROUND, 7, 3, 1, 4, 4) == 0


@pytest.mark.parametrize("call", [
    lambda: tr.rollout_finished(False, 0, 0, 5),
    lambda: tr.rollout_finished(False, -1, 0),
    lambda: tr.rollout_max_length(-1),
    lambda: tr.rollout_max_length(3, True, 0),
    lambda: tr.rollout_depth(3, 0),
])
def test_rollout_bad_inputs(call):
    with pytest.raises(ValueError) as info:
        call()
    assert "\n" not in str(info.value)


def test_rollout_twin():
    gen = np.random.default_rng(15)
    for _ in range(300):
        args = (bool(gen.random() < 0.1), int(gen.integers(0, 6)), int(gen.integers(0, 6)),
                int(gen.integers(0, 5)), *(bool(x) for x in gen.random(4) < 0.5))
        assert tr.rollout_finished(*args) == tn.nb_rollout_finished(*args)
        d = (int(gen.integers(0, 3)), *(int(x) for x in gen.integers(0, 9, size=5)))
        assert tr.rollout_depth(*d) == tn.nb_rollout_depth(*d)
