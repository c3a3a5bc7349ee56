"""history_filtering: the paper module's task rows (the notebook smoke run covers the rest)."""

import pandas as pd

from infosets.papers import history_filtering as hf


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
