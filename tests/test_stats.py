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


def test_mean_ci_is_the_student_t_interval_and_covers_at_the_nominal_rate():
    """mean_ci is the Student-t interval (s.e. with ddof = 1, n - 1 degrees of freedom).

    By hand for 1..5: mean 3, s = sqrt(2.5), s.e. = sqrt(0.5), t(0.975, 4) = 2.776445, so
    3 -/+ 1.963243. Then SciPy's t.interval at 95% and at the 90% that tost_paired asks for.
    Coverage is checked at n = 5: a normal-quantile interval covers only 87.8% there (93.5% at
    n = 20, which a 93-97% window could not tell from 95%)."""
    from scipy.stats import sem, t

    est = stats.mean_ci([1, 2, 3, 4, 5])
    assert (est.value, est.n) == (3.0, 5)
    assert (est.lo, est.hi) == pytest.approx((3 - 1.963243, 3 + 1.963243), abs=1e-6)
    x = np.random.default_rng(2).normal(0.3, 2.0, 7)
    for level in (0.95, 0.90):
        ref = t.interval(level, len(x) - 1, loc=x.mean(), scale=sem(x))
        assert (stats.mean_ci(x, level).lo, stats.mean_ci(x, level).hi) == pytest.approx(ref)
    assert stats.mean_ci([4.2]) == stats.Estimate(4.2, 4.2, 4.2, 1)
    rng = np.random.default_rng(0)
    hits = sum(stats.mean_ci(rng.normal(3.0, 1.0, 5)).contains(3.0) for _ in range(2000))
    assert 0.93 <= hits / 2000 <= 0.97  # binomial s.d. of the rate: 0.005


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


def test_tost_paired_is_two_one_sided_t_tests_with_the_90_percent_interval():
    """Schuirmann's TOST on 7 differences: the p-value is the larger of SciPy's one-sided
    t-tests of mean > -margin and mean < +margin (Student t, 6 df: a normal tail would give
    smaller p-values), and the interval returned is the 90% t interval, inside (-margin,
    margin) exactly when TOST rejects at 5%."""
    from scipy.stats import sem, t, ttest_1samp

    d = np.array([0.02, -0.01, 0.04, 0.03, 0.0, 0.05, 0.01])
    ninety = t.interval(0.90, len(d) - 1, loc=d.mean(), scale=sem(d))  # [0.0041, 0.0359]
    for margin in (0.05, 0.03):
        est, p = stats.tost_paired(d, margin)
        ref = max(ttest_1samp(d, -margin, alternative="greater").pvalue,
                  ttest_1samp(d, margin, alternative="less").pvalue)
        assert p == pytest.approx(ref, rel=1e-9)
        assert (est.value, est.lo, est.hi) == pytest.approx((d.mean(), *ninety))
        assert (p < 0.05) == (-margin < est.lo and est.hi < margin)
    assert stats.tost_paired(d, 0.05)[1] == pytest.approx(0.0052, abs=1e-4)
    assert stats.tost_paired(d, 0.03)[1] == pytest.approx(0.1333, abs=1e-4)


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
    # by hand: d = -0.005, unpooled s.e. = sqrt(0.25 + 0.505 * 0.495) / sqrt(1000) = 0.022361;
    # P(Z > (d + 0.05) / se = 2.0125) = 0.02208 beats P(Z < (d - 0.05) / se = -2.4597) = 0.00695
    assert stats.tost_two_proportions(500, 1000, 505, 1000, margin=0.05) == pytest.approx(
        0.02208, abs=1e-5)
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


def test_bootstrap_is_the_percentile_interval_of_its_statistic_and_needs_a_seed():
    """The percentile bootstrap agrees with SciPy's (another resampler on another stream)
    within Monte Carlo error: with 20,000 resamples of the mean of 200 N(1, 1) draws each end
    is off its true percentile by about 0.0015 (s.d.), so two independent ends differ by about
    0.002 and 0.006 is a 3-s.d. tolerance, while a 90% interval moves each end by 0.024.
    ``confidence`` and ``statistic`` are honoured: with one outlier at 1000 the median's
    interval sits near 0 and the mean (5.07) is far outside it."""
    from scipy.stats import bootstrap

    def scipy_percentile(x, statistic, level, resamples):
        return bootstrap((x,), statistic, n_resamples=resamples, method="percentile",
                         confidence_level=level, random_state=np.random.default_rng(5)
                         ).confidence_interval

    data = np.random.default_rng(3).normal(1.0, 1.0, 200)
    for level in (0.95, 0.90):
        est = stats.bootstrap_ci(data, rng=np.random.default_rng(4), resamples=20_000,
                                 confidence=level)
        ref = scipy_percentile(data, np.mean, level, 20_000)
        assert est.value == pytest.approx(data.mean()) and est.n == 200
        assert (est.lo, est.hi) == pytest.approx((ref.low, ref.high), abs=0.006), level
    skewed = np.append(np.random.default_rng(6).normal(0.0, 1.0, 199), 1000.0)
    med = stats.bootstrap_ci(skewed, rng=7, statistic=np.median, resamples=5000)
    ref = scipy_percentile(skewed, np.median, 0.95, 5000)
    assert med.value == np.median(skewed) and not med.contains(skewed.mean())
    assert (med.lo, med.hi) == pytest.approx((ref.low, ref.high), abs=0.03)
    est = stats.bootstrap_ci(data, rng=np.random.default_rng(4))
    assert est == stats.bootstrap_ci(data, rng=4)  # an int seed is the same stream
    with pytest.raises(ValueError, match="^rng"):
        stats.bootstrap_ci(data, rng=None)


def test_trend_test_detects_a_falling_series():
    tau, p = stats.trend_test([1, 3, 10, 30, 100], [9.0, 7.5, 5.0, 3.1, 2.0], "less")
    assert tau == pytest.approx(-1.0) and p == pytest.approx(1 / 120)
    rho, p = stats.trend_test([1, 3, 10], [1.0, 1.0, 1.0])
    assert np.isnan(rho) and np.isnan(p)
