"""Claims as data: the record, its verdict vocabulary and the renderer."""

import math

import numpy as np
import pandas as pd
import pytest

from infosets import claims

NO_SIZE = {"paper_value": "", "bound": "", "direction": "", "size": "", "rates": ""}


def test_claim_row_formats_and_checks_the_verdict():
    c = claims.Claim("PI beats OL", "+5%", 0.0512, "match", interval=(0.01, 0.09), n=1000,
                     test="paired t", margin=None, power=0.734, n_for_80_power=1200)
    row = c.row()
    assert row["ours"] == "0.051" and row["ci95"] == "[0.010, 0.090]" and row["n"] == 1000
    assert row["power"] == "0.73" and row["n_for_80_power"] == 1200
    with pytest.raises(ValueError, match="^verdict"):
        claims.Claim("x", "y", 1.0, "partial")


def test_frame_and_summary_use_the_four_verdicts():
    rows = [claims.Claim("a", "p", 1.0, "match"), claims.not_run("b", "p", "no port")]
    table = claims.frame(rows)
    assert list(table.columns) == list(claims.COLUMNS)
    assert list(table["verdict"]) == ["match", "not run"] and table["note"][1] == "no port"
    summ = claims.summary({"demo": table})
    assert summ.iloc[0][["match", "not run", "mismatch"]].tolist() == [1, 1, 0]
    with pytest.raises(ValueError, match="outside the vocabulary"):
        claims.summary({"bad": pd.DataFrame({"verdict": ["agrees"]})})


@pytest.mark.parametrize("lo,hi,expect,verdict", [
    (0.01, 0.2, "positive", "match"), (-0.2, -0.01, "positive", "mismatch"),
    (-0.1, 0.1, "positive", "inconclusive"), (-0.2, -0.01, "negative", "match")])
def test_by_interval(lo, hi, expect, verdict):
    assert claims.by_interval(lo, hi, expect=expect) == verdict


def test_save_goes_through_the_session(tmp_path):
    saved = []

    class Session:
        def save_table(self, frame, name, paper_ref=""):
            saved.append((frame.copy(), name, paper_ref))

    records = [claims.Claim("a", "p", "text", "inconclusive"),
               claims.Claim("PI beats OL", "+5%", 0.0512, "match", interval=(0.01, 0.09),
                            n=1000, test="paired t", margin=0.02, power=0.734,
                            n_for_80_power=-1, note="two seeds"),
               claims.not_run("c", "3 of 4", "no port")]
    out = claims.save(records, Session(), name="pimcts_claims", paper_ref="Sec. 5, Table 2")
    # one save, under the name and with the paper reference the caller gave
    assert len(saved) == 1
    frame, name, paper_ref = saved[0]
    assert (name, paper_ref) == ("pimcts_claims", "Sec. 5, Table 2")
    # the table the session received is the one returned: every column, every claim, in order
    pd.testing.assert_frame_equal(frame, out)
    assert list(frame.columns) == list(claims.COLUMNS)
    assert frame.to_dict("records") == [
        {"claim": "a", "paper": "p", "ours": "text", "ci95": "", "n": "", "test": "",
         "margin": "", "power": "", "n_for_80_power": "", "verdict": "inconclusive", "note": "", **NO_SIZE},
        {"claim": "PI beats OL", "paper": "+5%", "ours": "0.051", "ci95": "[0.010, 0.090]",
         "n": 1000, "test": "paired t", "margin": "0.020", "power": "0.73",
         "n_for_80_power": "> 10^7", "verdict": "match", "note": "two seeds", **NO_SIZE},
        {"claim": "c", "paper": "3 of 4", "ours": "", "ci95": "", "n": "", "test": "",
         "margin": "", "power": "", "n_for_80_power": "", "verdict": "not run",
         "note": "no port", **NO_SIZE}]
    # defaults: the table is named "claims" and carries no paper reference
    saved.clear()
    claims.save(records[:1], Session())
    assert [(name, ref) for _, name, ref in saved] == [("claims", "")]


def test_by_pvalue_boundaries():
    """by_pvalue: match exactly when p <= alpha (alpha itself matches, the next float above
    does not); above alpha the verdict is mismatch only when the caller says the contrary test
    was significant, else inconclusive; a significant test of the claim matches even with
    ``contrary``; ``alpha`` is honoured; a NaN p-value (no test possible) is inconclusive
    whatever ``contrary`` says, never a mismatch."""
    above = math.nextafter(0.05, 1.0)
    assert claims.by_pvalue(0.05) == "match"
    assert claims.by_pvalue(0.0) == "match"
    assert claims.by_pvalue(above) == "inconclusive"
    assert claims.by_pvalue(above, contrary=True) == "mismatch"
    assert claims.by_pvalue(0.05, contrary=True) == "match"
    assert claims.by_pvalue(1.0, contrary=True) == "mismatch"
    assert claims.by_pvalue(0.01, alpha=0.01) == "match"
    assert claims.by_pvalue(0.03, alpha=0.01) == "inconclusive"
    assert claims.by_pvalue(0.03, alpha=0.01, contrary=True) == "mismatch"
    assert claims.by_pvalue(0.07, alpha=0.1) == "match"
    for nan in (float("nan"), np.float64("nan")):
        assert claims.by_pvalue(nan) == "inconclusive"
        assert claims.by_pvalue(nan, contrary=True) == "inconclusive"


@pytest.mark.parametrize("lo,hi,target,verdict", [
    (0.4, 0.6, 0.5, "match"),
    (0.4, 0.6, 0.4, "match"),  # on the lower end: the interval is closed
    (0.4, 0.6, 0.6, "match"),  # on the upper end
    (0.4, 0.6, math.nextafter(0.4, 0.0), "mismatch"),  # just below
    (0.4, 0.6, math.nextafter(0.6, 1.0), "mismatch"),  # just above
    (0.7, 0.7, 0.7, "match"),  # degenerate interval (one game) holding the target
    (-math.inf, math.inf, 1e300, "match"),
    (float("nan"), 0.6, 0.5, "inconclusive"),  # no interval: no verdict
    (0.4, float("nan"), 0.5, "inconclusive"),
    (np.float64("nan"), np.float64("nan"), 0.5, "inconclusive"),
])
def test_by_containment_boundaries(lo, hi, target, verdict):
    """by_containment: match when lo <= target <= hi (both ends included, the next float
    outside either end mismatches); a missing (NaN) end is inconclusive, not a mismatch."""
    assert claims.by_containment(lo, hi, target) == verdict


def test_by_containment_nan_target_is_inconclusive():
    """A missing paper number (NaN target, a float32 one too) cannot disagree with our
    interval: like a NaN end of the interval (and a NaN p-value in by_pvalue) it is
    inconclusive (it was a mismatch until 2026-11-28: ``lo <= nan <= hi`` is False)."""
    import numpy as np

    assert claims.by_containment(0.4, 0.6, float("nan")) == "inconclusive"
    assert claims.by_containment(0.4, 0.6, np.float32("nan")) == "inconclusive"
    assert claims.by_containment(np.float32("nan"), 0.6, 0.5) == "inconclusive"


@pytest.mark.parametrize("lo,hi,target,power,equivalence,verdict", [
    # belief_mixtures PIMC CG 10C seat 0 (issue 53): the paper's 16.6-point drop against
    # [0.007, 0.037] at power 1.00 is excluded: a mismatch of size
    (0.007, 0.037, 0.166, 1.00, None, "mismatch"),
    # the same interval at power 0.5 still lies wholly beyond 0.166 - 0.05 = 0.116
    (0.007, 0.037, 0.166, 0.50, None, "mismatch"),
    # excluded by a little (0.10 > 0.095) at low power: undecided
    (0.02, 0.095, 0.10, 0.50, None, "inconclusive"),
    # the 90% interval [0.12, 0.18] within 0.15 +- 0.05: equivalent
    (0.11, 0.19, 0.15, 1.00, (0.12, 0.18), "match"),
    # contains the number but too wide for equivalence
    (0.05, 0.25, 0.15, 1.00, None, "inconclusive"),
    # no number: direction only
    (0.01, 0.04, None, 1.00, None, "direction only"),
    (0.01, 0.04, float("nan"), 1.00, None, "direction only"),
    (float("nan"), 0.04, 0.1, 1.00, None, "inconclusive"),
])
def test_by_size_by_hand(lo, hi, target, power, equivalence, verdict):
    assert claims.by_size(lo, hi, target, margin=0.05, power=power, equivalence=equivalence) == verdict


def test_by_size_refuses_a_bad_margin():
    with pytest.raises(ValueError, match="^margin"):
        claims.by_size(0.0, 0.1, 0.05, margin=0.0, power=1.0)


@pytest.mark.parametrize("direction,size,verdict", [
    ("match", "match", "match"), ("match", "mismatch", "mismatch"),
    ("match", "inconclusive", "inconclusive"), ("inconclusive", "mismatch", "mismatch"),
    ("mismatch", "match", "mismatch"), ("inconclusive", "direction only", "inconclusive"),
    ("match", "direction only", "match"), ("not run", "inconclusive", "not run")])
def test_overall_combines_direction_and_size(direction, size, verdict):
    assert claims.overall(direction, size) == verdict


def test_claim_with_two_verdicts_renders_them_and_checks_the_combination():
    c = claims.Claim("private beats public", "drop 16.6 points", 0.022, "mismatch",
                     interval=(0.007, 0.037), power=1.0, paper_value=0.166, bound=0.0094,
                     direction="match", size="mismatch", rates=(0.482, 0.316))
    row = c.row()
    assert (row["paper_value"], row["bound"], row["direction"], row["size"]) == \
        ("0.166", ">= 0.009", "match", "mismatch")
    assert row["rates"] == "0.482; 0.316" and row["note"] == ""
    assert claims.Claim("c", "p", 0.1, "match", bound=0.2, alternative="less").row()["bound"] == "<= 0.200"
    with pytest.raises(ValueError, match="^verdict: 'match' is not the combination"):
        claims.Claim("c", "p", 0.02, "match", direction="match", size="mismatch")
    with pytest.raises(ValueError, match="^size"):
        claims.Claim("c", "p", 0.02, "match", size="big")


def test_a_floor_cell_says_so_in_its_note():
    """Sushi Go's D = 1000 cell (win rates 0.007 and 0.020): the note says they sit at the
    floor; rates away from 0 and 1 add nothing; the note is not repeated."""
    c = claims.Claim("gain larger with 5", "yes", 0.13, "match", rates=(0.007, 0.020, 0.3), note="D=1000")
    assert c.row()["note"] == (f"D=1000; {claims.FLOOR_NOTE} (0.007, 0.020): a floor or ceiling cell")
    assert claims.Claim("c", "p", 0.1, "match", rates=(0.3, 0.96)).row()["note"].startswith(claims.FLOOR_NOTE)
    assert claims.Claim("c", "p", 0.1, "match", rates=(0.3, 0.6), note="x").row()["note"] == "x"


def test_one_sided_bound_by_hand():
    """d = (1, 0, 0, 1, -1, 0, 1, 1): mean 0.375, s = sqrt(3.875 / 7) = 0.74402, s.e. 0.26305,
    t(0.95, 7) = 1.894579: the lower 95% bound is 0.375 - 0.49837 = -0.12337 and the upper
    0.87337 (the ends of the two-sided 90% interval)."""
    d = [1, 0, 0, 1, -1, 0, 1, 1]
    assert claims.one_sided_bound(d, "greater") == pytest.approx(-0.12337, abs=1e-5)
    assert claims.one_sided_bound(d, "less") == pytest.approx(0.87337, abs=1e-5)
    # ten tied differences of 0.5 in [-1, 1]: the exact lower bound -1 + 1.5 * 0.05 ** 0.1
    assert claims.one_sided_bound([0.5] * 10, bounds=(-1, 1)) == pytest.approx(-1 + 1.5 * 0.05 ** 0.1)
    with pytest.raises(ValueError, match="^alternative"):
        claims.one_sided_bound(d, "two-sided")
    with pytest.raises(ValueError, match="^confidence"):
        claims.one_sided_bound(d, confidence=0.4)
