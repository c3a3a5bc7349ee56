"""pimcts_aggregation's results key covers its tasks only: editing a table, a figure, a claim
or the cost plan (``pimcts_analysis``, ``plots``, ``claims``, ``pimcts_claims``,
``pimcts_costs``) leaves the committed paper run valid."""

from infosets.experiments.store import import_closure

POST_PROCESSING = ("papers/pimcts_analysis.py", "plots.py", "claims.py",
                   "papers/pimcts_claims.py", "papers/pimcts_costs.py")


def test_the_results_key_leaves_out_tables_figures_and_claims():
    keyed = set(import_closure("infosets.papers.pimcts_aggregation"))
    assert not keyed & set(POST_PROCESSING)
    # the code that makes a row is in it
    assert {"papers/pimcts_aggregation.py", "arena.py", "search/pimcts.py",
            "games/determinizers.py"} <= keyed


def test_the_analysis_builds_on_the_tasks():
    assert "papers/pimcts_aggregation.py" in import_closure("infosets.papers.pimcts_analysis")
