"""history_filtering: the task rows (``history_filtering``) and the claims read from them
(``history_filtering_analysis``); the notebook smoke run covers the rest."""

import pandas as pd

from infosets.papers import history_filtering as hf
from infosets.papers import history_filtering_analysis as analysis


def test_sparse_dense_rows_of_a_52_card_deal_survive_the_parquet_table(tmp_path):
    """Regression (paper preset, 2026-11-26): |H_S| of the 52-card trick-taking deal is about
    1e23, beyond int64, and writing the committed parquet table failed with OverflowError
    after 20 minutes of the sweep. The count is a float column plus its exact decimal text."""
    rows = hf.sparse_dense_task({"count_limit": 1000}, {"deck": 52}, None)
    trick = next(r for r in rows if r["deal"].startswith("trick-taking"))
    assert int(trick["histories_exact"]) > 2**63 and not trick["complete"]
    assert trick["histories"] == float(int(trick["histories_exact"]))
    pd.DataFrame(rows).to_parquet(tmp_path / "sparse_dense.parquet", index=False)
    back = pd.read_parquet(tmp_path / "sparse_dense.parquet")
    assert back["histories_exact"].map(int).tolist() == [int(r["histories_exact"]) for r in rows]


def _fig4_rows(true, mcmc, importance, se=0.002):
    return pd.DataFrame([
        {"method": method, "samples": 800, "burn_in": b, "error": err, "se": se, "runs": 100,
         "histories": 41_580}
        for method, b, err in (("True", 0, true), ("MCMC", 50, mcmc), ("Importance", 0, importance))])


def test_fig4_claim_reads_an_undecided_importance_gap_as_inconclusive_not_mismatch():
    """Regression (paper preset, 2026-11-26): at 3-3-5-3-3-2 the paper run had MCMC 0.021,
    True 0.021, Importance 0.022 with Importance - MCMC [-0.004, 0.005]. The old rule read
    "does not significantly beat Importance" as a refutation (mismatch); a non-significant
    difference is no evidence either way."""
    claim = analysis._fig4_claim("s", _fig4_rows(0.021, 0.021, 0.0215))
    assert claim.verdict == "inconclusive"


def test_fig4_claim_verdicts_follow_equivalence_and_significance():
    assert analysis._fig4_claim("s", _fig4_rows(0.100, 0.101, 0.140)).verdict == "match"
    # Importance significantly better than MCMC: refuted
    assert analysis._fig4_claim("s", _fig4_rows(0.100, 0.101, 0.080)).verdict == "mismatch"
    # MCMC's error significantly beyond 20% of True's: refuted
    assert analysis._fig4_claim("s", _fig4_rows(0.100, 0.150, 0.200)).verdict == "mismatch"
    # an interval too wide to show equivalence (the old rule called containing 0 "close")
    wide = analysis._fig4_claim("s", _fig4_rows(0.100, 0.100, 0.200, se=0.02))
    assert wide.verdict == "inconclusive" and wide.margin == 0.2 * 0.100
