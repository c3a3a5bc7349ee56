"""Smoke run of the pimcts_aggregation notebook; checks the numbers it wrote."""

import pandas as pd
import pytest

from infosets.experiments.notebooks import run_notebook

pytestmark = pytest.mark.notebook


def test_pimcts_aggregation_smoke(tmp_path):
    run = run_notebook("pimcts_aggregation", tmp_path)
    names = {p.name for p in run.files}
    assert {"win_rate_vs_d_B30.png", "win_rate_vs_d_B10.png",
            "disambiguation_by_fraction_played.png", "pimcts_gain_vs_persistence.png",
            "claims.csv", "game_parameters.csv", "win_rates.csv",
            "paper_preset_cpu_hours.csv"} <= names
    claims = run.table("claims")
    assert set(claims.columns) == {"claim", "paper", "ours", "ci95", "verdict"}
    rates = run.table("win_rates")
    main = rates[rates["budget"] == 30]
    # 3 games x (control + 2 D x 3 aggregations + IS-MCTS) cells of 6 games each
    assert len(main) == 3 * 8 and (main["n"] == 6).all()
    # the tabletop slice: sushi_go(players=3) at B=10, (control + 1 D x 3 aggregations + IS-MCTS)
    ports = rates[rates["budget"] == 10]
    assert list(dict.fromkeys(ports["game"])) == ["sushi_go(players=3)"]
    assert len(ports) == 5 and (ports["n"] == 3).all()
    assert ((rates["lo"] <= rates["win_rate"] + 1e-9) & (rates["win_rate"] <= rates["hi"] + 1e-9)).all()
    assert set(rates["baseline"].round(3)) == {0.333, 0.5}
    games = run.table("game_parameters")
    assert list(games["players"]) == [3, 2, 2, 3]
    assert list(games["slice"]) == ["main"] * 3 + ["tabletop"]
    # one row per ported game: the one run carries an interval, the others are marked not run
    per_game = claims[claims["claim"].str.contains("PI-MCTS \\(D>1 pooled\\)", regex=True)]
    assert len(per_game) == 8
    sushi3 = per_game[per_game["claim"].str.startswith("sushi_go(players=3)")].iloc[0]
    assert sushi3["ours"].startswith("sushi_go(players=3), B=10") and sushi3["ci95"].startswith("[")
    not_run = per_game[per_game["verdict"] == "not run at this preset"]
    assert len(not_run) == 7 and (not_run["ours"] == "not run at this preset").all()
    assert "cpu_s_per_game" not in rates.columns  # measured times live in timing/
    cpu = run.table("timing/paper_preset_cpu_hours")
    assert "sushi_go(players=5)" in set(cpu["game"])   # the paper preset includes every port
    # the disambiguation measurement includes the port, with finite log2 #worlds
    dis = pd.read_parquet(next(run.data_dir.rglob("disambiguation.parquet")))
    sushi = dis[dis["game"] == "sushi_go(players=3)"]
    assert len(sushi) > 0 and (sushi["log2_worlds"] >= 0).all()
