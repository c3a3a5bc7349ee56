"""Measuring a preset's cost before running it (docs/paper_scale.md): kinds, CPU time, totals."""

import json

import pytest

from infosets.experiments import config, task_costs
from infosets.experiments.config import ConfigError

TINY = {"games": ["kuhn_poker"], "solvers": ["cfr"], "iterations": [1, 4], "eval_games": 20}


def test_every_sweep_has_cost_keys_and_builds():
    for slug, sweeps in task_costs.SWEEPS.items():
        cfg = config.load(slug, "smoke")
        for sweep in sweeps:
            assert (slug, sweep) in task_costs.COST_KEYS
            assert task_costs.sweep_tasks(cfg, sweep), (slug, sweep)


def test_kinds_group_replicates_together():
    cfg = config.load("belote_ismcts", "paper")
    groups = task_costs.kinds("belote_ismcts", "heatmap", task_costs.sweep_tasks(cfg, "heatmap"))
    assert sorted(json.loads(k)["iterations"] for k in groups) == cfg.heatmap_iterations
    per_kind = len(cfg.heatmap_exploration) * cfg.heatmap_deals // cfg.deals_per_task
    assert all(len(tasks) == per_kind for tasks in groups.values())


def test_measure_times_real_tasks_and_estimate_sums_them(tmp_path):
    out = tmp_path / "costs.csv"
    costs = task_costs.measure("quickstart", "smoke", overrides=TINY, out=out, log=lambda _: None)
    assert list(costs.columns) == task_costs.COLUMNS
    assert costs.tasks_of_kind.sum() == len(TINY["iterations"])  # kinds: one per solver x game
    assert (costs.cpu_seconds_mean > 0).all() and out.is_file()
    total = task_costs.estimate(costs)
    assert total.iloc[-1]["sweep"] == "(total)"
    assert total.iloc[-1]["cpu_hours"] == pytest.approx(costs.cpu_hours_of_kind.sum())


def test_unknown_sweep_is_one_line():
    with pytest.raises(ConfigError, match=r"^sweep: quickstart has no sweep 'nope'"):
        task_costs.sweep_tasks(config.load("quickstart", "smoke"), "nope")


def _notebook_sweeps(slug: str) -> set[str]:
    """The table names of the sweeps ``notebooks/<slug>.ipynb`` runs (``session.run``)."""
    import re

    import nbformat

    notebook = nbformat.read(config.repo_root() / "notebooks" / f"{slug}.ipynb", as_version=4)
    source = "\n".join(c.source for c in notebook.cells if c.cell_type == "code")
    names = set()
    for call in re.findall(r"session\.run\((.*)\)", source):
        named = re.search(r'name="(\w+)"', call)
        names.add(named.group(1) if named else "results")  # Session.run's default name
    return names


def test_every_sweep_a_notebook_runs_is_planned():
    """A sweep the notebook runs but no plan counts is compute nobody budgeted: the
    pimcts_aggregation plan once left out its disambiguation sweep, which at the paper
    settings of the time would have cost about 23 CPU-hours on top of the 37 planned."""
    from infosets.papers.pimcts_analysis import preset_config
    from infosets.papers.pimcts_costs import load_costs, plan

    for slug, sweeps in task_costs.SWEEPS.items():
        assert _notebook_sweeps(slug) <= set(sweeps), slug
    # the ablation sweep runs only where a preset asks for it (as the tag preset does; here on
    # the paper preset, whose games all have measured costs): the plan must count it there
    tag = preset_config("tag")
    with_ablation = config.load("pimcts_aggregation", "paper", overrides={
        "tag_agents": True, "ablation_games": tag["ablation_games"],
        "ablation_settings": tag["ablation_settings"], "ablation_games_per_cell": 60,
        "ablation_pimcts": {g: "D=10 TotalVisits" for g in tag["ablation_games"]}})
    planned = set(plan(with_ablation, load_costs())["sweep"]) - {"all"}
    assert _notebook_sweeps("pimcts_aggregation") == planned == {"tournament", "disambiguation",
                                                                 "ablation"}
    assert "ablation" not in set(plan(preset_config("paper"), load_costs())["sweep"])
