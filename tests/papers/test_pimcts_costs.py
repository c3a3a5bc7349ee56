"""pimcts_costs: the cost model behind the pimcts_aggregation presets' CPU-hours."""

import numpy as np
import pandas as pd
import pyspiel
import pytest

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
    are measured, not extrapolated 20x from B = 200, and the plan stays near 40 CPU-hours,
    its disambiguation sweep included."""
    plan = pc.plan(config.load("pimcts_aggregation", "paper"), pc.load_costs())
    games = plan[plan["sweep"] == "tournament"]
    assert (games["measured_at"] == 4000).all()
    assert 20 <= plan.iloc[-1]["cpu_hours"] <= 45


def _dis_costs(seconds_per_world=0.01, game_decisions=100.0):
    cfg = config.load("pimcts_aggregation", "paper")
    from infosets.papers.pimcts_aggregation import disambiguation_tasks

    games = dict.fromkeys(t.params["game"] for t in disambiguation_tasks(cfg))
    return pd.DataFrame([{"game": g, "samples": 50, "decisions_measured": 40.0,
                          "game_decisions": game_decisions, "cpu_s_per_world": seconds_per_world,
                          "measured": "2026-11-26"} for g in games])


def test_the_plan_counts_the_disambiguation_sweep():
    """The disambiguation sweep (log2 #worlds along random games) is planned per game:
    trajectories x decisions (capped) x samples x CPU-s per world, and the TOTAL includes it.
    Before, the plan had tournament rows only, and at the old paper settings (50 random games
    x 40 decisions x 1000 worlds) Stratego's disambiguation alone would have cost about as much
    again as the whole tournament plan, unplanned."""
    cfg = config.load("pimcts_aggregation", "paper")
    plan = pc.plan(cfg, pc.load_costs(), _dis_costs())
    dis = plan[plan["sweep"] == "disambiguation"].set_index("game")
    assert set(dis.index) == set(_dis_costs()["game"])
    assert (dis["games"] == cfg["disambiguation_trajectories"]).all()
    decisions = min(cfg["disambiguation_decisions"] or 100, 100)
    worlds = cfg["disambiguation_trajectories"] * decisions * cfg["disambiguation_samples"]
    assert (pc.plan_disambiguation(cfg, _dis_costs())["worlds"] == worlds).all()
    assert abs(dis.loc["stratego", "cpu_hours"] - worlds * 0.01 / 3600) < 1e-12
    assert abs(plan.iloc[-1]["cpu_hours"] - plan.iloc[:-1]["cpu_hours"].sum()) < 1e-9
    # the TOTAL's games are tournament games: random-play games are not added to them
    assert plan.iloc[-1]["games"] == plan[plan["sweep"] == "tournament"]["games"].sum()
    # a game shorter than the cap is measured at all its decisions
    short = pc.plan_disambiguation(cfg, _dis_costs(game_decisions=5.0))
    assert (short["worlds"] == cfg["disambiguation_trajectories"] * 5 * cfg["disambiguation_samples"]).all()
    # every game needs a measured row: a missing one is a one-line error naming the command
    with pytest.raises(ValueError, match=r"no measured row for 'stratego'.*pimcts_costs disambiguation"):
        pc.plan(cfg, pc.load_costs(), _dis_costs().query("game != 'stratego'"))


def test_the_committed_disambiguation_costs_keep_the_paper_plan_small():
    """The paper preset's disambiguation sweep, planned from the committed measurements, is a
    small part of the preset (it is descriptive: no claim turns on it)."""
    plan = pc.plan(config.load("pimcts_aggregation", "paper"), pc.load_costs())
    dis = plan[plan["sweep"] == "disambiguation"]["cpu_hours"].sum()
    assert 0 < dis <= 0.1 * plan.iloc[-1]["cpu_hours"]


def test_measuring_the_disambiguation_replaces_that_games_row(tmp_path, monkeypatch):
    out = tmp_path / "dis.csv"
    rows = _dis_costs().head(2)
    pc._write_atomic(rows[list(pc.DISAMBIGUATION_COLUMNS)], out, pc.DISAMBIGUATION_HEADER)
    game = rows["game"].iloc[0]
    monkeypatch.setattr(pc, "measure_disambiguation", lambda g, samples, decisions, seed, n: {
        "game": g, "samples": samples, "decisions_measured": 3.0, "game_decisions": 3.0,
        "cpu_s_per_world": 0.5, "measured": "2026-11-26"})
    pc.main(["disambiguation", "--games", game, "--samples", "20", "--decisions", "40",
             "--seed", "1", "--out", str(out)])
    table = pc.load_disambiguation_costs(out).set_index("game")
    assert len(table) == 2 and table.loc[game, "cpu_s_per_world"] == 0.5


def _random_game_decisions(game_string, seed, games):
    """The number of decisions of each random game ``measure_disambiguation`` plays, replayed
    here with pyspiel alone: game g is ``disambiguation_task``'s random play on the first child
    of ``SeedSequence([seed, g])`` (chance by its probabilities, players uniformly)."""
    game = pyspiel.load_game(game_string)
    counts = []
    for g in range(games):
        rng = np.random.default_rng(np.random.SeedSequence([seed, g]).spawn(2)[0])
        state, decisions = game.new_initial_state(), 0
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                probs = np.asarray(probs)
                action = actions[rng.choice(len(actions), p=probs / probs.sum())]
            else:
                legal = state.legal_actions()
                action = legal[int(rng.integers(len(legal)))]
                decisions += 1
            state.apply_action(action)
        counts.append(decisions)
    return counts


def test_measure_disambiguation_times_real_random_games():
    """Three-player Kuhn games last 3 to 5 decisions; the row's mean game length is that of
    the games actually played (replayed independently), every decision measured (cap 40)."""
    counts = _random_game_decisions("kuhn_poker(players=3)", seed=3, games=3)
    assert counts == [4, 4, 3]  # the seeds give games of different lengths
    row = pc.measure_disambiguation("kuhn_poker(players=3)", samples=5, decisions=40, seed=3, games=3)
    assert row["game"] == "kuhn_poker(players=3)" and row["samples"] == 5
    assert row["game_decisions"] == pytest.approx(sum(counts) / 3)
    assert row["decisions_measured"] == pytest.approx(sum(counts) / 3)
    assert row["cpu_s_per_world"] > 0


def test_the_task_plan_adds_up_to_the_plan_per_game_and_budget():
    """``task_plan`` splits each (game, budget) row of ``plan`` over its tasks (blocks of
    whole deals): the two agree to rounding, so a run's progress is measured against the
    plan the README states."""
    cfg = config.load("pimcts_aggregation", "paper")
    costs = pc.load_costs()
    tasks = pc.task_plan(cfg, costs)
    plan = pc.plan(cfg, costs)
    plan = plan[plan["sweep"] == "tournament"].set_index(["game", "budget"])["cpu_hours"]
    per_pair = tasks.groupby(["game", "budget"])["planned_cpu_s"].sum() / 3600
    assert per_pair.index.sort_values().equals(plan.index.sort_values())
    assert per_pair.reindex(plan.index).to_numpy() == pytest.approx(plan.to_numpy(), rel=1e-9)
    assert tasks["task_id"].is_unique and len(tasks) == 5539


def test_run_progress_measures_the_rest_at_the_rate_of_the_finished_tasks():
    tasks = pd.DataFrame({"task_id": ["a", "b", "c", "d"], "game": ["g", "g", "h", "h"],
                          "budget": [10, 10, 10, 10],
                          "planned_cpu_s": [3600.0, 3600.0, 7200.0, 7200.0]})
    table, summary = pc.run_progress(tasks, {"a", "b", "c"}, spent_cpu_s=2 * 4 * 3600.0,
                                     workers=2)
    assert table.to_dict("records") == [
        {"game": "g", "budget": 10, "tasks_done": 2, "tasks": 2, "planned_done_cpu_h": 2.0,
         "planned_cpu_h": 2.0, "rate": 2.0},
        {"game": "h", "budget": 10, "tasks_done": 1, "tasks": 2, "planned_done_cpu_h": 2.0,
         "planned_cpu_h": 4.0, "rate": 2.0}]
    # 8 CPU-hours spent on 4 planned: twice the plan, so the 2 planned hours left take 4
    # CPU-hours, 2 hours on 2 cores
    assert summary["spent_over_planned"] == 2.0 and summary["hours_left"] == 2.0
    assert summary["planned_left_cpu_h"] == 2.0 and summary["tasks_done"] == 3
    _, before = pc.run_progress(tasks, set(), 0.0, 2)
    assert before["spent_over_planned"] is None and before["hours_left"] is None


def test_run_progress_projects_each_game_at_its_own_rate():
    """Game h's focus seats took twice their plan and g's exactly theirs: the run's total
    (4 CPU-hours on 3 planned) is split 1 : 2 between them, so h's last task is projected at
    twice its plan, not at the 4/3 average."""
    tasks = pd.DataFrame({"task_id": ["a", "b", "c", "d"], "game": ["g", "g", "h", "h"],
                          "budget": [10] * 4, "planned_cpu_s": [3600.0] * 4,
                          "planned_seat_cpu_s": [1800.0] * 4})
    seat = {"a": 1800.0, "b": 1800.0, "c": 3600.0}
    table, summary = pc.run_progress(tasks, set(seat), 4 * 3600.0, 2, seat)
    assert list(table["rate"]) == [1.0, 2.0]
    assert summary["hours_left_by_game"] == 1.0  # 2 CPU-hours on 2 cores
    assert summary["hours_left"] == pytest.approx(2 / 3)  # the 4/3 average
    # a game with no finished task keeps the average
    _, only_g = pc.run_progress(tasks, {"a", "b"}, 2 * 3600.0, 2, {"a": 1800.0, "b": 1800.0})
    assert only_g["hours_left_by_game"] == only_g["hours_left"] == 1.0


def test_progress_refuses_a_bad_worker_count(capsys):
    with pytest.raises(SystemExit):
        pc.main(["progress", "--workers", "0"])
    assert "--workers: 0 is not a positive number of cores" in capsys.readouterr().err


def test_progress_says_so_when_no_run_is_committed_under_the_current_code(capsys):
    pc.main(["progress", "--preset", "paper"])  # the test's results folder is empty
    assert capsys.readouterr().out == "pimcts_aggregation paper: no committed tables\n"


def test_progress_names_both_runs_and_the_rekey_when_the_committed_tables_are_stale(capsys):
    """A preset edited between sessions (the tag rerun's caps at a look) leaves the committed
    tables under the old key until `make rekey` runs; the old message said "no tables", as if
    nothing had been played."""
    import json

    from infosets.experiments.committed import results_root

    folder = results_root() / "pimcts_aggregation" / "paper"
    folder.mkdir(parents=True)
    (folder / "RUN.json").write_text(json.dumps({"run_id": "0123456789ab"}))
    pc.main(["progress", "--preset", "paper"])
    out = capsys.readouterr().out
    assert "run 0123456789ab" in out and "make rekey PAPER=pimcts_aggregation PRESET=paper" in out


def test_tag_progress_says_what_the_ceiling_leaves_unspent_after_the_last_look(capsys, monkeypatch):
    """On the committed tag rerun, whose third look (the design's last) is adopted: the
    CPU-hours spent (its PROVENANCE total), those still to play (tournament and ablation at
    their own rates) and what the 80 leave unspent add up, and the line no longer offers a
    look to take."""
    import json
    import re

    from infosets.experiments.config import repo_root

    monkeypatch.setenv("INFOSETS_RESULTS_DIR", str(repo_root() / "results"))
    pc.main(["progress", "--preset", "tag"])
    line = capsys.readouterr().out.strip().splitlines()[-1]
    found = re.search(r"80 CPU-hours: ([\d.]+) spent, ([\d.]+) to come, about (-?[\d.]+) "
                      r"unspent \(look 3, the design's last, is adopted\)", line)
    assert found, line
    spent, to_come, left = map(float, found.groups())
    provenance = json.loads((repo_root() / "results" / "pimcts_aggregation" / "tag" /
                             "PROVENANCE.json").read_text())
    assert spent == pytest.approx(provenance["cpu_seconds"] / 3600, abs=0.05)
    assert to_come >= 0 and spent + to_come + left == pytest.approx(80.0, abs=0.15)


def test_recent_rates_project_the_rest_at_the_speed_since_a_change():
    """Game g ran at 3 x its plan until t = 100, then at 1 x: from t = 100 on, its last task
    is projected at 1 x; game h, with nothing finished since, keeps its fallback rate."""
    tasks = pd.DataFrame({"task_id": ["a", "b", "c", "d", "e"], "game": ["g", "g", "g", "h", "h"],
                          "budget": [10] * 5, "planned_cpu_s": [3600.0] * 5})
    finished = {"a": (50.0, 3 * 3600.0), "b": (150.0, 3600.0), "d": (60.0, 2 * 3600.0)}
    rates, counts = pc.recent_rates(tasks, finished, since=100.0)
    assert rates.to_dict() == {"g": 1.0} and counts.to_dict() == {"g": 1}
    fallback = pd.Series({"g": 2.0, "h": 2.0})
    # c at 1 x (1 CPU-hour) and e at h's 2 x (2 CPU-hours): 3 CPU-hours on 2 cores
    assert pc.hours_left_at(tasks, set(finished), rates, fallback, 2) == 1.5
    everything, _ = pc.recent_rates(tasks, finished, since=0.0)
    assert everything.to_dict() == {"g": 2.0, "h": 2.0}


def test_recent_rates_are_empty_when_nothing_finished_since():
    """At the start of a session no task has finished yet: empty rates, not a dtype error
    (the progress command then says so)."""
    tasks = pd.DataFrame({"task_id": ["a", "b"], "game": ["g", "g"], "budget": [10] * 2,
                          "planned_cpu_s": [3600.0] * 2})
    rates, counts = pc.recent_rates(tasks, {"a": (50.0, 3600.0)}, since=100.0)
    assert rates.empty and counts.empty


def test_hours_left_is_zero_once_every_task_is_done():
    """With every tournament task done (2026-11-29, the paper run entering its disambiguation
    sweep), ``progress --since`` crashed: mapping the empty rest of the plan kept its
    string-typed game column, and multiplying the planned CPU by it raised a TypeError."""
    tasks = pd.DataFrame({"task_id": ["a", "b"], "game": pd.array(["g", "g"], dtype="string"),
                          "budget": [10] * 2, "planned_cpu_s": [3600.0] * 2})
    rates, fallback = pd.Series({"g": 1.5}), pd.Series({"g": 2.0})
    assert pc.hours_left_at(tasks, {"a", "b"}, rates, fallback, 2) == 0.0
    assert pc.hours_left_at(tasks, {"a"}, rates, fallback, 2) == 0.75


def test_local_finished_reads_each_tasks_cpu_and_finish_time(tmp_path, monkeypatch):
    import os

    from infosets.experiments.store import Store

    monkeypatch.setenv("INFOSETS_DATA_DIR", str(tmp_path))
    cfg = config.load("pimcts_aggregation", "smoke")
    assert pc.local_finished(cfg) == {}  # a machine that has not run it
    store = Store(cfg)
    store.save_task("tournament", "t1", [{"score": 1.0}], cpu_seconds=12.5)
    store.save_task("tournament", "t2", [{"score": 0.0}], cpu_seconds=None)  # no CPU: skipped
    os.utime(store.task_file("tournament", "t1"), (1000.0, 1000.0))
    assert pc.local_finished(cfg) == {"t1": (1000.0, 12.5)}


def test_local_finished_leaves_out_the_rows_a_rekey_adopted(tmp_path, monkeypatch):
    """Regression (2026-11-29): after ``make rekey`` adopted 5,270 committed tasks into this
    machine's store, ``progress --since`` counted them as finished here that morning, each
    with an even share of the old table's CPU (Kuhn read 138 x its plan, Stratego 0.23 x)."""
    from infosets.experiments.store import Store

    monkeypatch.setenv("INFOSETS_DATA_DIR", str(tmp_path))
    cfg = config.load("pimcts_aggregation", "smoke")
    store = Store(cfg)
    store.save_task("tournament", "computed", [{"score": 1.0}], cpu_seconds=12.5)
    store.save_task("tournament", "adopted", [{"score": 0.0}], cpu_seconds=30.0, adopted=True)
    assert store.load_record("tournament", "adopted")["adopted"] is True
    assert set(pc.local_finished(cfg)) == {"computed"}


def test_progress_refuses_a_since_that_is_not_a_time(capsys):
    with pytest.raises(SystemExit):
        pc.main(["progress", "--since", "yesterday"])
    assert "--since: 'yesterday' is not a date and time" in capsys.readouterr().err


def test_measuring_the_disambiguation_cost_accepts_seed_zero():
    """The untimed warm-up drew SeedSequence(seed - 1), which raises for seed 0, the project's
    published seed (`... pimcts_costs disambiguation --seed 0` failed before measuring). With
    a cap of 2 decisions per game, 2 are measured in each game, and the games' full length is
    still recovered from the measured decisions' position in the game."""
    counts = _random_game_decisions("kuhn_poker", seed=0, games=2)
    assert counts == [2, 3]
    row = pc.measure_disambiguation("kuhn_poker", samples=2, decisions=2, seed=0, games=2)
    assert row["game"] == "kuhn_poker" and row["samples"] == 2
    assert row["decisions_measured"] == 2.0
    assert row["game_decisions"] == pytest.approx(sum(counts) / 2)


def test_progress_counts_the_disambiguation_sweep_that_follows_the_tournament():
    """2026-11-28: ``progress`` projected the tournament alone, so the hours it gave left out
    the disambiguation sweep that runs after it (1.37 planned CPU-hours at the paper preset)."""
    from infosets.papers.pimcts_aggregation import disambiguation_tasks

    cfg = config.load("pimcts_aggregation", "paper")
    plan = pc.plan_disambiguation(cfg, pc.load_disambiguation_costs())
    total = float(plan["cpu_hours"].sum())
    none = pc.disambiguation_progress(cfg, set(), 0.0)
    assert none["tasks_done"] == 0 and none["tasks"] == len(disambiguation_tasks(cfg))
    assert none["planned_left_cpu_h"] == pytest.approx(total) and total > 0.5
    assert none["spent_over_planned"] is None
    stratego = {t.task_id for t in disambiguation_tasks(cfg) if t.params["game"] == "stratego"}
    part = pc.disambiguation_progress(cfg, stratego, spent_cpu_s=3600.0)
    planned_stratego = float(plan.set_index("game").loc["stratego", "cpu_hours"])
    assert part["tasks_done"] == len(stratego)
    assert part["planned_done_cpu_h"] == pytest.approx(planned_stratego)
    assert part["planned_left_cpu_h"] == pytest.approx(total - planned_stratego)
    assert part["spent_over_planned"] == pytest.approx(1.0 / planned_stratego)


def test_the_sweeps_rest_is_projected_at_each_games_own_rate():
    """2026-11-29: the sweep's rest was projected at the average ratio of its finished tasks,
    which the cheap games dominate or the dear ones do, whichever ran first. With per-task CPU
    from the local store, each game's tasks are projected at that game's rate, and a game with
    no finished task at the average."""
    from infosets.papers.pimcts_aggregation import disambiguation_tasks

    cfg = config.load("pimcts_aggregation", "paper")
    plan = pc.plan_disambiguation(cfg, pc.load_disambiguation_costs()).set_index("game")
    per_task = plan["cpu_hours"] / plan["games"]
    tasks = disambiguation_tasks(cfg)
    kuhn = [t for t in tasks if t.params["game"] == "kuhn_poker(players=3)"]
    done = {t.task_id for t in kuhn[:-1]}
    # kuhn ran at 3 x its plan; the total the results keep says 2 x (another machine's share)
    finished = {t: (0.0, 3 * float(per_task["kuhn_poker(players=3)"]) * 3600) for t in done}
    spent = 2 * len(done) * float(per_task["kuhn_poker(players=3)"]) * 3600
    got = pc.disambiguation_progress(cfg, done, spent, finished)
    assert got["game_rates"] == pytest.approx({"kuhn_poker(players=3)": 3.0})
    assert got["spent_over_planned"] == pytest.approx(2.0)
    others = got["planned_left_cpu_h"] - float(per_task["kuhn_poker(players=3)"])
    assert got["left_cpu_h_by_game"] == pytest.approx(
        3.0 * float(per_task["kuhn_poker(players=3)"]) + 2.0 * others)
    # without the local store: the average for every game, as before
    plain = pc.disambiguation_progress(cfg, done, spent)
    assert plain["game_rates"] == {}
    assert plain["left_cpu_h_by_game"] == pytest.approx(2.0 * plain["planned_left_cpu_h"])


def _played(game, budget, players, focus):
    """Committed tournament rows of ``game``: one row per game, ``focus`` {(agent, D): focus
    seat CPU seconds}."""
    return pd.DataFrame([{"game": game, "budget": budget, "agent": a, "D": d, "aggregation":
                          "none" if a != "pimcts" else "TotalVisits", "players": players,
                          "cpu_seconds": s} for (a, d), s in focus.items() for _ in range(2)])


def test_tag_plan_prices_each_task_from_the_rerun_s_own_cells():
    """Hand-worked on Hearts (4 players): OL-MCTS's focus seat costs 1 s a game, PI-MCTS D = 10
    3 s and D = 300 9 s, IS-MCTS 2 s. A game of a cell is its focus seat plus 3 OL-MCTS seats:
    IS-MCTS 2 + 3 = 5 s. Fig. 2's D = 200 was never played: it takes D = 300 (nearer than 10 on
    a log scale), 9 + 3 = 12 s; at B = 10,000, never played, x 2.5. A game with no rows raises."""
    from infosets.experiments.tasks import Task
    from infosets.papers.pimcts_aggregation import task_deals, tournament_task

    cfg = config.load("pimcts_aggregation", "tag")
    played = _played("hearts", 4000, 4, {("olmcts", 1): 1.0, ("pimcts", 10): 3.0,
                                         ("pimcts", 300): 9.0, ("ismcts", 0): 2.0})
    params = [{"game": "hearts", "budget": 4000, "agent": "ismcts", "D": 0, "aggregation": "none",
               "block": 0},
              {"game": "hearts", "budget": 10000, "agent": "pimcts", "D": 200,
               "aggregation": "TotalVisits", "block": 0, "part": "high"}]
    plan = pc.tag_task_plan(cfg, played, [Task(tournament_task, p) for p in params])
    games = [4 * len(task_deals(cfg, p, 4)) for p in params]
    assert plan["planned_cpu_s"].tolist() == pytest.approx([5.0 * games[0], 12.0 * 2.5 * games[1]])
    assert plan["planned_seat_cpu_s"].tolist() == pytest.approx([2.0 * games[0], 9.0 * 2.5 * games[1]])
    stratego = {**params[0], "game": "stratego"}
    with pytest.raises(ValueError, match="no committed row of 'stratego'"):
        pc.tag_task_plan(cfg, played, [Task(tournament_task, stratego)])
    no_is = played[played["agent"] != "ismcts"]
    with pytest.raises(ValueError, match=r"no committed row of ismcts \(none\) in 'hearts'"):
        pc.tag_task_plan(cfg, no_is, [Task(tournament_task, params[0])])


def test_tag_plan_prices_a_begun_budget_from_the_cells_it_holds():
    """The Fig. 2 slice at B = 10,000 begins with a few tasks: Hearts' OL-MCTS (4 s a game) and
    a PI-MCTS D = 200 cell without its control. A PI-MCTS task there is priced from B = 4,000
    (D = 300: 9 + 3 x 1 s, x 2.5), since the D = 200 cell has no control to price its other
    seats; IS-MCTS likewise; once the control is in, D = 200 is priced at B = 10,000 itself
    (7 + 3 x 4 s). The old rule took the nearest budget with any row and raised for a cell
    missing there."""
    from infosets.experiments.tasks import Task
    from infosets.papers.pimcts_aggregation import task_deals, tournament_task

    cfg = config.load("pimcts_aggregation", "tag")
    full = _played("hearts", 4000, 4, {("olmcts", 1): 1.0, ("pimcts", 10): 3.0,
                                       ("pimcts", 300): 9.0, ("ismcts", 0): 2.0})
    task = {"game": "hearts", "budget": 10000, "agent": "pimcts", "D": 200,
            "aggregation": "TotalVisits", "block": 0, "part": "high"}
    games = 4 * len(task_deals(cfg, task, 4))
    no_control = pd.concat([full, _played("hearts", 10000, 4, {("pimcts", 200): 7.0})])
    plan = pc.tag_task_plan(cfg, no_control, [Task(tournament_task, task)])
    assert plan["planned_cpu_s"].tolist() == pytest.approx([12.0 * 2.5 * games])
    begun = pd.concat([full, _played("hearts", 10000, 4, {("olmcts", 1): 4.0})])
    plan = pc.tag_task_plan(cfg, begun, [Task(tournament_task, task),
                                         Task(tournament_task, {**task, "agent": "ismcts",
                                                                "D": 0, "aggregation": "none"})])
    assert plan["planned_cpu_s"].tolist() == pytest.approx([12.0 * 2.5 * games, 5.0 * 2.5 * games])
    both = pd.concat([begun, _played("hearts", 10000, 4, {("pimcts", 200): 7.0})])
    plan = pc.tag_task_plan(cfg, both, [Task(tournament_task, task)])
    assert plan["planned_cpu_s"].tolist() == pytest.approx([(7.0 + 3 * 4.0) * games])
