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


def test_standard_error_by_hand_and_against_scipy():
    """For 1..5: s = sqrt(2.5), so s.e. = sqrt(2.5 / 5) = sqrt(0.5); SciPy's sem agrees on
    random data. One value has no standard error, and the error names the input."""
    from scipy.stats import sem

    assert stats.standard_error([1, 2, 3, 4, 5]) == pytest.approx(np.sqrt(0.5))
    x = np.random.default_rng(3).normal(0.0, 2.0, 11)
    assert stats.standard_error(x) == pytest.approx(float(sem(x)))
    with pytest.raises(ValueError, match="^values:"):
        stats.standard_error([1.0])


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


@pytest.mark.filterwarnings("ignore:Precision loss:RuntimeWarning")  # SciPy on the constant arm
def test_welch_difference_is_scipys_welch_interval_and_checks_sample_sizes():
    """welch_difference is the Welch t interval of mean(a) - mean(b): unpooled s.e. and
    Welch-Satterthwaite degrees of freedom, not the pooled (n_a + n_b - 2) nor a normal quantile.

    By hand for a = 1..5, b = (2, 4, 6): d = 3 - 4 = -1, va = 2.5 / 5 = 1/2, vb = 4 / 3,
    s.e. = sqrt(11/6) = 1.354006, df = (11/6)^2 / ((1/2)^2 / 4 + (4/3)^2 / 2) = 484/137 =
    3.532847, t(0.975, df) = 2.927405, so -1 -/+ 3.963726 (pooled 6 df would give -/+ 3.313,
    a normal quantile -/+ 2.654). Then SciPy's ttest_ind(equal_var=False) interval at 95% and
    at 90% on seeded samples of unequal size and spread, including an arm with no variance
    (df = the other arm's n - 1). ``n`` is the total count; a one-value arm is refused (its
    variance is undefined), as the docstring promises."""
    from scipy.stats import ttest_ind

    est = stats.welch_difference([1, 2, 3, 4, 5], [2, 4, 6])
    assert (est.value, est.n) == (-1.0, 8)
    assert (est.lo, est.hi) == pytest.approx((-1 - 3.963726, -1 + 3.963726), abs=1e-6)
    rng = np.random.default_rng(11)
    cases = [(rng.normal(0.5, 3.0, 4), rng.normal(0.0, 0.5, 15)),
             (rng.normal(1.0, 1.0, 30), rng.normal(0.0, 2.0, 9)),
             (np.array([2.0, 2.0, 2.0]), rng.normal(0.0, 1.0, 6))]
    for a, b in cases:
        res = ttest_ind(a, b, equal_var=False)
        for level in (0.95, 0.90):
            ref = res.confidence_interval(confidence_level=level)
            est = stats.welch_difference(a, b, confidence=level)
            assert est.value == pytest.approx(a.mean() - b.mean())
            assert (est.lo, est.hi) == pytest.approx((ref.low, ref.high), rel=1e-9), (len(a), level)
            assert est.n == len(a) + len(b)
    with pytest.raises(ValueError, match="^a:"):
        stats.welch_difference([1.0], [1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="^b:"):
        stats.welch_difference([1.0, 2.0], [])


def test_mean_difference_is_the_normal_interval_of_the_welch_standard_error():
    """mean_difference is d -/+ z(0.975) * s.e. with the unpooled (Welch) s.e. of SciPy's
    ttest_ind(equal_var=False) (s.e. = d / t), i.e. SciPy's norm.interval at 95%; ``n`` is the
    smaller arm. With few values it is narrower than welch_difference (same centre): the t
    quantile is what widens the small-sample interval.

    By hand with a one-value arm (which contributes no variance): a = (5,), b = 1..5 ->
    d = 2, s.e. = sqrt(2.5 / 5) = sqrt(0.5), half = 1.959964 * 0.707107 = 1.385904, n = 1.
    Empty or non-finite input is refused with the arm's name."""
    from scipy.stats import norm, ttest_ind

    rng = np.random.default_rng(12)
    a, b = rng.normal(0.3, 1.0, 400), rng.normal(0.0, 2.0, 250)
    res = ttest_ind(a, b, equal_var=False)
    d = a.mean() - b.mean()
    ref = norm.interval(0.95, loc=d, scale=d / res.statistic)
    est = stats.mean_difference(a, b)
    assert est.value == pytest.approx(d) and est.n == 250
    assert (est.lo, est.hi) == pytest.approx(ref, rel=1e-9)
    one = stats.mean_difference([5.0], [1, 2, 3, 4, 5])
    assert (one.value, one.n) == (2.0, 1)
    assert (one.lo, one.hi) == pytest.approx((2 - 1.385904, 2 + 1.385904), abs=1e-6)
    small_a, small_b = [1, 2, 3, 4, 5], [2, 4, 6]
    normal, welch = stats.mean_difference(small_a, small_b), stats.welch_difference(small_a, small_b)
    assert normal.value == welch.value == -1.0 and normal.n == 3
    assert (normal.lo, normal.hi) == pytest.approx((-1 - 2.653804, -1 + 2.653804), abs=1e-6)
    assert welch.lo < normal.lo and normal.hi < welch.hi
    with pytest.raises(ValueError, match="^a:"):
        stats.mean_difference([], [1.0, 2.0])
    with pytest.raises(ValueError, match="^b:"):
        stats.mean_difference([1.0, 2.0], [1.0, float("nan")])


def test_normal_difference_adds_standard_errors_in_quadrature():
    """normal_difference of two independent estimates: a - b -/+ z * sqrt(se_a^2 + se_b^2)
    (not se_a + se_b), with ``z`` honoured and ``n`` passed through (0 by default).

    By hand: 0.3 (s.e. 0.03) - 0.1 (s.e. 0.04) = 0.2 with s.e. 0.05, half-width
    1.959964 * 0.05 = 0.0979982; against SciPy's norm.interval at 95% and, with
    z = norm.ppf(0.95) as history_filtering's TOST passes, at 90%."""
    from scipy.stats import norm

    est = stats.normal_difference(0.3, 0.03, 0.1, 0.04)
    assert est.value == pytest.approx(0.2) and est.n == 0
    assert (est.lo, est.hi) == pytest.approx((0.2 - 0.0979982, 0.2 + 0.0979982), abs=1e-7)
    for level in (0.95, 0.90):
        z = stats.Z95 if level == 0.95 else norm.ppf(0.95)
        got = stats.normal_difference(1.5, 0.2, -0.5, 0.7, n=40, z=z)
        ref = norm.interval(level, loc=2.0, scale=np.hypot(0.2, 0.7))
        assert (got.value, got.n) == (2.0, 40)
        assert (got.lo, got.hi) == pytest.approx(ref, rel=1e-12)
    assert stats.Z95 == pytest.approx(norm.ppf(0.975), rel=1e-15)
    exact = stats.normal_difference(1.0, 0.0, 0.25, 0.0, n=3)
    assert exact == stats.Estimate(0.75, 0.75, 0.75, 3)


def test_normal_pvalue_matches_scipy_in_each_direction_and_in_the_far_tail():
    """normal_pvalue is SciPy's normal tail: two-sided 2 * sf(|z|), greater sf(z), less cdf(z).

    By hand at z = 1.959964: 0.05, 0.025 and 0.975. At z = -1.2 the directions swap
    (greater 0.884930, less 0.115070). In the far tail (z = 10: 7.62e-24) the survival
    function is used rather than 1 - cdf, which rounds to 0. An unknown ``alternative``
    (e.g. "two_sided") is refused."""
    from scipy.stats import norm

    z95 = stats.Z95
    assert stats.normal_pvalue(z95) == pytest.approx(0.05, rel=1e-12)
    assert stats.normal_pvalue(-z95) == pytest.approx(0.05, rel=1e-12)
    assert stats.normal_pvalue(z95, "greater") == pytest.approx(0.025, rel=1e-12)
    assert stats.normal_pvalue(z95, "less") == pytest.approx(0.975, rel=1e-12)
    assert stats.normal_pvalue(-1.2, "greater") == pytest.approx(0.884930, abs=1e-6)
    assert stats.normal_pvalue(-1.2, "less") == pytest.approx(0.115070, abs=1e-6)
    assert stats.normal_pvalue(0.0) == 1.0
    for z in (-10.0, -3.1, -0.4, 0.7, 2.5, 10.0):  # abs=0: a tail of 1e-23 must not pass as 0
        assert stats.normal_pvalue(z) == pytest.approx(2 * norm.sf(abs(z)), rel=1e-12, abs=0)
        assert stats.normal_pvalue(z, "greater") == pytest.approx(norm.sf(z), rel=1e-12, abs=0)
        assert stats.normal_pvalue(z, "less") == pytest.approx(norm.cdf(z), rel=1e-12, abs=0)
    assert stats.normal_pvalue(10.0, "greater") == pytest.approx(7.61985e-24, rel=1e-5, abs=0)
    assert stats.normal_pvalue(-10.0, "less") == pytest.approx(7.61985e-24, rel=1e-5, abs=0)
    with pytest.raises(ValueError, match="^alternative"):
        stats.normal_pvalue(1.0, "two_sided")


def test_bernoulli_difference_sd_is_the_sd_of_a_difference_of_independent_bernoullis():
    """SD of X - Y, X ~ Bernoulli(p_a), Y ~ Bernoulli(p_b) independent: sqrt(p_a(1 - p_a) +
    p_b(1 - p_b)), checked against the exact variance from enumerating the four outcomes.

    By hand: (1/2, 1/2) -> sqrt(1/2) = 0.707107; (1/4, 1/4) (four players, as pimcts_claims
    uses) -> sqrt(3/8) = 0.612372. Two certain cells have no spread, and the result is floored
    at sqrt(1e-12) = 1e-6 so that it can divide (power needs sd > 0)."""
    assert stats.bernoulli_difference_sd(0.5, 0.5) == pytest.approx(0.707107, abs=1e-6)
    assert stats.bernoulli_difference_sd(0.25, 0.25) == pytest.approx(0.612372, abs=1e-6)
    for pa, pb in ((0.1, 0.7), (0.9, 0.05), (0.0, 0.5), (0.33, 0.33)):
        outcomes = [(x - y, (pa if x else 1 - pa) * (pb if y else 1 - pb))
                    for x in (0, 1) for y in (0, 1)]
        mean = sum(d * w for d, w in outcomes)
        var = sum((d - mean) ** 2 * w for d, w in outcomes)
        assert stats.bernoulli_difference_sd(pa, pb) == pytest.approx(np.sqrt(var), rel=1e-12)
    for pa, pb in ((0.0, 1.0), (1.0, 1.0), (0.0, 0.0)):
        sd = stats.bernoulli_difference_sd(pa, pb)
        assert sd == pytest.approx(1e-6, rel=1e-9) and sd > 0


U = stats.UNIT_SCORE_DIFFERENCES


def test_tied_test_is_exact_for_differences_in_minus_one_to_one():
    """n equal differences c: the largest chance of that sample under "mean <= null" puts
    mass on c and on -1 (the far end), so p = ((null + 1) / (c + 1))^n."""
    est, p = stats.tied_test(0.0, 3, "two-sided", bounds=U)
    half = 1 - 0.025 ** (1 / 3)
    assert (est.value, est.n) == (0.0, 3) and p == 1.0
    assert est.lo == pytest.approx(-half) and est.hi == pytest.approx(half)  # ±0.71
    assert stats.tied_test(0.0, 300, "greater", null=-0.03, bounds=U)[1] == pytest.approx(0.97 ** 300)
    assert stats.tied_test(0.0, 300, "less", null=0.03, bounds=U)[1] == pytest.approx(0.97 ** 300)
    assert stats.tied_test(0.0, 300, "less", bounds=U)[1] == 1.0  # c on the null itself: no evidence
    est, p = stats.tied_test(0.5, 10, "greater", bounds=U)
    assert p == pytest.approx((1 / 1.5) ** 10)
    # the least favourable law (mass at c and at -1, mean 0) gives all-c samples with chance p
    q = 0.5 / 1.5
    assert (1 - q) * 0.5 + q * -1 == pytest.approx(0.0) and (1 - q) ** 10 == pytest.approx(p)
    # the interval ends are the nulls at which each one-sided p is 2.5%
    assert stats.tied_test(0.5, 10, "greater", null=est.lo, bounds=U)[1] == pytest.approx(0.025)
    assert stats.tied_test(0.5, 10, "less", null=est.hi, bounds=U)[1] == pytest.approx(0.025)


def test_a_tied_paired_sample_is_tested_exactly_not_with_zero_width():
    """Regression (held back since 2026-11-28, docs/paper_scale.md): differences that are all
    equal gave a zero-width interval and p = 0 or 1 (sd = 0), as if certain. Now they are
    tested exactly within the differences' range, and without a known range a tie proves
    nothing: p = 1, an unbounded interval."""
    est, p = stats.paired_t_test([0.5] * 10, "greater", bounds=U)
    assert p == pytest.approx((1 / 1.5) ** 10) and est.lo < 0.5 < est.hi == pytest.approx(
        1 - 0.5 * 0.025 ** 0.1)
    est, p = stats.paired_t_test([0.5] * 10, "greater")
    assert p == 1.0 and (est.lo, est.hi) == (-np.inf, np.inf) and est.value == 0.5
    est, p = stats.tost_paired([0.0] * 300, 0.03, bounds=U)
    assert p == pytest.approx(0.97 ** 300) and -0.03 < est.lo < est.hi < 0.03
    assert stats.tost_paired([0.0] * 3, 0.03, bounds=U)[1] > 0.5
    # a shifted null tests mean = null: the same t as the shifted sample's
    d = np.array([0.2, -0.1, 0.4, 0.3, 0.0, 0.5, 0.1])
    assert stats.paired_t_test(d, "greater", null=0.1)[1] == pytest.approx(
        stats.paired_t_test(d - 0.1, "greater")[1])
    with pytest.raises(ValueError, match="^bounds:"):
        stats.paired_t_test([0.5] * 3, bounds=(1, -1))
    with pytest.raises(ValueError, match="^c:"):
        stats.tied_test(2.0, 3, bounds=U)

