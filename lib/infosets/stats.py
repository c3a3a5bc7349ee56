"""Honest statistics shared by every paper: Wilson intervals, win rates, mean CIs."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy import stats as _st

Z95 = 1.959963984540054


@dataclass(frozen=True)
class Estimate:
    """A point estimate with a 95% interval and its sample size."""

    value: float
    lo: float
    hi: float
    n: int

    def __str__(self) -> str:
        return f"{self.value:.3f} [{self.lo:.3f}, {self.hi:.3f}] (n={self.n})"

    def contains(self, x: float) -> bool:
        return self.lo <= x <= self.hi


def wilson_interval(successes: float, n: int, z: float = Z95) -> Estimate:
    """Wilson score interval for a proportion (successes may be fractional: ties as halves)."""
    if n <= 0:
        raise ValueError(f"n: expected a sample size >= 1, got {n}")
    if not 0 <= successes <= n:
        raise ValueError(f"successes: expected in [0, {n}], got {successes}")
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return Estimate(p, max(0.0, centre - half), min(1.0, centre + half), n)


def win_rate(scores: Sequence[float]) -> Estimate:
    """Win rate of per-game scores in {0, 0.5, 1} (ties count half), Wilson 95% interval."""
    arr = np.asarray(scores, dtype=float)
    if arr.size == 0:
        raise ValueError("scores: need at least one game")
    if np.any((arr < 0) | (arr > 1)):
        raise ValueError("scores: each game's score must be in [0, 1] (win 1, tie 0.5, loss 0)")
    return wilson_interval(float(arr.sum()), int(arr.size))


def mean_ci(values: Sequence[float], confidence: float = 0.95) -> Estimate:
    """Mean with a Student-t interval (degenerate interval for n = 1)."""
    arr = np.asarray(values, dtype=float)
    if arr.size == 0:
        raise ValueError("values: need at least one value")
    m = float(arr.mean())
    if arr.size == 1:
        return Estimate(m, m, m, 1)
    sem = float(arr.std(ddof=1) / np.sqrt(arr.size))
    half = float(_st.t.ppf(0.5 + confidence / 2, arr.size - 1) * sem)
    return Estimate(m, m - half, m + half, int(arr.size))


def welch_difference(a: Sequence[float], b: Sequence[float], confidence: float = 0.95) -> Estimate:
    """Difference of means ``mean(a) - mean(b)`` with a Welch t interval (n = len(a) + len(b))."""
    x, y = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if x.size < 2 or y.size < 2:
        raise ValueError("welch_difference: each sample needs at least two values")
    va, vb = x.var(ddof=1) / x.size, y.var(ddof=1) / y.size
    se = float(np.sqrt(va + vb))
    df = (va + vb) ** 2 / (va ** 2 / (x.size - 1) + vb ** 2 / (y.size - 1)) if se > 0 else 1.0
    d = float(x.mean() - y.mean())
    half = float(_st.t.ppf(0.5 + confidence / 2, df) * se)
    return Estimate(d, d - half, d + half, int(x.size + y.size))
