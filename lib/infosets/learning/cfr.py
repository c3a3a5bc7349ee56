"""CFR as numpy array passes on an information map, and Monte Carlo CFR (external/outcome).

Supports Heymann & Lanctot, "Learning in Games with Progressive Hiding" (AAMAS 2025;
docs/papers/progressive_hiding.md), Section 2.7: CFR keeps one local regret minimiser per information
set of the map and feeds it counterfactual values. On a game's own (perfect-recall) map with
regret matching and alternating updates, `CFRSolver` reproduces OpenSpiel's Python
`cfr.CFRSolver` iterate for iterate. A leading batch axis runs several independent learners
(for instance from different random initial policies) in one pass.
"""

from __future__ import annotations

import numpy as np
from scipy import sparse

from infosets.core.rng import as_generator
from infosets.learning import infomaps
from infosets.learning.regret import make_minimizer, random_policy
from infosets.learning.tree import CHANCE, DECISION, TERMINAL, GameTree, build_tree


class TreeKernel:
    """Array passes (reach, values, per-infoset sums) of one information map on a tree."""

    def __init__(self, infosets: infomaps.Infosets):
        tree = infosets.tree
        self.tree, self.infosets = tree, infosets
        n, width = tree.num_nodes, tree.max_actions
        par = np.where(tree.parent >= 0, tree.parent, 0)
        parent_kind = np.where(tree.parent >= 0, tree.kind[par], -1)
        self.decision_edge = np.flatnonzero(parent_kind == DECISION)
        self.chance_edge = parent_kind == CHANCE
        parent_infoset = infosets.node_infoset[par]
        self.edge_flat = parent_infoset[self.decision_edge] * width + tree.slot[self.decision_edge]
        # edge_learner[i]: learner acting on the edge into node i (-1 chance/root)
        self.edge_learner = np.full(n, -1, dtype=np.int64)
        self.edge_learner[self.decision_edge] = infosets.learner[parent_infoset[self.decision_edge]]
        self.base_prob = np.where(self.chance_edge, tree.chance_prob, 1.0)
        # sum over decision edges into (infoset, slot)
        self.edge_to_slot = sparse.csr_matrix(
            (np.ones(len(self.decision_edge)), (self.edge_flat, self.decision_edge)),
            shape=(infosets.num_infosets * width, n))
        self.levels = []
        for d in range(tree.num_levels - 1):
            parents = np.arange(tree.level_bounds[d], tree.level_bounds[d + 1])
            parents = parents[tree.child_count[parents] > 0]
            child = tree.level(d + 1)
            offsets = tree.child_start[parents] - child.start
            self.levels.append((parents, child, offsets))
        self.safe_parent = par  # parent id, 0 for the root (its edge is never used)

    def edge_probs(self, policy: np.ndarray) -> np.ndarray:
        """[B, N] probability of the edge into each node under ``policy`` [B, I, A]."""
        batch = policy.shape[0]
        probs = np.broadcast_to(self.base_prob, (batch, self.tree.num_nodes)).copy()
        probs[:, self.decision_edge] = policy.reshape(batch, -1)[:, self.edge_flat]
        return probs

    def reach(self, probs: np.ndarray, learner: int | None = None) -> np.ndarray:
        """[B, N] product of edge probabilities from the root.

        learner: None for all edges (chance included); else only that learner's edges.
        """
        factor = probs if learner is None else np.where(self.edge_learner == learner, probs, 1.0)
        reach = np.ones_like(factor)
        parent = self.tree.parent
        for _, child, _ in self.levels:
            reach[:, child] = reach[:, parent[child]] * factor[:, child]
        return reach

    def values(self, probs: np.ndarray, utility: np.ndarray) -> np.ndarray:
        """[B, N] expected ``utility`` (per node, nonzero at terminals) below each node."""
        values = np.broadcast_to(utility, probs.shape).copy()
        for parents, child, offsets in reversed(self.levels):
            weighted = probs[:, child] * values[:, child]
            values[:, parents] = np.add.reduceat(weighted, offsets, axis=1)
        return values

    def sum_edges(self, x: np.ndarray) -> np.ndarray:
        """[B, I, A]: ``x`` [B, N] (a value per edge) summed into (infoset, slot)."""
        out = self.edge_to_slot @ x.T
        return np.asarray(out).T.reshape(x.shape[0], self.infosets.num_infosets, -1)

    def sum_nodes(self, x: np.ndarray) -> np.ndarray:
        """[B, I]: ``x`` [B, N] (a value per node) summed over each infoset's nodes."""
        return np.asarray(self.infosets.membership @ x.T).T

    def counterfactual_reach(self, probs: np.ndarray, need_own: bool = True):
        """Per learner, [B, N]: (chance times every other learner's reach, own reach).

        With one learner the counterfactual reach is the chance reach; own reach is only
        computed when ``need_own`` (else the second list holds None).
        """
        count = self.infosets.num_learners
        if count == 1:
            chance = np.broadcast_to(self.tree.chance_reach, probs.shape)
            return [chance], [self.reach(probs, learner=0) if need_own else None]
        per_learner = [self.reach(probs, learner=learner_id) for learner_id in range(count)]
        out = []
        for learner_id in range(count):
            cf = np.broadcast_to(self.tree.chance_reach, probs.shape).copy()
            for other in range(count):
                if other != learner_id:
                    cf *= per_learner[other]
            out.append(cf)
        return out, per_learner

    def utility(self, learner: int) -> np.ndarray:
        """Per-node utility of ``learner`` (a team learns player 0's payoff: common payoff)."""
        player = 0 if self.infosets.infomap.team else learner
        return self.tree.returns[:, player]

    def counterfactual_values(self, probs: np.ndarray, learners=None, need_own: bool = True):
        """Counterfactual action values q[B, I, A] for the infosets of ``learners``.

        Returns (q, values, own_reach): values per learner [B, N] and own reach per learner
        (see `counterfactual_reach` for ``need_own``).
        """
        learners = range(self.infosets.num_learners) if learners is None else learners
        cf_reach, own_reach = self.counterfactual_reach(probs, need_own)
        q = np.zeros((probs.shape[0], self.infosets.num_infosets, self.tree.max_actions))
        values = {}
        for learner_id in learners:
            values[learner_id] = self.values(probs, self.utility(learner_id))
            edge_value = cf_reach[learner_id][:, self.safe_parent] * values[learner_id]
            edge_value[:, self.edge_learner != learner_id] = 0.0
            q += self.sum_edges(edge_value)
        return q, values, own_reach

    def expected_returns(self, policy: np.ndarray) -> np.ndarray:
        """[B, players] expected returns of ``policy`` [B, I, A]."""
        reach = self.reach(self.edge_probs(policy))
        return reach @ self.tree.returns


def as_tree(game) -> GameTree:
    """``game`` itself if it is a GameTree, else its tree (``build_tree``: a pyspiel game or a
    game string); the solvers of cfr and hiding take either."""
    return game if isinstance(game, GameTree) else build_tree(game)


class CFRSolver:
    """Full-traversal CFR on an information map.

    Args:
      game: a GameTree, pyspiel game or game string.
      infomap: map name or InfoMap (default: the game's own infostates, one learner per player).
      minimizer: "rm" (CFR), "rm+" or "ftrl".
      alternating: learners update in turn (OpenSpiel's default) or simultaneously.
      linear_averaging: weight iteration t's policy by t in the average.
      step_size: FTRL step size (> 0).
      num_runs: independent learners run side by side (batch axis).
      initial_policy: "uniform" or "random" (Dirichlet(1) per infoset, from ``rng``).
      rng: numpy Generator, SeedSequence or int seed, required when initial_policy == "random".
    """

    def __init__(self, game, infomap="original", minimizer: str = "rm",
                 alternating: bool = True, linear_averaging: bool = False,
                 step_size: float = 1.0, num_runs: int = 1, initial_policy: str = "uniform",
                 rng: np.random.Generator | None = None):
        if num_runs < 1:
            raise ValueError(f"num_runs: must be >= 1, got {num_runs}")
        if not step_size > 0:
            raise ValueError(f"step_size: must be > 0, got {step_size}")
        self.tree = as_tree(game)
        self.infosets = (infomap if isinstance(infomap, infomaps.Infosets)
                         else infomaps.build_infosets(self.tree, infomap))
        self.kernel = TreeKernel(self.infosets)
        mask = np.broadcast_to(self.infosets.mask, (num_runs,) + self.infosets.mask.shape)
        init = initial_policy_array(mask, initial_policy, rng)
        self.minimizer = make_minimizer(minimizer, mask, init, step_size=step_size)
        self.alternating, self.linear_averaging = alternating, linear_averaging
        self.num_runs = num_runs
        self.iteration = 0
        self.cumulative_policy = np.zeros(mask.shape)

    def current_policy(self) -> np.ndarray:
        """[B, I, A] current policy."""
        return self.minimizer.decide()

    def average_policy(self) -> np.ndarray:
        """[B, I, A] own-reach-weighted average policy (current policy before any update)."""
        total = self.cumulative_policy.sum(axis=-1, keepdims=True)
        fallback = self.infosets.mask / self.infosets.mask.sum(axis=-1, keepdims=True)
        return np.where(total > 0, self.cumulative_policy / np.where(total > 0, total, 1),
                        fallback)

    def _update(self, learners) -> None:
        policy = self.minimizer.decide()
        probs = self.kernel.edge_probs(policy)
        q, _, own_reach = self.kernel.counterfactual_values(probs, learners)
        weight = self.iteration if self.linear_averaging else 1.0
        for learner_id in learners:
            own = self.kernel.sum_nodes(own_reach[learner_id])
            rows = self.infosets.learner == learner_id
            self.cumulative_policy[:, rows] += weight * own[:, rows, None] * policy[:, rows]
        self.minimizer.observe(q)

    def step(self) -> None:
        """One CFR iteration (every learner updated once)."""
        self.iteration += 1
        if self.alternating:
            for learner_id in range(self.infosets.num_learners):
                self._update([learner_id])
        else:
            self._update(list(range(self.infosets.num_learners)))

    def run(self, iterations: int) -> None:
        for _ in range(iterations):
            self.step()

    def expected_returns(self, which: str = "current") -> np.ndarray:
        """[B, players] expected returns of the current or average policy."""
        policy = self.current_policy() if which == "current" else self.average_policy()
        return self.kernel.expected_returns(policy)

    def tabular_policy(self, which: str = "average", run: int = 0):
        """The policy of run ``run`` as an OpenSpiel TabularPolicy (game's own maps only)."""
        policy = self.current_policy() if which == "current" else self.average_policy()
        return to_tabular_policy(self.infosets, policy[run])


def initial_policy_array(mask: np.ndarray, initial_policy: str, rng):
    """Initial distributions: None for uniform, Dirichlet(1) draws for "random"."""
    if initial_policy == "uniform":
        return None
    if initial_policy == "random":
        return random_policy(mask, as_generator(rng))
    raise ValueError(f"initial_policy: {initial_policy!r} is not one of ['uniform', 'random']")


def to_tabular_policy(infosets: infomaps.Infosets, policy: np.ndarray):
    """An OpenSpiel TabularPolicy from ``policy`` [I, A] on the game's own infostates."""
    from open_spiel.python import policy as os_policy

    if infosets.infomap.key is not infomaps.MAPS["original"].key:
        raise ValueError("infosets: only the game's own infostates convert to a TabularPolicy")
    tabular = os_policy.TabularPolicy(infosets.tree.game)
    for k, key in enumerate(infosets.infostate_strings()):
        row = tabular.state_lookup.get(key)
        if row is None:
            continue
        tabular.action_probability_array[row] = 0.0
        tabular.action_probability_array[row, list(infosets.legal[k])] = \
            policy[k, :len(infosets.legal[k])]
    return tabular


class MonteCarloCFR:
    """Monte Carlo CFR on an information map (one run), sampling on the flattened tree.

    Args:
      game: a GameTree, pyspiel game or game string.
      infomap: map name or InfoMap.
      sampling: "external" (sample chance and other learners, explore the updated learner)
        or "outcome" (one sampled trajectory, epsilon-exploration, importance weights).
      minimizer: "rm", "rm+" or "ftrl"; step_size: FTRL's.
      epsilon: outcome-sampling exploration in (0, 1].
      initial_policy: "uniform" or "random".
      rng: numpy Generator, SeedSequence or int seed (required; ``infosets.core.rng``).
      reward_hook: optional callable(q [I, A], visited bool [I]) -> q, applied to the sampled
        counterfactual values before the minimiser observes them (progressive hiding's penalty).
    """

    def __init__(self, game, infomap="original", sampling: str = "external",
                 minimizer: str = "rm", step_size: float = 1.0, epsilon: float = 0.6,
                 initial_policy: str = "uniform", rng: np.random.Generator | None = None,
                 reward_hook=None):
        if sampling not in ("external", "outcome"):
            raise ValueError(f"sampling: {sampling!r} is not one of ['external', 'outcome']")
        if not 0 < epsilon <= 1:
            raise ValueError(f"epsilon: must be in (0, 1], got {epsilon}")
        rng = as_generator(rng)
        self.tree = as_tree(game)
        self.infosets = (infomap if isinstance(infomap, infomaps.Infosets)
                         else infomaps.build_infosets(self.tree, infomap))
        self.kernel = TreeKernel(self.infosets)
        mask = self.infosets.mask
        init = initial_policy_array(mask[None], initial_policy, rng)
        self.minimizer = make_minimizer(minimizer, mask, None if init is None else init[0],
                                        step_size=step_size)
        self.sampling, self.epsilon, self.rng = sampling, epsilon, rng
        self.reward_hook = reward_hook
        self.iteration = 0
        self.cumulative_policy = np.zeros(mask.shape)
        t = self.tree
        self._kind, self._start, self._count = t.kind.tolist(), t.child_start.tolist(), \
            t.child_count.tolist()
        self._infoset = self.infosets.node_infoset.tolist()
        self._learner = self.infosets.learner.tolist()
        self._chance_prob = t.chance_prob.tolist()
        self._chance_cdf = {}
        for node in np.flatnonzero(t.kind == CHANCE):
            lo = t.child_start[node]
            self._chance_cdf[int(node)] = np.cumsum(t.chance_prob[lo:lo + t.child_count[node]])

    def _utility(self, node: int, learner: int) -> float:
        player = 0 if self.infosets.infomap.team else learner
        return self.tree.returns[node, player]

    def _sample_chance(self, node: int) -> int:
        cdf = self._chance_cdf[node]
        k = int(np.searchsorted(cdf, self.rng.random() * cdf[-1], side="right"))
        return self._start[node] + min(k, len(cdf) - 1)

    def _external(self, node, learner, policy, q, visited, own=1.0, chance=1.0):
        """Returns the node's value for ``learner``; ``own`` is the learner's own reach of
        ``node`` and ``chance`` the probability with which chance was sampled into it."""
        kind = self._kind[node]
        if kind == TERMINAL:
            return self._utility(node, learner)
        if kind == CHANCE:
            child = self._sample_chance(node)
            return self._external(child, learner, policy, q, visited, own,
                                  chance * self._chance_prob[child])
        k = self._infoset[node]
        pi = policy[k]
        start, count = self._start[node], self._count[node]
        if self._learner[k] != learner:
            slot = int(self.rng.choice(count, p=pi[:count] / pi[:count].sum()))
            self.cumulative_policy[k] += pi  # other learners' average: simple sampled average
            return self._external(start + slot, learner, policy, q, visited, own, chance)
        if self.infosets.num_learners == 1:
            # A single learner (a team view) has no other learner's traversal to average its
            # nodes, so it averages here: own reach over the chance sampling probability is
            # an unbiased estimate of CFR's own-reach weight, summed over the infoset's nodes.
            self.cumulative_policy[k] += (own / chance) * pi
        child_values = [self._external(start + a, learner, policy, q, visited,
                                       own * pi[a], chance) for a in range(count)]
        q[k, :count] += child_values
        visited[k] = True
        return float(np.dot(pi[:count], child_values))

    def _outcome(self, node, learner, policy, q, visited, own, other, sample):
        """Returns the sampled tail utility over the sampling probability of the tail."""
        kind = self._kind[node]
        if kind == TERMINAL:
            return self._utility(node, learner) / sample
        if kind == CHANCE:
            return self._outcome(self._sample_chance(node), learner, policy, q, visited,
                                 own, other, sample)
        k = self._infoset[node]
        pi = policy[k]
        start, count = self._start[node], self._count[node]
        mine = self._learner[k] == learner
        sampling = (self.epsilon / count + (1 - self.epsilon) * pi[:count]) if mine \
            else pi[:count]
        slot = int(self.rng.choice(count, p=sampling / sampling.sum()))
        p = pi[slot]
        if mine:
            tail = self._outcome(start + slot, learner, policy, q, visited,
                                 own * p, other, sample * sampling[slot])
            # tail is u(z)/q(z) times the tail reach below the child (already divided)
            q[k, slot] += tail * other  # importance-weighted cf value of the sampled action
            visited[k] = True
            self.cumulative_policy[k] += own * pi / sample  # stochastically weighted
            return tail * p
        tail = self._outcome(start + slot, learner, policy, q, visited, own, other * p,
                             sample * sampling[slot])
        return tail * p

    def step(self) -> None:
        """One episode: one traversal per learner, then every learner's minimiser observes."""
        self.iteration += 1
        for learner in range(self.infosets.num_learners):
            policy = self.minimizer.decide()
            q = np.zeros(policy.shape)
            visited = np.zeros(len(q), dtype=bool)
            if self.sampling == "external":
                self._external(0, learner, policy, q, visited)
            else:
                self._outcome(0, learner, policy, q, visited, 1.0, 1.0, 1.0)
            if self.reward_hook is not None:
                q = self.reward_hook(q, visited)
            self.minimizer.observe(q)

    def current_policy(self) -> np.ndarray:
        return self.minimizer.decide()

    def average_policy(self) -> np.ndarray:
        """[I, A] average policy.

        External sampling: simple averaging at the other learners' nodes, as OpenSpiel's
        external sampling; with a single learner (a team view) there are no other learners,
        so the learner's own nodes are stochastically weighted (own reach over the chance
        sampling probability). Outcome sampling: stochastically weighted.
        """
        total = self.cumulative_policy.sum(axis=-1, keepdims=True)
        fallback = self.infosets.mask / self.infosets.mask.sum(axis=-1, keepdims=True)
        return np.where(total > 0, self.cumulative_policy / np.where(total > 0, total, 1),
                        fallback)

    def expected_returns(self, policy: np.ndarray | None = None) -> np.ndarray:
        """[players] exact expected returns of ``policy`` (default: current)."""
        policy = self.current_policy() if policy is None else policy
        return self.kernel.expected_returns(policy[None])[0]
