"""Progressive hiding: regret minimisation on a relaxed (finer) information map, penalised
toward implementability, output projected onto the original map.

Reconstructs Algorithm 2 of Heymann & Lanctot, "Learning in Games with Progressive Hiding"
(AAMAS 2025; docs/papers/progressive_hiding.md), whose formulas were lost in extraction:
  * the learner keeps pi'(.|J) on relaxed infosets J (a map finer than the original I);
  * projector P(pi')(.|I) = sum_{J in I} w(J) pi'(.|J) / sum_{J in I} w(J), with w(J) the reach
    probability of J under the current relaxed profile (a conditional expectation);
  * penalised criterion: payoff - rho_t / 2 * sum_J w(J) ||pi'(.|J) - P(pi')(.|I)||^2;
  * each local minimiser at J observes q_J(a) - rho_t * s(J) * (pi'(a|J) - P(pi')(a|I)),
    where s(J) = 1 ("none", the reading notes) or the counterfactual reach of J ("counterfactual");
  * the output is P(pi'), implementable in the original game.
"""

from __future__ import annotations

import dataclasses

import numpy as np
from scipy import sparse

from infosets.learning import infomaps
from infosets.learning.cfr import TreeKernel, as_tree, initial_policy_array, to_tabular_policy
from infosets.learning.regret import make_minimizer


def project(policy: np.ndarray, weights: np.ndarray, parent: np.ndarray,
            num_coarse: int) -> np.ndarray:
    """Reach-weighted average of fine rows into coarse rows.

    Args:
      policy: [B, J, A] values on fine infosets.
      weights: [B, J] non-negative weights w(J).
      parent: [J] coarse infoset of each fine infoset.
      num_coarse: number of coarse infosets.

    Returns:
      [B, I, A]; a coarse infoset whose fine weights sum to 0 gets the plain average.
    """
    batch, fine, width = policy.shape
    agg = sparse.csr_matrix((np.ones(fine), (parent, np.arange(fine))), shape=(num_coarse, fine))

    def coarse_sum(x):  # [B, J, A] -> [B, I, A]
        flat = x.transpose(1, 0, 2).reshape(fine, -1)
        return np.asarray(agg @ flat).reshape(num_coarse, batch, width).transpose(1, 0, 2)

    num = coarse_sum(weights[:, :, None] * policy)
    den = np.asarray(agg @ weights.T).T[:, :, None]
    count = np.maximum(np.asarray(agg.sum(axis=1)).ravel(), 1)[None, :, None]
    plain = coarse_sum(policy) / count
    return np.where(den > 0, num / np.where(den > 0, den, 1.0), plain)


def lift(coarse: np.ndarray, parent: np.ndarray) -> np.ndarray:
    """[B, J, A]: each fine infoset gets its coarse infoset's row."""
    return coarse[:, parent]


def weighted_inner(x: np.ndarray, y: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """[B]: sum_J w(J) <x(.|J), y(.|J)>, the inner product the projector is self-adjoint for."""
    return np.einsum("bj,bja,bja->b", weights, x, y)


class PenaltySchedule:
    """rho_t for a batch of runs: constant, increasing, or adaptive to a target payoff.

    Args:
      kind: "constant" (rho_t = rho), "increasing" (rho_t = rho * (1 + t) ** growth), or
        "adaptive" (rho_{t+1} = rho_t * exp(gain * (V'_t - target_t) / scale), the exponent
        clipped to [-1, 1] and rho to [rho_min, rho_max]; V'_t the relaxed policy's payoff;
        target_t = target in mode "absolute", or projected payoff + target in mode "gap";
        scale = the game's utility range, set by the learner).
      rho: initial (or constant) penalty, >= 0.
      growth: exponent of the increasing schedule, >= 0.
      target, gain, mode, rho_min, rho_max: adaptive schedule settings.
    """

    KINDS = ("constant", "increasing", "adaptive")

    def __init__(self, kind: str = "constant", rho: float = 0.0, growth: float = 1.0,
                 target: float = 0.0, gain: float = 0.1, mode: str = "gap",
                 rho_min: float = 1e-6, rho_max: float = 1e6):
        if kind not in self.KINDS:
            raise ValueError(f"schedule: {kind!r} is not one of {list(self.KINDS)}")
        if not rho >= 0:
            raise ValueError(f"rho: penalty must be >= 0, got {rho}")
        if not growth >= 0:
            raise ValueError(f"growth: must be >= 0, got {growth}")
        if not gain >= 0:
            raise ValueError(f"gain: must be >= 0, got {gain}")
        if mode not in ("absolute", "gap"):
            raise ValueError(f"mode: {mode!r} is not one of ['absolute', 'gap']")
        if not 0 <= rho_min <= rho_max:
            raise ValueError(f"rho_min, rho_max: need 0 <= rho_min <= rho_max, got "
                             f"{rho_min}, {rho_max}")
        self.kind, self.rho0, self.growth = kind, float(rho), float(growth)
        self.target, self.gain, self.mode = float(target), float(gain), mode
        self.rho_min, self.rho_max = rho_min, rho_max
        self.scale = 1.0
        self._adaptive = None

    def value(self, t: int, num_runs: int) -> np.ndarray:
        """[B] penalty at iteration t (0-based)."""
        if self.kind == "constant":
            return np.full(num_runs, self.rho0)
        if self.kind == "increasing":
            return np.full(num_runs, self.rho0 * (1.0 + t) ** self.growth)
        if self._adaptive is None:
            self._adaptive = np.full(num_runs, self.rho0)
        return self._adaptive.copy()

    def update(self, relaxed_payoff: np.ndarray, projected_payoff: np.ndarray) -> None:
        """Adaptive schedule only: move rho toward holding the relaxed payoff at the target."""
        if self.kind != "adaptive" or self._adaptive is None:
            return
        target = self.target if self.mode == "absolute" else projected_payoff + self.target
        step = np.exp(np.clip(self.gain * (relaxed_payoff - target) / self.scale, -1, 1))
        self._adaptive = np.clip(np.maximum(self._adaptive, self.rho_min) * step,
                                 self.rho_min, self.rho_max)


@dataclasses.dataclass
class HidingRecord:
    """Per-iteration traces, each [B]."""

    relaxed_payoff: list = dataclasses.field(default_factory=list)
    projected_payoff: list = dataclasses.field(default_factory=list)
    rho: list = dataclasses.field(default_factory=list)
    violation: list = dataclasses.field(default_factory=list)


class ProgressiveHiding:
    """Full-traversal progressive hiding for a batch of independent runs.

    Args:
      game: a GameTree, pyspiel game or game string.
      original: the original map (name or InfoMap), usually "team".
      relaxed: a finer map, e.g. "cheated" or "perfect_recall" (ValueError if not finer).
      minimizer: "rm", "rm+" or "ftrl"; step_size: FTRL's (> 0).
      schedule: a PenaltySchedule (constant 0 reduces to CFR on the relaxed map).
      num_runs: independent runs (batch axis).
      initial_policy: "uniform" or "random" (Dirichlet(1) per relaxed infoset, from ``rng``).
      rng: numpy Generator.
      penalty_weighting: "none" or "counterfactual" (see module docstring).
      output: "current" (project the current relaxed policy) or "average".
    """

    def __init__(self, game, original="team", relaxed="perfect_recall", minimizer: str = "rm",
                 step_size: float = 1.0, schedule: PenaltySchedule | None = None,
                 num_runs: int = 1, initial_policy: str = "uniform",
                 rng: np.random.Generator | None = None, penalty_weighting: str = "none",
                 output: str = "current"):
        if not step_size > 0:
            raise ValueError(f"step_size: must be > 0, got {step_size}")
        if num_runs < 1:
            raise ValueError(f"num_runs: must be >= 1, got {num_runs}")
        if penalty_weighting not in ("none", "counterfactual"):
            raise ValueError(f"penalty_weighting: {penalty_weighting!r} is not one of "
                             "['none', 'counterfactual']")
        if output not in ("current", "average"):
            raise ValueError(f"output: {output!r} is not one of ['current', 'average']")
        self.tree = as_tree(game)
        self.original = infomaps.build_infosets(self.tree, original)
        self.relaxed = infomaps.build_infosets(self.tree, relaxed)
        self.parent = infomaps.require_finer(self.relaxed, self.original)
        self.original_kernel = TreeKernel(self.original)
        self.relaxed_kernel = TreeKernel(self.relaxed)
        self.schedule = schedule if schedule is not None else PenaltySchedule("constant", 0.0)
        game = self.tree.game
        self.schedule.scale = max(game.max_utility() - game.min_utility(), 1e-12)
        mask = np.broadcast_to(self.relaxed.mask, (num_runs,) + self.relaxed.mask.shape)
        self.minimizer = make_minimizer(minimizer, mask,
                                        initial_policy_array(mask, initial_policy, rng),
                                        step_size=step_size)
        self.num_runs, self.penalty_weighting, self.output = num_runs, penalty_weighting, output
        self.iteration = 0
        self.cumulative_policy = np.zeros(mask.shape)
        self.record = HidingRecord()

    def relaxed_policy(self) -> np.ndarray:
        """[B, J, A] current relaxed policy pi'."""
        return self.minimizer.decide()

    def reach_weights(self, relaxed_policy: np.ndarray) -> np.ndarray:
        """[B, J] w(J): probability of reaching J under ``relaxed_policy`` (chance included)."""
        reach = self.relaxed_kernel.reach(self.relaxed_kernel.edge_probs(relaxed_policy))
        return self.relaxed_kernel.sum_nodes(reach)

    def projector(self, relaxed_policy: np.ndarray, weights: np.ndarray | None = None):
        """[B, I, A] P(pi'): the reach-weighted average over the relaxed infosets in each I."""
        if weights is None:
            weights = self.reach_weights(relaxed_policy)
        return project(relaxed_policy, weights, self.parent, self.original.num_infosets)

    def step(self) -> None:
        """One iteration: evaluate, penalise, observe; record payoffs and rho."""
        kernel = self.relaxed_kernel
        policy = self.minimizer.decide()
        probs = kernel.edge_probs(policy)
        weights = kernel.sum_nodes(kernel.reach(probs))
        projected = self.projector(policy, weights)
        average = self.output == "average"
        q, values, own_reach = kernel.counterfactual_values(probs, need_own=average)
        gap = policy - lift(projected, self.parent)
        rho = self.schedule.value(self.iteration, self.num_runs)
        scale = 1.0
        if self.penalty_weighting == "counterfactual":
            cf_reach, _ = kernel.counterfactual_reach(probs, need_own=False)
            scale = np.zeros((self.num_runs, self.relaxed.num_infosets))
            for learner_id in range(self.relaxed.num_learners):
                rows = self.relaxed.learner == learner_id
                scale[:, rows] = kernel.sum_nodes(cf_reach[learner_id])[:, rows]
            scale = scale[:, :, None]
        rewards = q - rho[:, None, None] * scale * gap
        for learner_id in range(self.relaxed.num_learners if average else 0):
            rows = self.relaxed.learner == learner_id
            own = kernel.sum_nodes(own_reach[learner_id])
            self.cumulative_policy[:, rows] += own[:, rows, None] * policy[:, rows]
        self.minimizer.observe(rewards)
        relaxed_payoff = values[0][:, 0]
        projected_payoff = self.original_kernel.expected_returns(projected)[:, 0]
        self.record.relaxed_payoff.append(relaxed_payoff)
        self.record.projected_payoff.append(projected_payoff)
        self.record.rho.append(rho)
        self.record.violation.append(weighted_inner(gap, gap, weights))
        self.schedule.update(relaxed_payoff, projected_payoff)
        self.iteration += 1

    def run(self, iterations: int) -> HidingRecord:
        for _ in range(iterations):
            self.step()
        return self.record

    def average_relaxed_policy(self) -> np.ndarray:
        total = self.cumulative_policy.sum(axis=-1, keepdims=True)
        fallback = self.relaxed.mask / self.relaxed.mask.sum(axis=-1, keepdims=True)
        return np.where(total > 0, self.cumulative_policy / np.where(total > 0, total, 1),
                        fallback)

    def output_policy(self) -> np.ndarray:
        """[B, I, A] the projected policy on the original map (implementable)."""
        relaxed = (self.relaxed_policy() if self.output == "current"
                   else self.average_relaxed_policy())
        return self.projector(relaxed)

    def projected_payoff(self) -> np.ndarray:
        """[B] expected team payoff (player 0's return) of `output_policy`."""
        return self.original_kernel.expected_returns(self.output_policy())[:, 0]

    def tabular_policy(self, run: int = 0):
        """The projected policy of run ``run`` as an OpenSpiel TabularPolicy."""
        return to_tabular_policy(self.original, self.output_policy()[run])

    def callable_policy(self, run: int = 0):
        """state -> {action: prob} for the projected policy of run ``run``."""
        policy = self.output_policy()[run]
        index = {key: k for k, key in enumerate(self.original.keys)}
        key_fn = self.original.infomap.key

        def action_probabilities(state):
            from infosets.learning.tree import NodeView

            player = state.current_player()
            view = NodeView(player=player, history=tuple(state.history()), chance_actions=(),
                            infostates=tuple(state.information_state_string(p)
                                             for p in range(state.num_players())),
                            legal_actions=tuple(state.legal_actions(player)))
            k = index[key_fn(view)]
            return {a: float(policy[k, s]) for s, a in enumerate(self.original.legal[k])}

        return action_probabilities


class MonteCarloHiding:
    """Progressive hiding on top of Monte Carlo CFR (one run): sampled counterfactual values,
    exact projector and penalty (reach weights computed on the flattened tree each episode).

    Args as `ProgressiveHiding`, plus sampling / epsilon as `cfr.MonteCarloCFR`.
    """

    def __init__(self, game, original="team", relaxed="perfect_recall", sampling="external",
                 minimizer="rm", step_size=1.0, epsilon=0.6,
                 schedule: PenaltySchedule | None = None, initial_policy="uniform", rng=None):
        from infosets.learning.cfr import MonteCarloCFR

        self.tree = as_tree(game)
        self.original = infomaps.build_infosets(self.tree, original)
        relaxed_sets = infomaps.build_infosets(self.tree, relaxed)
        self.parent = infomaps.require_finer(relaxed_sets, self.original)
        self.schedule = schedule if schedule is not None else PenaltySchedule("constant", 0.0)
        self.original_kernel = TreeKernel(self.original)
        self.learner = MonteCarloCFR(self.tree, relaxed_sets, sampling=sampling,
                                     minimizer=minimizer, step_size=step_size, epsilon=epsilon,
                                     initial_policy=initial_policy, rng=rng,
                                     reward_hook=self._penalise)
        self.kernel = self.learner.kernel
        self.iteration = 0

    def _projected(self, policy):
        weights = self.kernel.sum_nodes(self.kernel.reach(self.kernel.edge_probs(policy[None])))
        return project(policy[None], weights, self.parent, self.original.num_infosets)[0]

    def _penalise(self, q, visited):
        policy = self.learner.current_policy()
        gap = policy - self._projected(policy)[self.parent]
        rho = self.schedule.value(self.iteration, 1)[0]
        return q - rho * gap * visited[:, None]

    def step(self) -> None:
        self.learner.step()
        self.iteration += 1

    def output_policy(self) -> np.ndarray:
        return self._projected(self.learner.current_policy())

    def projected_payoff(self) -> float:
        return float(self.original_kernel.expected_returns(self.output_policy()[None])[0, 0])
