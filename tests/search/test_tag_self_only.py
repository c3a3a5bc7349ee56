"""TAG's SelfOnly opponent tree (``MCTSSettings.opponent_tree``; issue 56, docs/tag_agents.md
sections 1 and 7, read from GAIGResearch/TabletopGames ``players/mcts/SingleTreeNode``
``expandNode``/``advanceToTurnOfPlayer``/``processResultsForParanoidOrSelfOnly`` at c4d7687cd):
nodes only at the root player's decisions, keyed by its own moves; the other players moved by
the rollout policy in the tree phase; the root player's reward backed up. The setting refused in
one line, section 1's game G3 worked by hand, and the Python reference equal to the compiled
engine draw for draw."""

from __future__ import annotations

import pyspiel
import pytest
from tag_g3 import g3 as _g3  # section 1's game G3

import infosets.games  # noqa: F401  (registers our games)
from infosets.search.ismcts import ISMCTSBot
from infosets.search.mcts import OLMCTSBot
from infosets.search.pimcts import PIMCTSBot
from infosets.search.settings import MCTSSettings
from kernel_checks import _both, decision_states

# ------------------------------------------------------------------------- settings


def test_opponent_tree_is_refused_in_one_line():
    with pytest.raises(ValueError, match=r"^opponent_tree: must be one of") as err:
        MCTSSettings(opponent_tree="Paranoid")
    assert "\n" not in str(err.value)
    assert not MCTSSettings(opponent_tree="SelfOnly").tag_default
    assert MCTSSettings(opponent_tree="OneTree").tag_default


# --------------------------------------------------------------- G3 worked by hand


@pytest.mark.parametrize("seed", range(5))
def test_g3_ol_mcts_after_three_iterations(seed):
    """Iterations 1-2 try a and b (untried first); iteration 3 picks a (1 + sqrt(ln 2) against
    sqrt(ln 2)): root 3 = a 2 (mean 1) + b 1 (mean 0), whatever P1 replied."""
    game, state = _g3()
    stats = OLMCTSBot(game, 0, iterations=3, rng=seed, opponent_tree="SelfOnly").search(state)
    assert dict(stats) == {0: (2, 2.0), 1: (1, 0.0)}


@pytest.mark.parametrize("seed", range(5))
def test_g3_is_mcts_tree_holds_the_root_players_nodes_only(seed):
    """IS-MCTS (nodes made when reached, so terminal states are never nodes, as TAG's): after 3
    iterations root 3 = a 2 + b 1 and N_a 1 (e or f), nothing else; after 60 iterations three
    nodes, root, N_a and N_b, keyed by P0's own moves (P1's reply is not in the key). OneTree on
    moves holds P1's nodes and P0's second decisions apart by P1's reply."""
    game, state = _g3()
    bot = ISMCTSBot(game, 0, iterations=3, rng=seed, opponent_tree="SelfOnly")
    root = bot.search(state)
    assert {a: n for a, (n, _) in root.items()} == {0: 2, 1: 1}
    assert set(bot.nodes) == {(), ((), 0)}
    assert bot.nodes[((), 0)].visits == 1
    assert sum(e[0] for e in bot.nodes[((), 0)].stats.values()) == 1
    bot = ISMCTSBot(game, 0, iterations=60, rng=seed, opponent_tree="SelfOnly")
    bot.search(state)
    assert set(bot.nodes) == {(), ((), 0), ((), 1)}
    one_tree = ISMCTSBot(game, 0, iterations=60, rng=seed, node_key="moves")
    one_tree.search(state)
    assert {((), 0), (((), 0), 2), (((), 0), 3)} <= set(one_tree.nodes)  # P1's node and P0's after c, d


def test_g3_self_only_backs_up_the_root_players_reward_under_max_mc():
    """Every stored reward is P0's (TAG fills the vector with it): under MaxMC the per-player
    sums of each entry are equal, and N_a's entries hold P0's reward 1."""
    game, state = _g3()
    bot = ISMCTSBot(game, 0, iterations=30, rng=1, opponent_tree="SelfOnly", backup="MaxMC")
    bot.search(state)
    for node in bot.nodes.values():
        for entry in node.stats.values():
            if entry[0]:
                assert entry[4][0] == entry[4][1]
    assert all(e[1] == e[0] for e in bot.nodes[((), 0)].stats.values())


# ------------------------------------------------------------ the two engines, draw for draw

OPTIONS = [
    dict(opponent_tree="SelfOnly"),
    dict(
        opponent_tree="SelfOnly",
        rollout="MAST",
        backup="MaxMC",
        tree_policy="UCB_Tuned",
        max_backup_threshold=3,
    ),
    dict(opponent_tree="SelfOnly", tree_policy="EXP3", rollout_length=3, max_depth=2),
]


@pytest.mark.parametrize("name", ["leduc_poker", "sushi_go(players=3)"])
def test_compiled_equals_python_reference(name):
    game = pyspiel.load_game(name)
    for i, state in enumerate(decision_states(game, 3, seed=3, stop=0.4, uniform_chance=True)):
        option = OPTIONS[i % len(OPTIONS)]
        for bot_class, extra in ((OLMCTSBot, {}), (PIMCTSBot, {"determinizations": 2}), (ISMCTSBot, {})):
            python, compiled_ = _both(bot_class, game, state, 40, rng=i, **option, **extra)
            assert python == compiled_, (name, i, bot_class.__name__, option)
    one_tree = [
        _both(ISMCTSBot, game, state, 40, rng=0)[0]
        for state in decision_states(game, 2, seed=3, stop=0.4, uniform_chance=True)
    ]
    self_only = [
        _both(ISMCTSBot, game, state, 40, rng=0, opponent_tree="SelfOnly")[0]
        for state in decision_states(game, 2, seed=3, stop=0.4, uniform_chance=True)
    ]
    assert one_tree != self_only  # the setting acts
