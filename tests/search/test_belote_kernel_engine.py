"""The compiled engine on the belote2p kernel equals the Python reference (belote_ismcts; the
engine of pimcts_aggregation): same root statistics, availabilities, depths and moves on
seeded Belote positions, for the IS-MCTS with its default options and with the paper's
options, and for PI-MCTS."""

import numpy as np
import pyspiel

import infosets.games  # noqa: F401  (registers belote2p)
from infosets.games.belote2p import deal as deal_lib
from infosets.search.belote_ismcts import PAPER_OPTIONS
from infosets.search.ismcts import ISMCTSBot
from infosets.search.pimcts import PIMCTSBot

GAME = pyspiel.load_game("belote2p")
POSITIONS = 200


def positions(count, seed):
    """``count`` decision states after the deal (dealt by chance, so ``history()`` holds the
    deal), reached by random play."""
    rng, found = np.random.default_rng(seed), []
    while len(found) < count:
        state = GAME.new_initial_state()
        for action in deal_lib.fair_deal(rng) + [int(rng.integers(2))]:
            state.apply_action(action)
        for _ in range(int(rng.integers(32))):
            state.apply_action(int(rng.choice(state.legal_actions())))
        if len(state.legal_actions()) > 1:
            found.append(state)
    return found


def _both(bot, state, **kwargs):
    player = state.current_player()
    out = []
    for engine in ("python", "compiled"):
        b = bot(GAME, player, engine=engine, **kwargs)
        policy, action = b.step_with_policy(state)
        out.append((dict(policy), action, b.last_search_info, getattr(b, "last_root_availability", None)))
        assert b.engine_used == engine
    return out


def test_compiled_ismcts_equals_python_reference_on_200_positions():
    for i, state in enumerate(positions(POSITIONS, seed=11)):
        options = dict(PAPER_OPTIONS, uct_c=82.0) if i % 2 else {"availability": i % 5 != 0}
        python, compiled = _both(ISMCTSBot, state, iterations=12, rng=i, **options)
        assert python == compiled, (i, options)


def test_compiled_pimcts_equals_python_reference():
    for i, state in enumerate(positions(20, seed=12)):
        python, compiled = _both(PIMCTSBot, state, iterations=8, determinizations=2, rng=i)
        assert python == compiled, i


def test_paper_options_root_statistics_are_identical_with_more_iterations():
    for i, state in enumerate(positions(6, seed=13)):
        player = state.current_player()
        bots = [ISMCTSBot(GAME, player, iterations=150, rng=i, engine=e, uct_c=82.0, **PAPER_OPTIONS)
                for e in ("python", "compiled")]
        roots = [b.search(state) for b in bots]
        assert roots[0] == roots[1]
        assert bots[0].last_root_availability == bots[1].last_root_availability
