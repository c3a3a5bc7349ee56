"""TAG's tree reuse between a bot's decisions (``reuseTree``; issue 56, docs/tag_agents.md
sections 2 and 7).

Read from GAIGResearch/TabletopGames at ``c4d7687cd6162405806a0dd1e1b31804f8a81b93``,
``src/main/java/players/mcts/MCTSPlayer.java`` (``newRootNode``, ``backtrack``) and
``SingleTreeNode.java`` (``rootify``): at its next decision the bot walks its old tree from the
old root along the moves made since its last decision (OneTree: every player's move; SelfOnly:
the owner's moves only), and the node reached becomes the root with its visits, statistics and
the search's reward bounds; a missing child means no match and a fresh tree. Our open-loop keys
hold no chance, so chance moves are skipped. The root's visits become TAG's ``nVisits``: the
iterations that selected an action from it (the sum of its children's visits; a node made by
an iteration counts that iteration, the root never does).

This module holds the engine-free part (the moves since the last decision, the actions a walk
takes) and the walks of the Python references: ``mcts.uct_search``'s nested-list nodes and
``ismcts.ISMCTSBot``'s move-keyed nodes.
"""

from __future__ import annotations

import math

CHANCE = -1


class KeptTree:
    """One bot's tree between its decisions: ``root`` (the engine's, None for a fresh tree),
    the search's reward ``bounds`` [low, high] and the game's (player, action) history at the
    last decision."""

    def __init__(self):
        self.clear()

    def clear(self) -> None:
        self.root = None
        self.bounds = [math.inf, -math.inf]
        self.history: list | None = None

    def move_to(self, state, owner: int, self_only: bool, reroot) -> None:
        """Re-root the kept tree at ``state``: ``reroot(root, actions)`` gives the new root
        (None or empty for no match); with no match, or no walk (``walk``), a fresh tree."""
        actions = self.walk(state, owner, self_only)
        root = None if actions is None or self.root is None else reroot(self.root, actions)
        if not root:
            self.root, self.bounds = None, [math.inf, -math.inf]
        else:
            self.root = root

    def walk(self, state, owner: int, self_only: bool) -> list[int] | None:
        """The actions from the old root to ``state`` (``walked_actions`` of the moves since
        the last decision), None when ``state`` does not follow it (first decision, another
        game, a restart); the history is moved on to ``state``."""
        now = [(int(h.player), int(h.action)) for h in state.full_history()]
        old, self.history = self.history, now
        if old is None or len(now) <= len(old) or now[: len(old)] != old:
            return None
        return walked_actions(now[len(old) :], owner, self_only)


def walked_actions(moves, owner: int, self_only: bool) -> list[int] | None:
    """The actions TAG's ``backtrack`` follows through ``moves`` ((player, action) since the
    owner's last decision, its own move first): every player's (chance skipped) or, under
    SelfOnly, the owner's only. None when the first move is not the owner's (TAG asserts it)."""
    if not moves or moves[0][0] != owner:
        return None
    if self_only:
        return [a for p, a in moves if p == owner]
    return [a for p, a in moves if p != CHANCE]


def reroot_open_loop(root, actions):
    """The node of ``mcts.uct_search``'s tree reached from ``root`` by ``actions`` (None if a
    child is missing), made a root (TAG's ``rootify``): its visits are the selections made from
    it, and the cached views of its subtree, which belong to the old search's world, are
    cleared."""
    node = root
    for action in actions:
        node = node[2].get(action)
        if node is None:
            return None
    node[0] = sum(child[0] for child in node[2].values())
    stack = [node]
    while stack:
        nd = stack.pop()
        nd[4] = None
        stack.extend(nd[2].values())
    return node


def reroot_move_keys(nodes: dict, actions) -> dict:
    """``ISMCTSBot``'s move-keyed nodes (a key is ``(parent key, action)``, the root ``()``)
    under the node reached by ``actions``, keyed from it; empty when that node is absent."""
    prefix = ()
    for action in actions:
        prefix = (prefix, action)
    if prefix not in nodes:
        return {}
    depth = len(actions)
    kept = {}
    for key, node in nodes.items():
        steps = []
        while key != ():
            key, action = key
            steps.append(action)
        if len(steps) < depth:
            continue
        steps.reverse()
        if steps[:depth] != list(actions):
            continue
        new = ()
        for action in steps[depth:]:
            new = (new, action)
        kept[new] = node
    return kept
