"""An OpenSpiel game tree flattened once into numpy arrays, for vectorised CFR and progressive hiding.

Supports Heymann & Lanctot, "Learning in Games with Progressive Hiding" (AAMAS 2025;
docs/papers/progressive_hiding.md): every learner there (CFR, regret matching, progressive hiding) is a
pass over these arrays instead of a walk over pyspiel states.

Nodes are numbered breadth first, so the children of a node are contiguous and each depth is
a contiguous slice. Node ``i > 0`` is also "edge" ``i``: the edge from ``parent[i]`` into ``i``.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pyspiel

CHANCE, DECISION, TERMINAL = 0, 1, 2


@dataclasses.dataclass(frozen=True)
class NodeView:
    """What an information map may look at in one decision node.

    Attributes:
      player: the acting player.
      history: every action from the root (chance outcomes included).
      chance_actions: the chance outcomes in ``history``, in order.
      infostates: ``information_state_string(p)`` for every player ``p``.
      legal_actions: the acting player's legal actions.
    """

    player: int
    history: tuple
    chance_actions: tuple
    infostates: tuple
    legal_actions: tuple


@dataclasses.dataclass
class GameTree:
    """Arrays describing every history of a finite sequential OpenSpiel game.

    Attributes:
      game: the pyspiel game.
      num_players: players of the game.
      kind: per node CHANCE, DECISION or TERMINAL.
      player: per node the acting player (-1 for chance and terminal nodes).
      parent: per node its parent (-1 for the root).
      slot: per node the index of the action leading to it in the parent's legal actions.
      action: per node the OpenSpiel action leading to it (-1 for the root).
      chance_prob: per node the chance probability of its incoming edge (1 elsewhere).
      chance_reach: per node the product of chance probabilities from the root.
      returns: per node the returns of every player (zero except at terminals).
      level_bounds: node ids of depth d are ``level_bounds[d]:level_bounds[d + 1]``.
      child_start, child_count: the children of node i are
        ``child_start[i] : child_start[i] + child_count[i]``.
      decision_nodes: ids of decision nodes; ``views[k]`` describes ``decision_nodes[k]``.
      max_actions: the largest number of legal actions of any decision node.
    """

    game: pyspiel.Game
    num_players: int
    kind: np.ndarray
    player: np.ndarray
    parent: np.ndarray
    slot: np.ndarray
    action: np.ndarray
    chance_prob: np.ndarray
    chance_reach: np.ndarray
    returns: np.ndarray
    level_bounds: np.ndarray
    child_start: np.ndarray
    child_count: np.ndarray
    decision_nodes: np.ndarray
    views: list
    max_actions: int

    @property
    def num_nodes(self) -> int:
        return len(self.kind)

    @property
    def num_levels(self) -> int:
        return len(self.level_bounds) - 1

    def level(self, depth: int) -> slice:
        return slice(int(self.level_bounds[depth]), int(self.level_bounds[depth + 1]))


def build_tree(game: pyspiel.Game | str, max_nodes: int = 2_000_000) -> GameTree:
    """Enumerates the game breadth first into a `GameTree`.

    Args:
      game: a pyspiel game or game string (sequential, finite).
      max_nodes: refuse games with more histories than this.

    Returns:
      The flattened tree.
    """
    if isinstance(game, str):
        try:
            game = pyspiel.load_game(game)
        except pyspiel.SpielError as err:
            raise ValueError(f"game: unknown or invalid OpenSpiel game string {game!r}") from err
    if game.get_type().dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL:
        raise ValueError("game: must be sequential (wrap simultaneous games first)")
    num_players = game.num_players()
    kind, player, parent, slot, action, cprob = [], [], [], [], [], []
    returns, views, decision_nodes = [], [], []
    child_start, child_count = [], []
    level_bounds = [0]
    # frontier entries: (state, parent id, slot, action, chance prob, chance actions)
    frontier = [(game.new_initial_state(), -1, -1, -1, 1.0, ())]
    while frontier:
        next_frontier = []
        base = len(kind)
        for offset, (state, par, slt, act, prob, chance_actions) in enumerate(frontier):
            node = base + offset
            kind_here = (TERMINAL if state.is_terminal() else
                         CHANCE if state.is_chance_node() else DECISION)
            kind.append(kind_here)
            parent.append(par)
            slot.append(slt)
            action.append(act)
            cprob.append(prob)
            child_start.append(base + len(frontier) + len(next_frontier))
            if kind_here == TERMINAL:
                player.append(-1)
                returns.append(state.returns())
                child_count.append(0)
                continue
            returns.append([0.0] * num_players)
            if kind_here == CHANCE:
                player.append(-1)
                outcomes = state.chance_outcomes()
                child_count.append(len(outcomes))
                for k, (a, p) in enumerate(outcomes):
                    next_frontier.append((state.child(a), node, k, a, p, chance_actions + (a,)))
                continue
            current = state.current_player()
            player.append(current)
            legal = tuple(state.legal_actions(current))
            decision_nodes.append(node)
            views.append(NodeView(
                player=current, history=tuple(state.history()), chance_actions=chance_actions,
                infostates=tuple(state.information_state_string(p) for p in range(num_players)),
                legal_actions=legal))
            child_count.append(len(legal))
            for k, a in enumerate(legal):
                next_frontier.append((state.child(a), node, k, a, 1.0, chance_actions))
        level_bounds.append(len(kind))
        if len(kind) + len(next_frontier) > max_nodes:
            raise ValueError(f"game: more than max_nodes={max_nodes} histories; use a smaller game")
        frontier = next_frontier
    kind = np.asarray(kind, dtype=np.int8)
    parent = np.asarray(parent, dtype=np.int64)
    cprob = np.asarray(cprob, dtype=np.float64)
    chance_reach = np.ones(len(kind))
    for d in range(1, len(level_bounds) - 1):
        lo, hi = level_bounds[d], level_bounds[d + 1]
        chance_reach[lo:hi] = chance_reach[parent[lo:hi]] * cprob[lo:hi]
    max_actions = max((len(v.legal_actions) for v in views), default=1)
    return GameTree(
        game=game, num_players=num_players, kind=kind,
        player=np.asarray(player, dtype=np.int64), parent=parent,
        slot=np.asarray(slot, dtype=np.int64), action=np.asarray(action, dtype=np.int64),
        chance_prob=cprob, chance_reach=chance_reach,
        returns=np.asarray(returns, dtype=np.float64).reshape(len(kind), num_players),
        level_bounds=np.asarray(level_bounds, dtype=np.int64),
        child_start=np.asarray(child_start, dtype=np.int64),
        child_count=np.asarray(child_count, dtype=np.int64),
        decision_nodes=np.asarray(decision_nodes, dtype=np.int64), views=views,
        max_actions=max_actions)
