"""TAG's RegretMatching tree policy (issue 56; docs/tag_agents.md section 4), read from the authors'
submission code, GAIGResearch/TabletopGames c6d074e66, ``players/mcts/SingleTreeNode.java``:
NoAveragingRM's selection, plus the root's average strategy (the regret-matching distribution
added every max(#actions, 10) root visits, once more before the final move when the root has at
most that many visits) from which the final move is sampled. The pure rules on a hand-worked
3-action node, then both engines: the same trees as NoAveragingRM, the average's update count,
the final move as the sample of the average, and the compiled engine equal to the Python one."""

from __future__ import annotations

import math

import numpy as np
import pyspiel
import pytest

import infosets.games  # noqa: F401  (registers our games)
from infosets.core.pcg32 import PCG32
from infosets.search import tag_rules as tr
from infosets.search import tag_rules_nb as nbr
from infosets.search.common import python_random, rm_final
from infosets.search.ismcts import ISMCTSBot
from infosets.search.mcts import OLMCTSBot
from infosets.search.pimcts import PIMCTSBot
from infosets.search.settings import MCTSSettings
from kernel_checks import _both, decision_states

# A root with 10 visits: a 4 visits, sum 3.2 (mean 0.8); b 3, 1.8 (0.6); c 3, 0.3 (0.1); node
# sum 5.3 (mean 0.53). Regrets 10 (0.8 - 0.53) = 2.7, 10 (0.6 - 0.53) = 0.7 and 0: the
# distribution is 2.7 / 3.4, 0.7 / 3.4, 0.
N, W, VISITS, WSUM = [4, 3, 3], [3.2, 1.8, 0.3], 10, 5.3
PDF = [2.7 / 3.4, 0.7 / 3.4, 0.0]


def test_regrets_and_distribution_of_a_three_action_node():
    regrets = tr.rm_regrets(N, W, VISITS, WSUM)
    assert regrets == pytest.approx([2.7, 0.7, 0.0])
    assert tr.rm_policy(regrets) == pytest.approx(PDF)
    assert tr.rm_policy([0.0, 0.0, 0.0]).tolist() == [1 / 3] * 3  # no positive regret: uniform


def test_average_sums_the_distributions_and_the_final_move_samples_it():
    """After the node above and then a node whose actions all have the node's mean (regrets 0,
    uniform), the average is (0.794 + 1/3, 0.206 + 1/3, 1/3): the final move is a with
    probability 0.5637, b with 0.2696, c with 1/6, chosen by one uniform draw u (the first
    action whose cumulative probability reaches u)."""
    average = np.zeros(3)
    tr.rm_average_update(average, tr.rm_regrets(N, W, VISITS, WSUM))
    tr.rm_average_update(average, tr.rm_regrets([5, 5, 5], [2.5, 2.5, 2.5], 15, 7.5))
    expected = [PDF[0] + 1 / 3, PDF[1] + 1 / 3, 1 / 3]
    assert average == pytest.approx(expected)
    cdf = np.cumsum(expected) / 2.0
    assert cdf[:2] == pytest.approx([0.563725, 0.833333], abs=1e-6)
    counts = [0, 0, 0]
    for seed in range(3000):
        rnd, twin = PCG32(seed), PCG32(seed)
        u = twin.random()
        index = tr.rm_average_choice(average, rnd)
        assert index == int(np.searchsorted(cdf, u))
        assert rnd.to_array().tolist() == twin.to_array().tolist()  # exactly one draw
        counts[index] += 1
    for k in range(3):
        p = expected[k] / 2.0
        assert abs(counts[k] / 3000 - p) < 4 * math.sqrt(p * (1 - p) / 3000)
    one = PCG32(2)
    assert tr.rm_average_choice([0.7], one) == 0 and one.to_array().tolist() == PCG32(2).to_array().tolist()
    assert rm_final([4, 9], [0.0, 3.0], PCG32(0)) == 9  # an action never in the average is never taken


@pytest.mark.parametrize(
    "visits,actions,due",
    [
        (10, 3, True),
        (9, 3, False),
        (20, 3, True),
        (25, 3, False),
        (0, 3, False),
        (12, 12, True),
        (10, 12, False),
        (24, 12, True),
    ],
)
def test_the_average_is_updated_every_max_actions_ten_visits(visits, actions, due):
    assert tr.rm_average_due(visits, actions) is due
    assert bool(nbr.nb_rm_average_due(visits, actions)) is due


@pytest.mark.parametrize(
    "updates,visits,top_up", [(0, 7, True), (1, 10, True), (1, 11, False), (4, 40, False), (0, 9, True)]
)
def test_the_final_move_tops_the_average_up_on_few_visits(updates, visits, top_up):
    """Submission code: a top-up when the average is empty or the root has at most
    max(#actions, 10) visits (3 actions here)."""
    assert tr.rm_average_top_up_due(updates, visits, 3) is top_up


def test_numba_twin_adds_the_same_distribution():
    average, twin = np.zeros(3), np.array([0.5, 0.0, 0.25])
    tr.rm_average_update(average, [2.7, 0.7, 0.0])
    nbr.nb_rm_average_update(np.array([2.7, 0.7, 0.0, 9.0]), 3, twin)
    assert twin.tolist() == [0.5 + average[0], average[1], 0.25 + average[2]]


def test_setting_is_accepted_and_others_refused():
    assert MCTSSettings(tree_policy="RegretMatching").tree_policy == "RegretMatching"
    assert not MCTSSettings(tree_policy="RegretMatching").tag_default
    with pytest.raises(ValueError, match=r"^tree_policy: "):
        MCTSSettings(tree_policy="RM")


# ------------------------------------------------------------------------------ engines


def _leduc_states(count, seed):
    game = pyspiel.load_game("leduc_poker")
    return game, decision_states(game, count, seed=seed, stop=0.4, uniform_chance=True, min_legal=2)


@pytest.mark.parametrize("engine", ["python", "compiled"])
@pytest.mark.parametrize("iterations,updates", [(7, 1), (10, 2), (40, 4)])
def test_ol_mcts_tree_is_no_averaging_rm_and_its_move_samples_the_average(engine, iterations, updates):
    """The tree (root statistics) is NoAveragingRM's with the same seed, as the average draws
    nothing; the average holds one distribution per 10 root visits (Leduc: 2-3 actions) plus the
    top-up at <= 10 visits (7: top-up only; 10: one update and the top-up; 40: four); the move is
    ``rm_final`` of it with the move's generator after the search."""
    game, states = _leduc_states(4, seed=3)
    for i, state in enumerate(states):
        player = state.current_player()
        kw = dict(iterations=iterations, rng=i, engine=engine, explore_epsilon=0.3)
        bot = OLMCTSBot(game, player, tree_policy="RegretMatching", **kw)
        rnd = python_random(bot._rng)
        stats = bot.search(state, rnd)
        plain = OLMCTSBot(game, player, tree_policy="NoAveragingRM", **kw).search(state)
        assert dict(stats) == dict(plain)
        actions, average = stats.rm_average
        assert actions == state.legal_actions() and sum(average) == pytest.approx(updates)
        moved = OLMCTSBot(game, player, tree_policy="RegretMatching", **kw).step(state)
        assert moved == rm_final(actions, average, rnd)


@pytest.mark.parametrize("engine", ["python", "compiled"])
def test_is_mcts_move_samples_the_root_average(engine):
    game, states = _leduc_states(4, seed=4)
    for i, state in enumerate(states):
        player = state.current_player()
        kw = dict(iterations=30, rng=i, engine=engine, tree_policy="RegretMatching", explore_epsilon=0.3)
        moved = ISMCTSBot(game, player, **kw).step(state)
        twin = ISMCTSBot(game, player, **kw)
        root = twin.search(state)
        plain = ISMCTSBot(game, player, **{**kw, "tree_policy": "NoAveragingRM"}).search(state)
        assert root == plain
        actions, average = twin.last_rm_average
        assert actions == state.legal_actions() and sum(average) == pytest.approx(3)
        assert moved == rm_final(actions, average, python_random(twin._rng))


def test_the_move_is_not_always_the_highest_mean():
    """A sample of the average, not TAG's SIMPLE choice. With two actions one regret is always 0
    (the node mean lies between the two means), so each distribution is one action; at Leduc
    decisions with three actions and epsilon 0.3 (Dominion's file) the average mixes, and over
    positions and seeds the move sometimes differs from the highest-mean root action."""
    game = pyspiel.load_game("leduc_poker")
    states = decision_states(game, 8, seed=5, stop=0.4, uniform_chance=True, min_legal=3)
    differs = mixed = 0
    for i, state in enumerate(states):
        for seed in range(3):
            bot = OLMCTSBot(
                game,
                state.current_player(),
                iterations=30,
                rng=10 * i + seed,
                engine="compiled",
                tree_policy="RegretMatching",
                explore_epsilon=0.3,
            )
            rnd = python_random(bot._rng)
            stats = bot.search(state, rnd)
            mixed += sum(x > 0 for x in stats.rm_average[1]) > 1
            moved = rm_final(*stats.rm_average, rnd)
            differs += moved != max(stats, key=lambda a: stats[a][1] / stats[a][0])
    assert mixed > 0 and differs > 0


@pytest.mark.parametrize("name,positions", [("leduc_poker", 5), ("sushi_go(players=3)", 2)])
def test_compiled_equals_python_reference(name, positions):
    """Moves, root statistics and search info equal in OL-MCTS, PI-MCTS (its aggregation kept)
    and IS-MCTS, with epsilon, FPU, MaxMC, SelfOnly and MAST beside it; and the root averages
    equal too."""
    game = pyspiel.load_game(name)
    options = [
        dict(explore_epsilon=0.3),
        dict(fpu=0.5, backup="MaxMC", max_backup_threshold=3),
        dict(opponent_tree="SelfOnly", rollout="MAST", mast_gamma=0.5, rollout_length=4),
    ]
    for i, state in enumerate(decision_states(game, positions, seed=3, stop=0.4, uniform_chance=True)):
        option = {"tree_policy": "RegretMatching", **options[i % len(options)]}
        for bot_class, extra in (
            (OLMCTSBot, {}),
            (PIMCTSBot, {"determinizations": 2}),
            (ISMCTSBot, {"availability": (True, False)[i % 2]}),
        ):
            python, compiled_ = _both(bot_class, game, state, 45, rng=i, **extra, **option)
            assert python == compiled_, (name, i, bot_class.__name__, option)
        player = state.current_player()
        averages = []
        for engine in ("python", "compiled"):
            bot = OLMCTSBot(game, player, iterations=45, rng=i, engine=engine, **option)
            averages.append(bot.search(state).rm_average)
            ism = ISMCTSBot(game, player, iterations=45, rng=i, engine=engine, **option)
            ism.search(state)
            averages.append(ism.last_rm_average)
        assert averages[0] == averages[2] and averages[1] == averages[3]
