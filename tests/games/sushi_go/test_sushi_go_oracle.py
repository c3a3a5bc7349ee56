"""The Sushi Go! port (its numba rules through ``infosets.games.array_kernel``) against the
frozen pure-Python oracle (``oracle.py``, the former ``SushiGoKernel``): random games agree
step by step on every field, the mover, legal actions, chance outcomes, returns, strings and
tensors; the world sampler draws the same worlds from the same seed, and plans the same
histories for them (pimcts_aggregation's draws through the Python port do not move). The shared
checks: ``tests/games/oracle_checks.py``."""

from functools import partial

import numpy as np
import oracle_checks as oc
import pyspiel
import pytest

import infosets.games  # noqa: F401  (registers the games)
from infosets.games import _tabletop as tt

oracle = oc.load_oracle(__file__)
_fields = partial(oc.state_fields, names=oracle.SushiGoKernel.__slots__)


def _play_both(players: int, seed: int):
    """A random game on the port's kernel and on the oracle side by side, checked equal at
    every step; yields (ours, oracle's, history so far) at every step."""
    ours, theirs = (
        pyspiel.load_game("sushi_go", {"players": players}).new_kernel(),
        oracle.SushiGoKernel(players),
    )
    same = oc.state_check(players, _fields)
    return oc.play_both(
        ours, theirs, np.random.default_rng(seed), same, at_chance=oc.chance_checks(possible=True)
    )


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games_agree_with_the_oracle(players):
    ends = 0
    for seed in range(6):
        for ours, _, _ in _play_both(players, seed=100 * players + seed):
            ends += ours.is_terminal()
    assert ends == 6


@pytest.mark.parametrize("players", [3, 5])
def test_resample_draws_the_oracle_worlds(players):
    """At every fifth decision, one seed gives one world (every field) and one planned
    history in both; the real state is untouched; the worlds vary (not a vacuous check)."""
    game = pyspiel.load_game("sushi_go", {"players": players})
    distinct, checked = set(), 0
    for game_seed in range(2):
        for ours, theirs, history in _play_both(players, seed=7 + game_seed):
            if ours.is_terminal() or ours.current_player() == tt.CHANCE or len(history) % 5:
                continue
            player = ours.current_player()
            for draw in range(2):
                seed = [game_seed, draw, len(history)]
                world = ours.resample(player, np.random.default_rng(seed))
                reference = theirs.resample(player, np.random.default_rng(seed))
                assert _fields(world) == _fields(reference)
                assert world.plan_history(game, history, player) == reference.plan_history(
                    game, history, player
                )
                distinct.add(str(world))
                checked += 1
            assert _fields(ours) == _fields(theirs)
    assert checked > 20 and len(distinct) > checked // 2
