"""The exploding_kittens numba kernel (pimcts_aggregation's compiled engine) in the compiled
engine's record (``kernels.kernel_for``) against the pyspiel adapter running it: rules, chance
outcomes, returns and information state strings on random games; the determinizer's
constraints and distribution; the compiled engine against the Python reference engine. The
rules themselves are checked against the frozen Python oracle (``test_exploding_kittens_oracle.py``)."""

from collections import Counter

import numpy as np
import pyspiel
import pytest
from scipy import stats

import infosets.games  # noqa: F401  (registers the ports)
from infosets.games.exploding_kittens import game as ek
from infosets.games.kernels import kernel_for
from kernel_checks import (
    SETTINGS_CYCLE,
    decision_after,
    decision_states,
    engines_agree,
    random_games_agree,
    worlds,
)


def test_kernel_agrees_with_the_adapter_on_200_random_games():
    # 200 games, not the former 1,000: the adapter now plays these very rules (the rules are
    # checked against the frozen oracle in test_exploding_kittens_oracle.py); what is left to
    # check here is the record's conversions and the information-state keys against the strings.
    game = pyspiel.load_game("exploding_kittens", {"players": 2})
    finals = random_games_agree(game, kernel_for(game), 200, seed=1, strings_every=16, keeps_history=False)
    assert finals == {(1.0, 0.0), (0.0, 1.0)}


@pytest.mark.parametrize("players", [3, 5])
def test_kernel_agrees_with_the_adapter_with_more_players(players):
    game = pyspiel.load_game("exploding_kittens", {"players": players})
    finals = random_games_agree(
        game, kernel_for(game), 40, seed=players, strings_every=2, keeps_history=False
    )
    assert len(finals) > 1


def _layout(k, player):
    """What a world puts where ``player`` cannot see: other hands' unknown cards by slot, the
    deck top's unknown cards by depth, the remainder's counts."""
    bit = 1 << player
    hands = tuple(
        (q, i, c) for q in range(k.n) for i, (c, s) in enumerate(zip(k.hands[q], k.seen[q])) if not s & bit
    )
    top = tuple((i, c) for i, (c, s) in enumerate(zip(k.top, k.top_seen)) if not s & bit)
    return hands, top, tuple(k.pool)


def test_determinize_keeps_the_information_state_and_matches_the_adapter():
    game = pyspiel.load_game("exploding_kittens", {"players": 3})
    kernel = kernel_for(game)
    state = decision_after(game, seed=6, moves=14)
    player = state.current_player()
    arr = kernel.from_state(state)
    assert arr.tolist() == kernel.from_history(state.history()).tolist()
    assert arr.tolist() == state.kernel.s.tolist()
    info = state.information_state_string(player)
    np_rng = np.random.default_rng(2)
    ours, theirs = Counter(), Counter()
    for world in worlds(game, state, draws=3000, seed=2):
        assert kernel.infostate_string(world, player) == info
        hands, top, pool = _layout(ek.ExplodingKittensKernel.wrap(world), player)
        assert all(c != ek.KITTEN for _, _, c in hands)
        ours[hands[0]] += 1
        ours[("pool", pool[ek.KITTEN])] += 1
        # The twin is the Python kernel's resample (the real history's shape); the pyspiel
        # sample_world samples whole histories and differs in distribution (no Defuse in an
        # opening hand, hidden kitten placements redrawn: _exploding_kittens_worlds).
        hands, top, pool = _layout(state.kernel.resample(player, np_rng), player)
        theirs[hands[0]] += 1
        theirs[("pool", pool[ek.KITTEN])] += 1
    real = kernel.to_state(game, world)  # the world's array, wrapped (no replay)
    assert real.information_state_string(player) == info
    assert kernel.from_state(real).tolist() == world.tolist()
    keys = sorted(set(ours) | set(theirs), key=str)
    table = np.array([[ours[k] for k in keys], [theirs[k] for k in keys]])
    assert stats.chi2_contingency(table).pvalue > 1e-3


def test_heuristic_shares_the_win_among_the_players_still_in():
    game = pyspiel.load_game("exploding_kittens", {"players": 4})
    kernel = kernel_for(game)
    out = np.zeros(4)
    for seed in range(40):
        state = decision_after(game, seed, moves=60)
        if state.is_terminal() or all(state.kernel.alive):
            continue
        kernel.rules.nb_heuristic(kernel.from_state(state), out)
        alive = state.kernel.alive
        assert out.tolist() == [1 / sum(alive) if a else 0.0 for a in alive]
        return
    pytest.fail("no position with a player out")


def test_compiled_engine_equals_the_python_reference_on_60_positions():
    # One cycle of the per-position settings (the four below, final move, D = 1..3, the
    # aggregation and IS-MCTS's availability: lcm(4, 2, 3, 5) = 60), not 200 positions: line
    # tracing (NUMBA_DISABLE_JIT=1) of games/exploding_kittens/, _tabletop and array_kernel
    # under the Python engine's searches of the 200 former positions reached every line by
    # position 4.
    game = pyspiel.load_game("exploding_kittens", {"players": 2})
    states = decision_states(game, SETTINGS_CYCLE, seed=11, stop=0.3, skip=2, min_legal=2)
    engines_agree(
        game,
        states,
        iterations=6,
        determinizations=3,
        settings=[
            {},
            dict(rollout_length=10, explore_epsilon=0.1),
            dict(rollout_length=0),
            dict(max_depth=2, fpu=0.5),
        ],
    )
