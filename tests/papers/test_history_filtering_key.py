"""history_filtering's results key covers its tasks only: editing a figure, a table or a claim
(``history_filtering_analysis``, ``plots``, ``claims``, ``experiments.legends``) leaves the
committed runs valid (Solinas et al., arXiv 2311.14651)."""

from infosets.experiments.store import import_closure

POST_PROCESSING = ("papers/history_filtering_analysis.py", "plots.py", "claims.py",
                   "experiments/legends.py")


def test_the_results_key_leaves_out_tables_figures_and_claims():
    keyed = set(import_closure("infosets.papers.history_filtering"))
    assert not keyed & set(POST_PROCESSING)
    assert {"papers/history_filtering.py", "filtering/mcmc.py", "filtering/policies.py",
            "core/files.py"} <= keyed


def test_the_analysis_builds_on_the_tasks():
    assert "papers/history_filtering.py" in import_closure(
        "infosets.papers.history_filtering_analysis")
