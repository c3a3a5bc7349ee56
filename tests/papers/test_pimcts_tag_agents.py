"""TAG's per-game agents of the pimcts_aggregation paper (``papers/pimcts_tag_agents``): the
table covers the paper's games, translates TAG's plain UCB (no K, no epsilon) into ours, and
a preset that asks for a setting our engines lack is refused in one line before any compute."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyspiel
import pytest

import infosets.games  # noqa: F401  (registers our games)
from infosets.experiments import config
from infosets.experiments.config import ConfigError
from infosets.papers import pimcts_aggregation as pa
from infosets.papers.pimcts_tag_agents import (
    load_tag_agents,
    missing_settings,
    tag_agent_kwargs,
    tag_agent_row,
)
from infosets.search.mcts import OLMCTSBot


def test_the_table_covers_the_games_of_the_committed_settings():
    ours = pd.read_csv(pa.SETTINGS_PATH)
    tag = load_tag_agents()
    assert sorted(zip(tag["game"], tag["players"])) == sorted(zip(ours["game"], ours["players"]))
    assert set(tag["source"]) == {"c6d074e66", "c4d7687"}


def test_plain_ucb_runs_without_k_or_epsilon_as_in_tag():
    row = tag_agent_row("stratego", 2)  # K 0.01 and epsilon 0.3 in TAG's file, both unread by UCB
    kw = tag_agent_kwargs(row, heuristic=None)
    assert (kw["uct_c"], kw["explore_epsilon"]) == (1.0, 0.0)
    tuned = tag_agent_kwargs(tag_agent_row("sushi_go", 3), heuristic=None)  # UCB_Tuned reads K
    assert (tuned["uct_c"], tuned["explore_epsilon"], tuned["tree_policy"]) == (1.0, 0.1, "UCB_Tuned")
    assert "opponent_tree" not in tuned and "backup" not in tuned  # TAG's defaults pass nothing
    assert tuned["rollout_count"] == "moves"  # TAG counts players' actions, never chance


def test_monopoly_deal_row_carries_every_tag_setting():
    kw = tag_agent_kwargs(tag_agent_row("monopoly_deal", 3), heuristic=None)
    assert kw["rollout_length"] == 90  # 30 per player, 3 players
    assert (kw["tree_policy"], kw["backup"], kw["max_backup_threshold"]) == ("NoAveragingRM", "MaxMC", 10)
    assert (kw["rollout"], kw["mast_gamma"], kw["fpu"], kw["explore_epsilon"]) == ("MAST", 0.2, 0.5, 0.3)
    assert (kw["rollout_termination"], kw["reuse_tree"]) == ("END_TURN", True)


def test_missing_settings_name_what_the_engines_lack():
    assert missing_settings(tag_agent_row("tic_tac_toe", 2)) == []
    assert missing_settings(tag_agent_row("virus", 3)) == []
    assert missing_settings(tag_agent_row("seven_wonders", 3)) == []  # SelfOnly is in the engines
    assert missing_settings(tag_agent_row("stratego", 2)) == []  # MultiTree is in the bots
    # RegretMatching and random MAST opponents, each also under MultiTree
    assert missing_settings(tag_agent_row("dominion", 3)) == []
    assert missing_settings(tag_agent_row("colt_express", 3)) == []
    for game, players in (("hearts", 4), ("love_letter", 3), ("monopoly_deal", 3)):  # END_*, reuse built
        assert missing_settings(tag_agent_row(game, players)) == [], game
    row = tag_agent_row("dominion", 3)
    assert missing_settings({**row, "reuse_tree": True}) == ["reuse_tree=True under MultiTree"]


def test_every_row_runs_as_tags_agent():
    for _, row in load_tag_agents().iterrows():
        assert missing_settings(row.to_dict()) == [], row["game"]


def test_a_preset_asking_for_a_missing_setting_is_refused_in_one_line(monkeypatch):
    from infosets.papers import pimcts_tag_agents

    def refuse_regret_matching(settings, uct_c):  # as MultiTree once did
        if settings.tree_policy == "RegretMatching":
            raise ValueError("tree_policy: not under MultiTree")

    monkeypatch.setattr(pimcts_tag_agents, "check_settings", refuse_regret_matching)
    with pytest.raises(ConfigError, match=r"^tag_agents: dominion\(players=3\) needs "
                                          r"tree_policy=RegretMatching under MultiTree") as err:
        config.load("pimcts_aggregation", "smoke",
                    overrides={"tag_agents": True, "tabletop_games": ["dominion(players=3)"],
                               "high_budget_games": [], "games": ["tic_tac_toe"]})
    assert "\n" not in str(err.value)
    with pytest.raises(ConfigError, match=r"^tag_agents: needs tuned_settings"):
        config.load("pimcts_aggregation", "smoke", overrides={"tag_agents": True, "tuned_settings": False})


def test_a_runnable_tag_agent_is_built_and_plays():
    cfg = config.load("pimcts_aggregation", "smoke",
                      overrides={"tag_agents": True, "games": ["tic_tac_toe"], "tabletop_games": [],
                                 "high_budget_games": []})
    kw = pa.tuned_kwargs(OLMCTSBot, "tic_tac_toe", cfg.values)
    assert (kw["uct_c"], kw["explore_epsilon"], kw["rollout_length"]) == (1.0, 0.0, 30)
    assert pa.tuned_kwargs(OLMCTSBot, "leduc_poker", cfg.values) == {}  # beyond the paper
    game = pyspiel.load_game("sushi_go(players=3)")
    kw = pa.tuned_kwargs(OLMCTSBot, "sushi_go(players=3)", {"tuned_settings": True, "tag_agents": True})
    bot = OLMCTSBot(game, 0, iterations=50, rng=np.random.default_rng(0), **kw)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    assert bot.step(state) in state.legal_actions()
