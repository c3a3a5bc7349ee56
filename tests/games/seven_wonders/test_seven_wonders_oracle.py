"""The 7 Wonders port (its numba rules through ``infosets.games.array_kernel``) against the frozen
pure-Python oracle (``oracle.py``, the former ``WondersKernel``): random games agree step by step
on every field, the mover, legal actions, chance outcomes, returns, heuristic, strings, tensors
and public log; the world sampler draws the same worlds from the same seed (numpy and PCG32), so
pimcts_aggregation's draws through the Python port do not move. Source of the rules:
docs/papers/pimcts_aggregation.md and TAG's ``games/wonders7`` (the port's module docstring). The
shared checks: ``tests/games/oracle_checks.py``."""

import numpy as np
import oracle_checks as oc
import pyspiel

import infosets.games  # noqa: F401  (registers the games)
from infosets.core.pcg32 import PCG32
from infosets.games import _tabletop as tt
from infosets.games.seven_wonders import game as sw

oracle = oc.load_oracle(__file__)
FIELDS = (
    "n",
    "age",
    "turn",
    "cur",
    "done",
    "wonders",
    "coins",
    "stages",
    "military",
    "pending",
    "packet",
    "hands",
    "built",
    "history",
    "log",
    "records",
)


def _fields(kernel) -> dict:
    fields = oc.state_fields(kernel, FIELDS)
    fields["deck"] = sorted(kernel.deck)
    return fields


def _same_heuristic(ours, theirs, step, *_):
    assert sw.heuristic(ours) == oracle.heuristic(theirs), step


def _same_heuristic_and_action(ours, theirs, player, action, step):
    """Before every move: the heuristic and the move's string are equal."""
    _same_heuristic(ours, theirs, step)
    assert ours.action_to_string(player, action) == theirs.action_to_string(player, action), step


def _play_both(seed: int, check_every: int = 1):
    """A random game on the port's kernel and on the oracle side by side (checked equal every
    ``check_every`` steps and at the end; the mover, legal actions, chance outcomes, action
    strings and heuristic at every step); yields (ours, oracle's, history so far) at every step."""
    ours, theirs = pyspiel.load_game("seven_wonders").new_kernel(), oracle.WondersKernel()
    same = oc.state_check(3, _fields, tensors="filled", log_codes=False, extra=_same_heuristic)
    return oc.play_both(
        ours,
        theirs,
        np.random.default_rng(seed),
        same,
        check_every=check_every,
        before_move=_same_heuristic_and_action,
    )


def test_random_games_agree_with_the_oracle():
    """Whole games, every step checked in the first two, every fifth in the others; the games
    reach scoring with several ways of scoring (not a vacuous check)."""
    scores = set()
    for seed in range(6):
        for ours, theirs, _ in _play_both(seed, check_every=1 if seed < 2 else 5):
            if ours.is_terminal():
                scores.add(tuple(theirs.scores()))
                assert ours.scores() == theirs.scores()
    assert len(scores) == 6


def test_worlds_are_the_oracles():
    """At decisions along random games: one seed gives one world history in both (numpy and
    PCG32 streams, left in the same state), and ``resample`` the same kernel; the real state is
    untouched; the worlds vary (not a vacuous check)."""
    distinct, checked = set(), 0
    for game_seed in range(3):
        for ours, theirs, _ in _play_both(50 + game_seed, check_every=1000):
            if ours.is_terminal() or ours.current_player() == tt.CHANCE or ours.age == 0:
                if not ours.is_terminal():
                    continue
            if len(theirs.history) % 7:
                continue
            player = len(theirs.history) % 3
            seed = [game_seed, len(theirs.history)]
            world = ours.world_history(player, np.random.default_rng(seed))
            assert world == theirs.world_history(player, np.random.default_rng(seed))
            mine, its = PCG32(len(world)), PCG32(len(world))
            assert ours.world_history(player, mine) == theirs.world_history(player, its)
            assert (mine.state, mine.inc) == (its.state, its.inc)
            resampled = ours.resample(player, np.random.default_rng(seed))
            assert _fields(resampled) == _fields(theirs.resample(player, np.random.default_rng(seed)))
            assert _fields(ours) == _fields(theirs)
            distinct.add(tuple(world))
            checked += 1
    assert checked > 20 and len(distinct) > checked // 2
