"""The Love Letter port (its numba rules through ``infosets.games.array_kernel``) against the
frozen pure-Python oracle (``oracle.py``, the former ``LoveLetterKernel``): random games agree
step by step on every field, the mover, legal actions, chance outcomes, returns, strings,
tensors and log codes; the world sampler draws the same worlds from the same seed and plans
the same histories for them (pimcts_aggregation's draws through the Python port do not move).
The shared checks: ``tests/games/oracle_checks.py``."""

from functools import partial

import numpy as np
import oracle_checks as oc
import pyspiel
import pytest
from test_love_letter import FIELDS, oracle

import infosets.games  # noqa: F401  (registers the games)
from infosets.games import _tabletop as tt

_fields = partial(oc.state_fields, names=FIELDS)


def _play_both(players: int, tokens: int, seed: int):
    """A random game on the port's kernel and on the oracle side by side, checked equal at
    every step; yields (ours, oracle's, history so far) at every step."""
    ours = pyspiel.load_game("love_letter", {"players": players, "tokens_to_win": tokens}).new_kernel()
    theirs = oracle.LoveLetterKernel(players, ours.tokens_to_win)
    same = oc.state_check(players, _fields)
    return oc.play_both(
        ours, theirs, np.random.default_rng(seed), same, at_chance=oc.chance_checks(possible=True)
    )


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_agree_with_the_oracle(players):
    """Whole games (the rule book's tokens to win: several rounds each)."""
    ends = 0
    for seed in range(4):
        for ours, _, _ in _play_both(players, 0, seed=100 * players + seed):
            ends += ours.is_terminal()
    assert ends == 4


@pytest.mark.parametrize("players,tokens", [(2, 2), (3, 2), (4, 1)])
def test_resample_draws_the_oracle_worlds(players, tokens):
    """At every third decision, one seed gives one world (every field) and one planned
    history in both; the real state is untouched; the worlds vary (not a vacuous check)."""
    game = pyspiel.load_game("love_letter", {"players": players, "tokens_to_win": tokens})
    distinct, checked = set(), 0
    for game_seed in range(3):
        for ours, theirs, history in _play_both(players, tokens, seed=7 + game_seed):
            if ours.is_terminal() or ours.current_player() == tt.CHANCE or len(history) % 3:
                continue
            for player in range(players):
                seed = [game_seed, player, len(history)]
                world = ours.resample(player, np.random.default_rng(seed))
                reference = theirs.resample(player, np.random.default_rng(seed))
                assert _fields(world) == _fields(reference), (history, player)
                assert world.plan_history(game, history, player) == reference.plan_history(
                    game, history, player
                )
                distinct.add(str(world))
                checked += 1
            assert _fields(ours) == _fields(theirs)
    assert checked >= 20 and len(distinct) > checked // 3
