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
