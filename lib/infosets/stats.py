"""Honest statistics shared by every paper (belief_mixtures, pimcts_aggregation, belote_ismcts,
progressive_hiding, history_filtering): intervals (Wilson, Newcombe, Student t, bootstrap),
tests (two-proportion, paired t, TOST equivalence), Holm correction and power. Paper modules
call these; none write a test inline."""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy import stats as _st

from infosets.core.checks import check_callable, check_confidence, check_int, check_real
from infosets.core.rng import as_generator

Z95 = 1.959963984540054
UNIT_SCORE_DIFFERENCES = (-1.0, 1.0)  # the range of a difference of two scores in [0, 1]


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
    _check_count(successes, n, "successes", "n")
    check_real(z, "z", lo=0.0, lo_open=True)
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
    if not np.all((arr >= 0) & (arr <= 1)):  # NaN fails too
        bad = arr[~((arr >= 0) & (arr <= 1))][0]
        raise ValueError(f"scores: each game's score must be in [0, 1] (win 1, tie 0.5, loss 0), got {bad}")
    return wilson_interval(float(arr.sum()), int(arr.size))


def standard_error(values: Sequence[float]) -> float:
    """Standard error of the mean of ``values``: the sample standard deviation (ddof 1) over
    the square root of their number; at least two values."""
    arr = _values(values, "values", at_least=2)
    return float(arr.std(ddof=1) / np.sqrt(arr.size))


def mean_ci(values: Sequence[float], confidence: float = 0.95) -> Estimate:
    """Mean with a Student-t interval (degenerate interval for n = 1)."""
    check_confidence(confidence)
    arr = _values(values, "values", at_least=1)
    m = float(arr.mean())
    if arr.size == 1:
        return Estimate(m, m, m, 1)
    sem = standard_error(arr)
    half = float(_st.t.ppf(0.5 + confidence / 2, arr.size - 1) * sem)
    return Estimate(m, m - half, m + half, int(arr.size))


def t_interval(mean: float, se: float, n: int, confidence: float = 0.95) -> Estimate:
    """Student-t interval (n - 1 degrees of freedom) from a mean and its standard error, for
    summaries that kept only (mean, s.e., n); degenerate for n = 1."""
    check_real(mean, "mean")
    check_real(se, "se", lo=0.0, finite=False)
    check_int(n, "n", lo=1)
    check_confidence(confidence)
    half = float(_st.t.ppf(0.5 + confidence / 2, n - 1) * se) if n > 1 else 0.0
    return Estimate(float(mean), float(mean) - half, float(mean) + half, int(n))


def welch_difference(a: Sequence[float], b: Sequence[float], confidence: float = 0.95) -> Estimate:
    """Difference of means ``mean(a) - mean(b)`` with a Welch t interval (n = len(a) + len(b)).

    For small samples (each of at least two values): Student-t quantiles with the
    Welch-Satterthwaite degrees of freedom. ``mean_difference`` is its large-sample version
    (normal quantile, a one-value sample allowed, n = the smaller sample)."""
    x, y = _values(a, "a", at_least=2), _values(b, "b", at_least=2)
    check_confidence(confidence)
    va, vb = x.var(ddof=1) / x.size, y.var(ddof=1) / y.size
    se = float(np.sqrt(va + vb))
    df = (va + vb) ** 2 / (va ** 2 / (x.size - 1) + vb ** 2 / (y.size - 1)) if se > 0 else 1.0
    d = float(x.mean() - y.mean())
    half = float(_st.t.ppf(0.5 + confidence / 2, df) * se)
    return Estimate(d, d - half, d + half, int(x.size + y.size))


# -- differences of proportions ---------------------------------------------------------------

def newcombe_interval(successes_a: float, n_a: int, successes_b: float, n_b: int,
                      z: float = Z95) -> Estimate:
    """Newcombe's hybrid-score interval for p_a - p_b (two independent samples), built from
    the two Wilson intervals (Newcombe 1998, method 10). ``n`` is the smaller sample."""
    a, b = wilson_interval(successes_a, n_a, z), wilson_interval(successes_b, n_b, z)
    d = a.value - b.value
    lo = d - math.sqrt((a.value - a.lo) ** 2 + (b.hi - b.value) ** 2)
    hi = d + math.sqrt((a.hi - a.value) ** 2 + (b.value - b.lo) ** 2)
    return Estimate(d, lo, hi, min(n_a, n_b))


def two_proportion_test(successes_a: float, n_a: int, successes_b: float, n_b: int,
                        alternative: str = "two-sided") -> float:
    """p-value of the pooled two-proportion z-test of p_a = p_b.

    ``alternative``: "two-sided", "greater" (p_a > p_b) or "less" (p_a < p_b)."""
    _check_alternative(alternative)
    _check_count(successes_a, n_a, "successes_a", "n_a")
    _check_count(successes_b, n_b, "successes_b", "n_b")
    pa, pb = successes_a / n_a, successes_b / n_b
    pooled = (successes_a + successes_b) / (n_a + n_b)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n_a + 1 / n_b))
    if se == 0:
        return 1.0
    return _z_pvalue((pa - pb) / se, alternative)


def tost_two_proportions(successes_a: float, n_a: int, successes_b: float, n_b: int,
                         margin: float) -> float:
    """TOST p-value that |p_a - p_b| < ``margin`` (two independent samples, unpooled z).
    Small p: the two proportions are equivalent within the margin."""
    _check_margin(margin)
    _check_count(successes_a, n_a, "successes_a", "n_a")
    _check_count(successes_b, n_b, "successes_b", "n_b")
    pa, pb = successes_a / n_a, successes_b / n_b
    se = math.sqrt(max(pa * (1 - pa) / n_a + pb * (1 - pb) / n_b, 1e-12))
    d = pa - pb
    return max(_z_pvalue((d + margin) / se, "greater"), _z_pvalue((d - margin) / se, "less"))


def normal_difference(a: float, se_a: float, b: float, se_b: float, n: int = 0,
                      z: float = Z95) -> Estimate:
    """a - b for two independent normal estimates with standard errors, with its 95% interval.
    A NaN standard error (a one-run summary has none) gives NaN ends: no verdict rests on them."""
    _check_se(se_a, "se_a")
    _check_se(se_b, "se_b")
    check_int(n, "n", lo=0)
    check_real(z, "z", lo=0.0, lo_open=True)
    half = z * math.hypot(se_a, se_b)
    return Estimate(a - b, a - b - half, a - b + half, n)


def mean_difference(a: Sequence[float], b: Sequence[float]) -> Estimate:
    """mean(a) - mean(b) for two independent samples, normal 95% interval (unequal variances;
    a one-element sample contributes no variance). ``n`` is the smaller sample.

    The large-sample interval (many games per arm, as progressive_hiding's tables); with a
    few values per arm use ``welch_difference``, whose t quantile widens it."""
    xa, xb = _values(a, "a", at_least=1), _values(b, "b", at_least=1)
    var = (xa.var(ddof=1) / xa.size if xa.size > 1 else 0.0) + \
        (xb.var(ddof=1) / xb.size if xb.size > 1 else 0.0)
    return normal_difference(float(xa.mean()), 0.0, float(xb.mean()), float(math.sqrt(var)),
                             min(xa.size, xb.size))


# -- paired samples -----------------------------------------------------------------------------

def tied_test(c: float, n: int, alternative: str = "two-sided", null: float = 0.0,
              confidence: float = 0.95, bounds: tuple[float, float] = (-math.inf, math.inf)
              ) -> tuple[Estimate, float]:
    """Exact test and interval for ``n`` paired differences all equal to ``c``, each known to
    lie in ``bounds`` = (lo, hi) (differences of two scores in [0, 1] lie in [-1, 1]).

    A t statistic is 0/0 there. For H0 "mean <= null" the least favourable law puts mass on
    c and on lo, so p = ((null - lo) / (c - lo))^n when c > null (else 1); "mean >= null"
    mirrors it at hi; two-sided doubles the smaller. The interval's ends are the nulls at
    which each one-sided p is (1 - confidence) / 2. Three tied differences in [-1, 1] thus
    say little (c = 0: [-0.71, +0.71]); 300 pin the mean to about +-0.01. With an unbounded
    side nothing is learnt on it: that p is 1 and that end infinite. (First written for
    pimcts_aggregation's claims, docs/papers/pimcts_aggregation.md; every paper's paired tests
    use it now.)"""
    _check_alternative(alternative)
    check_confidence(confidence)
    check_int(n, "n", lo=1)
    lo, hi = _check_bounds(bounds)
    if not lo <= c <= hi:
        raise ValueError(f"c: expected a difference within bounds {bounds}, got {c!r}")
    p_greater = ((null - lo) / (c - lo)) ** n if c > null and lo > -math.inf else 1.0
    p_less = ((hi - null) / (hi - c)) ** n if c < null and hi < math.inf else 1.0
    p = {"greater": p_greater, "less": p_less,
         "two-sided": min(1.0, 2 * min(p_greater, p_less))}[alternative]
    tail = ((1 - confidence) / 2) ** (1 / n)
    low = lo + (c - lo) * tail if lo > -math.inf else -math.inf
    high = hi - (hi - c) * tail if hi < math.inf else math.inf
    return Estimate(float(c), float(low), float(high), int(n)), float(p)


def paired_t_test(differences: Sequence[float], alternative: str = "two-sided", *,
                  null: float = 0.0, bounds: tuple[float, float] = (-math.inf, math.inf)
                  ) -> tuple[Estimate, float]:
    """Paired t-test on per-pair differences (e.g. one duplicate deal's score difference):
    the mean difference with its Student-t 95% interval, and the p-value of mean = ``null``.
    Differences that are all equal are tested exactly (``tied_test``, within ``bounds``: pass
    the range the differences can take, e.g. (-1, 1) for two scores in [0, 1])."""
    _check_alternative(alternative)
    check_real(null, "null")
    arr = _values(differences, "differences", at_least=2)
    if float(np.ptp(arr)) == 0.0:
        return tied_test(float(arr[0]), int(arr.size), alternative, null, bounds=bounds)
    est = mean_ci(arr)
    sd = float(arr.std(ddof=1))
    t = (est.value - null) / (sd / math.sqrt(arr.size))
    return est, _t_pvalue(t, arr.size - 1, alternative)


def tost_paired(differences: Sequence[float], margin: float, *,
                bounds: tuple[float, float] = (-math.inf, math.inf)) -> tuple[Estimate, float]:
    """Two one-sided t-tests (Schuirmann 1987) that the mean paired difference lies in
    (-margin, +margin). Returns the mean difference with its 90% interval (the interval
    TOST at 5% inspects) and the TOST p-value (the larger of the two one-sided p-values).
    Differences that are all equal are tested exactly (``tied_test`` at -margin and +margin,
    within ``bounds``)."""
    _check_margin(margin)
    arr = _values(differences, "differences", at_least=2)
    if float(np.ptp(arr)) == 0.0:
        c, n = float(arr[0]), int(arr.size)
        est, p_low = tied_test(c, n, "greater", -margin, confidence=0.90, bounds=bounds)
        return est, max(p_low, tied_test(c, n, "less", margin, confidence=0.90, bounds=bounds)[1])
    est = mean_ci(arr, confidence=0.90)
    se = float(arr.std(ddof=1)) / math.sqrt(arr.size)
    df = arr.size - 1
    p = max(_t_pvalue((est.value + margin) / se, df, "greater"),
            _t_pvalue((est.value - margin) / se, df, "less"))
    return est, p


def bootstrap_ci(values: Sequence[float], *, rng, statistic=np.mean, resamples: int = 2000,
                 confidence: float = 0.95) -> Estimate:
    """Percentile bootstrap interval of ``statistic`` (``rng``: Generator, SeedSequence or int
    seed; ``infosets.core.rng``)."""
    rng = as_generator(rng)
    check_int(resamples, "resamples", lo=100)
    check_confidence(confidence)
    check_callable(statistic, "statistic")
    arr = _values(values, "values", at_least=1)
    idx = rng.integers(0, arr.size, size=(int(resamples), arr.size))
    boots = np.array([statistic(arr[row]) for row in idx])
    tail = (1 - confidence) / 2 * 100
    lo, hi = np.percentile(boots, [tail, 100 - tail])
    return Estimate(float(statistic(arr)), float(lo), float(hi), int(arr.size))


def trend_test(x: Sequence[float], y: Sequence[float], alternative: str = "two-sided") -> tuple[float, float]:
    """Kendall's rank correlation tau of y with x and its p-value (exact for small samples
    without ties; ``alternative``: "less" tests that y falls as x grows)."""
    _check_alternative(alternative)
    xa, ya = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if xa.shape != ya.shape:
        raise ValueError(f"y: expected one value per x ({xa.size}), got {ya.size}")
    keep = np.isfinite(xa) & np.isfinite(ya)
    if keep.sum() < 3 or np.unique(xa[keep]).size < 2 or np.unique(ya[keep]).size < 2:
        return float("nan"), float("nan")
    res = _st.kendalltau(xa[keep], ya[keep], alternative=alternative)
    return float(res.statistic), float(res.pvalue)


# -- multiple comparisons -------------------------------------------------------------------------

def holm(pvalues: Sequence[float]) -> np.ndarray:
    """Holm's step-down adjusted p-values (family-wise error control; Holm 1979).
    Reject hypothesis i at level alpha when its adjusted p-value is <= alpha."""
    p = _pvalues(pvalues)
    if p.ndim != 1:
        raise ValueError(f"pvalues: expected a 1-d sequence of probabilities, got {p.ndim} dimensions")
    m = p.size
    order = np.argsort(p)
    adjusted = np.empty(m)
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p[i]))
        adjusted[i] = running
    return adjusted


def benjamini_hochberg(pvalues: Sequence[float]) -> np.ndarray:
    """Benjamini-Hochberg adjusted p-values (false discovery rate), via SciPy."""
    return _st.false_discovery_control(_pvalues(pvalues), method="bh")


# -- power ----------------------------------------------------------------------------------------

def power_mean_difference(effect: float, sd: float, n: int, alpha: float = 0.05,
                          alternative: str = "two-sided") -> float:
    """Power of a one-sample (or paired) t-test to detect a mean ``effect`` when each of ``n``
    observations (pairs) has standard deviation ``sd`` (noncentral t)."""
    _check_alternative(alternative)
    check_real(effect, "effect")
    check_real(sd, "sd", lo=0.0, lo_open=True)
    check_int(n, "n", lo=0)
    check_real(alpha, "alpha", lo=0.0, hi=1.0, lo_open=True, hi_open=True)
    if int(n) < 2:
        return float("nan")
    df = int(n) - 1
    nc = effect / sd * math.sqrt(n)
    if alternative == "two-sided":
        crit = _st.t.ppf(1 - alpha / 2, df)
        return float(_st.nct.sf(crit, df, nc) + _st.nct.cdf(-crit, df, nc))
    crit = _st.t.ppf(1 - alpha, df)
    return float(_st.nct.sf(crit, df, nc) if alternative == "greater" else _st.nct.cdf(-crit, df, nc))


def power_equivalence(margin: float, sd: float, n: int, alpha: float = 0.05,
                      true_difference: float = 0.0) -> float:
    """Power of TOST with ``margin`` when the true mean difference is ``true_difference``
    (normal approximation; 0 when the margin is too narrow for this n)."""
    _check_margin(margin)
    check_real(sd, "sd", lo=0.0, lo_open=True)
    check_int(n, "n", lo=1)
    check_real(alpha, "alpha", lo=0.0, hi=1.0, lo_open=True, hi_open=True)
    check_real(true_difference, "true_difference")
    se = sd / math.sqrt(n)
    z = _st.norm.ppf(1 - alpha)
    d = abs(true_difference)
    return float(max(0.0, _st.norm.cdf((margin - d) / se - z) + _st.norm.cdf((margin + d) / se - z) - 1))


def n_for_power(power_fn, target: float = 0.80, n_max: int = 10_000_000) -> int:
    """Smallest n with ``power_fn(n) >= target`` (power_fn increasing in n); -1 past n_max."""
    check_callable(power_fn, "power_fn")
    check_real(target, "target", lo=0.0, hi=1.0, lo_open=True, hi_open=True)
    check_int(n_max, "n_max", lo=2)
    lo, hi = 2, 2
    while power_fn(hi) < target:
        lo, hi = hi, hi * 2
        if hi > n_max:
            return -1
    while lo < hi:
        mid = (lo + hi) // 2
        if power_fn(mid) >= target:
            hi = mid
        else:
            lo = mid + 1
    return hi


def bernoulli_difference_sd(p_a: float, p_b: float) -> float:
    """SD of one game's score difference between two independent Bernoulli cells (a
    conservative stand-in for the paired SD before any data exist)."""
    return math.sqrt(max(p_a * (1 - p_a) + p_b * (1 - p_b), 1e-12))


# -- helpers --------------------------------------------------------------------------------------

def _values(values, name: str, at_least: int) -> np.ndarray:
    """``values`` as a float array of at least ``at_least`` finite numbers."""
    if values is None or isinstance(values, str):
        raise ValueError(f"{name}: expected a sequence of numbers, got {values!r}")
    try:
        arr = np.asarray(values, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"{name}: expected a sequence of numbers, got {type(values).__name__}") from None
    if arr.size < at_least or not np.all(np.isfinite(arr)):
        raise ValueError(f"{name}: need at least {at_least} finite values, got {arr.size}"
                         + (" (some NaN or infinite)" if not np.all(np.isfinite(arr)) else ""))
    return arr


def _check_count(successes, n, successes_name: str, n_name: str) -> None:
    """``n`` trials (an integer >= 1) with ``successes`` in [0, n] (fractional: ties as halves)."""
    check_int(n, n_name, lo=1)
    check_real(successes, successes_name, lo=0.0, hi=n)


def _check_se(se, name: str) -> None:
    """A standard error >= 0, or NaN (unknown: a summary of one run has none)."""
    if isinstance(se, bool) or not isinstance(se, numbers.Real) or se < 0:
        raise ValueError(f"{name}: expected a standard error >= 0 (or NaN), got {se!r}")


def _pvalues(pvalues) -> np.ndarray:
    """``pvalues`` as a float array of probabilities in [0, 1] (NaN refused)."""
    p = np.asarray(pvalues, dtype=float)
    if not np.all((p >= 0) & (p <= 1)):
        raise ValueError(f"pvalues: expected probabilities in [0, 1], got {p[~((p >= 0) & (p <= 1))][0]}")
    return p


def _check_alternative(alternative: str) -> None:
    if alternative not in ("two-sided", "greater", "less"):
        raise ValueError(f"alternative: expected two-sided, greater or less, got {alternative!r}")


def _check_bounds(bounds) -> tuple[float, float]:
    """(lo, hi) with lo < hi, either end possibly infinite (NaN refused)."""
    try:
        lo, hi = (float(b) for b in bounds)
    except (TypeError, ValueError):
        raise ValueError(f"bounds: expected (lo, hi), got {bounds!r}") from None
    if not lo < hi:
        raise ValueError(f"bounds: expected lo < hi, got {bounds!r}")
    return lo, hi


def _check_margin(margin: float) -> None:
    if not margin > 0:
        raise ValueError(f"margin: expected > 0, got {margin}")


def normal_pvalue(z: float, alternative: str = "two-sided") -> float:
    """p-value of a standard-normal statistic ``z``."""
    _check_alternative(alternative)
    return _z_pvalue(z, alternative)


def _z_pvalue(z: float, alternative: str) -> float:
    if alternative == "greater":
        return float(_st.norm.sf(z))
    if alternative == "less":
        return float(_st.norm.cdf(z))
    return float(2 * _st.norm.sf(abs(z)))


def _t_pvalue(t: float, df: int, alternative: str) -> float:
    if alternative == "greater":
        return float(_st.t.sf(t, df))
    if alternative == "less":
        return float(_st.t.cdf(t, df))
    return float(2 * _st.t.sf(abs(t), df))
