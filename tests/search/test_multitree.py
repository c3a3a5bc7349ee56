"""MultiTree MCTS (``search/multitree.py`` and its compiled twin ``search/multitree_nb.py``):
the hand-worked cases of docs/tag_agents.md section 1 (game G3, TAG's MultiTreeNode at
GAIGResearch/TabletopGames c4d7687cd), the compiled engine equal to the Python reference on
Leduc poker, and a strength check against random play."""

import math
import random

import numpy as np
import pyspiel
import pytest

from infosets.core.pcg32 import PCG32
from infosets.games.determinizers import sampler_for
from infosets.games.kernels import kernel_for, kernel_sampler
from infosets.search.common import RewardScale
from infosets.search.mcts import game_settings
from infosets.search.multitree import best_action, multitree_search, ucb_scores
from infosets.search.multitree_nb import CompiledMultiTree
from infosets.search.settings import MCTSSettings
from kernel_checks import decision_states

A, B, C, D, E, F = range(6)  # G3's moves: P0 a/b, then P1 c/d, then P0 e/f


class G3:
    """Game G3 (docs/tag_agents.md section 1): P0 chooses a/b, P1 c/d, P0 e/f, then the end.
    P0's reward is 1 if its first move was a, else 0; P1's is 1 minus P0's. The heuristic at
    any state after P0's first move is that reward (0.5 each before it). With ``turns`` > 3 the
    players go on alternating, turn t offering moves 2t and 2t + 1."""

    def __init__(self, moves=(), turns=3):
        self.moves, self.turns = list(moves), turns

    def current_player(self):
        return len(self.moves) % 2 if len(self.moves) < self.turns else int(pyspiel.PlayerId.TERMINAL)

    def legal_actions(self):
        t = len(self.moves)
        return [2 * t, 2 * t + 1]

    def apply_action(self, action):
        assert action in self.legal_actions()
        self.moves.append(action)

    def clone(self):
        return G3(self.moves, self.turns)

    def returns(self):
        return heuristic(self)


def heuristic(state):
    if not state.moves:
        return [0.5, 0.5]
    p0 = 1.0 if state.moves[0] == A else 0.0
    return [p0, 1.0 - p0]


def g3_search(iterations, seed, turns=3, mast=None, **settings):
    return multitree_search(
        G3(turns=turns),
        0,
        iterations,
        PCG32(seed),
        num_players=2,
        sampler=lambda s, p, rnd: s.clone(),
        settings=MCTSSettings(heuristic=heuristic, **settings),
        mast=mast,
    )


@pytest.mark.parametrize("seed", range(8))
def test_g3_after_two_iterations_each_tree_tried_both_moves(seed):
    trees = g3_search(2, seed)
    r0, r1 = trees.roots
    assert (r0.visits, trees.root_stats(0)) == (2, {A: (1, 1.0), B: (1, 0.0)})
    assert set(r0.children) == {A, B}
    assert [(c.visits, c.stats, c.children) for c in r0.children.values()] == [(0, {}, {})] * 2
    # P1's replies were chosen by its own root (untried first), not at random
    assert r1.visits == 2 and {a: n for a, (n, _) in trees.root_stats(1).items()} == {C: 1, D: 1}
    assert r1.children == {} and trees.sizes() == [3, 1]


@pytest.mark.parametrize("seed", range(8))
def test_g3_third_iteration_follows_the_means(seed):
    two = g3_search(2, seed).root_stats(1)
    after_b = max(two, key=lambda a: two[a][1])  # P1's reply after b scored 1 for P1
    trees = g3_search(3, seed)
    r0, r1 = trees.roots
    assert r0.visits == 3 and {a: n for a, (n, _) in trees.root_stats(0).items()} == {A: 2, B: 1}
    assert r0.children[A].visits == 1 and sum(n for n, *_ in r0.children[A].stats.values()) == 1
    assert r0.children[A].children == {}  # a tree move at the end is backed up without expanding
    assert r1.visits == 3 and trees.root_stats(1)[after_b][0] == 2
    assert trees.sizes() == [3, 1]


@pytest.mark.parametrize("iterations", [1, 2, 5, 9])
def test_g3_rollout_length_zero_is_a_one_ply_bandit(iterations):
    trees = g3_search(iterations, 7, rollout_length=0)
    assert trees.roots[0].visits == iterations and trees.roots[0].children == {}
    assert trees.roots[1] is None and trees.sizes() == [1, 0]
    assert trees.bounds == [[0.0, 1.0], [math.inf, -math.inf]]  # bounds kept per tree: P1 has none
    assert sum(n for n, _ in trees.root_stats().values()) == iterations


def test_max_depth_lets_the_node_at_that_depth_select():
    """TAG's maxDepthReached is set after a tree move from depth >= maxTreeDepth: in G3 made five
    turns long (P0 moves three times), with max_depth 1 P0's depth-1 node still selects and its
    child is made at P0's next turn but never selects; with max_depth 2 it does."""

    def depth2(trees):
        return [g for c in trees.roots[0].children.values() for g in c.children.values()]

    shallow, deep = g3_search(40, 4, turns=5, max_depth=1), g3_search(40, 4, turns=5, max_depth=2)
    assert sum(c.visits for c in shallow.roots[0].children.values()) == 38
    assert len(depth2(shallow)) > 0 and all(g.visits == 0 for g in depth2(shallow))
    assert sum(g.visits for g in depth2(deep)) > 0


def test_ucb_scores_are_tags_ucb_value():
    """Visited: the mean normalised by the tree's bounds plus c sqrt(ln N / n); unvisited:
    max(FPU, c sqrt(N)); equal bounds normalise to 0 (TAG's Utils.normalise)."""
    scores = ucb_scores([2, 0, 1], [1.5, 0.0, 0.2], [3, 3, 2], 0.0, 1.0, 1.0, 1e6)
    assert scores == pytest.approx([0.75 + math.sqrt(math.log(3) / 2), 1e6, 0.2 + math.sqrt(math.log(2))])
    assert ucb_scores([4, 0], [2.0, 0.0], [4, 9], 0.5, 0.5, 2.0, 0.0) == pytest.approx(
        [2 * math.sqrt(math.log(4) / 4), 6.0]
    )


def test_g3_trees_stay_within_their_bounds():
    trees = g3_search(60, 3)
    assert trees.sizes() == [3, 1]  # P1 never moves twice; P0's tree stops at depth 1
    assert best_action(trees.root_stats(), PCG32(0)) == A


# --- the compiled twin equals the Python reference (Leduc poker) -------------------------------

# multitree_nb compiles without numba's disk cache (its module docstring): each process that
# runs it compiles it (~12 CPU-s), so `make test`'s workers run its tests on one of them.
ON_ONE_WORKER = pytest.mark.xdist_group("multitree_nb")

LEDUC_SETTINGS = [
    dict(),
    dict(rollout_length=0),
    dict(rollout_length=2, max_depth=1),
    dict(fpu=0.4),
    dict(tree_policy="UCB_Tuned"),
    dict(tree_policy="NoAveragingRM", explore_epsilon=0.3),
    dict(tree_policy="EXP3"),
    dict(rollout="MAST", mast_gamma=0.5),
    dict(tree_policy="RegretMatching", explore_epsilon=0.3),
    dict(rollout="MAST", mast_gamma=0.5, mast_opponents="random"),
]


def both_engines(game, state, iterations, seed, uct_c=1.0, **options):
    """(Python trees, compiled front, the two generators after the search) of one search."""
    kernel = kernel_for(game)
    settings = game_settings(
        game,
        "python",
        options.pop("rollout_length", None),
        None,
        options.pop("max_depth", None),
        options.pop("fpu", None),
        options.pop("explore_epsilon", 0.0),
        **options,
    )
    scale, player = RewardScale(game, True), state.current_player()
    shape = (kernel.num_players, kernel.num_actions)
    mast = (np.zeros(shape, np.int64), np.zeros(shape)) if settings.rollout == "MAST" else None
    py_rnd, nb_rnd = PCG32(seed), PCG32(seed)
    trees = multitree_search(
        state,
        player,
        iterations,
        py_rnd,
        num_players=kernel.num_players,
        sampler=kernel_sampler(game, kernel),
        settings=settings,
        uct_c=uct_c,
        scale=scale,
        mast=mast,
    )
    front = CompiledMultiTree(kernel, uct_c, scale, settings)
    front.search(state, player, iterations, nb_rnd)
    return trees, front, mast, py_rnd, nb_rnd


@ON_ONE_WORKER
@pytest.mark.parametrize("options", LEDUC_SETTINGS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_compiled_equals_python_reference_on_leduc(options):
    game = pyspiel.load_game("leduc_poker")
    for i, state in enumerate(decision_states(game, 12, seed=5, stop=0.4, uniform_chance=True)):
        trees, front, mast, py_rnd, nb_rnd = both_engines(game, state, 40, i, **options)
        assert front.last_roots == [trees.root_stats(p) for p in range(2)]
        assert front.last_sizes == trees.sizes()
        assert nb_rnd.to_array().tolist() == py_rnd.to_array().tolist()
        if mast is not None:
            assert np.array_equal(front.mast_n, mast[0]) and np.array_equal(front.mast_w, mast[1])
        assert front.last_rm_average == trees.rm_average  # RegretMatching's root average, else None


@ON_ONE_WORKER
def test_multitree_beats_random_play_on_leduc():
    """300 games, seats alternating, 200 iterations a move (compiled): MultiTree wins about 1.4
    chips a game against uniform play (standard error about 0.27)."""
    game = pyspiel.load_game("leduc_poker")
    settings = game_settings(game, "compiled", None, None, None, None, 0.0)
    front = CompiledMultiTree(kernel_for(game), 1.0, RewardScale(game, True), settings)
    rnd, other = PCG32(11), random.Random(3)
    won = []
    for g in range(300):
        seat, state = g % 2, game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(other.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
            elif state.current_player() == seat:
                state.apply_action(best_action(front.search(state, seat, 200, rnd), rnd))
            else:
                state.apply_action(other.choice(state.legal_actions()))
        won.append(state.returns()[seat])
    assert np.mean(won) - 3 * np.std(won) / math.sqrt(len(won)) > 0


def test_a_sampler_drawing_from_numpy_takes_its_own_generator():
    """Kuhn poker has no kernel: OpenSpiel's resampler draws from a numpy Generator
    (``world_rng``), every other draw from the search's PCG32; seeded, the search repeats."""
    game = pyspiel.load_game("kuhn_poker")
    state = game.new_initial_state()
    for action in (0, 2):  # the deal
        state.apply_action(action)

    def search():
        return multitree_search(
            state,
            0,
            50,
            PCG32(1),
            num_players=2,
            sampler=sampler_for(game),
            scale=RewardScale(game, True),
            world_rng=np.random.default_rng(4),
        )

    trees = search()
    assert sum(n for n, _ in trees.root_stats().values()) == 50
    assert trees.root_stats(1) == search().root_stats(1) and trees.sizes() == search().sizes()
