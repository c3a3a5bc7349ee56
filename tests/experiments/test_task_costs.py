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
