"""Session.derive: a table derived from finished sweeps in the notebook process (belief_mixtures'
heatmaps) is computed once per run and input, kept in the local cache and, for a published run,
in results/<slug>/<preset>/derived/, so that a fresh clone replots without recomputing."""

import shutil

import numpy as np
import pandas as pd
import pytest

from infosets.experiments.session import DERIVED_FOLDER, Session

POLICIES = pd.DataFrame({"game": ["kuhn_poker"] * 3, "lam": [0.0, 0.5, 1.0],
                         "prob": [0.25, 0.5, 0.75]})


class Counting:
    """A derivation that counts its calls."""

    def __init__(self):
        self.calls = 0

    def __call__(self, frame, scale=1.0):
        self.calls += 1
        return frame.assign(br=frame["prob"] * scale, label="Kuhn")


def test_computed_once_per_run_and_input(tmp_path):
    fn = Counting()
    first = Session.create("quickstart", "default").derive("heat", fn, POLICIES, scale=2.0)
    again = Session.create("quickstart", "default").derive("heat", fn, POLICIES, scale=2.0)
    assert fn.calls == 1
    pd.testing.assert_frame_equal(first, again)
    assert list(first["br"]) == [0.5, 1.0, 1.5]
    other = POLICIES.assign(prob=[0.25, 0.5, 0.8])  # another input is another table
    Session.create("quickstart", "default").derive("heat", fn, other, scale=2.0)
    assert fn.calls == 2
    # one file per name in each place: the older input's table is pruned
    for folder in (tmp_path / "data", tmp_path / "results"):
        assert len(list(folder.rglob(f"{DERIVED_FOLDER}/heat-*.parquet"))) == 1


def test_a_name_keeps_the_tables_of_a_longer_name_it_prefixes(tmp_path):
    """Pruning globbed "heat-*.parquet", so deriving "heat" deleted "heat-small"'s table."""
    fn = Counting()
    Session.create("quickstart", "default").derive("heat-small", fn, POLICIES)
    Session.create("quickstart", "default").derive("heat", fn, POLICIES)
    Session.create("quickstart", "default").derive("heat-small", fn, POLICIES)
    assert fn.calls == 2
    for folder in (tmp_path / "data", tmp_path / "results"):
        kept = sorted(p.name for p in folder.rglob(f"{DERIVED_FOLDER}/*.parquet"))
        assert [f.startswith("heat-small-") for f in kept].count(True) == 1 and len(kept) == 2, kept


def test_a_fresh_clone_reads_the_published_table(tmp_path):
    fn = Counting()
    first = Session.create("quickstart", "default").derive("heat", fn, POLICIES)
    shutil.rmtree(tmp_path / "data")  # a clone: committed results/, empty local cache
    again = Session.create("quickstart", "default").derive("heat", fn, POLICIES)
    assert fn.calls == 1
    pd.testing.assert_frame_equal(first, again)
    assert list((tmp_path / "results" / "quickstart" / "default" / DERIVED_FOLDER).iterdir())


def test_an_unpublished_run_keeps_it_local(tmp_path):
    fn = Counting()
    Session.create("quickstart", "smoke").derive("heat", fn, POLICIES)
    assert not (tmp_path / "results").exists() or not any((tmp_path / "results").rglob("*"))
    Session.create("quickstart", "smoke").derive("heat", fn, POLICIES)
    assert fn.calls == 1


def test_a_table_that_parquet_changes_is_refused(tmp_path):
    def mixed(frame):
        return frame.assign(paper=pd.Series([None, 0.5, np.nan], dtype=object))

    with pytest.raises(ValueError, match="derive: 'mixed' does not survive parquet"):
        Session.create("quickstart", "default").derive("mixed", mixed, POLICIES)
    assert not list((tmp_path / "data").rglob("mixed-*.parquet"))
