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


def test_newcombe_matches_published_example():
    # Newcombe (1998) Table II, example (a): 56/70 vs 48/80 -> 0.2000 [0.0524, 0.3339].
    est = stats.newcombe_interval(56, 70, 48, 80)
    assert est.value == pytest.approx(0.2)
    assert est.lo == pytest.approx(0.0524, abs=1e-3) and est.hi == pytest.approx(0.3339, abs=1e-3)


def test_two_proportion_test_against_scipy_chi_square():
    from scipy.stats import chi2_contingency
    p = stats.two_proportion_test(30, 100, 45, 100)
    ref = chi2_contingency([[30, 70], [45, 55]], correction=False)[1]
    assert p == pytest.approx(ref)
    assert stats.two_proportion_test(30, 100, 45, 100, "less") == pytest.approx(p / 2)


def test_paired_t_matches_scipy():
    from scipy.stats import ttest_1samp
    d = np.array([0.2, -0.1, 0.4, 0.3, 0.0, 0.5, 0.1])
    est, p = stats.paired_t_test(d)
    assert est.value == pytest.approx(d.mean())
    assert p == pytest.approx(ttest_1samp(d, 0).pvalue)
    _, p_greater = stats.paired_t_test(d, "greater")
    assert p_greater == pytest.approx(ttest_1samp(d, 0, alternative="greater").pvalue)


def test_tost_accepts_equivalence_only_inside_the_margin():
    rng = np.random.default_rng(1)
    close = rng.normal(0.0, 0.3, 2000)
    _, p_in = stats.tost_paired(close, margin=0.05)
    assert p_in < 0.01
    _, p_out = stats.tost_paired(close + 0.2, margin=0.05)
    assert p_out > 0.5
    # non-significance with a tiny sample is NOT equivalence
    _, p_small = stats.tost_paired(close[:5], margin=0.05)
    assert p_small > 0.05
    assert stats.tost_two_proportions(500, 1000, 505, 1000, margin=0.05) < 0.05
    assert stats.tost_two_proportions(50, 100, 51, 100, margin=0.05) > 0.05
    with pytest.raises(ValueError, match="^margin"):
        stats.tost_paired(close, margin=0)


def test_holm_known_values_and_order():
    adj = stats.holm([0.01, 0.04, 0.03, 0.005])
    # sorted p: 0.005*4=0.02, 0.01*3=0.03, 0.03*2=0.06, 0.04*1 -> max(0.06, 0.04)=0.06
    assert adj == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert stats.benjamini_hochberg([0.01, 0.04]) == pytest.approx([0.02, 0.04])


def test_power_and_required_n_agree_with_the_normal_formula():
    # two-sided paired t, effect 0.05, sd 0.5: normal approx n = ((1.96+0.8416)*10)^2 = 785
    n = stats.n_for_power(lambda k: stats.power_mean_difference(0.05, 0.5, k))
    assert 780 <= n <= 795
    assert stats.power_mean_difference(0.05, 0.5, n) >= 0.8 > stats.power_mean_difference(0.05, 0.5, n - 1)
    assert stats.power_equivalence(0.05, 0.5, 10_000) > 0.99
    assert stats.power_equivalence(0.05, 0.5, 10) == 0.0


def test_bootstrap_needs_a_seed_and_covers_the_mean():
    data = np.random.default_rng(3).normal(1.0, 1.0, 200)
    est = stats.bootstrap_ci(data, rng=np.random.default_rng(4))
    assert est.contains(1.0) and est.lo < est.value < est.hi
    assert est == stats.bootstrap_ci(data, rng=4)  # an int seed is the same stream
    with pytest.raises(ValueError, match="^rng"):
        stats.bootstrap_ci(data, rng=None)


def test_trend_test_detects_a_falling_series():
    tau, p = stats.trend_test([1, 3, 10, 30, 100], [9.0, 7.5, 5.0, 3.1, 2.0], "less")
    assert tau == pytest.approx(-1.0) and p == pytest.approx(1 / 120)
    rho, p = stats.trend_test([1, 3, 10], [1.0, 1.0, 1.0])
    assert np.isnan(rho) and np.isnan(p)
