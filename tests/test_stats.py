"""Intervals against known values."""

import numpy as np
import pytest

from infosets import stats


def test_wilson_known_value():
    # Wilson 95% for 8/10 successes: [0.4902, 0.9433] (Agresti & Coull 1998 table).
    est = stats.wilson_interval(8, 10)
    assert est.value == 0.8
    assert est.lo == pytest.approx(0.4902, abs=1e-4)
    assert est.hi == pytest.approx(0.9433, abs=1e-4)


def test_win_rate_counts_ties_half_and_checks_input():
    est = stats.win_rate([1, 0, 0.5, 0.5])
    assert est.value == 0.5 and est.n == 4 and est.contains(0.5)
    with pytest.raises(ValueError, match="^scores:"):
        stats.win_rate([2])
    with pytest.raises(ValueError, match="^n:"):
        stats.wilson_interval(0, 0)


def test_mean_ci_covers_the_mean_at_the_nominal_rate():
    rng = np.random.default_rng(0)
    hits = sum(stats.mean_ci(rng.normal(3.0, 1.0, 20)).contains(3.0) for _ in range(2000))
    assert 0.93 <= hits / 2000 <= 0.97
