"""Smoke run of the pimcts_aggregation notebook; checks the numbers it wrote."""

import pandas as pd
import pytest

from infosets.claims import COLUMNS, VERDICTS
from infosets.experiments.run_notebooks import run_notebook

pytestmark = pytest.mark.notebook


def test_pimcts_aggregation_smoke(tmp_path):
    # workers=1: serial, as quickstart_twice runs; no 2-process pool to start and no warm-up of
    # the numba engine of every game the paper module names
    run = run_notebook("pimcts_aggregation", tmp_path, workers=1)
    names = {p.name for p in run.files}
    assert {"win_rate_vs_d_B30.png", "win_rate_vs_d_B10.png", "search_vs_d_B30.png",
            "beyond_paper_win_rate_vs_d_B30.png", "beyond_paper_gains.csv", "mcts_settings.csv",
            "disambiguation_by_fraction_played.png", "pimcts_gain_vs_persistence.png",
            "claims.csv", "game_parameters.csv", "win_rates.csv",
            "preset_cpu_hours.csv", "win_rate_vs_d_B40.png"} <= names
    claims = run.table("claims")
    assert list(claims.columns) == list(COLUMNS) and set(claims["verdict"]) <= set(VERDICTS)
    # only the paper's games: Kuhn and Leduc are beyond the paper
    assert not claims["claim"].str.contains("kuhn|leduc").any()
    beyond = run.table("beyond_paper_gains")
    assert set(beyond["game"]) == {"kuhn_poker(players=3)", "leduc_poker"}
    rates = run.table("win_rates")
    main = rates[rates["budget"] == 30]
    # 3 games x (control + 2 D x 3 aggregations + IS-MCTS) cells of 6 games (whole deals)
    assert len(main) == 3 * 8 and (main["n"] == 6).all()
    assert set(main[main["paper_game"]]["game"]) == {"tic_tac_toe"}
    # the tabletop slice: sushi_go(players=3) at B=10, (control + 1 D x 3 aggregations + IS-MCTS)
    ports = rates[rates["budget"] == 10]
    assert list(dict.fromkeys(ports["game"])) == ["sushi_go(players=3)"]
    assert len(ports) == 5 and (ports["n"] == 3).all()
    assert ((rates["lo"] <= rates["win_rate"] + 1e-9) & (rates["win_rate"] <= rates["hi"] + 1e-9)).all()
    assert set(rates["baseline"].round(3)) == {0.333, 0.5}
    searched = rates.dropna(subset=["visit_share"])
    assert len(searched) and ((searched["visit_share"] > 0) & (searched["visit_share"] <= 1)).all()
    # the higher-budget slice (Fig. 2): tic_tac_toe at B=40, control + 2 D x 3 + IS-MCTS
    high = rates[rates["budget"] == 40]
    assert set(high["game"]) == {"tic_tac_toe"} and len(high) == 8 and (high["n"] == 4).all()
    assert sorted(set(high["D"])) == [0, 1, 10, 40]
    games = run.table("game_parameters")
    assert list(games["players"]) == [3, 2, 2, 3, 2]
    assert list(games["slice"]) == ["main"] * 3 + ["tabletop", "high"]
    # per-game readings: the two paper games run carry a test and n; the rest are "not run"
    ttt = claims[claims["claim"].str.startswith("tic_tac_toe, B=30: PI-MCTS worse")].iloc[0]
    assert ttt["test"].startswith("one-sided paired t of the mean over") and int(ttt["n"]) > 0
    sushi3 = claims[claims["claim"].str.startswith("sushi_go(players=3), B=10")]
    assert len(sushi3) >= 1
    not_run = claims[claims["verdict"] == "not run"]
    for name in ("Hearts", "Stratego", "Poker", "Colt Express", "Monopoly Deal", "7 Wonders"):
        row = not_run[not_run["claim"].str.startswith(name)]
        assert len(row) == 1 and row["note"].iloc[0]
    # each paper game's agents against the baseline: the smoke run's two paper games, the
    # IS-MCTS verdict the claims table's own
    by_game = run.table("agents_vs_baseline")
    assert list(by_game["game"]) == ["tic_tac_toe", "sushi_go(players=3)"]
    assert "agents_vs_baseline.png" in names
    for game, verdict in zip(by_game["game"], by_game["is_vs_best_pi"]):
        row = claims[claims["claim"].str.startswith(f"{game}, ")
                     & claims["claim"].str.contains("IS-MCTS matches or beats")]
        assert list(row["verdict"]) == [verdict]
    settings = run.table("mcts_settings")
    assert len(settings) == 13 and settings["tag_file"].str.startswith("json/players/").all()
    assert "cpu_s_per_game" not in rates.columns  # measured times live in timing/
    # the TotalVisits collapse, tested as stated: tic_tac_toe's D=10 against its D=3
    collapse = claims[claims["claim"].str.contains("TotalVisits collapses at high D")]
    assert len(collapse) == 1 and collapse["verdict"].iloc[0] != "not run"
    assert "Stouffer" in collapse["test"].iloc[0]
    assert "tic_tac_toe (2p): D=10 - D=3" in collapse["note"].iloc[0]
    # every per-game row states its budget, flagged below the paper's 4000
    ttt_note = claims[claims["claim"].str.startswith("tic_tac_toe, B=30")]["note"]
    assert ttt_note.str.contains("B=30, below the paper's 4000").all()
    # CPU-hours of default, paper and full from the measured costs: no blank row
    cpu = run.table("timing/preset_cpu_hours")
    assert set(cpu["preset"]) == {"default", "paper", "full"} and cpu["cpu_hours"].notna().all()
    totals = cpu[cpu["game"] == "TOTAL"].set_index("preset")["cpu_hours"]
    assert totals["paper"] <= 3484 / 10 and totals["full"] > totals["paper"] > 0
    paper_games = set(cpu[(cpu["preset"] == "paper")]["game"])
    assert {"hearts", "stratego", "poker_tag(players=3)", "seven_wonders(players=3)"} <= paper_games
    # the disambiguation measurement includes the port, with finite log2 #worlds
    dis = pd.read_parquet(next(run.data_dir.rglob("disambiguation.parquet")))
    sushi = dis[dis["game"] == "sushi_go(players=3)"]
    assert len(sushi) > 0 and (sushi["log2_worlds"] >= 0).all()
