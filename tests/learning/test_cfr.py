"""Array CFR and Monte Carlo CFR on information maps (infosets.learning.cfr) vs OpenSpiel."""

import numpy as np
import pyspiel
import pytest
from open_spiel.python import policy as policy_lib
from open_spiel.python.algorithms import cfr as os_cfr
from open_spiel.python.algorithms import expected_game_score

import infosets.games  # noqa: F401  (registers coop_matching_pennies)
from infosets.learning import cfr, regret
from infosets.learning.tree import build_tree


@pytest.mark.parametrize("game_name,iterations,variant", [
    ("kuhn_poker", 40, "cfr"), ("kuhn_poker", 40, "cfr+"), ("kuhn_poker", 40, "simultaneous"),
    ("leduc_poker", 3, "cfr"), ("leduc_poker", 3, "cfr+")])
def test_matches_openspiel_cfr_solver(game_name, iterations, variant):
    game = pyspiel.load_game(game_name)
    if variant == "cfr":
        ref = os_cfr.CFRSolver(game)
        ours = cfr.CFRSolver(game)
    elif variant == "cfr+":
        ref = os_cfr.CFRPlusSolver(game)
        ours = cfr.CFRSolver(game, minimizer="rm+", linear_averaging=True)
    else:
        ref = os_cfr._CFRSolver(game, alternating_updates=False, linear_averaging=False,
                                regret_matching_plus=False)
        ours = cfr.CFRSolver(game, alternating=False)
    for _ in range(iterations):
        ref.evaluate_and_update_policy()
    ours.run(iterations)
    expected = _exploitability(game, ref.average_policy())
    got = _exploitability(game, ours.tabular_policy("average"))
    assert abs(expected - got) < 1e-9
    np.testing.assert_allclose(ours.tabular_policy("current").action_probability_array,
                               ref.current_policy().action_probability_array, atol=1e-9)


def _exploitability(game, tabular):
    return pyspiel.exploitability(game, policy_lib.python_policy_to_pyspiel_policy(tabular))


def test_kuhn_value_and_batch_consistency():
    """Every run of a batch equals a one-run solver started from the same policy. The runs
    start from different random policies: from uniform starts (as before) every run is the
    same, so cross-talk between runs (say every run reading run 0's policy) went unseen."""
    tree = build_tree("kuhn_poker")
    solver = cfr.CFRSolver(tree, num_runs=3, initial_policy="random", rng=np.random.default_rng(0))
    starts = solver.minimizer.initial_policy.copy()
    solver.run(300)
    average = solver.average_policy()
    values = solver.kernel.expected_returns(average)
    np.testing.assert_allclose(values[:, 0], -1 / 18, atol=3e-3)  # Kuhn's game value
    for run in range(3):
        alone = cfr.CFRSolver(tree)
        alone.minimizer = regret.make_minimizer("rm", alone.infosets.mask[None], starts[run][None])
        alone.run(300)
        np.testing.assert_allclose(average[run], alone.average_policy()[0], atol=1e-12)
    assert np.abs(average[0] - average[1]).max() > 0.1  # the runs really differ


def test_expected_returns_match_openspiel():
    game = pyspiel.load_game("leduc_poker")
    rng = np.random.default_rng(3)
    solver = cfr.CFRSolver(game, num_runs=1, initial_policy="random", rng=rng)
    policy = solver.tabular_policy("current")
    ref = expected_game_score.policy_value(game.new_initial_state(), [policy, policy])
    np.testing.assert_allclose(solver.expected_returns()[0], ref, atol=1e-10)


@pytest.mark.parametrize("sampling,iterations,bound", [("external", 3000, 0.03),
                                                        ("outcome", 6000, 0.08)])
def test_mccfr_converges_on_kuhn(sampling, iterations, bound):
    game = pyspiel.load_game("kuhn_poker")
    solver = cfr.MonteCarloCFR(game, sampling=sampling, rng=np.random.default_rng(0))
    for _ in range(iterations):
        solver.step()
    policy = cfr.to_tabular_policy(solver.infosets, solver.average_policy())
    assert _exploitability(game, policy) < bound


@pytest.mark.parametrize("sampling", ["external", "outcome"])
def test_mccfr_sampled_counterfactual_values_are_unbiased(sampling):
    """The q each traversal hands the minimiser averages to the exact counterfactual values
    (TreeKernel) of the policy, held fixed (the hook feeds the minimiser zeros). The
    convergence test above is too coarse for this: outcome sampling with the other player's
    reach left out of q still reaches exploitability 0.079 < 0.08. Over 2000 episodes the
    largest standard error of an entry is 0.037 (outcome; 0.021 external): |error| <= 0.15 fails
    the real code with probability 8e-5 (normal approximation, scipy). That bug biases 12 of the
    24 entries by 0.1 to 0.4 (estimated on 40000 episodes); the normal-approximation power of the
    bound against it is 1 - 4e-12 (0.987 from its most telling entry alone)."""
    game = pyspiel.load_game("kuhn_poker")
    draws = []

    def hook(q, visited):
        draws.append(q.copy())
        return np.zeros_like(q)

    solver = cfr.MonteCarloCFR(game, sampling=sampling, initial_policy="random",
                               rng=np.random.default_rng(0), reward_hook=hook)
    policy = solver.current_policy()
    for _ in range(2000):
        solver.step()
    np.testing.assert_array_equal(solver.current_policy(), policy)
    exact = solver.kernel.counterfactual_values(solver.kernel.edge_probs(policy[None]))[0][0]
    mean = np.mean(draws, axis=0) * solver.infosets.num_learners  # one traversal per learner
    np.testing.assert_allclose(mean, exact, atol=0.15)


def test_bad_inputs():
    with pytest.raises(ValueError, match=r"^step_size: must be > 0"):
        cfr.CFRSolver("kuhn_poker", minimizer="ftrl", step_size=-1.0)
    with pytest.raises(ValueError, match=r"^rng:"):
        cfr.CFRSolver("kuhn_poker", initial_policy="random")
    with pytest.raises(ValueError, match=r"^sampling:"):
        cfr.MonteCarloCFR("kuhn_poker", sampling="chance", rng=np.random.default_rng(0))
    with pytest.raises(ValueError, match=r"^game: unknown"):
        cfr.CFRSolver("leduc_pokerr")


def _exact_average(solver, policies):
    """CFRSolver's average: sum over iterations of own reach (summed over each infoset's
    nodes) times the policy, normalised; one learner."""
    kernel = solver.kernel
    total = np.zeros(policies[0].shape)
    for policy in policies:
        own = kernel.sum_nodes(kernel.reach(kernel.edge_probs(policy[None]), learner=0))[0]
        total += own[:, None] * policy
    return total / total.sum(axis=-1, keepdims=True)


def test_mccfr_external_team_view_average_policy_tracks_cfr_weights():
    """Regression: on a team view (one learner) external sampling never updated the running
    sum, so average_policy() was uniform. It must estimate CFR's own-reach-weighted average of
    the iterates (and so stop being uniform once the iterates move)."""
    tree = build_tree("coop_matching_pennies")
    solver = cfr.MonteCarloCFR(tree, "team", sampling="external",
                               initial_policy="random", rng=np.random.default_rng(5))
    policies = []
    for _ in range(3000):
        policies.append(solver.current_policy().copy())
        solver.step()
    average = solver.average_policy()
    mask = solver.infosets.mask
    uniform = mask / mask.sum(axis=-1, keepdims=True)
    assert np.abs(average - uniform).max() > 0.2
    np.testing.assert_allclose(average, _exact_average(solver, policies), atol=0.03)
    np.testing.assert_allclose(average.sum(axis=-1), 1.0)


class _ScriptedRng:
    """Stands in for the solver's rng (and its chance sampler): draw i takes script[i], or
    the first outcome once the script runs out, and records the probabilities it drew from."""

    def __init__(self, script):
        self.script, self.draws = script, []

    def pick(self, p):
        i = len(self.draws)
        self.draws.append(np.asarray(p, dtype=float) / np.sum(p))
        return self.script[i] if i < len(self.script) else 0

    def choice(self, count, p):
        return self.pick(p)


def test_mccfr_outcome_average_policy_increment_is_own_reach_weighted():
    """Exact expectation, by enumerating every sampled trajectory of one episode (both
    learners' traversals) with the policy held fixed: the running sum at I must grow on
    average by sum over h in I of chance(h) * own reach(h) times the current policy at I,
    CFR's own-reach weight (up to the chance factor, a constant per infoset). The
    convergence test does not see the weights: a plain sampled average (cumulative += pi)
    still reaches exploitability 0.041 on Kuhn, but its expected increment is the
    sampling probability of reaching I times pi, which this test rejects."""
    game = pyspiel.load_game("kuhn_poker")
    solver = cfr.MonteCarloCFR(game, sampling="outcome", initial_policy="random",
                               rng=np.random.default_rng(0),
                               reward_hook=lambda q, visited: np.zeros_like(q))
    policy = solver.current_policy().copy()
    tree, start, count = solver.tree, solver.tree.child_start, solver.tree.child_count

    def sample_chance(node):
        lo = start[node]
        return int(lo + solver.rng.pick(tree.chance_prob[lo:lo + count[node]]))

    solver._sample_chance = sample_chance
    expected = np.zeros(policy.shape)
    total_prob, scripts = 0.0, [[]]
    while scripts:
        script = scripts.pop()
        solver.rng = _ScriptedRng(script)
        solver.cumulative_policy[:] = 0.0
        solver.step()
        draws = solver.rng.draws
        full = script + [0] * (len(draws) - len(script))
        prob = np.prod([p[a] for p, a in zip(draws, full)])
        expected += prob * solver.cumulative_policy
        total_prob += prob
        scripts += [full[:i] + [a] for i in range(len(script), len(draws))
                    for a in range(1, len(draws[i])) if draws[i][a] > 0]
    np.testing.assert_array_equal(solver.current_policy(), policy)  # held fixed
    assert abs(total_prob - 1.0) < 1e-12  # every trajectory enumerated once
    kernel, learner = solver.kernel, solver.infosets.learner
    probs = kernel.edge_probs(policy[None])
    weight = np.zeros(len(policy))
    for learner_id in range(solver.infosets.num_learners):
        own = kernel.reach(probs, learner=learner_id)
        mine = learner == learner_id
        weight[mine] = kernel.sum_nodes(tree.chance_reach[None] * own)[0][mine]
    assert weight.min() > 0 and np.ptp(weight) > 0.01  # the weights really differ
    np.testing.assert_allclose(expected, weight[:, None] * policy, rtol=1e-10, atol=1e-12)
