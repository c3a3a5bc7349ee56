"""The compiled engine equals the Python reference (pimcts_aggregation: OL-MCTS, PI-MCTS and
IS-MCTS of Ravichandran, Goodman and Lucas): same root statistics, depths and moves on
seeded positions, with both engines drawing from the same PCG32."""

import random

import pyspiel
import pytest

import infosets.games  # noqa: F401  (registers trick_game)
from infosets.search.ismcts import ISMCTSBot
from infosets.search.mcts import OLMCTSBot
from infosets.search.pimcts import AGGREGATIONS, PIMCTSBot

GAMES = [("leduc_poker", {}), ("liars_dice", {"dice_sides": 4}), ("trick_game", {})]
POSITIONS = 200


def positions(game, count, seed):
    """``count`` decision states after the deal, reached by random play."""
    rnd, found = random.Random(seed), []
    while len(found) < count:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(rnd.choice(outcomes)[0])
                continue
            if rnd.random() < 0.4:
                found.append(state.clone())
                break
            state.apply_action(rnd.choice(state.legal_actions()))
    return found


def _run(bot, state):
    step = bot.step_with_policy(state)
    return dict(step[0]), step[1], bot.last_search_info


def _both(bot, game, state, **kwargs):
    player = state.current_player()
    python, compiled = (bot(game, player, iterations=40, engine=e, **kwargs) for e in ("python", "compiled"))
    result = _run(python, state), _run(compiled, state)
    assert python.engine_used == "python" and compiled.engine_used == "compiled"
    return result


@pytest.mark.parametrize("name,params", GAMES)
def test_compiled_equals_python_reference(name, params):
    game = pyspiel.load_game(name, params)
    for i, state in enumerate(positions(game, POSITIONS, seed=len(name))):
        d = 1 + i % 4
        rule = AGGREGATIONS[i % 3]
        ol = _both(OLMCTSBot, game, state, rng=i, final=("mean", "visits")[i % 2])
        pi = _both(PIMCTSBot, game, state, determinizations=d, aggregation=rule, rng=i)
        ism = _both(ISMCTSBot, game, state, rng=i, availability=i % 5 != 0)
        for python, compiled in (ol, pi, ism):
            assert python == compiled, (i, state.history())


@pytest.mark.parametrize("name,params", GAMES)
def test_root_statistics_are_identical(name, params):
    game = pyspiel.load_game(name, params)
    for i, state in enumerate(positions(game, 30, seed=99)):
        player = state.current_player()
        trees = [PIMCTSBot(game, player, iterations=60, determinizations=3, rng=i, engine=e).search(state)
                 for e in ("python", "compiled")]
        assert trees[0] == trees[1]
        roots = [ISMCTSBot(game, player, iterations=60, rng=i, engine=e).search(state)
                 for e in ("python", "compiled")]
        assert roots[0] == roots[1]


SETTINGS = [dict(uct_c=0.3), dict(rollout_length=0), dict(rollout_length=2, max_depth=2),
            dict(fpu=0.6), dict(explore_epsilon=0.2), dict(max_depth=1, fpu=0.0, explore_epsilon=0.5)]


@pytest.mark.parametrize("settings", SETTINGS, ids=lambda s: ",".join(s))
def test_compiled_equals_python_with_per_game_settings(settings):
    for name, params in GAMES:
        game = pyspiel.load_game(name, params)
        for i, state in enumerate(positions(game, 12, seed=3)):
            pi = _both(PIMCTSBot, game, state, determinizations=2, rng=i, **settings)
            ism = _both(ISMCTSBot, game, state, rng=i, **settings)
            assert pi[0] == pi[1]
            assert ism[0] == ism[1]
