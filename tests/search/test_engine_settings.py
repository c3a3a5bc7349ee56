"""Per-game MCTS settings (pimcts_aggregation, TAG's tuned parameters): both engines apply the
exploration constant K, the rollout cut-off scored by the heuristic, and the depth limit; the
engine choice ("compiled", "auto") and its one-line errors."""

import numpy as np
import pyspiel
import pytest

from infosets.games.kernels import kernel_heuristic
from infosets.search.ismcts import ISMCTSBot
from infosets.search.mcts import OLMCTSBot
from infosets.search.pimcts import PIMCTSBot

LEDUC = pyspiel.load_game("leduc_poker")
KUHN = pyspiel.load_game("kuhn_poker")


def leduc_after(*actions):
    state = LEDUC.new_initial_state()
    for a in (0, 3, *actions):
        state.apply_action(a)
    return state


def kuhn_dealt():
    state = KUHN.new_initial_state()
    state.apply_action(0)
    state.apply_action(2)
    return state


@pytest.mark.parametrize("engine", ["python", "compiled"])
def test_exploration_constant_k_is_applied(engine):
    state = leduc_after(2)  # player 1 faces a raise: fold, call, raise
    spread = {}
    for k in (0.0, 10.0):
        stats = OLMCTSBot(LEDUC, 1, iterations=600, uct_c=k, rng=4, engine=engine).search(state)
        visits = np.array([n for n, _ in stats.values()])
        spread[k] = visits.max() / visits.sum()
    assert spread[0.0] > 0.8  # greedy after one visit each
    assert spread[10.0] < 0.45  # near uniform


@pytest.mark.parametrize("engine", ["python", "compiled"])
def test_rollout_cut_off_is_scored_by_the_kernel_heuristic(engine):
    state = leduc_after(2)
    heuristic = kernel_heuristic(LEDUC)
    low, span = LEDUC.min_utility(), LEDUC.max_utility() - LEDUC.min_utility()
    bot = OLMCTSBot(LEDUC, 1, iterations=30, rng=0, engine=engine, rollout_length=0, max_depth=1)
    stats = bot.search(state)
    assert set(stats) == {0, 1, 2}

    def leaf_values(card0):  # the cut-off scores in the world where player 0 holds card0
        values = {}
        for action in stats:
            world = LEDUC.new_initial_state()
            for a in (card0, 3, 2, action):
                world.apply_action(a)
            value = world.returns()[1] if world.is_terminal() else heuristic(world)[1]
            values[action] = (value - low) / span
        return values

    means = {a: w / n for a, (n, w) in stats.items()}
    assert any(leaf_values(card0) == pytest.approx(means) for card0 in (0, 1, 2, 4, 5))
    full = OLMCTSBot(LEDUC, 1, iterations=30, rng=0, engine=engine, max_depth=1).search(state)
    assert full != stats  # random rollouts score differently


def test_python_engine_takes_a_custom_heuristic_on_any_game():
    def optimist(state):
        return [2.0, -2.0]  # player 0 wins the maximum wherever the rollout is cut

    kwargs = dict(iterations=50, rng=0, rollout_length=0, heuristic=optimist, max_depth=1)
    stats = OLMCTSBot(KUHN, 0, **kwargs).search(kuhn_dealt())
    assert len(stats) == 2 and all(w / n == 1.0 for n, w in stats.values())
    cut = ISMCTSBot(KUHN, 0, **kwargs).search(kuhn_dealt())
    assert len(cut) == 2 and all(mean == 1.0 for _, mean in cut.values())
    full = OLMCTSBot(KUHN, 0, iterations=50, rng=0, max_depth=1).search(kuhn_dealt())
    assert any(w / n < 1.0 for n, w in full.values())


@pytest.mark.parametrize("engine", ["python", "compiled"])
def test_depth_limit_is_applied(engine):
    state = leduc_after()
    for bot_class, kwargs in ((PIMCTSBot, {"determinizations": 2}), (ISMCTSBot, {})):
        for depth in (1, 2):
            bot = bot_class(LEDUC, 0, iterations=300, rng=1, engine=engine, max_depth=depth, **kwargs)
            bot.step(state)
            assert bot.last_search_info["max_depth"] == depth
        free = bot_class(LEDUC, 0, iterations=300, rng=1, engine=engine, **kwargs)
        free.step(state)
        assert free.last_search_info["max_depth"] > 2
        assert free.last_search_info["mean_depth"] > bot.last_search_info["mean_depth"]


def test_auto_picks_compiled_where_a_kernel_exists_and_records_the_engine():
    state = leduc_after()
    assert PIMCTSBot(LEDUC, 0, iterations=100, determinizations=2, rng=0, engine="auto").engine == "compiled"
    bot = OLMCTSBot(LEDUC, 0, iterations=100, rng=0, engine="auto")
    bot.step(state)
    assert bot.engine_used == "compiled"
    ttt = pyspiel.load_game("tic_tac_toe")
    cpp = OLMCTSBot(ttt, 0, iterations=200, rng=0, engine="auto")
    cpp.step(ttt.new_initial_state())
    assert cpp.engine_used == "cpp"
    py = ISMCTSBot(KUHN, 0, iterations=20, rng=0, engine="auto")
    py.step(kuhn_dealt())
    assert py.engine_used == "python"


def test_bad_engine_and_settings_are_one_line_errors():
    with pytest.raises(ValueError, match=r"^engine: 'compiled' needs a game kernel .*'kuhn_poker'.*"
                                         r"use engine='python' or 'cpp'$"):
        OLMCTSBot(KUHN, 0, rng=0, engine="compiled")
    with pytest.raises(ValueError, match="^engine: 'compiled' needs a game kernel"):
        ISMCTSBot(KUHN, 0, rng=0, engine="compiled")
    with pytest.raises(ValueError, match="^heuristic: a rollout_length needs a heuristic"):
        PIMCTSBot(KUHN, 0, rng=0, rollout_length=3)
    with pytest.raises(ValueError, match="^heuristic: the compiled engine"):
        OLMCTSBot(LEDUC, 0, rng=0, engine="compiled", rollout_length=1, heuristic=lambda s: [0, 0])
    with pytest.raises(ValueError, match="^engine: 'cpp' runs OpenSpiel's MCTSBot"):
        OLMCTSBot(LEDUC, 0, rng=0, engine="cpp", max_depth=3)
    with pytest.raises(ValueError, match="^max_depth:"):
        OLMCTSBot(LEDUC, 0, rng=0, max_depth=0)
    with pytest.raises(ValueError, match="^explore_epsilon:"):
        ISMCTSBot(LEDUC, 0, rng=0, explore_epsilon=1.5)
    with pytest.raises(ValueError, match="^rollout_length:"):
        ISMCTSBot(LEDUC, 0, rng=0, rollout_length=-1)
    with pytest.raises(ValueError, match="^fpu:"):
        ISMCTSBot(LEDUC, 0, rng=0, fpu=float("nan"))


def test_search_info_reports_tree_depths_per_engine():
    """``mean_depth`` is the tree nodes an iteration visits, averaged over the trees. At
    Leduc's first decision the root has two moves (call, raise) and each iteration adds one
    node, so a tree of one or two iterations visits depth 1 only, and a third iteration
    adds a grandchild (depths 1, 1, 2: mean 4/3, max 2). Both engines draw from one PCG32
    stream, so at a real budget they report the same trees, which are deeper."""
    state = leduc_after()
    assert state.legal_actions() == [1, 2]
    deep = []
    for engine in ("python", "compiled"):
        for per_tree, mean, top in ((1, 1.0, 1), (2, 1.0, 1), (3, 4 / 3, 2)):
            bot = PIMCTSBot(LEDUC, 0, iterations=4 * per_tree, determinizations=4, rng=0,
                            engine=engine)
            bot.step(state)
            assert bot.last_search_info == {"mean_depth": pytest.approx(mean), "max_depth": top}
        bot = PIMCTSBot(LEDUC, 0, iterations=800, determinizations=4, rng=0, engine=engine)
        bot.step(state)
        deep.append(bot.last_search_info)
    assert deep[0] == deep[1] and deep[0]["mean_depth"] > 3  # measured 3.99, max 7
    ttt = pyspiel.load_game("tic_tac_toe")
    cpp = OLMCTSBot(ttt, 0, iterations=50, rng=0, engine="cpp")
    cpp.step(ttt.new_initial_state())
    assert cpp.last_search_info["max_depth"] == -1  # C++ does not report depths
