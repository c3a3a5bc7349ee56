"""Claims as data: the record, its verdict vocabulary and the renderer."""

import pandas as pd
import pytest

from infosets import claims


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
    saved = {}

    class Session:
        def save_table(self, frame, name, paper_ref=""):
            saved[name] = frame

    claims.save([claims.Claim("a", "p", "text", "inconclusive")], Session())
    assert list(saved["claims"]["ours"]) == ["text"]
