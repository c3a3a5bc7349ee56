"""Information maps and their checkers (infosets.learning.infomaps)."""

import pyspiel
import pytest

import infosets.games  # noqa: F401
from infosets.learning import infomaps
from infosets.learning.tree import build_tree


@pytest.fixture(scope="module")
def trade():
    return build_tree("trade_comm(num_items=2)")


def test_kuhn_original_map_is_openspiel_infostates():
    tree = build_tree("kuhn_poker")
    sets = infomaps.build_infosets(tree, "original")
    assert sets.num_infosets == 12
    from open_spiel.python import policy as os_policy

    lookup = os_policy.TabularPolicy(pyspiel.load_game("kuhn_poker")).state_lookup
    assert sorted(sets.infostate_strings()) == sorted(lookup)
    assert infomaps.has_perfect_recall(sets)
    assert not infomaps.has_perfect_recall(infomaps.build_infosets(tree, "team"))


def test_tree_counts_match_a_pyspiel_walk(trade):
    game = pyspiel.load_game("trade_comm(num_items=2)")
    count = 0
    stack = [game.new_initial_state()]
    while stack:
        s = stack.pop()
        count += 1
        if not s.is_terminal():
            acts = [a for a, _ in s.chance_outcomes()] if s.is_chance_node() else s.legal_actions()
            stack.extend(s.child(a) for a in acts)
    assert trade.num_nodes == count
    root_children = slice(trade.child_start[0], trade.child_start[0] + trade.child_count[0])
    assert trade.kind[0] == 0 and abs(trade.chance_reach[root_children].sum() - 1.0) < 1e-12
    for node in range(1, trade.num_nodes):  # breadth first: children after parents, contiguous
        parent = trade.parent[node]
        assert parent < node
        assert trade.child_start[parent] <= node < trade.child_start[parent] + trade.child_count[parent]


def test_trade_comm_relaxations(trade):
    team = infomaps.build_infosets(trade, "team")
    cheated = infomaps.build_infosets(trade, "cheated")
    recall = infomaps.build_infosets(trade, "perfect_recall")
    assert not infomaps.has_perfect_recall(team)
    assert not infomaps.has_perfect_recall(cheated)  # the team still forgets hidden trades
    assert infomaps.has_perfect_recall(recall)
    assert infomaps.is_finer(cheated, team) and infomaps.is_finer(recall, team)
    assert infomaps.is_finer(recall, cheated) and not infomaps.is_finer(cheated, recall)
    assert not infomaps.is_finer(team, recall)
    parent = infomaps.require_finer(recall, team)
    for node in trade.decision_nodes:
        assert parent[recall.node_infoset[node]] == team.node_infoset[node]


def test_cmp_maps_reveal_the_coin_to_bob():
    """Bob sees only Alice's move: under the original map (and the team map, same keys) each
    of his two infosets holds both coins, so he cannot name it. The perfect-recall team map
    keys Bob's nodes on every player's infostate, Alice's included, which holds the coin: each
    of Bob's four infosets there holds one coin (and one move of Alice's)."""
    tree = build_tree("coop_matching_pennies")
    recall = infomaps.build_infosets(tree, "perfect_recall")
    original = infomaps.build_infosets(tree, "original")
    team = infomaps.build_infosets(tree, "team")
    assert original.num_infosets == 4 and recall.num_infosets == 6

    def bob(sets):
        """Per infoset of Bob's: the set of (coin, Alice's move) of its histories."""
        out = {}
        for node, view in zip(tree.decision_nodes, tree.views):
            if view.player == 1:
                k = int(sets.node_infoset[node])
                assert sets.player[k] == 1
                out.setdefault(k, set()).add(view.history[:2])  # history: coin, Alice's move
        return list(out.values())

    both_coins = [{(0, move), (1, move)} for move in (0, 1)]
    for hiding in (original, team):
        assert sorted(bob(hiding), key=sorted) == both_coins
    revealed = bob(recall)
    assert sorted(revealed, key=sorted) == [{(c, m)} for c in (0, 1) for m in (0, 1)]
    assert infomaps.has_perfect_recall(original)
    assert not infomaps.has_perfect_recall(team)
    assert infomaps.has_perfect_recall(recall)


def test_not_finer_raises_one_line(trade):
    team = infomaps.build_infosets(trade, "team")
    recall = infomaps.build_infosets(trade, "perfect_recall")
    with pytest.raises(ValueError, match=r"^relaxed_map: 'team' is not finer than 'perfect_recall'"):
        infomaps.require_finer(team, recall)


def test_unknown_map_and_game_raise():
    with pytest.raises(ValueError, match=r"^infomap: 'oracle'"):
        infomaps.get_map("oracle")
    with pytest.raises(ValueError, match=r"^game: unknown"):
        build_tree("no_such_game")
