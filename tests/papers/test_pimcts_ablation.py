"""The ablation of TAG's agent settings in pimcts_aggregation (issue 56; docs/tag_agents.md
section 10, "The ablation's design"): each setting switched off to TAG's default for every agent
at the table, refused in one line when asked wrongly, and planned apart from the tournament."""

from __future__ import annotations

import collections

import pyspiel
import pytest

from infosets.experiments import config
from infosets.experiments.config import ConfigError
from infosets.experiments.tasks import execute, task_seed
from infosets.papers import pimcts_aggregation as pa
from infosets.papers import pimcts_costs
from infosets.papers.pimcts_ablation import at_default, switched_off
from infosets.papers.pimcts_tag_agents import tag_agent_kwargs, tag_agent_row

ABLATION = ("ablation_games", "ablation_settings", "ablation_pimcts", "ablation_games_per_cell")


# Dominion joins the tag preset's ablation once its stage 1 names its cell (the preset's
# comment); these tests plan all three games as designed, with a stand-in cell for Dominion.
THREE_GAMES = {"ablation_games": ["stratego", "poker_tag(players=3)", "dominion(players=3)"],
               "ablation_pimcts": {"stratego": "D=10 SingleVote",
                                   "poker_tag(players=3)": "D=300 AverageValue",
                                   "dominion(players=3)": "D=10 TotalVisits"}}


def _tag(**overrides):
    return config.load("pimcts_aggregation", "tag", overrides={**THREE_GAMES, **overrides})


# -- what "switched off" means ------------------------------------------------------------------

def test_dominions_opponent_tree_switched_off_runs_one_tree_and_keeps_the_rest_of_its_row():
    row = tag_agent_row("dominion", 3)
    on = tag_agent_kwargs(row, heuristic=None)
    assert (on["opponent_tree"], on["tree_policy"], on["rollout"]) == ("MultiTree", "RegretMatching", "MAST")
    off = tag_agent_kwargs(switched_off(row, "opponent_tree"), heuristic=None)
    assert "opponent_tree" not in off  # TAG's default OneTree: the bots' own default
    assert off == {k: v for k, v in on.items() if k != "opponent_tree"}
    # the tree policy off is TAG's plain UCB: it reads neither K nor epsilon (our 1.0 and 0)
    ucb = tag_agent_kwargs(switched_off(row, "tree_policy"), heuristic=None)
    assert "tree_policy" not in ucb and (ucb["uct_c"], ucb["explore_epsilon"]) == (1.0, 0.0)
    assert (ucb["opponent_tree"], ucb["rollout"], ucb["mast_gamma"]) == ("MultiTree", "MAST", 0.5)
    # MAST off takes its gamma and its opponents' policy with it (read only under MAST)
    rnd = tag_agent_kwargs(switched_off(row, "rollout"), heuristic=None)
    assert not {"rollout", "mast_gamma", "mast_opponents"} & set(rnd)
    assert (rnd["tree_policy"], rnd["explore_epsilon"]) == ("RegretMatching", 0.3)


def test_a_setting_already_at_tags_default_is_skipped_and_recorded():
    stratego = tag_agent_row("stratego", 2)
    assert at_default(stratego, "tree_policy") and at_default(stratego, "rollout")
    assert not at_default(stratego, "opponent_tree")
    ablation = _tag()["ablation"]
    assert ablation["conditions"] == [
        ["stratego", "opponent_tree"], ["poker_tag(players=3)", "opponent_tree"],
        ["poker_tag(players=3)", "tree_policy"], ["dominion(players=3)", "opponent_tree"],
        ["dominion(players=3)", "tree_policy"], ["dominion(players=3)", "rollout"]]
    assert ablation["skipped"] == [["stratego", "tree_policy"], ["stratego", "rollout"],
                                   ["poker_tag(players=3)", "rollout"]]
    assert ablation["switches"]["dominion(players=3)"]["tree_policy"] == "RegretMatching -> UCB"
    with pytest.raises(ValueError, match=r"^ablate: 'heuristic' is not a setting"):
        switched_off(stratego, "heuristic")


# -- refused in one line, before any compute ----------------------------------------------------

@pytest.mark.parametrize("overrides, message", [
    ({"ablation_settings": ["opponent_tree", "heuristic"]},
     r"^ablation_settings\[1\]: 'heuristic' is not allowed"),
    ({"ablation_games": ["stratego", "leduc_poker"], "ablation_pimcts": {"stratego": "D=10 SingleVote"}},
     r"^ablation_games\[1\]: 'leduc_poker' is not a game of this preset"),
    ({"ablation_games": ["tic_tac_toe"], "ablation_pimcts": {"tic_tac_toe": "D=10 TotalVisits"}},
     r"^ablation_games\[0\]: 'tic_tac_toe' runs every one of .* at TAG's default already"),
    ({"ablation_pimcts": {"stratego": "D=7 TotalVisits", "poker_tag(players=3)": "D=10 SingleVote",
                          "dominion(players=3)": "D=10 SingleVote"}},
     r"^ablation_pimcts\['stratego'\]: 'D=7 TotalVisits' is not a cell of the game's tournament"),
    ({"ablation_pimcts": {"stratego": "D10 TotalVisits"}},
     r"^ablation_pimcts\['stratego'\]: 'D10 TotalVisits' is not a PI-MCTS cell"),
    ({"ablation_pimcts": {"stratego": "D=10 TotalVisits"}},
     r"^ablation_pimcts: no PI-MCTS cell for 'poker_tag\(players=3\)'"),
    ({"ablation_games": [], "ablation_pimcts": None},
     r"^ablation_settings: given, but ablation_games is empty"),
    ({"ablation_games": ["stratego", "stratego"], "ablation_pimcts": {"stratego": "D=10 SingleVote"}},
     r"^ablation_games\[1\]: 'stratego' is given twice"),
    ({"ablation_pimcts": {"stratego": "D=10 SingleVote", "tic_tac_toe": "D=10 SingleVote"}},
     r"^ablation_pimcts\['tic_tac_toe'\]: not in ablation_games"),
])
def test_a_bad_ablation_is_refused_in_one_line(overrides, message):
    with pytest.raises(ConfigError, match=message) as err:
        _tag(**overrides)
    assert "\n" not in str(err.value)


def test_the_ablation_needs_tags_agents():
    with pytest.raises(ConfigError, match=r"^ablation_games: needs tag_agents true") as err:
        config.load("pimcts_aggregation", "smoke", overrides={
            "ablation_games": ["tic_tac_toe"], "ablation_settings": ["opponent_tree"],
            "ablation_pimcts": {"tic_tac_toe": "D=3 TotalVisits"}})
    assert "\n" not in str(err.value)


# -- the planned tasks ------------------------------------------------------------------------

def test_the_tag_preset_plans_three_agents_per_condition_on_the_tournaments_deals():
    cfg = _tag()
    tasks = pa.ablation_tasks(cfg)
    per_condition = collections.Counter((t.params["game"], t.params["ablate"]) for t in tasks)
    # 60 games per cell: Stratego 30 deals in blocks of 6, the 3-player games 20 in blocks of 4
    assert per_condition == {(g, s): 15 for g, s in cfg["ablation"]["conditions"]}
    assert len(tasks) == 90
    agents = collections.Counter((t.params["agent"], t.params["D"], t.params["aggregation"])
                                 for t in tasks if t.params["game"] == "stratego")
    assert agents == {("olmcts", 1, "none"): 5, ("pimcts", 10, "SingleVote"): 5, ("ismcts", 0, "none"): 5}
    assert all(t.params["part"] == "ablation" and t.params["budget"] == 4000 for t in tasks)
    main = pa.tournament_tasks(cfg)
    assert not {t.task_id for t in tasks} & {t.task_id for t in main}
    # block k of an ablation cell holds the deals of the tournament's block k
    for game in cfg["ablation"]["games"]:
        n = pyspiel.load_game(game).num_players()
        for k in range(5):
            assert pa.deal_block(cfg, game, n, k, "ablation") == pa.deal_block(cfg, game, n, k)


def test_the_tournament_is_the_same_with_or_without_the_ablation():
    cfg = _tag()
    without = _tag(ablation_games=[], ablation_settings=[], ablation_pimcts=None)
    assert pa.ablation_tasks(without) == []
    assert [t.task_id for t in pa.tournament_tasks(without)] == [t.task_id for t in pa.tournament_tasks(cfg)]
    for preset in ("smoke", "default", "paper"):
        assert pa.ablation_tasks(config.load("pimcts_aggregation", preset)) == [], preset


def test_the_plan_counts_the_ablation_sweep():
    rows = pimcts_costs.plan_ablation(_tag(), pimcts_costs.cost_model(pimcts_costs.load_costs()))
    assert [r["game"] for r in rows] == [f"{g} ({s} off)" for g, s in _tag()["ablation"]["conditions"]]
    assert all(r["sweep"] == "ablation" and r["cells"] == 3 and r["games"] == 180 for r in rows)
    assert all(r["cpu_hours"] > 0 for r in rows)


# -- a real ablation task ----------------------------------------------------------------------

def test_an_ablation_task_switches_the_setting_off_for_the_focus_and_every_opponent(monkeypatch):
    real = tag_agent_row("tic_tac_toe", 2)  # every further setting at TAG's default: give it two
    row = {**real, "tree_policy": "UCB_Tuned", "opponent_tree": "MultiTree"}
    monkeypatch.setattr(pa, "tag_agent_row", lambda short, players: row if short == "tic_tac_toe"
                        else tag_agent_row(short, players))
    cfg = config.load("pimcts_aggregation", "smoke", overrides={
        "tag_agents": True, "budgets": [20], "ablation_games": ["tic_tac_toe"],
        "ablation_settings": ["opponent_tree", "rollout"],
        "ablation_pimcts": {"tic_tac_toe": "D=3 TotalVisits"}, "ablation_games_per_cell": 2})
    assert cfg["ablation"]["skipped"] == [["tic_tac_toe", "rollout"]]
    bots = []
    make_agent = pa.make_agent

    def recording(game, player, agent, cfg, rng, game_string=None):
        bot = make_agent(game, player, agent, cfg, rng, game_string)
        bots.append((agent["agent"], bot))
        return bot

    monkeypatch.setattr(pa, "make_agent", recording)
    tasks = pa.ablation_tasks(cfg)
    assert [t.params["agent"] for t in tasks] == ["olmcts", "pimcts", "ismcts"]
    for task in tasks:
        bots.clear()
        rows = execute(task.fn, cfg.values, task.params, task_seed(cfg.seed, task.key))
        assert [(r["deal"], r["rotation"]) for r in rows] == [(0, 0), (0, 1)]
        assert {(r["ablate"], r["ablated_focus"], r["ablated_opponents"]) for r in rows} == {
            ("opponent_tree", "OneTree", "OneTree")}
        assert len(bots) == 4 and {a for a, _ in bots} == {task.params["agent"], "olmcts"}
        for _, bot in bots:  # switched off for the focus and its opponents; the rest as the row
            assert (bot.settings.opponent_tree, bot.settings.tree_policy) == ("OneTree", "UCB_Tuned")
    # the tournament's own task (all on) plays the row's MultiTree, focus and opponents alike
    bots.clear()
    main = next(t for t in pa.tournament_tasks(cfg) if t.params["game"] == "tic_tac_toe")
    rows = execute(main.fn, cfg.values, main.params, task_seed(cfg.seed, main.key))
    assert "ablated_focus" not in rows[0]
    assert {bot.settings.opponent_tree for _, bot in bots} == {"MultiTree"}
