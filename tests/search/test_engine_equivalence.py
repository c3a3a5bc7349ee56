"""The compiled engine equals the Python reference (pimcts_aggregation: OL-MCTS, PI-MCTS and
IS-MCTS of Ravichandran, Goodman and Lucas): same root statistics, depths and moves on
seeded positions, with both engines drawing from the same PCG32."""

import pyspiel
import pytest

import infosets.games  # noqa: F401  (registers trick_game)
from infosets.search.ismcts import ISMCTSBot
from infosets.search.pimcts import PIMCTSBot
from kernel_checks import SETTINGS_CYCLE, _both, decision_states, engines_agree

GAMES = [("leduc_poker", {}), ("liars_dice", {"dice_sides": 4}), ("trick_game", {})]
POSITIONS = SETTINGS_CYCLE  # every combination of the per-position settings once
ITERATIONS = 40


def positions(game, count, seed):
    """``count`` decision states after the deal, reached by random play."""
    return decision_states(game, count, seed, stop=0.4, uniform_chance=True)


@pytest.mark.parametrize("name,params", GAMES)
def test_compiled_equals_python_reference(name, params):
    game = pyspiel.load_game(name, params)
    engines_agree(game, positions(game, POSITIONS, seed=len(name)), ITERATIONS)


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
            pi = _both(PIMCTSBot, game, state, ITERATIONS, determinizations=2, rng=i, **settings)
            ism = _both(ISMCTSBot, game, state, ITERATIONS, rng=i, **settings)
            assert pi[0] == pi[1]
            assert ism[0] == ism[1]
