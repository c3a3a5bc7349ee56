"""Local regret minimisers on batches of simplices: regret matching, RM+, entropic FTRL.

Used by CFR and progressive hiding (Heymann & Lanctot, "Learning in Games with Progressive
Hiding", AAMAS 2025; docs/papers/progressive_hiding.md), whose Algorithm 2 assumes learners
with two functions: Decide (a distribution) and Observe (a linear reward vector).

Every minimiser holds one simplex per row of a boolean ``mask`` of shape (..., A) (leading
axes: runs and information sets); illegal slots always get probability 0.
"""

from __future__ import annotations

import numpy as np


def _normalise(weights: np.ndarray, mask: np.ndarray, fallback: np.ndarray) -> np.ndarray:
    total = weights.sum(axis=-1, keepdims=True)
    safe = np.where(total > 0, total, 1.0)
    return np.where(total > 0, weights / safe, fallback)


def uniform_policy(mask: np.ndarray) -> np.ndarray:
    """Uniform distribution over the legal slots of each row."""
    mask = np.asarray(mask, dtype=bool)
    counts = np.maximum(mask.sum(axis=-1, keepdims=True), 1)
    return mask / counts


def random_policy(mask: np.ndarray, rng: np.random.Generator, concentration: float = 1.0):
    """A Dirichlet(concentration) distribution on the legal slots of each row."""
    if concentration <= 0:
        raise ValueError(f"concentration: must be > 0, got {concentration}")
    gamma = rng.gamma(concentration, size=mask.shape) * mask
    return _normalise(gamma, mask, uniform_policy(mask))


class RegretMinimizer:
    """Interface: `decide` returns the current distributions, `observe` takes rewards.

    Args:
      mask: bool (..., A): legal slots of each simplex.
      initial_policy: (..., A) starting distribution (uniform when None).
    """

    def __init__(self, mask: np.ndarray, initial_policy: np.ndarray | None = None):
        self.mask = np.asarray(mask, dtype=bool)
        if not self.mask.any(axis=-1).all():
            raise ValueError("mask: every simplex needs at least one legal slot")
        if initial_policy is None:
            initial_policy = uniform_policy(self.mask)
        initial_policy = np.broadcast_to(initial_policy, self.mask.shape) * self.mask
        self.initial_policy = _normalise(initial_policy, self.mask, uniform_policy(self.mask))

    def decide(self) -> np.ndarray:
        raise NotImplementedError

    def observe(self, rewards: np.ndarray) -> None:
        raise NotImplementedError


class RegretMatching(RegretMinimizer):
    """Regret matching (Hart & Mas-Colell), or RM+ when ``plus`` (regrets floored at 0).

    With no positive regret the distribution is the initial one (uniform by default), as in
    OpenSpiel's CFR.
    """

    def __init__(self, mask, initial_policy=None, plus: bool = False):
        super().__init__(mask, initial_policy)
        self.plus = plus
        self.cumulative_regret = np.zeros(self.mask.shape)

    def decide(self) -> np.ndarray:
        positive = np.maximum(self.cumulative_regret, 0.0) * self.mask
        return _normalise(positive, self.mask, self.initial_policy)

    def observe(self, rewards: np.ndarray) -> None:
        rewards = np.asarray(rewards, dtype=np.float64) * self.mask
        expected = (self.decide() * rewards).sum(axis=-1, keepdims=True)
        self.cumulative_regret += (rewards - expected) * self.mask
        if self.plus:
            np.maximum(self.cumulative_regret, 0.0, out=self.cumulative_regret)


class EntropicFTRL(RegretMinimizer):
    """Follow the regularised leader with entropy: pi ∝ pi_0 exp(step_size * sum of rewards)."""

    def __init__(self, mask, initial_policy=None, step_size: float = 1.0):
        if not step_size > 0:
            raise ValueError(f"step_size: must be > 0, got {step_size}")
        super().__init__(mask, initial_policy)
        self.step_size = float(step_size)
        self.cumulative_reward = np.zeros(self.mask.shape)
        with np.errstate(divide="ignore"):
            self._log_initial = np.where(self.mask, np.log(self.initial_policy), -np.inf)

    def decide(self) -> np.ndarray:
        logits = self._log_initial + self.step_size * self.cumulative_reward
        logits = np.where(self.mask, logits, -np.inf)
        logits -= logits.max(axis=-1, keepdims=True)
        weights = np.exp(logits)
        return weights / weights.sum(axis=-1, keepdims=True)

    def observe(self, rewards: np.ndarray) -> None:
        self.cumulative_reward += np.asarray(rewards, dtype=np.float64) * self.mask


MINIMIZERS = ("rm", "rm+", "ftrl")


def make_minimizer(name: str, mask: np.ndarray, initial_policy: np.ndarray | None = None,
                   step_size: float = 1.0) -> RegretMinimizer:
    """Builds the minimiser ``name`` in {"rm", "rm+", "ftrl"}; ``step_size`` is FTRL's."""
    if name == "rm":
        return RegretMatching(mask, initial_policy)
    if name == "rm+":
        return RegretMatching(mask, initial_policy, plus=True)
    if name == "ftrl":
        return EntropicFTRL(mask, initial_policy, step_size=step_size)
    raise ValueError(f"minimizer: {name!r} is not one of {list(MINIMIZERS)}")
