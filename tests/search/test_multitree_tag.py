"""MultiTree with TAG's RegretMatching and with random opponents in MAST rollouts (issue 56,
docs/tag_agents.md sections 1, 4 and 7), read from the authors' submission code,
GAIGResearch/TabletopGames c6d074e6646916e9f28082b03845625c881593ee, ``players/mcts/``:
``MultiTreeNode.bestAction`` is the root player's root's ``bestAction`` (RegretMatching: a sample
from its average strategy, kept by ``SingleTreeNode.backUpSingleNode``), and its rollout moves
the root player by the rollout policy and the others by the opponent model (oppModelType
RANDOM). Hand-worked cases on section 1's game G3, both engines equal on Leduc poker (in
tests/search/test_multitree.py and test_multitree_bots.py) and on TAG's Dominion row."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from tag_g3 import g3  # section 1's game G3, registered
from test_multitree import G3, g3_search, heuristic

import infosets.games  # noqa: F401  (registers our games)
from infosets.core.pcg32 import PCG32
from infosets.papers.pimcts_tag_agents import missing_settings, tag_agent_kwargs, tag_agent_row
from infosets.search import tag_rules as tr
from infosets.search.common import rm_final
from infosets.search.ismcts import ISMCTSBot
from infosets.search.mcts import OLMCTSBot
from infosets.search.multitree import multitree_search
from infosets.search.settings import MCTSSettings
from kernel_checks import decision_states

A, B = 0, 1


# ------------------------------------------------------------------ RegretMatching
@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize(
    "iterations,root,average",
    [
        (7, {A: (6, 1.0), B: (1, 0.0)}, [1.0, 0.0]),  # no update yet (10 visits): the top-up only
        (10, {A: (9, 1.0), B: (1, 0.0)}, [2.0, 0.0]),  # the update at 10 visits and the top-up
        (20, {A: (19, 1.0), B: (1, 0.0)}, [2.0, 0.0]),  # updates at 10 and 20, no top-up
    ],
)
def test_g3_root_average_by_hand(seed, iterations, root, average):
    """P0's root under RegretMatching (epsilon 0, FPU 1e6): iteration 1 samples a or b (regrets
    1e6 each); iteration 2 takes the other (the taken one's regret is 0, the untried one's 1e6);
    from then on a's reward 1 is above the root's mean and b's 0 below it, so a's regret is
    N (1 - n_a / N) = 1 and b's 0: a every time. The average adds [1, 0] at each multiple of
    max(2, 10) = 10 visits and once more at the end with <= 10 visits; the move is a. P1's tree
    (rewards 1 - P0's, equal for c and d) is searched too but keeps no average."""
    trees = g3_search(iterations, seed, tree_policy="RegretMatching")
    assert trees.root_stats(0) == root
    assert trees.rm_average[0] == [A, B] and trees.rm_average[1] == pytest.approx(average)
    assert sum(n for n, _ in trees.root_stats(1).values()) == iterations
    assert rm_final(*trees.rm_average, PCG32(seed)) == A


@pytest.mark.parametrize("seed", range(6))
def test_g3_trees_are_no_averaging_rm_draw_for_draw(seed):
    """The average draws nothing: every tree, and the generator after the search, equal
    NoAveragingRM's (with epsilon, on G3 made five turns long so both trees grow)."""
    options = dict(turns=5, explore_epsilon=0.3)
    rm, plain = (g3_search(30, seed, tree_policy=p, **options) for p in ("RegretMatching", "NoAveragingRM"))
    assert [rm.root_stats(p) for p in (0, 1)] == [plain.root_stats(p) for p in (0, 1)]
    assert rm.sizes() == plain.sizes() and plain.rm_average is None


@pytest.mark.parametrize("bot_class", [ISMCTSBot, OLMCTSBot], ids=lambda c: c.__name__)
def test_the_bots_move_by_the_root_average_on_g3(bot_class):
    """The bots' move is ``rm_final`` of P0's root average (a, as worked above), in both
    engines' fronts (G3 has no kernel: the Python reference)."""
    game, _ = g3()
    bot = bot_class(game, 0, iterations=10, rng=7, opponent_tree="MultiTree", tree_policy="RegretMatching")
    assert bot.step(game.new_initial_state()) == A
    runner = bot._multitree if bot_class is ISMCTSBot else bot._planner._multitree
    assert runner.last_rm_average == ([A, B], pytest.approx([2.0, 0.0]))


# --------------------------------------------------------- random opponents under MAST
def _mast_table():
    """MAST values on G3 made five turns long (P0 a/b, P1 c/d, P0 e/f, P1 g/h, P0 i/j: actions
    0-9): 1 for P0's f and j and P1's h, 0 for e, i and g (one count each)."""
    n, w = np.zeros((2, 10), np.int64), np.zeros((2, 10))
    for player, low, high in ((0, 4, 5), (1, 6, 7), (0, 8, 9)):
        n[player, [low, high]] = 1
        w[player, high] = 1.0
    return n, w


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("opponents", ["MAST", "random"])
def test_g3_first_iteration_moves_opponents_at_random_by_hand(seed, opponents):
    """One iteration on G3 made five turns long, MAST rollouts with the table above kept
    (gamma 1): P0 and P1 select at their roots (UCB, two untried: one tie-break draw each), then
    every later move is a rollout move (each tree has just expanded). P0's e/f and i/j are MAST's
    Boltzmann choice over values (0, 1) at temperature 0.1 (one draw each, f and j but with
    probability e^-10 / (1 + e^-10)); P1's g/h is MAST's too under "MAST", a uniform draw under
    "random". The table counts the moves played, P1's random one included."""
    mast = _mast_table()
    g3_search(1, seed, turns=5, mast=mast, rollout="MAST", mast_gamma=1.0, mast_opponents=opponents)
    twin = PCG32(seed)
    first, reply = twin.bounded(2), 2 + twin.bounded(2)
    second = 4 + tr.mast_rollout_choice([0.0, 1.0], twin)
    if opponents == "MAST":
        third = 6 + tr.mast_rollout_choice([0.0, 1.0], twin)
    else:
        third = 6 + int(twin.random() * 2)
    fourth = 8 + tr.mast_rollout_choice([0.0, 1.0], twin)
    expected_n = _mast_table()[0]
    for player, action in ((0, first), (1, reply), (0, second), (1, third), (0, fourth)):
        expected_n[player, action] += 1
    assert mast[0].tolist() == expected_n.tolist()
    assert (second, fourth) == (5, 9)


def test_random_opponents_move_uniformly_over_seeds():
    """Over 200 seeds P1's rollout move (g or h) is h about half the time under "random", every
    time under "MAST" (values 0 and 1: probability 1 - 4.5e-5)."""
    h_count = {}
    for opponents in ("MAST", "random"):
        count = 0
        for seed in range(200):
            mast = _mast_table()
            g3_search(1, seed, turns=5, mast=mast, rollout="MAST", mast_gamma=1.0, mast_opponents=opponents)
            count += int(mast[0][1, 7] == 2)
        h_count[opponents] = count
    assert h_count["MAST"] == 200 and 75 <= h_count["random"] <= 125


# ------------------------------------------------------------ END_TURN and END_ROUND
def _first_iteration_length(termination, length, counter):
    """The number of moves at which the one iteration on G3 made five turns long stops."""
    lengths = []

    def recording(state):
        lengths.append(len(state.moves))
        return heuristic(state)

    multitree_search(
        G3(turns=5),
        0,
        1,
        PCG32(3),
        num_players=2,
        sampler=lambda s, p, rnd: s.clone(),
        settings=MCTSSettings(heuristic=recording, rollout_length=length, rollout_termination=termination),
        counter=counter,
    )
    return lengths[0] if lengths else 5  # at the end of the game: its returns, no heuristic


@pytest.mark.parametrize(
    "termination,length,stop",
    [
        ("EXACT", 0, 1),  # after P0's tree move: a one-ply bandit
        ("EXACT", 1, 3),  # after P0's rollout move (turn 2)
        ("END_TURN", 0, 3),  # after the first rollout move, which ends a turn
        ("END_ROUND", 0, 4),  # after P1's rollout move (turn 3), which ends round 1 (moves 2-3)
        ("END_ROUND", 1, 4),
        ("END_ROUND", 2, 4),
        ("END_ROUND", 3, 5),  # three rollout moves: the game's end
    ],
)
def test_g3_terminations_by_hand(termination, length, stop):
    """One iteration on G3 made five turns long: P0 and P1 select at their roots (moves 1 and 2),
    then every move is a rollout move. A turn is a move (counter: the moves made), a round two
    (counter: moves // 2). Past ``length`` rollout moves, END_TURN / END_ROUND stop after a move
    that changed the counter from its value before the last rollout move; the tree moves before
    any rollout move never stop the iteration (TAG compares a value left by an earlier
    iteration there)."""
    counter = {"EXACT": None, "END_TURN": lambda s: len(s.moves), "END_ROUND": lambda s: len(s.moves) // 2}
    assert _first_iteration_length(termination, length, counter[termination]) == stop


def test_a_termination_needs_the_counter():
    with pytest.raises(ValueError, match=r"^counter: END_TURN needs the game's turn/round counter"):
        g3_search(1, 0, rollout_termination="END_TURN")


# -------------------------------------------------------------- TAG's rows, both engines
ON_ONE_WORKER = pytest.mark.xdist_group("multitree_nb")


def test_dominion_and_colt_express_rows_run_under_multitree():
    for game in ("dominion", "colt_express"):
        assert missing_settings(tag_agent_row(game, 3)) == [], game


@ON_ONE_WORKER
def test_compiled_equals_python_on_tags_dominion_row():
    """TAG's Dominion agent (``pimcts_tag_agents.csv``: RegretMatching, MultiTree, MAST rollouts
    of 30 moves with random opponents, gamma 0.5, epsilon 0.3) on ``dominion(players=3)`` at 30
    iterations a move, IS-MCTS: the same root statistics, root averages and moves, MAST tables
    carried across a seat's decisions."""
    game = pyspiel.load_game("dominion(players=3)")
    kwargs = tag_agent_kwargs(tag_agent_row("dominion", 3), heuristic=None)
    assert (kwargs["tree_policy"], kwargs["mast_opponents"]) == ("RegretMatching", "random")
    pairs = {}
    for state in decision_states(game, 5, seed=6, stop=0.3, uniform_chance=True):
        player = state.current_player()
        py, nb = pairs.setdefault(
            player,
            [
                ISMCTSBot(game, player, iterations=30, rng=player, engine=e, **kwargs)
                for e in ("python", "compiled")
            ],
        )
        assert py.search(state) == nb.search(state)
        assert py.last_rm_average[0] == nb.last_rm_average[0]
        assert py.last_rm_average[1] == pytest.approx(nb.last_rm_average[1], abs=1e-12)
        assert py.step(state) == nb.step(state)
        assert np.array_equal(py._multitree.mast[0], nb._multitree._front.mast_n)


@ON_ONE_WORKER
def test_compiled_equals_python_on_monopoly_deal_end_turn():
    """Monopoly Deal's turn counter (``kernels.rollout_counter``: ``game.turn_counter`` and the
    kernel's ``nb_turn``) under MultiTree with END_TURN past 2 rollout moves: IS-MCTS and
    OL-MCTS give the same root statistics and moves in both engines, and the setting acts (the
    searches differ from EXACT's). Compiling Monopoly Deal's MultiTree engine takes about a
    minute."""
    game = pyspiel.load_game("monopoly_deal")
    states = decision_states(game, 3, seed=3, stop=0.3, uniform_chance=True, min_legal=2)
    kwargs = dict(iterations=20, opponent_tree="MultiTree", rollout_length=2, rollout_count="moves")
    changed = 0
    for bot_class in (ISMCTSBot, OLMCTSBot):
        for i, state in enumerate(states):
            player = state.current_player()
            runs = {}
            for termination in ("END_TURN", "EXACT"):
                for engine in ("python", "compiled"):
                    bot = bot_class(
                        game, player, rng=i, engine=engine, rollout_termination=termination, **kwargs
                    )
                    runs[termination, engine] = (sorted(bot.search(state).items()), bot.step(state))
                assert runs[termination, "python"] == runs[termination, "compiled"], (i, termination)
            changed += runs["END_TURN", "python"] != runs["EXACT", "python"]
    assert changed > 0
