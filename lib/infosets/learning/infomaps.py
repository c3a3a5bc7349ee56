"""Information maps over an OpenSpiel game: original, team view and relaxations, with checkers.

Follows Heymann & Lanctot, "Learning in Games with Progressive Hiding" (AAMAS 2025;
docs/papers/progressive_hiding.md), Section 2.5: an information map sends a history and its acting
player to the key of the information set the learner acts on. A map I' is *finer* than I when
I'(h) = I'(h') implies I(h) = I(h'); the relaxations below reveal private information and are
finer than the game's own map.

Maps (all functions of a `tree.NodeView`):
  * ``original``: the acting player's own infostate; one learner per player.
  * ``team``: the same keys, but all players form one learner (imperfect recall in general).
  * ``cheated``: team view; the acting player's infostate plus every chance outcome so far
    (private items revealed, still the team's imperfect recall of its own hidden actions).
  * ``perfect_recall``: team view; everything any team member has observed so far (the
    tuple of all players' infostates): the team remembers all it saw and did.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Hashable

import numpy as np
from scipy import sparse

from infosets.learning.tree import DECISION, GameTree, NodeView


@dataclasses.dataclass(frozen=True)
class InfoMap:
    """A named information map.

    Attributes:
      name: label used in tables and figures.
      key: NodeView -> hashable key of the learner's information set.
      team: if True all players are one learner (learner 0), else learner = acting player.
    """

    name: str
    key: Callable[[NodeView], Hashable]
    team: bool = False


def _original_key(view: NodeView):
    return (view.player, view.infostates[view.player])


def _cheated_key(view: NodeView):
    return (view.player, view.infostates[view.player], view.chance_actions)


def _perfect_recall_key(view: NodeView):
    return (view.player, view.infostates)


MAPS = {
    "original": InfoMap("original", _original_key, team=False),
    "team": InfoMap("team", _original_key, team=True),
    "cheated": InfoMap("cheated", _cheated_key, team=True),
    "perfect_recall": InfoMap("perfect_recall", _perfect_recall_key, team=True),
}


def get_map(name: str) -> InfoMap:
    """The information map called ``name`` (one of `MAPS`)."""
    if name not in MAPS:
        raise ValueError(f"infomap: {name!r} is not one of {sorted(MAPS)}")
    return MAPS[name]


@dataclasses.dataclass
class Infosets:
    """An information map evaluated on every decision node of a `GameTree`.

    Attributes:
      tree: the game tree.
      infomap: the map.
      node_infoset: per node its infoset index (-1 for chance and terminal nodes).
      keys: per infoset its key.
      player: per infoset the acting (OpenSpiel) player.
      learner: per infoset the learner (0 for a team map, else the player).
      num_learners: 1 for a team map, else the number of players.
      legal: per infoset the legal OpenSpiel actions (same order at every member node).
      mask: bool [num_infosets, tree.max_actions], True on legal slots.
      membership: sparse [num_infosets, num_nodes], 1 where the node belongs to the infoset.
    """

    tree: GameTree
    infomap: InfoMap
    node_infoset: np.ndarray
    keys: list
    player: np.ndarray
    learner: np.ndarray
    num_learners: int
    legal: list
    mask: np.ndarray
    membership: sparse.csr_matrix

    @property
    def num_infosets(self) -> int:
        return len(self.keys)

    def infostate_strings(self) -> list:
        """OpenSpiel infostate strings per infoset (for the game's own maps only)."""
        return [key[1] if isinstance(key, tuple) else key for key in self.keys]


def build_infosets(tree: GameTree, infomap: InfoMap | str) -> Infosets:
    """Evaluates ``infomap`` on every decision node of ``tree``.

    Raises:
      ValueError: if two nodes of one infoset have different acting players or legal actions.
    """
    if isinstance(infomap, str):
        infomap = get_map(infomap)
    index, keys, player, legal = {}, [], [], []
    node_infoset = np.full(tree.num_nodes, -1, dtype=np.int64)
    for node, view in zip(tree.decision_nodes, tree.views):
        key = infomap.key(view)
        k = index.get(key)
        if k is None:
            k = index[key] = len(keys)
            keys.append(key)
            player.append(view.player)
            legal.append(view.legal_actions)
        elif legal[k] != view.legal_actions or player[k] != view.player:
            raise ValueError(f"infomap: {infomap.name!r} merges nodes with different players "
                             f"or legal actions under key {key!r}")
        node_infoset[node] = k
    player = np.asarray(player, dtype=np.int64)
    mask = np.zeros((len(keys), tree.max_actions), dtype=bool)
    for k, acts in enumerate(legal):
        mask[k, :len(acts)] = True
    decision = tree.decision_nodes
    membership = sparse.csr_matrix(
        (np.ones(len(decision)), (node_infoset[decision], decision)),
        shape=(len(keys), tree.num_nodes))
    learner = np.zeros_like(player) if infomap.team else player.copy()
    return Infosets(tree=tree, infomap=infomap, node_infoset=node_infoset, keys=keys,
                    player=player, learner=learner,
                    num_learners=1 if infomap.team else tree.num_players,
                    legal=legal, mask=mask, membership=membership)


def coarsening(fine: Infosets, coarse: Infosets) -> np.ndarray | None:
    """Per fine infoset, the coarse infoset containing it; None if ``fine`` is not finer."""
    if fine.tree is not coarse.tree:
        raise ValueError("infosets: both maps must be built on the same GameTree")
    parent = np.full(fine.num_infosets, -1, dtype=np.int64)
    decision = fine.tree.decision_nodes
    f, c = fine.node_infoset[decision], coarse.node_infoset[decision]
    parent[f] = c
    if np.any(parent[f] != c):
        return None
    return parent


def is_finer(fine: Infosets, coarse: Infosets) -> bool:
    """True if ``fine`` refines ``coarse``: equal fine keys imply equal coarse keys."""
    return coarsening(fine, coarse) is not None


def require_finer(fine: Infosets, coarse: Infosets) -> np.ndarray:
    """`coarsening`, raising a one-line ValueError when ``fine`` is not finer."""
    parent = coarsening(fine, coarse)
    if parent is None:
        raise ValueError(f"relaxed_map: {fine.infomap.name!r} is not finer than "
                         f"{coarse.infomap.name!r} (one relaxed infoset spans several originals)")
    return parent


def has_perfect_recall(infosets: Infosets) -> bool:
    """True if every learner recalls its own past infosets and actions (Kuhn's perfect recall).

    For each learner, the sequence of (own infoset, own action) pairs from the root must be
    the same at every node of one infoset.
    """
    tree = infosets.tree
    seq_ids = {(): 0}
    own_seq = np.zeros((infosets.num_learners, tree.num_nodes), dtype=np.int64)
    for node in range(1, tree.num_nodes):
        par = tree.parent[node]
        own_seq[:, node] = own_seq[:, par]
        if tree.kind[par] == DECISION:
            k = infosets.node_infoset[par]
            learner = infosets.learner[k]
            key = (int(own_seq[learner, par]), int(k), int(tree.slot[node]))
            own_seq[learner, node] = seq_ids.setdefault(key, len(seq_ids))
    seen = {}
    for node in tree.decision_nodes:
        k = infosets.node_infoset[node]
        s = own_seq[infosets.learner[k], node]
        if seen.setdefault(k, s) != s:
            return False
    return True
