"""Progressive hiding (infosets.learning.hiding): projector, penalty, schedules, bad input."""

import numpy as np
import pytest
from open_spiel.python.algorithms import expected_game_score

import infosets.games  # noqa: F401
from infosets.learning import cfr, hiding, regret
from infosets.learning.tree import build_tree


@pytest.fixture(scope="module")
def trade():
    return build_tree("trade_comm(num_items=2)")


def _random_relaxed(learner, rng):
    mask = np.broadcast_to(learner.relaxed.mask, (2,) + learner.relaxed.mask.shape)
    return regret.random_policy(mask, rng)


def test_projector_is_idempotent_and_self_adjoint(trade):
    """Propositions 1-2 of the paper, numerically, with reach weights of a random profile."""
    rng = np.random.default_rng(0)
    learner = hiding.ProgressiveHiding(trade, original="team", relaxed="perfect_recall",
                                       num_runs=2)
    policy = _random_relaxed(learner, rng)
    weights = learner.reach_weights(policy)
    assert np.all(weights >= 0) and np.any(weights > 0)
    parent, n_orig = learner.parent, learner.original.num_infosets
    projected = hiding.project(policy, weights, parent, n_orig)
    again = hiding.project(hiding.lift(projected, parent), weights, parent, n_orig)
    np.testing.assert_allclose(again, projected, atol=1e-12)
    mask = learner.relaxed.mask
    x = rng.normal(size=policy.shape) * mask
    y = rng.normal(size=policy.shape) * mask
    px = hiding.lift(hiding.project(x, weights, parent, n_orig), parent)
    py = hiding.lift(hiding.project(y, weights, parent, n_orig), parent)
    np.testing.assert_allclose(hiding.weighted_inner(px, y, weights),
                               hiding.weighted_inner(x, py, weights), rtol=1e-10)
    # the projection is a distribution on the original infosets
    np.testing.assert_allclose(projected.sum(-1), 1.0, atol=1e-12)


def test_projected_policy_is_implementable_and_evaluated_exactly(trade):
    rng = np.random.default_rng(1)
    learner = hiding.ProgressiveHiding(trade, relaxed="cheated", minimizer="ftrl",
                                       schedule=hiding.PenaltySchedule("constant", 0.5),
                                       initial_policy="random", rng=rng)
    learner.run(5)
    game = trade.game
    tabular = learner.tabular_policy(0)
    value = expected_game_score.policy_value(game.new_initial_state(), [tabular, tabular])
    assert value[0] == pytest.approx(learner.projected_payoff()[0], abs=1e-10)
    act = learner.callable_policy(0)
    state = game.new_initial_state().child(3)
    probs = act(state)
    assert sorted(probs) == state.legal_actions()
    assert probs == pytest.approx(dict(tabular.action_probabilities(state)))


def test_zero_penalty_is_cfr_on_the_relaxed_map(trade):
    learner = hiding.ProgressiveHiding(trade, relaxed="perfect_recall", minimizer="rm")
    learner.run(10)
    solver = cfr.CFRSolver(trade, "perfect_recall", alternating=False)
    solver.run(10)
    np.testing.assert_allclose(learner.relaxed_policy(), solver.current_policy(), atol=1e-12)


def test_relaxed_perfect_information_solves_cmp():
    tree = build_tree("coop_matching_pennies(pass_payoff=0.55)")
    learner = hiding.ProgressiveHiding(tree, relaxed="perfect_recall")
    record = learner.run(30)
    assert record.relaxed_payoff[-1][0] > 0.99  # Bob sees the coin in the relaxation


def test_penalty_reduces_the_implementability_violation(trade):
    final = {}
    for rho in (0.0, 2.0):
        learner = hiding.ProgressiveHiding(
            trade, relaxed="perfect_recall", minimizer="ftrl", num_runs=4,
            schedule=hiding.PenaltySchedule("constant", rho), initial_policy="random",
            rng=np.random.default_rng(5))
        final[rho] = learner.run(100).violation[-1].mean()
    assert final[2.0] < 0.5 * final[0.0]


def test_schedules():
    inc = hiding.PenaltySchedule("increasing", 0.5, growth=1.0)
    assert inc.value(3, 2).tolist() == [2.0, 2.0]
    adapt = hiding.PenaltySchedule("adaptive", 1.0, gain=1.0, target=0.1, mode="gap")
    adapt.scale = 1.0
    adapt.value(0, 2)
    adapt.update(np.array([1.0, 0.5]), np.array([0.5, 0.45]))  # gaps 0.5 and 0.05
    rho = adapt.value(1, 2)
    assert rho[0] > 1.0 > rho[1]


def _exact_team_payoff(infosets, policy):
    """Player 0's expected return when each player acts by ``policy`` [I, A] on the team
    map's keys (player, infostate string), by walking the pyspiel game: independent of the
    module's TreeKernel."""
    index = {key: k for k, key in enumerate(infosets.keys)}

    def value(state):
        if state.is_terminal():
            return state.returns()[0]
        if state.is_chance_node():
            return sum(p * value(state.child(a)) for a, p in state.chance_outcomes())
        player = state.current_player()
        k = index[(player, state.information_state_string(player))]
        return sum(policy[k, slot] * value(state.child(a))
                   for slot, a in enumerate(infosets.legal[k]))

    return value(infosets.tree.game.new_initial_state())


def test_monte_carlo_hiding_is_seeded():
    """The same seed replays the run, another seed gives another run. The runs are compared
    by the relaxed learner's average policy, which every sampled draw moves (the projected
    payoff, compared before, takes one of two values, 0.5 or 1.0, in ~97% of seeds, so an
    implementation that ignored its rng always passed and an unseeded one half the time).
    ``projected_payoff`` is the exact expected payoff of the projected (output) policy:
    checked after every episode (the early ones play mixed policies, paying e.g. 0.514 or
    0.641) against a pyspiel walk of that policy; it is computed, not sampled, so the
    tolerance is rounding only."""
    tree = build_tree("coop_matching_pennies")

    def run(seed):
        learner = hiding.MonteCarloHiding(tree, schedule=hiding.PenaltySchedule("constant", 0.2),
                                          initial_policy="random",
                                          rng=np.random.default_rng(seed))
        payoffs = []  # (reported, recomputed) from the random start (mixed policies) on
        for step in range(51):
            if step:
                learner.step()
            payoffs.append((learner.projected_payoff(),
                            _exact_team_payoff(learner.original, learner.output_policy())))
        return learner.learner.average_policy(), payoffs

    (first, payoffs), (again, payoffs_again), (other, payoffs_other) = run(7), run(7), run(8)
    np.testing.assert_array_equal(first, again)
    assert payoffs_again == payoffs
    assert np.abs(first - other).max() > 0.1
    for reported, exact in payoffs + payoffs_other:
        assert reported == pytest.approx(exact, abs=1e-12)


def test_bad_inputs_raise_one_line(trade):
    with pytest.raises(ValueError, match=r"^rho: penalty must be >= 0"):
        hiding.PenaltySchedule("constant", -0.1)
    with pytest.raises(ValueError, match=r"^step_size: must be > 0"):
        hiding.ProgressiveHiding(trade, minimizer="ftrl", step_size=0.0)
    with pytest.raises(ValueError, match=r"^relaxed_map: 'team' is not finer than 'cheated'"):
        hiding.ProgressiveHiding(trade, original="cheated", relaxed="team")
    with pytest.raises(ValueError, match=r"^game: unknown"):
        hiding.ProgressiveHiding("trade_comms")
    with pytest.raises(ValueError, match=r"^schedule:"):
        hiding.PenaltySchedule("cosine", 1.0)
