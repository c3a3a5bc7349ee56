"""TAG's final move under the EXP3 tree policy (issue 56; docs/tag_agents.md section 4, read from
GAIGResearch/TabletopGames ``players/mcts/SingleTreeNode.bestAction`` at c4d7687cd): a sample
from the root's EXP3 potentials with no exploration epsilon, in OL-MCTS and IS-MCTS of both
engines (``common.exp3_final``); PI-MCTS keeps its aggregation."""

from __future__ import annotations

import math

import pyspiel
import pytest

import infosets.games  # noqa: F401  (registers our games)
from infosets.core.pcg32 import PCG32
from infosets.search.common import exp3_final, python_random
from infosets.search.ismcts import ISMCTSBot
from infosets.search.mcts import OLMCTSBot
from kernel_checks import _both, decision_states

P_VISITED = 1 / (1 + math.exp(-5))  # e^10 / (e^10 + e^5): normalised means 1.0 and 0.5
P_UNVISITED = (1 + 1e6) / (1 + 1e6 + math.exp(10))  # an unvisited action (FPU 1e6) against mean 1.0


def test_section_4_probabilities():
    assert round(P_VISITED, 5) == 0.99331 and round(P_UNVISITED, 3) == 0.978


@pytest.mark.parametrize("counts,sums,p_first", [([2, 4], [2.0, 2.0], P_VISITED),
                                                 ([0, 3], [0.0, 3.0], P_UNVISITED)])
def test_exp3_final_samples_by_potentials_with_one_draw(counts, sums, p_first):
    """Actions 3 and 7 on rewards seen in [0, 1]: action 3 iff the one uniform draw is below its
    probability (no epsilon draw before it); over 4,000 seeds its frequency is that probability."""
    chosen_first = 0
    for seed in range(4000):
        rnd, twin = PCG32(seed), PCG32(seed)
        u = twin.random()
        action = exp3_final([3, 7], counts, sums, (0.0, 1.0), None, rnd)
        assert action == (3 if u < p_first else 7)
        assert rnd.to_array().tolist() == twin.to_array().tolist()  # exactly one draw
        chosen_first += action == 3
    assert abs(chosen_first / 4000 - p_first) < 3 * math.sqrt(p_first * (1 - p_first) / 4000) + 1e-9


def test_exp3_final_with_one_action_draws_nothing():
    rnd = PCG32(1)
    assert exp3_final([5], [3], [1.0], (0.0, 1.0), None, rnd) == 5
    assert rnd.to_array().tolist() == PCG32(1).to_array().tolist()


@pytest.mark.parametrize("engine", ["python", "compiled"])
def test_ol_mcts_final_is_the_exp3_sample_of_its_root(engine):
    """The bot's move is ``exp3_final`` of its root statistics, bounds and the move's generator
    after the search; over the positions it is not always the highest mean (a sample)."""
    game = pyspiel.load_game("leduc_poker")
    differs = 0
    for i, state in enumerate(decision_states(game, 8, seed=3, stop=0.4, uniform_chance=True)):
        player = state.current_player()
        kw = dict(iterations=30, rng=i, engine=engine, tree_policy="EXP3")
        moved = OLMCTSBot(game, player, **kw).step(state)
        twin = OLMCTSBot(game, player, **kw)
        rnd = python_random(twin._rng)
        stats = twin.search(state, rnd)
        legal = state.legal_actions()
        counts = [stats.get(a, (0, 0.0)) for a in legal]
        assert moved == exp3_final(legal, [n for n, _ in counts], [w for _, w in counts], stats.bounds, None,
                                   rnd)
        differs += moved != max(stats, key=lambda a: stats[a][1] / stats[a][0])
    assert differs > 0


@pytest.mark.parametrize("engine", ["python", "compiled"])
def test_is_mcts_final_is_the_exp3_sample_of_its_root(engine):
    game = pyspiel.load_game("leduc_poker")
    for i, state in enumerate(decision_states(game, 6, seed=4, stop=0.4, uniform_chance=True)):
        player = state.current_player()
        kw = dict(iterations=30, rng=i, engine=engine, tree_policy="EXP3")
        moved = ISMCTSBot(game, player, **kw).step(state)
        twin = ISMCTSBot(game, player, **kw)
        root = twin.search(state)
        actions = sorted(root)
        counts = [root[a][0] for a in actions]
        sums = [root[a][0] * root[a][1] for a in actions]
        expected = exp3_final(actions, counts, sums, twin._bounds, None, python_random(twin._rng))
        assert moved == expected


def test_both_engines_move_alike_under_exp3():
    game = pyspiel.load_game("leduc_poker")
    for i, state in enumerate(decision_states(game, 6, seed=7, stop=0.4, uniform_chance=True)):
        for bot_class in (OLMCTSBot, ISMCTSBot):
            python, compiled_ = _both(bot_class, game, state, 25, rng=i, tree_policy="EXP3", fpu=0.3)
            assert python == compiled_, (i, bot_class.__name__)
