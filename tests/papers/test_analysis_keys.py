"""A paper whose tasks sit apart from its analysis has a results key that covers the tasks
only: editing a table, a figure or a claim (its ``<slug>_analysis`` module, ``plots``,
``claims``, ``experiments.legends``) leaves its committed runs valid.

pimcts_aggregation (Ravichandran, Goodman, Lucas), history_filtering (Solinas et al., arXiv
2311.14651), progressive_hiding (Heymann & Lanctot, AAMAS 2025), belote_ismcts (Boudier) and
belief_mixtures (Arjonilla, Saffidine, Cazenave 2024) are split so."""

import pytest

from infosets.experiments.store import import_closure

POST_PROCESSING = ("plots.py", "claims.py", "experiments/legends.py")
SPLIT = {
    "belief_mixtures": ("belief_mixtures_analysis", (),
                        ("beliefs.py", "metrics.py", "search/pimc.py", "search/ismcts.py")),
    "pimcts_aggregation": ("pimcts_analysis", ("papers/pimcts_claims.py", "papers/pimcts_costs.py"),
                           ("arena.py", "search/pimcts.py", "games/determinizers.py")),
    "history_filtering": ("history_filtering_analysis", (),
                          ("filtering/mcmc.py", "filtering/policies.py", "core/files.py")),
    "progressive_hiding": ("progressive_hiding_analysis", (),
                           ("learning/hiding.py", "learning/cfr.py")),
    "belote_ismcts": ("belote_ismcts_analysis", ("papers/belote_human_games.py",),
                      ("search/belote_ismcts.py", "search/belote_bots.py", "games/belote2p/deal.py")),
}


@pytest.mark.parametrize("slug", sorted(SPLIT))
def test_the_results_key_leaves_out_tables_figures_and_claims(slug):
    analysis, extra, makes_rows = SPLIT[slug]
    keyed = set(import_closure(f"infosets.papers.{slug}"))
    left_out = {*POST_PROCESSING, f"papers/{analysis}.py", *extra}
    assert not keyed & left_out, sorted(keyed & left_out)
    assert {f"papers/{slug}.py", *makes_rows} <= keyed  # the code that makes a row is in it


@pytest.mark.parametrize("slug", sorted(SPLIT))
def test_the_analysis_builds_on_the_tasks(slug):
    analysis = SPLIT[slug][0]
    assert f"papers/{slug}.py" in import_closure(f"infosets.papers.{analysis}")


# Where rows are kept and when (the runner, the local store, the committed tables, the
# executors and the lifeline of worker processes) decides nothing a row holds, so a fix to it
# must restart no paper; what does decide a row (the task, its seed, how it is run and
# tabled) is ``experiments/tasks.py``, which every paper's key covers.
RUN_MACHINERY = ("experiments/runner.py", "experiments/store.py", "experiments/committed.py",
                 "experiments/executors.py", "experiments/lifeline.py")


@pytest.mark.parametrize("slug", sorted(SPLIT))
def test_the_results_key_leaves_out_the_run_machinery(slug):
    keyed = set(import_closure(f"infosets.papers.{slug}"))
    assert not keyed & set(RUN_MACHINERY), sorted(keyed & set(RUN_MACHINERY))
    assert "experiments/tasks.py" in keyed
