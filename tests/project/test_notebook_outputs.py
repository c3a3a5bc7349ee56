"""A smoke run of a notebook changes no tracked file of a checkout (issue: exploration must
never overwrite committed results). The figures root is a temporary git checkout holding a copy
of the committed quickstart outputs; the smoke run must land in its git-ignored custom/ folder.
The run is the session's ``quickstart_in_checkout`` (tests/conftest.py), shared with
tests/papers/test_notebook_quickstart.py.
"""

import pytest

pytestmark = pytest.mark.notebook


@pytest.mark.xdist_group("quickstart_in_checkout")
def test_smoke_run_changes_no_tracked_file(quickstart_in_checkout):
    checkout = quickstart_in_checkout.checkout
    assert quickstart_in_checkout.status == ""
    custom = list((checkout / "figures" / "quickstart" / "custom").glob("smoke-*/claims.csv"))
    assert len(custom) == 1  # the run's outputs exist, in the ignored folder
