"""The numba kernel of the dominion port (pimcts_aggregation's compiled engine) against the
pyspiel adapter: rules, chance outcomes, returns and information state strings on random games;
the determinizer's constraints and distribution; the compiled engine against the Python
reference engine."""

from collections import Counter

import numpy as np
import pyspiel
import pytest
from scipy import stats

import infosets.games  # noqa: F401  (registers the ports)
from infosets.games import _dominion_kernel as dk
from infosets.games.kernels import k_heuristic, kernel_for
from kernel_checks import decision_after, decision_states, engines_agree, random_games_agree, worlds


def test_kernel_agrees_with_the_adapter_on_1000_random_games():
    # Short games (over after 8 turns in total) keep 1000 of them fast; full games follow.
    game = pyspiel.load_game("dominion", {"players": 2, "max_turns": 8})
    finals = random_games_agree(game, kernel_for(game), 1000, seed=1, strings_every=16,
                                keeps_history=False)
    assert len(finals) > 1


@pytest.mark.parametrize("players", [2, 3, 4])
def test_kernel_agrees_with_the_adapter_on_full_games(players):
    game = pyspiel.load_game("dominion", {"players": players})
    finals = random_games_agree(game, kernel_for(game), 3, seed=players, strings_every=30,
                                keeps_history=False)
    assert finals


def test_arrays_keep_no_history_and_say_so():
    game = pyspiel.load_game("dominion")
    kernel = kernel_for(game)
    with pytest.raises(ValueError, match="no action history"):
        kernel.history(kernel.from_history([]))


def test_determinize_keeps_the_information_state_and_matches_the_adapter():
    game = pyspiel.load_game("dominion", {"players": 3})
    kernel = kernel_for(game)
    state = decision_after(game, seed=3, moves=40)
    player = state.current_player()
    arr = kernel.from_state(state)
    assert arr.tolist() == kernel.from_history(state.history()).tolist()
    info = state.information_state_string(player)
    np_rng = np.random.default_rng(4)
    ours, theirs = Counter(), Counter()
    for world in worlds(game, state, draws=3000, seed=4):
        assert kernel.infostate_string(world, player) == info
        k = dk.to_python_kernel(world)
        adapter = state.kernel.resample(player, np_rng)  # the twin of nb_determinize
        for q in range(3):
            if q != player:
                assert all(h >= m for h, m in zip(k.hand[q], k.known[q]))
                assert [a + b for a, b in zip(k.hand[q], k.draw[q])] == \
                    [a + b for a, b in zip(state.kernel.hand[q], state.kernel.draw[q])]
                ours[q, tuple(k.hand[q])] += 1
                theirs[q, tuple(adapter.hand[q])] += 1
    real = kernel.to_state(game, world)
    assert real.information_state_string(player) == info
    assert kernel.from_state(real).tolist() == world.tolist()
    keys = sorted(set(ours) | set(theirs))
    table = np.array([[ours[k] for k in keys], [theirs[k] for k in keys]])
    assert stats.chi2_contingency(table).pvalue > 1e-3


def test_heuristic_is_tags_pure_score_scaled():
    game = pyspiel.load_game("dominion", {"players": 2})
    kernel = kernel_for(game)
    state = decision_after(game, seed=5, moves=80)
    out = np.zeros(2)
    k_heuristic(kernel.kid, kernel.from_state(state), out)
    vp = [state.kernel.victory_points(p) for p in range(2)]
    assert out.tolist() == [min(1.0, max(0.0, v / 100)) for v in vp]


def test_compiled_engine_equals_the_python_reference_on_200_positions():
    game = pyspiel.load_game("dominion", {"players": 2, "max_turns": 10})
    states = decision_states(game, 200, seed=11, stop=0.2, skip=4, min_legal=2)
    engines_agree(game, states, iterations=6, determinizations=3,
                  settings=[{}, dict(rollout_length=30, explore_epsilon=0.3), dict(rollout_length=0),
                            dict(max_depth=2, fpu=0.5)])
