"""TAG's tree reuse between decisions (``MCTSSettings.reuse_tree``; issue 56, docs/tag_agents.md
sections 2 and 7, read from GAIGResearch/TabletopGames ``players/mcts/MCTSPlayer``
``newRootNode``/``backtrack`` and ``SingleTreeNode.rootify`` at c4d7687cd): section 2's hand-worked
case on game G3 (the second decision's root and its visits) for OL-MCTS and IS-MCTS, the walk's
rules (chance skipped, SelfOnly on the owner's moves, no match a fresh tree), the setting in the
agents' table, and whole games played the same with and without engines where both run."""

from __future__ import annotations

import pyspiel
import pytest
from tag_g3 import g3 as _g3  # docs/tag_agents.md section 1's game G3

import infosets.games  # noqa: F401  (registers our games)
from infosets.arena import play_game
from infosets.papers.pimcts_tag_agents import load_tag_agents, missing_settings
from infosets.search.compiled import _find_node
from infosets.search.ismcts import ISMCTSBot
from infosets.search.mcts import OLMCTSBot
from infosets.search.reuse import reroot_move_keys, walked_actions
from infosets.search.settings import MCTSSettings

A, B, C, D, E, F = range(6)


def _first_decision(bot, state):
    bot.restart_at(state)
    return bot.step(state)


# ------------------------------------------------------------------------- settings


def test_reuse_tree_is_a_bool_and_off_by_default():
    assert MCTSSettings().reuse_tree is False and MCTSSettings().tag_default
    assert not MCTSSettings(reuse_tree=True).tag_default
    with pytest.raises(ValueError, match=r"^reuse_tree: must be a bool") as err:
        MCTSSettings(reuse_tree="yes")
    assert "\n" not in str(err.value)


def test_auto_runs_reuse_where_a_game_has_no_kernel():
    """Spades (a C++ game without a registered kernel): "auto" searches in Python, reusing."""
    bot = OLMCTSBot(pyspiel.load_game("spades"), 0, iterations=5, rng=0, reuse_tree=True, engine="auto")
    assert bot.settings.reuse_tree and bot._planner._compiled is None


def test_the_reusing_rows_no_longer_miss_reuse_tree():
    rows = {row["paper_game"].split(" (")[0]: row for _, row in load_tag_agents().iterrows()}
    for game in ("Hearts", "Love Letter", "Monopoly Deal"):
        assert str(rows[game]["reuse_tree"]).lower() == "true"
        assert not any(m.startswith("reuse_tree") for m in missing_settings(rows[game])), game


def test_walk_skips_chance_and_under_self_only_keeps_the_owners_moves():
    moves = [(1, 0), (-1, 7), (0, 2), (1, 4)]
    assert walked_actions(moves, 1, False) == [0, 2, 4]
    assert walked_actions(moves, 1, True) == [0, 4]
    assert walked_actions(moves, 0, False) is None  # TAG asserts the owner's last move comes first
    nodes = {(): "r", ((), 0): "n0", (((), 0), 2): "n02", ((), 1): "n1"}
    assert reroot_move_keys(nodes, [0]) == {(): "n0", ((), 2): "n02"}
    assert reroot_move_keys(nodes, [3]) == {}


# --------------------------------------------------------------- G3 worked by hand


def _second_decision(bot, state, reply):
    """After P0's first search: P0 plays a (whatever it chose: the walk follows the game), P1
    plays ``reply``; P0's second decision."""
    for mover, action in ((0, A), (1, reply)):
        if mover != bot.player:
            bot.inform_action(state, mover, action)
        state.apply_action(action)
    return state


@pytest.mark.parametrize("seed", range(4))
def test_g3_one_tree_second_root_is_n_ac_with_its_visit(seed):
    """Section 2: after B = 5 the tree is root 5 (a 4, b 1), N_a (c 2, d 1), N_ac (e or f 1).
    After a, c the root is N_ac with 1 visit (the selections made from it), 6 after 5 more
    iterations; after a, d it is N_ad with 0, then 5."""
    game, _ = _g3()
    bot = OLMCTSBot(game, 0, iterations=5, rng=seed, reuse_tree=True)
    game, state = _g3()
    _first_decision(bot, state)
    root = bot._kept.root
    assert root[0] == 5 and {a: ch[0] for a, ch in root[2].items()} == {A: 4, B: 1}
    n_a = root[2][A]
    assert {a: ch[0] for a, ch in n_a[2].items()} == {C: 2, D: 1}
    n_ac, n_ad = n_a[2][C], n_a[2][D]
    assert sum(ch[0] for ch in n_ac[2].values()) == 1 and not n_ad[2]
    for reply, before in ((C, 1), (D, 0)):
        bot = OLMCTSBot(game, 0, iterations=5, rng=seed, reuse_tree=True)
        game, state = _g3()
        _first_decision(bot, state)
        node = bot._kept.root[2][A][2][reply]
        state = _second_decision(bot, state, reply)
        bot.search(state)
        assert bot._kept.root is node and node[0] == before + 5
        assert sum(ch[0] for ch in node[2].values()) == before + 5


@pytest.mark.parametrize("seed", range(4))
def test_g3_self_only_second_root_is_n_a_whatever_p1_played(seed):
    game, _ = _g3()
    for reply in (C, D):
        bot = OLMCTSBot(game, 0, iterations=5, rng=seed, reuse_tree=True, opponent_tree="SelfOnly")
        game, state = _g3()
        _first_decision(bot, state)
        n_a = bot._kept.root[2][A]
        kept = sum(ch[0] for ch in n_a[2].values())
        assert kept == n_a[0] - 1  # every visit but the one that made it selected e or f
        state = _second_decision(bot, state, reply)
        bot.search(state)
        assert bot._kept.root is n_a and n_a[0] == kept + 5


@pytest.mark.parametrize("seed", range(4))
def test_g3_is_mcts_keeps_the_subtree_of_the_moves_played(seed):
    """IS-MCTS: keyed by moves (OneTree, ``node_key`` "moves") the new root is N_ac, keyed from it;
    SelfOnly N_a whatever P1 played; keyed by information state the table is kept and the root
    is the node of the new information state. Its visits go on from the kept ones."""
    game, _ = _g3()
    for options, reply, key in (
        (dict(node_key="moves"), C, (((), A), C)),
        (dict(opponent_tree="SelfOnly"), D, ((), A)),
        ({}, C, str([A, C])),
    ):
        bot = ISMCTSBot(game, 0, iterations=12, rng=seed, reuse_tree=True, **options)
        game, state = _g3()
        _first_decision(bot, state)
        node = bot.nodes[key]
        before, entries = node.visits, dict(node.stats)
        state = _second_decision(bot, state, reply)
        bot.search(state)
        root_key = str([A, reply]) if not options else ()
        assert bot.nodes[root_key] is node and node.visits == before + 12
        assert all(node.stats[a] is e for a, e in entries.items())
        if options:
            assert all(k == () or k[0] == () or isinstance(k[0], tuple) for k in bot.nodes)


def test_no_match_or_a_restart_starts_a_fresh_tree():
    game, _ = _g3()
    bot = OLMCTSBot(game, 0, iterations=5, rng=0, reuse_tree=True)
    game, state = _g3()
    _first_decision(bot, state)
    bot.search(state)  # the same decision again: no move since, no walk
    assert bot._kept.root[0] == 5
    bot.restart_at(state)
    assert bot._kept.root is None and bot._kept.history is None


# ------------------------------------------------------------ the two engines, whole games
# All on Leduc (its engine compiles fastest; a SelfOnly walk needs no third player): a kept tree
# is its own argument type, so each search compiles once more for it (kept_tree, and
# ismcts_tree_with given a kept table), whatever the settings; one worker of ``make test`` runs
# these tests so that the compile is not made twice at once.
ON_ONE_WORKER = pytest.mark.xdist_group("tag_reuse_tree_leduc")


def _root_visits(bot, state):
    """The kept root's visits: the nested list's or the arrays' (OL-MCTS), the root node's (IS-MCTS)."""
    root = bot._kept.root
    if isinstance(bot, OLMCTSBot):
        return root[0] if isinstance(root, list) else int(root[0][0])
    if isinstance(root, dict):
        return bot.nodes[bot._key(state, bot.player)].visits
    key = -1 if bot.node_key == "moves" or bot._self_only else bot._compiled._state_array(state)
    if not isinstance(key, int):
        key = int(bot._compiled.kernel.rules.nb_infostate_key(key, bot.player))
    return int(root[2][root[1][_find_node(root[0], root[1], key, root[0].shape[0] - 1)]])


class _Recorder:
    """A bot that logs, at each of its decisions, its root policy, its move and the kept root's
    visits (``reuse.KeptTree``: the nested list's or the compiled arrays')."""

    def __init__(self, bot, log):
        self.bot, self.log = bot, log

    def step(self, state):
        policy, action = self.bot.step_with_policy(state)
        visits = _root_visits(self.bot, state)
        self.log.append((sorted(policy), action, visits))
        return action

    def restart_at(self, state):
        self.bot.restart_at(state)

    def inform_action(self, state, player, action):
        self.bot.inform_action(state, player, action)


def _game_log(bot_class, game, engine, seed, iterations, **options):
    log = []
    bots = [
        _Recorder(
            bot_class(
                game, p, iterations=iterations, rng=10 * seed + p, engine=engine, reuse_tree=True, **options
            ),
            log,
        )
        for p in range(game.num_players())
    ]
    result = play_game(game, bots, seed)
    return log, result["returns"]


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("leduc_poker", {}),
        ("leduc_poker", dict(tree_policy="UCB_Tuned", backup="MaxMC", max_backup_threshold=3)),
        ("leduc_poker", dict(opponent_tree="SelfOnly")),
    ],
)
@ON_ONE_WORKER
def test_ol_mcts_compiled_equals_python_over_whole_games(name, options):
    """Every decision of whole games: the same root policy, move and kept root visits, and some
    decision starts from a kept root (its visits exceed the budget)."""
    game = pyspiel.load_game(name)
    carried = False
    for seed in range(2):
        python = _game_log(OLMCTSBot, game, "python", seed, 40, **options)
        compiled = _game_log(OLMCTSBot, game, "compiled", seed, 40, **options)
        assert python == compiled, (name, seed)
        carried |= any(visits > 40 for _, _, visits in python[0])
    assert carried


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("leduc_poker", {}),
        (
            "leduc_poker",
            dict(node_key="moves", tree_policy="UCB_Tuned", backup="MaxMC", max_backup_threshold=3),
        ),
        ("leduc_poker", dict(opponent_tree="SelfOnly")),
    ],
)
@ON_ONE_WORKER
def test_is_mcts_compiled_equals_python_over_whole_games(name, options):
    """As for OL-MCTS: keyed by information state (the table kept), by moves and under SelfOnly
    (the subtree kept and renumbered), the same policies, moves and kept root visits."""
    game = pyspiel.load_game(name)
    carried = False
    for seed in range(2):
        python = _game_log(ISMCTSBot, game, "python", seed, 40, **options)
        compiled = _game_log(ISMCTSBot, game, "compiled", seed, 40, **options)
        assert python == compiled, (name, seed)
        carried |= any(visits > 40 for _, _, visits in python[0])
    assert carried
