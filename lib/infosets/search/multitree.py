"""MultiTree MCTS as TAG runs it: one open-loop tree per player, a fresh world each iteration.

The PI-MCTS paper (Ravichandran, Goodman and Lucas, "PIMCTS evaluation in tabletop games",
docs/papers/pimcts_aggregation.md) runs TAG's own agent, whose tuned files for Stratego,
Dominion, Poker and Colt Express set ``opponentTreePolicy = MultiTree``: multiple-observer
IS-MCTS (Cowling, Powley and Whitehouse 2012), one tree per player. This module is the readable
reference of that search; ``infosets.search.multitree_nb`` is its compiled twin (the same
search draw for draw on a game kernel). The semantics are read from GAIGResearch/TabletopGames
at commit c4d7687cd6162405806a0dd1e1b31804f8a81b93 (``src/main/java/players/mcts/``:
``MultiTreeNode.oneSearchIteration`` and ``updateCurrentLocation``; ``SingleTreeNode``'s
``mctsSearch``, ``treePolicyAction``, ``ucbValue``, ``finishRollout``, ``backUp``,
``backUpSingleNode``) and summarised in docs/tag_agents.md, section 1:

* **Trees.** Player p's tree holds p's own moves only (a node is p's action sequence since its
  root; everything between is open loop). The root player's root is made with the search;
  another player's root the first time that player is to move in any iteration.
* **One iteration** starts from a world drawn from the root player's information state
  (``sampler``, TAG's ``Information_Set``) and plays the game, whoever moves: at the actor's
  turn its pointer moves to the child of its previous tree move, or that child is made and
  the actor is *expanded*; an expanded actor (or one past ``max_depth``) moves by the rollout
  policy, any other by its tree's policy with its own statistics. After every move the chance
  that follows it is drawn (chance is inside TAG's forward model) and the iteration stops at
  the end of the game or by ``finishRollout`` (EXACT: once ``rollout_length`` rollout moves of
  players were made; tree moves are not counted). So with ``rollout_length = 0`` each
  iteration is one tree move of the root player: a one-ply bandit. END_TURN / END_ROUND
  (``settings.rollout_termination``, the game's ``counter``, ``kernels.rollout_counter``): once
  that many rollout moves were made, stop after a move when the counter differs from its value
  before the iteration's last rollout move (TAG's ``lastTurnInRollout``/``lastRoundInRollout``,
  set in ``advanceState`` for rollout moves only), so never before one rollout move: TAG's
  MultiTree never resets those fields per iteration and compares a value left by an earlier
  iteration (0 at first) until its first rollout move, which we do not copy. (``settings.rollout_count``
  is not read: here the length always counts the players' moves, TAG's rule; nor is
  ``settings.opponent_tree``, which callers read to choose this search.)
* **Backup.** The final state is evaluated once (its returns at the end, else the heuristic,
  mapped to [0, 1] by ``scale``); every tree's reward bounds take the vector, and each tree
  move adds its mover's reward to its (node, action). An action's availability (TAG's
  ``validVisits``, the N of UCB) counts the visits of its node at which it was legal; it is
  added right after the selection, which is the same as TAG adding it in the backup because a
  node is visited at most once per iteration. TAG stores raw rewards; UCB, UCB-Tuned and EXP3
  read them normalised by the tree's bounds, which an affine ``scale`` does not change, while
  NoAveragingRM's regrets are on the stored scale, as in the other engines.
* **Tree policies** (``settings.tree_policy``): "UCB" is TAG's ``ucbValue``: the mean
  normalised by the tree's reward bounds plus ``uct_c * sqrt(ln N / n)`` (TAG's plain UCB has no
  K: it is ``uct_c = 1``), an unvisited action ``max(FPU, uct_c sqrt(N))``, ties uniformly at
  random (``tag_rules.argmax_tiebreak``); "UCB_Tuned", "NoAveragingRM" and "EXP3" are
  ``common.tag_choice``. ``fpu`` None is TAG's 1e6; ``explore_epsilon`` applies to
  NoAveragingRM and EXP3 only, as in TAG. A node with one legal action takes it without a draw.
* **Rollouts**: uniformly random, or TAG's MAST (``settings.rollout``), for every player
  (``mast_opponents`` "MAST", TAG c4d7687's opponent model DEFAULT) or for the root player only,
  the others uniformly at random with one draw (``mast_opponents`` "random", the authors'
  submission code GAIGResearch/TabletopGames c6d074e6646916e9f28082b03845625c881593ee,
  ``MultiTreeNode.oneSearchIteration``: ``currentActor == decisionPlayer ?
  getRolloutStrategy() : getOpponentModel()``, oppModelType RANDOM); the MAST table is decayed at
  the start of the search and updated once per iteration with every player's moves (the
  rollout's, then the tree's, with the raw evaluation), as in ``ISMCTSBot``.
* **Final move** from the root player's tree: ``best_action`` (TAG's SIMPLE, the highest mean,
  ties at random). Under ``tree_policy`` "RegretMatching" (selection as NoAveragingRM in every
  tree) the root player's root keeps the average strategy as the single tree does
  (``common.RootAverage``: after each backup that brings its visits to a multiple of
  max(#actions, 10), the top-up at the end), and the move is sampled from it
  (``common.rm_final``): the submission code's ``MultiTreeNode.bestAction`` is
  ``roots[decisionPlayer].bestAction()``, whose ``backUpSingleNode`` keeps the average.

Not modelled: MaxMC backup, the rollout terminations END_ACTION and START_ACTION (no paper row
uses them), tree reuse, paranoid backups. TAG's ``rolloutLengthPerPlayer`` is the callers'
(``pimcts_tag_agents.tag_agent_kwargs`` multiplies the length).
"""

from __future__ import annotations

import math

import pyspiel

from infosets.core.chance import sample_chance
from infosets.search import tag_rules as tr
from infosets.search.common import RootAverage, argmax_random, tag_choice
from infosets.search.settings import DEFAULT, MCTSSettings

CHANCE = int(pyspiel.PlayerId.CHANCE)
TERMINAL = int(pyspiel.PlayerId.TERMINAL)
N, VALID, W, Q = range(4)  # an action's statistics: visits, availability, reward sum, squares


class TreeNode:
    """A node of one player's tree: its ``depth`` below the tree's root, ``visits`` and reward
    sum ``wsum`` over the selections made from it (TAG's ``nVisits`` and ``nodeValue``), per
    action ``stats[a] = [visits, availability, reward sum, sum of squares]`` (an entry for every
    action ever legal here) and ``children`` keyed by the owner's own action."""

    __slots__ = ("depth", "visits", "wsum", "stats", "children")

    def __init__(self, depth: int):
        self.depth = depth
        self.visits = 0
        self.wsum = 0.0
        self.stats: dict[int, list] = {}
        self.children: dict[int, TreeNode] = {}

    def size(self) -> int:
        """Nodes in the subtree rooted here."""
        return 1 + sum(child.size() for child in self.children.values())


def ucb_scores(n, w, valid, low: float, high: float, c: float, fpu: float) -> list[float]:
    """TAG's plain UCB (``SingleTreeNode.ucbValue``, ``default`` branch) with exploration weight
    ``c``: ``normalise(w/n, low, high) + c sqrt(ln N / n)`` for a visited action, ``max(fpu,
    c sqrt(N))`` for an unvisited one, ``N`` the action's availability count."""
    out = []
    for k in range(len(n)):
        if n[k] == 0:
            out.append(max(fpu, c * math.sqrt(valid[k])))
        else:
            out.append(tr.normalise(w[k] / n[k], low, high) + c * math.sqrt(math.log(valid[k]) / n[k]))
    return out


def check_settings(settings: MCTSSettings, uct_c: float) -> None:
    """A one-line ValueError for what MultiTree cannot run: a backup other than the mean, a
    rollout termination other than EXACT, END_TURN and END_ROUND, tree reuse, an exploration
    weight that is not a finite number >= 0."""
    if settings.backup != "mean":
        raise ValueError(f"backup: MultiTree backs up the mean only, got {settings.backup!r}")
    if settings.rollout_termination not in ("EXACT", "END_TURN", "END_ROUND"):
        raise ValueError("rollout_termination: MultiTree stops by EXACT, END_TURN or END_ROUND only, "
                         f"got {settings.rollout_termination!r}")
    if settings.reuse_tree:
        raise ValueError("reuse_tree: MultiTree does not keep its trees between decisions yet")
    if not (math.isfinite(uct_c) and uct_c >= 0):
        raise ValueError(f"uct_c: must be a finite number >= 0, got {uct_c}")


class MultiTree:
    """The trees of one MultiTree search: ``roots[p]`` (None until p first moves), per-tree
    reward ``bounds[p] = [low, high]``; ``iterate`` runs one iteration on a world.

    ``scale`` (``common.RewardScale`` or None for raw rewards) maps an evaluation to the stored
    rewards; ``heuristic(state) -> values`` scores a state cut off before the end; ``mast`` is the
    table (``mast_n``, ``mast_w``) under MAST rollouts, updated in place; ``mast_player`` the
    one player moving by MAST under ``mast_opponents`` "random" (None: every player);
    ``counter(state) -> int`` the game's turn or round counter under END_TURN / END_ROUND.
    ``rm_average``: under RegretMatching, the root's (legal actions, summed distributions) after
    ``multitree_search``.
    """

    def __init__(
        self,
        player: int,
        num_players: int,
        settings: MCTSSettings = DEFAULT,
        uct_c: float = 1.0,
        scale=None,
        mast=None,
        counter=None,
    ):
        if not 0 <= player < num_players:
            raise ValueError(f"player: must be in 0..{num_players - 1}, got {player}")
        check_settings(settings, uct_c)
        if settings.rollout == "MAST" and mast is None:
            raise ValueError("mast: MAST rollouts need the table (mast_n, mast_w)")
        if settings.rollout_termination != "EXACT" and counter is None:
            raise ValueError(f"counter: {settings.rollout_termination} needs the game's turn/round counter")
        self.counter, self.termination = counter, tr.TERMINATIONS[settings.rollout_termination]
        self.player, self.num_players, self.settings = player, num_players, settings
        self.uct_c, self.scale, self.mast = float(uct_c), scale, mast
        self.fpu = tr.FPU_DEFAULT if settings.fpu is None else settings.fpu
        self.roots: list[TreeNode | None] = [None] * num_players
        self.roots[player] = TreeNode(0)
        self.bounds = [[math.inf, -math.inf] for _ in range(num_players)]
        random_opponents = settings.rollout == "MAST" and settings.mast_opponents == "random"
        self.mast_player = player if random_opponents else None
        self.rm_average = None

    # -- one iteration -------------------------------------------------------------------
    def iterate(self, world, rnd) -> None:
        """One iteration (``MultiTreeNode.oneSearchIteration``) on ``world`` (played in place)."""
        players, limit, max_depth = self.num_players, self.settings.rollout_length, self.settings.max_depth
        cur, last = list(self.roots), [None] * players
        expanded, depth_hit = [False] * players, [False] * players
        path, rollout = [], []  # tree moves (node, action, mover); rollout moves (mover, action)
        counter, count = self.counter, None  # END_TURN/END_ROUND: the count before the last rollout move
        mover = _settle(world, rnd)
        while mover != TERMINAL:
            node = cur[mover]
            if node is None:  # the player's first move in the search: its tree's root
                node = cur[mover] = self.roots[mover] = TreeNode(0)
            if last[mover] is not None and not expanded[mover]:  # updateCurrentLocation
                child = node.children.get(last[mover])
                if child is None:
                    child = node.children[last[mover]] = TreeNode(node.depth + 1)
                    expanded[mover] = True
                node = cur[mover] = child
            last[mover] = None
            legal = world.legal_actions()
            if expanded[mover] or depth_hit[mover]:
                action = self._rollout_move(world, mover, legal, rnd)
                rollout.append((mover, action))
                if counter is not None:
                    count = counter(world)
            else:
                action = self._select(node, mover, legal, rnd)
                path.append((node, action, mover))
                last[mover] = action
                if max_depth is not None and node.depth >= max_depth:
                    depth_hit[mover] = True
            world.apply_action(action)
            mover = _settle(world, rnd)
            if limit is not None and mover != TERMINAL:
                changed = count is not None and counter(world) != count
                if tr.rollout_finished(False, len(rollout), limit, self.termination, changed, changed):
                    break
        values = list(world.returns()) if mover == TERMINAL else list(self.settings.heuristic(world))
        self._backup(path, values)
        if self.mast is not None:  # MAST Both: the rollout's moves, then the tree's
            moves = rollout + [(m, a) for _, a, m in path]
            tr.mast_update(*self.mast, [m for m, _ in moves], [a for _, a in moves], values)

    def _select(self, node: TreeNode, mover: int, legal, rnd) -> int:
        """The tree move at ``node`` by the mover's statistics (``treePolicyAction``); every
        legal action gains an entry (``setActionsFromOpenLoopState``) and one availability."""
        stats = node.stats
        rows = []
        for a in legal:
            row = stats.get(a)
            if row is None:
                row = stats[a] = [0, 0, 0.0, 0.0]
            rows.append(row)
        if len(rows) == 1:
            index = 0
        else:
            n, valid = [r[N] for r in rows], [r[VALID] for r in rows]
            w, q = [r[W] for r in rows], [r[Q] for r in rows]
            low, high = self.bounds[mover]
            settings = self.settings
            if settings.tree_policy == "UCB":
                index = tr.argmax_tiebreak(ucb_scores(n, w, valid, low, high, self.uct_c, self.fpu), rnd)
            else:
                index = tag_choice(
                    settings.tree_policy,
                    n,
                    w,
                    q,
                    valid,
                    node.visits,
                    node.wsum,
                    low,
                    high,
                    self.uct_c,
                    self.fpu,
                    settings.explore_epsilon,
                    rnd,
                )
        for row in rows:
            row[VALID] += 1
        return legal[index]

    def _rollout_move(self, world, mover: int, legal, rnd) -> int:
        """A rollout move: uniformly random (one draw, as ``common.random_rollout``) or MAST's
        (every player's, or the root player's only under ``mast_opponents`` "random")."""
        if self.settings.rollout == "MAST" and self.mast_player in (None, mover):
            values = tr.mast_values(self.mast[0], self.mast[1], mover, legal)
            return legal[tr.mast_rollout_choice(values, rnd, self.settings.mast_boltzmann)]
        return legal[int(rnd.random() * len(legal))]

    def _backup(self, path, values) -> None:
        """Every tree's bounds take the stored vector; each tree move adds its mover's reward."""
        scale = self.scale
        vec = list(values) if scale is None or not scale.normalize else scale(values)
        for p in range(self.num_players):
            if self.roots[p] is not None:
                self.bounds[p] = list(tr.update_reward_bounds(*self.bounds[p], vec))
        for node, action, mover in path:
            r = vec[mover]
            node.visits += 1
            node.wsum += r
            row = node.stats[action]
            row[N] += 1
            row[W] += r
            row[Q] += r * r

    # -- results -------------------------------------------------------------------------
    def root_stats(self, player: int | None = None) -> dict[int, tuple[int, float]]:
        """{action: (visits, mean stored reward)} at ``player``'s root (default the searching
        player's), every action seen there; {} for a player without a tree."""
        root = self.roots[self.player if player is None else player]
        if root is None:
            return {}
        return {a: (r[N], r[W] / r[N] if r[N] else 0.0) for a, r in sorted(root.stats.items())}

    def sizes(self) -> list[int]:
        """Nodes per player's tree (0: no tree)."""
        return [0 if root is None else root.size() for root in self.roots]


def _settle(world, rnd) -> int:
    """Draw the chance outcomes at ``world`` until a player is to move or the game is over."""
    mover = world.current_player()
    while mover == CHANCE:
        world.apply_action(sample_chance(world, rnd))
        mover = world.current_player()
    return mover


def multitree_search(
    state,
    player: int,
    iterations: int,
    rnd,
    *,
    num_players: int,
    sampler,
    settings: MCTSSettings = DEFAULT,
    uct_c: float = 1.0,
    scale=None,
    mast=None,
    world_rng=None,
    counter=None,
) -> MultiTree:
    """A MultiTree search of ``iterations`` iterations from ``state`` (``player`` to move), each
    on a world ``sampler(state, player, world_rng)``; ``world_rng`` defaults to ``rnd``, the
    search's PCG32 that every other draw uses (a kernel determinizer draws from it, as the
    compiled twin does; a sampler drawing from a numpy Generator is given one here).
    ``settings``: tree policy, rollout, rollout length and its ``heuristic``, max depth, FPU,
    epsilon (``MCTSSettings``); ``scale``: ``common.RewardScale`` (None: raw rewards); ``mast``:
    the MAST table, decayed by ``settings.mast_gamma`` first; ``counter``: the game's turn or
    round counter under END_TURN / END_ROUND (``kernels.rollout_counter``). Returns the trees
    (``root_stats``, ``sizes``); ``best_action(trees.root_stats(), rnd)`` is the move (under
    RegretMatching ``common.rm_final(*trees.rm_average, rnd)``)."""
    if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1:
        raise ValueError(f"iterations: must be an int >= 1, got {iterations!r}")
    if settings.rollout_length is not None and settings.heuristic is None:
        raise ValueError("settings: a rollout_length needs a heuristic")
    if settings.rollout == "MAST" and mast is not None:
        tr.mast_decay(*mast, settings.mast_gamma)
    table = mast if settings.rollout == "MAST" else None
    trees = MultiTree(player, num_players, settings, uct_c, scale, table, counter)
    regret_matching = settings.tree_policy == "RegretMatching"
    rm = RootAverage(state.legal_actions(), settings.fpu) if regret_matching else None
    root = trees.roots[player]
    for _ in range(iterations):
        trees.iterate(sampler(state, player, rnd if world_rng is None else world_rng), rnd)
        if rm is not None and rm.due(root.visits):
            rm.add(*_rm_root(root, rm.legal))
    if rm is not None:
        trees.rm_average = rm.finish(*_rm_root(root, rm.legal))
    return trees


def _rm_root(root: TreeNode, legal):
    """RegretMatching: the root's statistics for ``common.RootAverage`` over ``legal``: its
    actions' visits and reward sums, its selections and their reward sum."""
    stats = root.stats
    n = [stats[a][N] if a in stats else 0 for a in legal]
    return n, [stats[a][W] if a in stats else 0.0 for a in legal], root.visits, root.wsum


def best_action(root: dict[int, tuple[int, float]], rnd):
    """The final move from root statistics {action: (visits, mean)}: the highest mean among
    visited actions (TAG's SIMPLE), ties uniformly at random; None if none was visited."""
    visited = {a: s[1] for a, s in root.items() if s[0] > 0}
    return argmax_random(visited, rnd) if visited else None
