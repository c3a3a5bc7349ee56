"""The Virus! port (its numba rules through ``infosets.games.array_kernel``) against the frozen
pure-Python oracle (``oracle.py``, the former ``VirusKernel``): random games agree step by
step on every field, the mover, legal actions, chance outcomes, returns, strings, tensors and
log codes; the world sampler draws the same worlds from the same seed (numpy and PCG32), and
the history planning (``history_context``, ``resample_given``, ``plan_history``,
``replay_move``) gives the same contexts and histories (pimcts_aggregation's draws through the
Python port do not move). The shared checks: ``tests/games/oracle_checks.py``."""

from functools import partial

import numpy as np
import oracle_checks as oc
import pyspiel
import pytest

import infosets.games  # noqa: F401  (registers the games)
from infosets.core.pcg32 import PCG32
from infosets.games import _tabletop as tt

oracle = oc.load_oracle(__file__)
_K = oracle.VirusKernel
_fields = partial(oc.state_fields, names=_K.VALUE_FIELDS + _K.LIST_FIELDS + _K.NESTED_FIELDS)


def _play_both(players: int, seed: int, check_every: int = 1):
    """A random game on the port's kernel and on the oracle side by side (checked equal every
    ``check_every`` steps and at the end; the mover, legal actions and chance outcomes at every
    step); yields (ours, oracle's, history so far) at every step."""
    ours, theirs = pyspiel.load_game("virus", {"players": players}).new_kernel(), _K(players)
    return oc.play_both(
        ours,
        theirs,
        np.random.default_rng(seed),
        oc.state_check(players, _fields),
        check_every=check_every,
        at_chance=oc.chance_checks(legal="legal_actions", possible=True),
    )


# players -> (games, full check every how many steps)
GAMES = {2: (4, 1), 3: (4, 1), 4: (3, 2), 6: (2, 3)}


@pytest.mark.parametrize("players", sorted(GAMES))
def test_random_games_agree_with_the_oracle(players):
    games, every = GAMES[players]
    ends, reshuffles = 0, 0
    for seed in range(games):
        for ours, _, _ in _play_both(players, seed=100 * players + seed, check_every=every):
            ends += ours.is_terminal()
            reshuffles += ours.is_terminal() and ours.epoch > 0
    assert ends == games and reshuffles > 0


class _OracleGame:
    """The oracle's stand-in for a loaded game (``history_context`` replays on ``new_kernel``)."""

    def __init__(self, players):
        self.players = players

    def new_kernel(self):
        return oracle.VirusKernel(self.players)


@pytest.mark.parametrize("players", [2, 3, 5])
def test_worlds_and_planned_histories_are_the_oracles(players):
    """At every seventh decision: one seed gives one world (every field) in both, through
    ``resample`` (numpy and PCG32 streams, left in the same state) and ``resample_given``; the
    history contexts, planned histories and replayed discards are equal; the real state is
    untouched; the worlds vary (not a vacuous check)."""
    game, stand_in = pyspiel.load_game("virus", {"players": players}), _OracleGame(players)
    distinct, checked, old_epochs = set(), 0, 0
    for game_seed in range(2):
        for ours, theirs, history in _play_both(players, seed=7 + game_seed, check_every=50):
            if ours.is_terminal() or ours.current_player() == tt.CHANCE or len(history) % 7:
                continue
            player = ours.current_player()
            seed = [players, game_seed, len(history)]
            world = ours.resample(player, np.random.default_rng(seed))
            assert _fields(world) == _fields(theirs.resample(player, np.random.default_rng(seed)))
            mine, its = PCG32(len(history)), PCG32(len(history))
            assert _fields(ours.resample(player, mine)) == _fields(theirs.resample(player, its))
            assert (mine.state, mine.inc) == (its.state, its.inc)
            context = ours.history_context(game, history)
            reference = theirs.history_context(stand_in, history)
            assert context == reference
            given = ours.resample_given(player, np.random.default_rng(seed), context)
            expected = theirs.resample_given(player, np.random.default_rng(seed), reference)
            assert _fields(given) == _fields(expected) and context["dealt"] == reference["dealt"]
            planned = given.plan_history(game, history, player, context)
            assert planned == expected.plan_history(stand_in, history, player, reference)
            _assert_same_replays(game, planned, given, expected, context)
            assert _fields(ours) == _fields(theirs)
            distinct.add(str(world))
            old_epochs += any(e < ours.epoch for q in range(players) for e in ours.hand_epochs[q])
            checked += 1
    assert checked > 20 and len(distinct) > checked // 2 and old_epochs > 0


def _assert_same_replays(game, planned, ours, theirs, context):
    """Replaying ``planned`` (as far as it stays legal), each move stands for the same moves."""
    kernel, reference = game.new_kernel(), oracle.VirusKernel(game.num_players())
    for step, action in enumerate(planned):
        if kernel.current_player() == tt.CHANCE:
            if not kernel.chance_possible(action):
                return
            moves = [action]
        else:
            moves = ours.replay_move(kernel, step, action, context)
            assert moves == theirs.replay_move(reference, step, action, context), step
        for move in moves:
            if kernel.is_terminal() or move not in kernel.legal_actions():
                return
            kernel.apply(move)
            reference.apply(move)
