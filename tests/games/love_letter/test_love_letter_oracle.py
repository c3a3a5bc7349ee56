"""The Love Letter port (its numba rules through ``infosets.games.array_kernel``) against the
frozen pure-Python oracle (``oracle.py``, the former ``LoveLetterKernel``): random games agree
step by step on every field, the mover, legal actions, chance outcomes, returns, strings,
tensors and log codes; the world sampler draws the same worlds from the same seed and plans
the same histories for them (pimcts_aggregation's draws through the Python port do not move)."""

import numpy as np
import pyspiel
import pytest
from test_love_letter import FIELDS, oracle

import infosets.games  # noqa: F401  (registers the games)
from infosets.games import _tabletop as tt


def _fields(kernel) -> dict:
    return {name: getattr(kernel, name) for name in FIELDS}


def _assert_same(ours, theirs, n, step):
    """Every field, the flow, the strings, the tensors and the log codes of two kernels are equal."""
    assert _fields(ours) == _fields(theirs), step
    assert ours.current_player() == theirs.current_player(), step
    assert ours.is_terminal() == theirs.is_terminal(), step
    assert ours.returns() == theirs.returns(), step
    assert str(ours) == str(theirs), step
    for p in range(n):
        assert ours.information_state_string(p) == theirs.information_state_string(p), (step, p)
        assert ours.observation_string(p) == theirs.observation_string(p), (step, p)
        for (name, a), (other, b) in zip(ours.tensor_pieces(p), theirs.tensor_pieces(p), strict=True):
            assert name == other and a.dtype == b.dtype and np.array_equal(a, b), (step, p, name)
    assert ours.log_codes() == theirs.log_codes(), step


def _play_both(players: int, tokens: int, seed: int):
    """A random game on the port's kernel and on the oracle side by side, checked equal at
    every step; yields (ours, oracle's, history so far) at every step."""
    ours = pyspiel.load_game("love_letter", {"players": players, "tokens_to_win": tokens}).new_kernel()
    theirs = oracle.LoveLetterKernel(players, ours.tokens_to_win)
    rng = np.random.default_rng(seed)
    history = []
    while True:
        step = len(history)
        _assert_same(ours, theirs, players, step)
        yield ours, theirs, history
        if theirs.is_terminal():
            return
        if theirs.current_player() == tt.CHANCE:
            outcomes = theirs.chance_outcomes()
            assert ours.chance_outcomes() == outcomes, step
            assert all(ours.chance_possible(a) for a, _ in outcomes)
            action = tt.sample_chance(theirs, rng)
        else:
            legal = theirs.legal_actions()
            assert ours.legal_actions() == legal, step
            action = legal[int(rng.integers(len(legal)))]
        ours.apply(action)
        theirs.apply(action)
        history.append(action)


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
