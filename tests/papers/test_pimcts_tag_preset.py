"""The ``tag`` preset of pimcts_aggregation: TAG's own agents, the staged rerun of issue 56
(docs/tag_agents.md section 10)."""

from __future__ import annotations

import pyspiel
import pytest

import infosets.games  # noqa: F401  (registers our games)
from infosets.experiments import config
from infosets.experiments.session import output_dir
from infosets.papers import pimcts_aggregation, pimcts_costs
from infosets.papers.pimcts_tag_agents import missing_settings, tag_agent_row


def test_the_tag_preset_plays_tags_agents_on_tags_d_grid_in_a_folder_of_its_own():
    cfg = config.load("pimcts_aggregation", "tag")
    values = cfg.values
    assert values["tag_agents"] and values["tuned_settings"]
    assert values["determinizations"] == [1, 10, 30, 100, 300, 1000]  # TAG's grid
    assert values["disambiguation_trajectories"] == 0  # agent-independent: paper's stands
    assert output_dir(cfg).name == "tag"
    # every game it plays runs as TAG's agent (the config refuses a preset otherwise)
    for game in values["games"] + values["tabletop_games"]:
        row = tag_agent_row(*pimcts_aggregation.game_key(game))
        assert row is not None and missing_settings(row) == [], game
    # a stage is whole blocks of deals, so the next stage adds blocks and never changes one
    for game in values["games"] + values["tabletop_games"]:
        players = pyspiel.load_game(game).num_players()
        per_block = max(1, values["block_size"] // players)
        deals = pimcts_aggregation.deals_per_cell(values, game, players)
        assert deals % per_block == 0, (game, deals, per_block)


def test_only_pimcts_aggregation_has_a_tag_preset():
    assert "tag" in config.presets_of("pimcts_aggregation")
    with pytest.raises(config.ConfigError, match="only pimcts_aggregation has one"):
        config.load("quickstart", "tag")


def test_costs_of_tags_agents_refuse_the_untuned_flag_in_one_line(capsys):
    with pytest.raises(SystemExit):
        pimcts_costs.main(["--games", "tic_tac_toe", "--budget", "10", "--d", "2", "4",
                           "--deals", "1", "--seed", "1", "--out", "/nonexistent/x.csv",
                           "--untuned", "--tag-agents"])
    assert "--tag-agents: TAG's agents are tuned" in capsys.readouterr().err
