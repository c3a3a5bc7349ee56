"""pimcts_aggregation's tournament rows record the engine that ran a search, not the one a bot
planned (``papers/pimcts_aggregation.searched_engine``; docs/papers/pimcts_aggregation.md)."""

import numpy as np
import pyspiel

from infosets.papers.pimcts_aggregation import searched_engine
from infosets.search.ismcts import ISMCTSBot


def test_a_bot_that_never_searched_records_no_engine_then_the_one_that_ran():
    game = pyspiel.load_game("kuhn_poker")
    bot = ISMCTSBot(game, 0, iterations=20, rng=np.random.default_rng(0), engine="python")
    assert bot.engine_used == "python"  # planned from construction
    assert searched_engine(bot) is None  # a game the focus never searched in keeps the config's
    state = game.new_initial_state()
    state.apply_action(0)
    state.apply_action(1)
    bot.step(state)
    assert searched_engine(bot) == "python"


def test_the_focus_seats_probe_moves_no_play():
    """The focus seat alone has its search wrapped (``attach_probe``) and read after each
    decision (``decision_info``); the control cell is fair only if that moves no play. With
    TAG's Monopoly Deal agents (tree reuse, SelfOnly, regret matching, MAST: the settings whose
    control won 9 of 60 at B = 4,000, docs/tag_agents.md), a game whose seat 0 carries the probe
    is the game without it, move for move, from the same seeds."""
    from infosets import arena
    from infosets.experiments import config
    from infosets.papers.pimcts_aggregation import attach_probe, decision_info, make_agent

    cfg = config.load("pimcts_aggregation", "tag")
    name = "monopoly_deal(players=3)"
    game = pyspiel.load_game(name)
    agent = {"agent": "olmcts", "budget": 30, "D": 1, "aggregation": "none"}

    def play(probed: bool) -> list[int]:
        seeds = np.random.SeedSequence(5).spawn(3)
        bots = [make_agent(game, p, agent, cfg, np.random.default_rng(seeds[p]), name) for p in range(3)]
        box = attach_probe(bots[0]) if probed else None
        read = []

        def on_decision(info):
            if probed and info["player"] == 0:
                read.append(decision_info(bots[0], box, info["action"]))

        out = arena.play_game(game, bots, np.random.default_rng(9), on_decision=on_decision)
        assert not probed or (read and all(r["visit_share"] > 0 for r in read))
        return out["state"].history()

    assert play(probed=True) == play(probed=False)
