"""The Exploding Kittens port (its numba rules through ``infosets.games.array_kernel``) against
the frozen pure-Python oracle (``oracle.py``, the former ``ExplodingKittensKernel``): random
games agree step by step on every field, the mover, legal actions, chance outcomes, returns,
strings, tensors and log codes; the resampler draws the same worlds from the same seed (numpy
and PCG32), and the world sampler reads the same history context (tagged cards, events,
knowledge) and samples the same histories from the same seed (pimcts_aggregation's draws
through the Python port do not move). The shared checks: ``tests/games/oracle_checks.py``."""

from functools import partial

import numpy as np
import oracle_checks as oc
import pyspiel
import pytest

import infosets.games  # noqa: F401  (registers the games)
from infosets.core.pcg32 import PCG32
from infosets.games import _tabletop as tt

oracle = oc.load_oracle(__file__)
_K = oracle.ExplodingKittensKernel
_fields = partial(oc.state_fields, names=_K.VALUE_FIELDS + _K.LIST_FIELDS + _K.NESTED_FIELDS)


def _play_both(players: int, seed: int, check_every: int = 1):
    """A random game on the port's kernel and on the oracle side by side (checked equal every
    ``check_every`` steps and at the end; the mover, legal actions and chance outcomes at every
    step); yields (ours, oracle's, history so far) at every step."""
    ours, theirs = pyspiel.load_game("exploding_kittens", {"players": players}).new_kernel(), _K(players)
    return oc.play_both(
        ours,
        theirs,
        np.random.default_rng(seed),
        oc.state_check(players, _fields),
        check_every=check_every,
        at_chance=oc.chance_checks(legal="legal_actions", possible=True, impossible=range(-1, 14)),
    )


# players -> (games, full check every how many steps)
GAMES = {2: (6, 1), 3: (4, 1), 4: (3, 2), 5: (2, 3)}


@pytest.mark.parametrize("players", sorted(GAMES))
def test_random_games_agree_with_the_oracle(players):
    games, every = GAMES[players]
    ends, phases = 0, set()
    for seed in range(games):
        for ours, _, _ in _play_both(players, seed=100 * players + seed, check_every=every):
            ends += ours.is_terminal()
            phases.add(ours.phase)
    assert ends == games and len(phases) >= 8  # every phase but, at times, one


class _OracleGame:
    """The oracle's stand-in for a loaded game (the world sampler replays on ``new_kernel``)."""

    def __init__(self, players):
        self.players = players

    def new_kernel(self):
        return oracle.ExplodingKittensKernel(self.players)


def _tagged(cards) -> list:
    """Cards with their tags, comparable across the two implementations."""
    return [(int(c), getattr(c, "origin", None)) for c in cards]


def _assert_same_context(context, reference):
    for key in ("opening", "segments", "ever", "events", "history", "kitten_defuse"):
        assert context[key] == reference[key], key
    assert {k: _tagged([v]) if v is not None else None for k, v in context["drawn"].items()} == {
        k: _tagged([v]) if v is not None else None for k, v in reference["drawn"].items()
    }
    ours, theirs = context["tagged"], reference["tagged"]
    assert [_tagged(h) for h in ours.hands] == [_tagged(h) for h in theirs.hands]
    assert _tagged(ours.top) == _tagged(theirs.top) and ours.pool == theirs.pool
    assert ours.seen == theirs.seen and ours.top_seen == theirs.top_seen


@pytest.mark.parametrize("players", [2, 3, 4])
def test_worlds_and_sampled_histories_are_the_oracles(players):
    """At every ninth decision: one seed gives one world (every field) in both, through
    ``resample`` (numpy and PCG32 streams, left in the same state); the history contexts are
    equal and ``world_history`` samples the same history from one seed; the real state is
    untouched; the worlds vary (not a vacuous check)."""
    game, stand_in = pyspiel.load_game("exploding_kittens", {"players": players}), _OracleGame(players)
    distinct, checked = set(), 0
    for game_seed in range(2):
        for ours, theirs, history in _play_both(players, seed=7 + game_seed, check_every=50):
            if ours.is_terminal() or ours.current_player() == tt.CHANCE or len(history) % 9:
                continue
            player = ours.current_player()
            seed = [players, game_seed, len(history)]
            world = ours.resample(player, np.random.default_rng(seed))
            assert _fields(world) == _fields(theirs.resample(player, np.random.default_rng(seed)))
            assert world.information_state_string(player) == ours.information_state_string(player)
            mine, its = PCG32(len(history)), PCG32(len(history))
            assert _fields(ours.resample(player, mine)) == _fields(theirs.resample(player, its))
            assert (mine.state, mine.inc) == (its.state, its.inc)
            context = ours.history_context(game, history)
            reference = theirs.history_context(stand_in, history)
            _assert_same_context(context, reference)
            for other in {player, (player + 1) % players}:
                sampled = ours.world_history(game, other, np.random.default_rng(seed), context)
                assert sampled == theirs.world_history(
                    stand_in, other, np.random.default_rng(seed), reference
                )
                distinct.add(tuple(sampled))
            assert _fields(ours) == _fields(theirs)
            checked += 1
    assert checked > 10 and len(distinct) > checked
