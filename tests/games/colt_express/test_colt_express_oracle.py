"""The Colt Express port (its numba rules through ``infosets.games.array_kernel``) against the
frozen pure-Python oracle (``oracle.py``, the former ``ColtExpressKernel``) of the
pimcts_aggregation study (docs/papers/pimcts_aggregation.md): random games agree step by step
on every field, the mover, legal actions, chance outcomes, returns, heuristic, strings, tensors
and action names; the world sampler draws the same histories from the same seed (numpy and
PCG32 streams, left in the same state), so pimcts_aggregation's draws through the Python port
do not move. The shared checks: ``tests/games/oracle_checks.py``."""

from functools import partial

import numpy as np
import oracle_checks as oc
import pyspiel
import pytest

import infosets.games  # noqa: F401  (registers the games)
from infosets.core.pcg32 import PCG32
from infosets.games import _tabletop as tt
from infosets.games.colt_express import game as ce

oracle = oc.load_oracle(__file__)
_K = oracle.ColtExpressKernel
_fields = partial(oc.state_fields, names=_K.VALUE_FIELDS + _K.LIST_FIELDS + _K.NESTED_FIELDS)


def _same_scores_and_bullets(ours, theirs, step):
    """The scores, the heuristic and every player's bullet cards are equal."""
    assert ours.scores() == theirs.scores(), step
    assert ce.heuristic(ours) == oracle.heuristic(theirs), step
    n = theirs.n
    assert [ours.bullet_cards(q) for q in range(n)] == [theirs.bullet_cards(q) for q in range(n)], step


def _same_action_names(ours, theirs, mover, action, step):
    """At a decision, every legal action has the same name in both."""
    if mover != tt.CHANCE:
        legal = theirs.legal_actions()
        names = [theirs.action_to_string(mover, a) for a in legal]
        assert [ours.action_to_string(mover, a) for a in legal] == names, step


def _play_both(players: int, seed: int, check_every: int = 1):
    """A random game on the port's kernel and on the oracle side by side (checked equal every
    ``check_every`` steps and at the end; the mover, legal actions, chance outcomes and action
    names at every step); yields (ours, oracle's, history so far) at every step."""
    ours, theirs = pyspiel.load_game("colt_express", {"players": players}).new_kernel(), _K(players)
    same = oc.state_check(
        players,
        _fields,
        tensors="filled",
        tensor_dtype=np.float64,
        log_codes=False,
        extra=_same_scores_and_bullets,
    )
    return oc.play_both(
        ours,
        theirs,
        np.random.default_rng(seed),
        same,
        check_every=check_every,
        at_chance=oc.chance_checks(legal="legal_actions"),
        before_move=_same_action_names,
    )


# players -> (games, full check every how many steps); 2-4 and 5-6 use different turn sequences
GAMES = {2: (2, 4), 3: (3, 4), 4: (2, 6), 5: (2, 8), 6: (2, 10)}


@pytest.mark.parametrize("players", sorted(GAMES))
def test_random_games_agree_with_the_oracle(players):
    games, every = GAMES[players]
    ends, characters = 0, set()
    for seed in range(games):
        for ours, _, _ in _play_both(players, seed=100 * players + seed, check_every=every):
            ends += ours.is_terminal()
            characters.update(ours.chars)
    assert ends == games and len(characters - {-1}) >= min(6, players + 1)


@pytest.mark.parametrize("players", [2, 3, 5])
def test_worlds_are_the_oracles(players):
    """At every seventh step (a decision): one seed gives one world history in both (numpy and PCG32
    streams, left in the same state) and the same resampled kernel; the real state is
    untouched; the worlds vary (not a vacuous check)."""
    distinct, checked = set(), 0
    for game_seed in range(2):
        for ours, theirs, history in _play_both(players, seed=7 + game_seed, check_every=60):
            if ours.is_terminal() or ours.current_player() == tt.CHANCE or len(history) % 7:
                continue
            player = ours.current_player()
            seed = [players, game_seed, len(history)]
            world = ours.world_history(player, np.random.default_rng(seed))
            assert world == theirs.world_history(player, np.random.default_rng(seed))
            mine, its = PCG32(len(history)), PCG32(len(history))
            assert ours.world_history(player, mine) == theirs.world_history(player, its)
            assert (mine.state, mine.inc) == (its.state, its.inc)
            resampled = ours.resample(player, np.random.default_rng(seed))
            assert _fields(resampled) == _fields(theirs.resample(player, np.random.default_rng(seed)))
            assert ours.hist == history
            distinct.add(tuple(world))
            checked += 1
    assert checked > 12 and len(distinct) > checked // 2
