"""A smoke run of a notebook changes no tracked file of a checkout (issue: exploration must
never overwrite committed results). The figures root is a temporary git checkout holding a copy
of the committed quickstart outputs; the smoke run must land in its git-ignored custom/ folder.
The runs are the session's ``quickstart_twice`` (tests/conftest.py: a run that computes and
a replot, its figures root the checkout), shared with tests/papers/test_notebook_quickstart.py.
"""

import pytest

pytestmark = pytest.mark.notebook


@pytest.mark.xdist_group("quickstart_twice")
def test_smoke_run_changes_no_tracked_file(quickstart_twice):
    figures = quickstart_twice.out / "figures"
    assert (figures / "quickstart" / "claims.csv").exists()  # the committed copy is there
    assert quickstart_twice.status == ""
    custom = list((figures / "quickstart" / "custom").glob("smoke-*/claims.csv"))
    assert len(custom) == 1  # the run's outputs exist, in the ignored folder
