"""The 7 Wonders port (its numba rules through ``infosets.games.array_kernel``) against the frozen
pure-Python oracle (``oracle.py``, the former ``WondersKernel``): random games agree step by step
on every field, the mover, legal actions, chance outcomes, returns, heuristic, strings, tensors
and public log; the world sampler draws the same worlds from the same seed (numpy and PCG32), so
pimcts_aggregation's draws through the Python port do not move. Source of the rules:
docs/papers/pimcts_aggregation.md and TAG's ``games/wonders7`` (the port's module docstring)."""

import importlib.util
from pathlib import Path

import numpy as np
import pyspiel

import infosets.games  # noqa: F401  (registers the games)
from infosets.core.pcg32 import PCG32
from infosets.games import _tabletop as tt

_spec = importlib.util.spec_from_file_location("seven_wonders_oracle", Path(__file__).with_name("oracle.py"))
oracle = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(oracle)

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
    fields = {name: getattr(kernel, name) for name in FIELDS}
    fields["deck"] = sorted(kernel.deck)
    return fields


def _tensor(kernel, player: int, perfect_recall: bool) -> dict:
    views = {name: np.zeros(shape, np.float32) for name, shape in kernel.tensor_pieces(perfect_recall)}
    kernel.fill_tensor(player, perfect_recall, views)
    return views


def _assert_same(ours, theirs, step):
    """Every field, the flow, the strings and the tensors of two kernels are equal."""
    assert _fields(ours) == _fields(theirs), step
    assert ours.current_player() == theirs.current_player(), step
    assert ours.is_terminal() == theirs.is_terminal(), step
    assert ours.returns() == theirs.returns(), step
    assert str(ours) == str(theirs), step
    for p in range(3):
        assert ours.information_state_string(p) == theirs.information_state_string(p), (step, p)
        assert ours.observation_string(p) == theirs.observation_string(p), (step, p)
        for recall in (False, True):
            mine, its = _tensor(ours, p, recall), _tensor(theirs, p, recall)
            assert list(mine) == list(its), step
            assert all(np.array_equal(mine[k], its[k]) for k in mine), (step, p, recall)


def _play_both(seed: int, check_every: int = 1):
    """A random game on the port's kernel and on the oracle side by side (checked equal every
    ``check_every`` steps and at the end; the mover, legal actions, chance outcomes, action
    strings and heuristic at every step); yields (ours, oracle's) at every step."""
    from infosets.games.seven_wonders import game as sw

    ours = pyspiel.load_game("seven_wonders").new_kernel()
    theirs = oracle.WondersKernel()
    rng = np.random.default_rng(seed)
    step = 0
    while True:
        player = theirs.current_player()
        assert ours.current_player() == player, step
        assert sw.heuristic(ours) == oracle.heuristic(theirs), step
        if step % check_every == 0 or theirs.is_terminal():
            _assert_same(ours, theirs, step)
        yield ours, theirs
        if theirs.is_terminal():
            return
        if player == tt.CHANCE:
            outcomes = theirs.chance_outcomes()
            assert ours.chance_outcomes() == outcomes, step
            action = tt.sample_chance(theirs, rng)
        else:
            legal = theirs.legal_actions()
            assert ours.legal_actions() == legal, step
            action = legal[int(rng.integers(len(legal)))]
        assert ours.action_to_string(player, action) == theirs.action_to_string(player, action), step
        ours.apply(action)
        theirs.apply(action)
        step += 1


def test_random_games_agree_with_the_oracle():
    """Whole games, every step checked in the first two, every fifth in the others; the games
    reach scoring with several ways of scoring (not a vacuous check)."""
    scores = set()
    for seed in range(6):
        for ours, theirs in _play_both(seed, check_every=1 if seed < 2 else 5):
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
        for ours, theirs in _play_both(50 + game_seed, check_every=1000):
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
