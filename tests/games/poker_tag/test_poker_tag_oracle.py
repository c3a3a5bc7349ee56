"""The TAG Poker port (its numba rules through ``infosets.games.array_kernel``) against the frozen
pure-Python oracle (``oracle.py``, the former ``PokerKernel``): random games agree step by step
on every field, the mover, legal actions, chance outcomes, returns, strings and tensors; the
world sampler draws the same worlds from the same seed (numpy and PCG32), so
pimcts_aggregation's draws through the Python port do not move. Source of the rules:
docs/papers/pimcts_aggregation.md and TAG's ``games/poker`` (the port's module docstring). The
shared checks: ``tests/games/oracle_checks.py``."""

from functools import partial

import numpy as np
import oracle_checks as oc
import pyspiel
import pytest

import infosets.games  # noqa: F401  (registers the games)
from infosets.core.pcg32 import PCG32
from infosets.games import _tabletop as tt

oracle = oc.load_oracle(__file__)
_K = oracle.PokerKernel
_fields = partial(oc.state_fields, names=tuple(f for f in _K.VALUE_FIELDS + _K.LIST_FIELDS if f != "log"))


def _same_heuristic(ours, theirs, step):
    assert oracle.heuristic(ours) == oracle.heuristic(theirs), step


def _play_both(players: int, seed: int, check_every: int = 1, **params):
    """A random game on the port's kernel and on the oracle side by side (checked equal every
    ``check_every`` steps and at the end; the mover, legal actions and chance outcomes at every
    step); yields (ours, oracle's, history so far) at every step."""
    game = pyspiel.load_game("poker_tag", {"players": players, **params})
    ours = game.new_kernel()
    theirs = _K(players, game.max_hands, game.starting_money, game.small_blind, game.big_blind, game.bet)
    same = oc.state_check(players, _fields, tensors="filled", log_codes=False, extra=_same_heuristic)
    return oc.play_both(
        ours,
        theirs,
        np.random.default_rng(seed),
        same,
        check_every=check_every,
        at_chance=oc.chance_checks(legal="legal_actions_or_chance"),
    )


# players -> (games, full check every how many steps)
GAMES = {2: (6, 1), 3: (6, 1), 4: (4, 2), 6: (3, 3)}


@pytest.mark.parametrize("players", sorted(GAMES))
def test_random_games_agree_with_the_oracle(players):
    games, every = GAMES[players]
    ends, showdowns = 0, 0
    for seed in range(games):
        for ours, _, _ in _play_both(players, seed=100 * players + seed, check_every=every):
            ends += ours.is_terminal()
            showdowns += ours.is_terminal() and any(ours.shown)
    assert ends == games and showdowns > 0


def test_other_stakes_agree_with_the_oracle():
    """Short stacks and big blinds: all-ins, side pots and eliminations on most hands."""
    for seed in range(4):
        for _ in _play_both(3, seed=seed, starting_money=12, small_blind=2, big_blind=4, bet=3):
            pass


@pytest.mark.parametrize("players", [2, 3, 5])
def test_worlds_are_the_oracles(players):
    """At every second step that is a decision: one seed gives one world history in both (numpy and PCG32
    streams, left in the same state), and ``resample`` the same kernel; the real state is
    untouched; the worlds vary (not a vacuous check)."""
    distinct, checked, past = set(), 0, 0
    for game_seed in range(8):
        for ours, theirs, _ in _play_both(players, seed=7 + game_seed, check_every=40):
            if ours.is_terminal() or ours.current_player() == tt.CHANCE or len(ours.history) % 2:
                continue
            player = ours.current_player()
            seed = [players, game_seed, len(ours.history)]
            world = ours.world_history(player, np.random.default_rng(seed))
            assert world == theirs.world_history(player, np.random.default_rng(seed))
            mine, its = PCG32(len(world)), PCG32(len(world))
            assert ours.world_history(player, mine) == theirs.world_history(player, its)
            assert (mine.state, mine.inc) == (its.state, its.inc)
            resampled = ours.resample(player, np.random.default_rng(seed))
            assert _fields(resampled) == _fields(theirs.resample(player, np.random.default_rng(seed)))
            assert _fields(ours) == _fields(theirs)
            distinct.add(tuple(world))
            past += ours.hand > 0
            checked += 1
    assert checked > 20 and len(distinct) > checked // 2 and past > 0
