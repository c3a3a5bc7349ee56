"""TAG's MultiTree in the bots (``opponent_tree="MultiTree"``; issue 56, docs/tag_agents.md
sections 1 and 7, TAG's ``MultiTreeNode`` at GAIGResearch/TabletopGames c4d7687cd): the setting
accepted, IS-MCTS and OL-MCTS running it on the Python reference and the compiled engine move for
move (Leduc, and TAG's Poker row on ``poker_tag(players=3)``), PI-MCTS running OneTree at every
D, a full Poker game, and the final move read from the root player's tree (section 1's G3)."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from tag_g3 import g3  # section 1's game G3

import infosets.games  # noqa: F401  (registers our games)
from infosets.papers.pimcts_tag_agents import missing_settings, tag_agent_kwargs, tag_agent_row
from infosets.search.ismcts import ISMCTSBot
from infosets.search.mcts import OLMCTSBot
from infosets.search.pimcts import PIMCTSBot
from infosets.search.settings import MCTSSettings
from kernel_checks import decision_states


# ------------------------------------------------------------------------- settings
def test_settings_and_the_tag_rows_accept_multitree():
    assert not MCTSSettings(opponent_tree="MultiTree").tag_default
    for game, players in (("stratego", 2), ("poker_tag", 3), ("colt_express", 3)):
        assert not any(m.startswith("opponent_tree") for m in missing_settings(tag_agent_row(game, players)))
    assert missing_settings(tag_agent_row("stratego", 2)) == []


def test_multitree_refuses_what_it_cannot_run_in_one_line():
    game = pyspiel.load_game("leduc_poker")
    for kwargs, pattern in (
        ({"availability": False}, r"^opponent_tree: 'MultiTree' keys each tree"),
        ({"node_key": "moves"}, r"^opponent_tree: 'MultiTree' keys each tree"),
        ({"backup": "MaxMC"}, r"^backup: MultiTree backs up the mean only"),
        ({"reuse_tree": True}, r"^reuse_tree: MultiTree does not keep its trees"),
    ):
        with pytest.raises(ValueError, match=pattern) as err:
            ISMCTSBot(game, 0, rng=0, opponent_tree="MultiTree", **kwargs)
        assert "\n" not in str(err.value)
    with pytest.raises(ValueError, match=r"^rollout_policy: MultiTree rolls out"):
        OLMCTSBot(game, 0, rng=0, opponent_tree="MultiTree", rollout_policy=lambda s, r: s.legal_actions()[0])


# --------------------------------------------------------------- G3 worked by hand
def test_the_final_move_comes_from_the_root_players_tree_on_g3():
    """Section 1's MultiTree case: after 2 iterations P0's root holds a (1 visit, reward 1) and b
    (1, 0), P0's tree 3 nodes and P1's its root; after 3, a 2 and b 1 (iteration 3 takes a, the
    better mean), and the sizes stay. The move is P0's root's best mean: a. P1's tree (c/d) is
    never the root player's answer."""
    game, _ = g3()
    for bot_class in (ISMCTSBot, OLMCTSBot):
        for iterations, root in ((2, {0: (1, 1.0), 1: (1, 0.0)}), (3, {0: (2, 1.0), 1: (1, 0.0)})):
            bot = bot_class(game, 0, iterations=iterations, rng=7, opponent_tree="MultiTree")
            stats = bot.search(game.new_initial_state())
            if bot_class is OLMCTSBot:  # (visits, reward sum) per action
                stats = {a: (n, w / n) for a, (n, w) in stats.items()}
            assert stats == root
            runner = bot._multitree if bot_class is ISMCTSBot else bot._planner._multitree
            assert runner.last_sizes == [3, 1]
            assert bot.step(game.new_initial_state()) == 0


def test_pimcts_runs_onetree_at_every_d():
    """The paper code's PI agent runs OneTree (``Perfect_Information``): MultiTree asked, the
    bot's moves are OneTree's, draw for draw."""
    game = pyspiel.load_game("leduc_poker")
    for d in (1, 4):
        bots = [
            PIMCTSBot(
                game,
                0,
                iterations=40,
                determinizations=d,
                rng=3,
                engine="python",
                opponent_tree=tree,
                rollout_count="moves",
            )
            for tree in ("MultiTree", "OneTree")
        ]
        assert bots[0].settings.opponent_tree == "OneTree"
        for state in decision_states(game, 6, seed=2, stop=0.4, uniform_chance=True):
            if state.current_player() == 0:
                assert bots[0].step(state) == bots[1].step(state)


# ---------------------------------------------------- Python reference == compiled engine
# The compiled MultiTree (``multitree_nb``) is its own engine, compiled once per game: these tests
# run on the worker of tests/search/test_multitree.py's (the same group), so that ``make test``
# compiles Leduc's and Poker's once each, not on both workers at once.
ON_ONE_WORKER = pytest.mark.xdist_group("multitree_nb")

LEDUC_OPTIONS = [
    {},
    {"rollout_length": 2, "fpu": 0.5},
    {"tree_policy": "UCB_Tuned", "uct_c": 0.7, "explore_epsilon": 0.2},
    {"tree_policy": "EXP3", "explore_epsilon": 0.1},
    {"rollout": "MAST", "mast_gamma": 0.5, "max_depth": 2},
    {"tree_policy": "RegretMatching", "explore_epsilon": 0.3},
    {"rollout": "MAST", "mast_gamma": 0.5, "mast_opponents": "random"},
]


def _pair(bot_class, game, player, seed, **kwargs):
    return [
        bot_class(game, player, rng=seed, engine=engine, opponent_tree="MultiTree", **kwargs)
        for engine in ("python", "compiled")
    ]


def _assert_equal_move_for_move(bot_class, game, states, iterations, **kwargs):
    """Each bot pair plays every state of its seat in turn (MAST tables carried over): same
    root statistics, same moves, same tree sizes."""
    pairs = {}
    for state in states:
        player = state.current_player()
        py, nb = pairs.setdefault(
            player, _pair(bot_class, game, player, 10 + player, iterations=iterations, **kwargs)
        )
        assert py.search(state) == nb.search(state)
        assert py.step(state) == nb.step(state)
        assert nb.engine_used == "compiled" and py.engine_used == "python"


@ON_ONE_WORKER
@pytest.mark.parametrize("options", LEDUC_OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
@pytest.mark.parametrize("bot_class", [ISMCTSBot, OLMCTSBot], ids=lambda c: c.__name__)
def test_compiled_equals_python_on_leduc(bot_class, options):
    game = pyspiel.load_game("leduc_poker")
    states = decision_states(game, 10, seed=4, stop=0.4, uniform_chance=True)
    _assert_equal_move_for_move(bot_class, game, states, 30, rollout_count="moves", **options)


@ON_ONE_WORKER
@pytest.mark.parametrize("bot_class", [ISMCTSBot, OLMCTSBot], ids=lambda c: c.__name__)
def test_compiled_equals_python_on_tags_poker_row(bot_class):
    """TAG's Poker agent (``pimcts_tag_agents.csv``: UCB_Tuned, K 1, rollout length 0,
    MultiTree) on ``poker_tag(players=3)`` at 40 iterations a move."""
    game = pyspiel.load_game("poker_tag(players=3)")
    kwargs = tag_agent_kwargs(tag_agent_row("poker_tag", 3), heuristic=None)
    assert kwargs.pop("opponent_tree") == "MultiTree" and kwargs["rollout_length"] == 0
    states = decision_states(game, 8, seed=6, stop=0.3, uniform_chance=True)
    _assert_equal_move_for_move(bot_class, game, states, 40, **kwargs)


@ON_ONE_WORKER
def test_a_full_poker_game_with_the_multitree_ismcts_bot():
    """``poker_tag(players=3)``: seat 0 the MultiTree IS-MCTS bot (TAG's row, compiled), seats 1-2
    OL-MCTS with the same row; the game reaches its end, each return within the game's bounds."""
    game = pyspiel.load_game("poker_tag(players=3)")
    kwargs = tag_agent_kwargs(tag_agent_row("poker_tag", 3), heuristic=None)
    bots = [ISMCTSBot(game, 0, iterations=60, rng=1, engine="compiled", **kwargs)]
    bots += [OLMCTSBot(game, p, iterations=60, rng=1 + p, engine="compiled", **kwargs) for p in (1, 2)]
    rng, state, moves = np.random.default_rng(0), game.new_initial_state(), 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
            continue
        action = bots[state.current_player()].step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        moves += 1
    low, high = game.min_utility(), game.max_utility()
    assert moves > 0 and all(low <= r <= high for r in state.returns())
    assert bots[0].last_search_info["tree_sizes"][0] >= 1


# ------------------------------------------------------------------ one engine binder
def test_multitree_engine_is_bound_and_disk_cached_as_the_others():
    """``multitree_nb.engine_for`` and ``compiled.engine_for`` are one binder
    (``compiled.game_engine``), built once per (module, game); MultiTree's copies are named for
    the game and stamped with its files (``core.numba_cache``), its game-free functions with the
    engine's files only."""
    from infosets.core import numba_cache
    from infosets.games.kernels import kernel_module
    from infosets.search import compiled, multitree_nb

    rules = kernel_module("leduc_poker")
    engine = multitree_nb.engine_for(rules)
    assert engine is multitree_nb.engine_for(rules) and engine is not compiled.engine_for(rules)
    assert engine.multitree_tree.py_func.__qualname__ == "multitree.multitree_tree__leduc_poker"
    for function, game_file in ((engine.multitree_tree, rules.__file__), (multitree_nb._select, None)):
        locator = function._cache._impl._locator
        assert type(locator).__name__.startswith("Engine"), function
        assert locator.get_source_stamp() == ("infosets-engine", numba_cache.stamp_of(game_file))
