"""pimcts_costs: the cost model behind the pimcts_aggregation presets' CPU-hours."""

import pandas as pd

from infosets.experiments import config
from infosets.papers import pimcts_costs as pc


def _rows(game, budget, seconds_per_iteration, players=2):
    """Four measured cells of ``game`` at ``budget``: every seat costs ``seconds_per_iteration``
    x budget per game, PI-MCTS adds 1 ms per tree."""
    seat = seconds_per_iteration * budget
    rows = []
    for agent, d in (("olmcts", 1), ("pimcts", 10), ("pimcts", 100), ("ismcts", 0)):
        extra = 0.001 * d if agent == "pimcts" else 0.0
        rows.append({"game": game, "players": players, "engine": "compiled", "budget": budget,
                     "agent": agent, "D": d, "games": players, "decisions_per_game": 10.0,
                     "seat_cpu_s_per_game": seat + extra,
                     "opponent_cpu_s_per_game": (players - 1) * seat,
                     "overhead_cpu_s_per_game": 0.0, "tuned_settings": True,
                     "measured": "2026-11-26"})
    return rows


def test_fit_recovers_the_per_iteration_and_per_tree_costs():
    fit = pc.cost_model(pd.DataFrame(_rows("leduc_poker", 200, 1e-4)))["leduc_poker"][200]
    assert abs(fit["a_ol"] - 1e-4) < 1e-12 and abs(fit["a_is"] - 1e-4) < 1e-12
    assert abs(fit["a_pi"] - 1e-4) < 1e-12 and abs(fit["b_pi"] - 1e-3) < 1e-12
    assert abs(pc.game_seconds(fit, "pimcts", 1000, 50) - (2 * 1e-4 * 1000 + 0.05)) < 1e-9


def test_each_budget_is_planned_from_the_nearest_measured_budget():
    """A game measured at 200 and 4000 (the per-iteration cost fell 10x, as Hearts' does):
    budgets near 4000 use the 4000 fit, budgets near 200 the 200 fit. Before, one fit at the
    first measured budget was extrapolated linearly to every budget."""
    costs = pd.DataFrame(_rows("leduc_poker", 200, 1e-3) + _rows("leduc_poker", 4000, 1e-4))
    model = pc.cost_model(costs)
    assert sorted(model["leduc_poker"]) == [200, 4000]
    assert pc.fit_for(model, "leduc_poker", 100)["budget"] == 200
    assert pc.fit_for(model, "leduc_poker", 800)["budget"] == 200
    assert pc.fit_for(model, "leduc_poker", 1000)["budget"] == 4000
    assert pc.fit_for(model, "leduc_poker", 10000)["budget"] == 4000
    cfg = config.load("pimcts_aggregation", "smoke", overrides={
        "games": ["leduc_poker"], "budgets": [4000], "determinizations": [1, 10],
        "high_budget_games": [], "high_determinizations": None, "tabletop_games": []})
    row = pc.plan(cfg, costs).iloc[0]
    assert row["measured_at"] == 4000
    seconds_per_game = 2 * 1e-4 * 4000          # both seats at the 4000 fit
    cells = row["cells"]
    expected = (cells * seconds_per_game + 3 * 0.001 * 10) * row["games_per_cell"] / 3600
    assert abs(row["cpu_hours"] - expected) < 1e-9


def test_measuring_one_budget_keeps_the_rows_of_the_others(tmp_path, monkeypatch):
    out = tmp_path / "costs.csv"
    pc._write_atomic(pd.DataFrame(_rows("leduc_poker", 200, 1e-3))[list(pc.COST_COLUMNS)],
                     out, pc.HEADER)
    monkeypatch.setattr(pc, "measure_game",
                        lambda game, budget, *a, **k: _rows(game, budget, 1e-4))
    pc.main(["--games", "leduc_poker", "--budget", "4000", "--d", "10", "100", "--deals", "1",
             "--seed", "1", "--out", str(out)])
    table = pc.load_costs(out)
    assert sorted(set(table["budget"])) == [200, 4000] and len(table) == 8


def test_the_paper_preset_is_planned_from_costs_measured_at_its_budget():
    """The committed costs hold every paper game at B = 4000, so the paper plan's Fig. 1 rows
    are measured, not extrapolated 20x from B = 200, and the plan stays near 40 CPU-hours."""
    plan = pc.plan(config.load("pimcts_aggregation", "paper"), pc.load_costs())
    games = plan[plan["game"] != "TOTAL"]
    assert (games["measured_at"] == 4000).all()
    assert 20 <= plan.iloc[-1]["cpu_hours"] <= 45
