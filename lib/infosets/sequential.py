"""Group-sequential boundaries: test a claim at planned looks and stop once it is decided.

Serves the planned rerun of Ravichandran, Goodman and Lucas, "Evaluation of Perfect-Information
Monte Carlo Tree Search in Imperfect-Information Games" (docs/papers/pimcts_aggregation.md;
issue 56: "a sequential design fixed before the run ... that stops a comparison once it is
decided and spends the games where claims are still open"). A tournament cell grows in stages
of whole blocks of paired deals; after each stage every open claim's one-sided z statistic is
compared with the boundary of that look, and a claim whose z crosses it is decided and plays no
more games.

Boundaries come from Lan and DeMets' alpha spending (Biometrika 70(3), 1983): the type I error
spent by information fraction t is ``spend(t)``, and the boundary ``c_k`` of look k solves

    P(Z_1 < c_1, ..., Z_{k-1} < c_{k-1}, Z_k >= c_k) = spend(t_k) - spend(t_{k-1})

under the null, where (Z_1, ..., Z_K) is multivariate normal with corr(Z_i, Z_j) =
sqrt(t_i / t_j) for i <= j (the statistics of one Brownian motion at the looks). Two spending
functions (one-sided alpha):

* ``obrien_fleming``: spend(t) = 2 (1 - Phi(z_{1-alpha/2} / sqrt(t))) (Lan-DeMets' O'Brien-Fleming
  type; strict early, close to the fixed-sample z at the end);
* ``pocock``: spend(t) = alpha ln(1 + (e - 1) t).

Any look sequence may be used as long as the fractions are fixed before the data are seen
(the stages' sizes); an unplanned extra look needs the same function at its new fraction.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

import numpy as np
from scipy import optimize, stats

SPENDING = ("obrien_fleming", "pocock")


def alpha_spent(fraction: float, alpha: float, kind: str = "obrien_fleming") -> float:
    """The one-sided type I error ``kind``'s spending function has spent by ``fraction``."""
    if kind not in SPENDING:
        raise ValueError(f"kind: must be one of {SPENDING}, got {kind!r}")
    if not 0.0 < alpha < 0.5:
        raise ValueError(f"alpha: must be in (0, 0.5), got {alpha!r}")
    if not 0.0 <= fraction <= 1.0:
        raise ValueError(f"fraction: must be in [0, 1], got {fraction!r}")
    if fraction == 0.0:
        return 0.0
    if kind == "pocock":
        return alpha * math.log(1.0 + (math.e - 1.0) * fraction)
    return 2.0 * (1.0 - stats.norm.cdf(stats.norm.ppf(1.0 - alpha / 2.0) / math.sqrt(fraction)))


def _check_fractions(fractions: Sequence[float]) -> np.ndarray:
    t = np.asarray(fractions, dtype=float)
    if t.ndim != 1 or t.size == 0 or not np.all(np.isfinite(t)):
        raise ValueError(f"fractions: must be a non-empty list of numbers, got {fractions!r}")
    if t[0] <= 0.0 or t[-1] > 1.0 or np.any(np.diff(t) <= 0.0):
        raise ValueError(f"fractions: must rise strictly within (0, 1], got {list(fractions)}")
    return t


GRID = 2001  # points of the continuation density (trapezoid rule): boundaries to about 1e-5
_SQRT_2PI = np.sqrt(2 * np.pi)


def _normal_density(x: np.ndarray) -> np.ndarray:
    """The standard normal density, by scipy's own formula (``stats.norm.pdf`` gives the same
    bits) without its argument checks, which cost three times the arithmetic on the
    GRID x GRID kernel of every look."""
    return np.exp(-(x**2) / 2.0) / _SQRT_2PI


def _grid(upper: float, sd: float) -> np.ndarray:
    return np.linspace(-10.0 * sd, upper, GRID)


def _crossing(c: float, fraction: float, step_sd: float, points, weights, density) -> float:
    """P(the paths still running cross c at this look): S_k >= c sqrt(t_k)."""
    level = c * math.sqrt(fraction)
    if density is None:
        return float(stats.norm.sf(level / step_sd))
    return float(np.sum(weights * density * stats.norm.sf((level - points) / step_sd)))


def _excess(c: float, target: float, running: tuple) -> float:
    return _crossing(c, *running) - target


def boundaries(fractions: Sequence[float], alpha: float = 0.05, kind: str = "obrien_fleming") -> list[float]:
    """One-sided z boundaries at looks with information ``fractions`` (rising, the last 1.0 for
    a planned maximum), spending ``alpha`` by ``kind``'s function (module docstring).

    Computed by Armitage, McPherson and Rowe's recursion (J. R. Stat. Soc. A 132, 1969) on the
    score scale S_k = Z_k sqrt(t_k), a Brownian motion: the sub-density of S_k on the paths that
    have not stopped is propagated look to look by a Gaussian kernel, and each boundary solves
    its share of the spent alpha against that density. Cached by look sequence: a plan asks
    for the same one for many claims (each sequence costs about 0.3 CPU-s: a GRID x GRID
    kernel a look)."""
    t = _check_fractions(fractions)
    alpha_spent(1.0, alpha, kind)  # validates alpha and kind
    return list(_boundaries(tuple(float(x) for x in t), float(alpha), kind))


@lru_cache(maxsize=256)
def _boundaries(t: tuple[float, ...], alpha: float, kind: str) -> tuple[float, ...]:
    """``boundaries`` of checked fractions ``t``, as a tuple (the cache's values never change)."""
    bounds: list[float] = []
    spent_before, previous_t = 0.0, 0.0
    points = weights = density = None  # sub-density of S on the paths still running
    for fraction in t:
        target = alpha_spent(float(fraction), alpha, kind) - spent_before
        spent_before += target
        step_sd = math.sqrt(fraction - previous_t)
        running = (fraction, step_sd, points, weights, density)
        c = (
            math.inf
            if target <= 1e-12
            else optimize.brentq(_excess, -10.0, 40.0, args=(target, running), xtol=1e-8)
        )
        bounds.append(c)
        upper = min(c, 12.0) * math.sqrt(fraction)
        new_points = _grid(upper, math.sqrt(fraction))
        if density is None:
            new_density = _normal_density(new_points / step_sd) / step_sd
        else:
            kernel = _normal_density((new_points[:, None] - points[None, :]) / step_sd) / step_sd
            new_density = kernel @ (weights * density)
        points, density, previous_t = new_points, new_density, fraction
        weights = np.full(GRID, points[1] - points[0])
        weights[[0, -1]] /= 2.0
    return tuple(bounds)


def crossed(z_values: Sequence[float], bounds: Sequence[float]) -> int | None:
    """The first look (0-based) at which ``z_values`` reaches its boundary, or None."""
    for k, (z, c) in enumerate(zip(z_values, bounds)):
        if z >= c:
            return k
    return None


@lru_cache(maxsize=256)
def inflation(fractions: tuple[float, ...], alpha: float = 0.05, power: float = 0.80,
              kind: str = "obrien_fleming", paths: int = 200_000, seed: int = 0) -> float:
    """N / N_fixed of a design with looks at ``fractions`` (a tuple, the last 1.0) and
    ``kind``'s boundaries: the squared drift that gives ``power`` against these boundaries over
    the fixed-sample one, (z_{1-alpha} + z_power)^2. By simulation of the score process at the
    looks (``paths`` Brownian paths from one seed) and bisection on the drift; cached, since a
    plan asks for the same look sequence for many claims. One look costs nothing (1.0)."""
    t = _check_fractions(fractions)
    if len(t) == 1:
        return 1.0
    bounds = np.asarray(boundaries(t, alpha, kind))
    steps = np.random.default_rng(seed).standard_normal((paths, len(t))) * np.sqrt(np.diff(t, prepend=0.0))
    noise = np.cumsum(steps, axis=1)  # S(t_k) under the null; z_k = S(t_k) / sqrt(t_k)
    fixed = stats.norm.ppf(1 - alpha) + stats.norm.ppf(power)
    lo, hi = fixed, fixed * 1.5
    for _ in range(40):
        mid = (lo + hi) / 2
        reached = float(np.mean(((noise + mid * t) / np.sqrt(t) >= bounds).any(axis=1)))
        lo, hi = (mid, hi) if reached < power else (lo, mid)
    return (hi / fixed) ** 2
