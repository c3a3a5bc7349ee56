"""The virus numba kernel (pimcts_aggregation, 3 players in the paper) against its pyspiel
adapter, the adapter's resampler, and the Python reference engines."""

import numpy as np
import pyspiel
import pytest

from infosets.games import _virus_kernel as vk
from infosets.games import virus as vg
from infosets.games.kernels import k_heuristic, kernel_for
from kernel_checks import (
    check_determinize_keeps_infostate,
    check_heuristic_on_returns_scale,
    check_pyspiel_games,
    check_random_games,
    compare_samplers,
    cut_rollouts,
    decision_states,
    engines_agree,
    worlds,
)

PLAYERS = {2: 400, 3: 400, 4: 140, 6: 60}  # players -> random games (1,000 in all)


@pytest.mark.parametrize("players", sorted(PLAYERS))
def test_kernel_agrees_with_adapter_on_random_games(players):
    game = pyspiel.load_game("virus", {"players": players})
    distinct = check_random_games(game, PLAYERS[players], seed=players, strings_every=100,
                                  fields_every=40)
    assert distinct > 100  # many distinct information states met, no key collision
    check_pyspiel_games(game, 2, seed=players)


@pytest.mark.parametrize("players", [2, 3, 6])
def test_determinize_keeps_the_information_state(players):
    game = pyspiel.load_game("virus", {"players": players})
    states = decision_states(game, 30, seed=players, stop=0.02)
    check_determinize_keeps_infostate(game, states, seed=players)
    check_heuristic_on_returns_scale(game, states)


def test_determinize_matches_the_adapter_resample():
    game = pyspiel.load_game("virus", {"players": 3})
    state = decision_states(game, 1, seed=4, stop=0.05)[0]
    player = state.current_player()
    other = (player + 1) % 3

    def hand(k):
        return tuple(k.hands[other])

    def deck(k):
        return k.pool[vg.ORGAN + vg.WILD], k.pool[vg.THIEF], k.pool[vg.MEDICINE]

    for statistic in (hand, deck):
        assert compare_samplers(game, state, statistic, draws=3000, seed=5)[1] > 1e-3


def test_determinize_keeps_own_hand_and_the_table():
    game = pyspiel.load_game("virus", {"players": 3})
    state = decision_states(game, 1, seed=8, stop=0.05)[0]
    kernel = kernel_for(game)
    player = state.current_player()
    for world in worlds(game, state, draws=200, seed=3):
        k = kernel.to_kernel(world)
        assert k.hands[player] == state.kernel.hands[player]
        assert k.bodies == state.kernel.bodies and k.discard == state.kernel.discard
        assert [len(h) for h in k.hands] == [len(h) for h in state.kernel.hands]
        assert all(h == sorted(h) for h in k.hands)


def test_heuristic_is_the_leader_lead_in_healthy_organs():
    game = pyspiel.load_game("virus", {"players": 3})
    kernel = kernel_for(game)
    k = game.new_kernel()
    k.to_draw = [0, 0, 0]
    k.bodies[0][vg.RED], k.bodies[0][vg.BLUE] = (), (vg.MEDICINE + vg.BLUE,)
    k.bodies[1][vg.RED] = (vg.VIRUS + vg.RED,)  # infected: not healthy
    k.bodies[2][vg.GREEN] = ()
    out = np.zeros(3)
    k_heuristic(kernel.kid, kernel.from_kernel(k), out)
    leads = np.array([2 - 1, 0 - 2, 1 - 2])
    assert np.allclose(out, 0.5 + 0.5 * leads / (np.abs(leads) + vk.LEAD_SCALE))


def test_compiled_engine_equals_python_reference():
    game = pyspiel.load_game("virus", {"players": 3})
    engines_agree(game, decision_states(game, 200, seed=23, stop=0.02), iterations=6,
                  settings=cut_rollouts())
