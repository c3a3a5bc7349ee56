"""PI-MCTS: D = 1 is OL-MCTS, aggregation rules, partial legality, ties, bad input."""

import random

import numpy as np
import pyspiel
import pytest

import infosets.games  # noqa: F401
from infosets.search.mcts import OLMCTSBot
from infosets.search.pimcts import PIMCTSBot, aggregate


def _decision_state(name, seed, skip):
    game = pyspiel.load_game(name)
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    made = 0
    while state.is_chance_node() or made < skip or len(state.legal_actions()) < 2:
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.integers(len(outcomes))][0])
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.integers(len(legal))])
            made += 1
    return game, state


@pytest.mark.parametrize("name,skip", [("leduc_poker", 0), ("oh_hell(players=3)", 3), ("liars_dice", 1)])
def test_one_determinization_is_ol_mcts(name, skip):
    game, state = _decision_state(name, 4, skip)
    player = state.current_player()
    for seed in range(3):
        ol = OLMCTSBot(game, player, iterations=200, rng=seed).step_with_policy(state)
        pi = PIMCTSBot(game, player, iterations=200, determinizations=1, rng=seed).step_with_policy(state)
        assert ol == pi
        ol_v = OLMCTSBot(game, player, iterations=200, rng=seed, final="visits").step(state)
        pi_v = PIMCTSBot(game, player, iterations=200, determinizations=1, rng=seed,
                         aggregation="TotalVisits").step(state)
        assert ol_v == pi_v


def test_aggregation_rules_differ_as_defined():
    trees = [
        {0: (90, 45.0), 1: (10, 9.0)},   # 0 most visited; 1 best mean
        {0: (60, 30.0), 1: (40, 28.0)},
        {0: (50, 40.0), 1: (50, 25.0)},
    ]
    rnd = random.Random(0)
    assert aggregate(trees, "TotalVisits", [0, 1], rnd)[0] == 0           # 200 vs 100
    assert aggregate(trees, "AverageValue", [0, 1], rnd)[0] == 1          # 0.575 vs 0.62
    action, votes = aggregate(trees, "SingleVote", [0, 1], rnd)
    assert votes == {1: 2, 0: 1} and action == 1


def test_action_legal_in_some_worlds_only_is_averaged_over_those_worlds():
    trees = [{0: (50, 25.0), 2: (50, 45.0)}, {0: (100, 50.0)}]  # action 2 legal in world 1 only
    table = aggregate(trees, "AverageValue", [0, 2], random.Random(0))[1]
    assert table[2] == pytest.approx(0.9) and table[0] == pytest.approx(0.5)
    assert aggregate(trees, "AverageValue", [0], random.Random(0))[0] == 0  # not legal for real


def test_ties_are_broken_at_random():
    trees = [{0: (10, 5.0), 1: (10, 5.0)}]
    picks = {aggregate(trees, rule, [0, 1], random.Random(s))[0]
             for rule in ("TotalVisits", "AverageValue", "SingleVote") for s in range(12)}
    assert picks == {0, 1}


@pytest.mark.parametrize("engine", ["python", "cpp"])
def test_many_worlds_find_the_dominant_call(engine):
    game = pyspiel.load_game("kuhn_poker")
    state = game.new_initial_state()
    for action in (0, 2, 1):  # player 1 holds the King facing a bet
        state.apply_action(action)
    for rule in ("TotalVisits", "AverageValue", "SingleVote"):
        bot = PIMCTSBot(game, 1, iterations=300, determinizations=10, aggregation=rule, rng=0,
                        engine=engine)
        assert bot.step(state) == 1


def test_each_tree_gets_floor_budget():
    game, state = _decision_state("leduc_poker", 1, 0)
    trees = PIMCTSBot(game, state.current_player(), iterations=100, determinizations=7, rng=0).search(state)
    assert len(trees) == 7
    assert all(sum(n for n, _ in t.values()) == 100 // 7 for t in trees)


def test_bad_input_one_line_errors():
    game = pyspiel.load_game("leduc_poker")
    with pytest.raises(ValueError, match="^determinizations: must be an int >= 1"):
        PIMCTSBot(game, 0, determinizations=0, rng=0)
    with pytest.raises(ValueError, match="^determinizations: must be <= iterations"):
        PIMCTSBot(game, 0, iterations=10, determinizations=11, rng=0)
    with pytest.raises(ValueError, match="^aggregation:"):
        PIMCTSBot(game, 0, aggregation="Majority", rng=0)
    with pytest.raises(ValueError, match="^game: no determinizer"):
        PIMCTSBot(pyspiel.load_game("goofspiel(imp_info=True,num_cards=4)"), 0, rng=0)


def test_auto_engine_uses_python_trees_at_small_tree_budgets():
    game = pyspiel.load_game("tic_tac_toe")
    state = game.new_initial_state()

    def child_visits(engine):
        trees = PIMCTSBot(game, 0, iterations=200, determinizations=100, rng=0, engine=engine).search(state)
        return [sum(n for n, _ in t.values()) for t in trees]

    # C++ MCTSBot spends a tree's first iteration expanding the root: with 2 iterations per
    # tree only one child visit is left. The auto engine switches to our Python trees there.
    assert child_visits("cpp") == [1] * 100
    assert child_visits("auto") == [2] * 100
    assert child_visits("python") == [2] * 100
