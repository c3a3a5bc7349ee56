"""The Stratego port (its numba rules through ``infosets.games.array_kernel``) against the
frozen pure-Python oracle (``oracle.py``, the former ``StrategoKernel``): random games agree
step by step on every field, the mover, legal actions, chance outcomes, returns, strings,
tensors and log codes; the world sampler draws the same worlds from the same seed (numpy and
PCG32), during setup and play, and the planned histories are the oracle's (the default
``_tabletop`` planning, which traced each setup outcome through the oracle's fields), so
pimcts_aggregation's draws through the Python port do not move."""

import importlib.util
from pathlib import Path

import numpy as np
import pyspiel

import infosets.games  # noqa: F401  (registers the games)
from infosets.core.pcg32 import PCG32
from infosets.games import _tabletop as tt

_spec = importlib.util.spec_from_file_location("stratego_oracle", Path(__file__).with_name("oracle.py"))
oracle = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(oracle)

HEADER = ("placed", "cur", "moves", "max_moves", "winner", "done")


def _fields(kernel) -> dict:
    """Every field of a kernel, as lists; ranks on occupied squares only (the oracle leaves a
    vacated square's rank behind, the array clears it; no view reads it)."""
    owner = [int(o) for o in kernel.owner]
    fields = {name: int(getattr(kernel, name)) for name in HEADER}
    fields.update(
        {name: [int(v) for v in getattr(kernel, name)] for name in ("owner", "revealed", "moved", "pool")}
    )
    fields["rank"] = [int(r) if o >= 0 else None for o, r in zip(owner, kernel.rank)]
    fields["lost"] = [[int(v) for v in row] for row in kernel.lost]
    return fields


def _assert_same(ours, theirs, step):
    """Every field, the flow, the strings, the tensors and the log codes of two kernels are equal."""
    assert _fields(ours) == _fields(theirs), step
    assert ours.current_player() == theirs.current_player(), step
    assert ours.is_terminal() == theirs.is_terminal(), step
    assert ours.returns() == theirs.returns(), step
    assert str(ours) == str(theirs), step
    assert ours.log_codes() == theirs.log_codes() == [], step
    for p in range(2):
        assert ours.information_state_string(p) == theirs.information_state_string(p), (step, p)
        assert ours.observation_string(p) == theirs.observation_string(p), (step, p)
        for (name, a), (other, b) in zip(ours.tensor_pieces(p), theirs.tensor_pieces(p), strict=True):
            assert name == other and a.dtype == b.dtype and np.array_equal(a, b), (step, p, name)


def _play_both(max_moves: int, seed: int, check_every: int = 1):
    """A random game on the port's kernel and on the oracle side by side (checked equal every
    ``check_every`` steps and at the end; the mover, legal actions, chance outcomes and action
    strings at every step); yields (ours, oracle's, history so far) at every step."""
    game = pyspiel.load_game("stratego", {"max_moves": max_moves})
    ours, theirs = game.new_kernel(), oracle.StrategoKernel(max_moves)
    rng = np.random.default_rng(seed)
    history = []
    while True:
        step = len(history)
        assert ours.current_player() == theirs.current_player(), step
        if step % check_every == 0 or theirs.is_terminal():
            _assert_same(ours, theirs, step)
        yield ours, theirs, history
        if theirs.is_terminal():
            return
        mover = theirs.current_player()
        if mover == tt.CHANCE:
            outcomes = theirs.chance_outcomes()
            assert ours.chance_outcomes() == outcomes, step
            assert ours.legal_actions() == [a for a, _ in outcomes], step
            assert all(ours.chance_possible(a) for a, _ in outcomes)
            action = tt.sample_chance(theirs, rng)
        else:
            legal = theirs.legal_actions()
            assert ours.legal_actions() == legal, step
            action = legal[int(rng.integers(len(legal)))]
        assert ours.action_to_string(mover, action) == theirs.action_to_string(mover, action), step
        ours.apply(action)
        theirs.apply(action)
        history.append(action)


def test_random_games_agree_with_the_oracle():
    """Full games (flag taken, no move left) and games cut short by ``max_moves`` (draws)."""
    results = set()
    for max_moves, seeds, every in ((1000, range(4), 3), (12, range(20), 1)):
        for seed in seeds:
            for ours, _, _ in _play_both(max_moves, seed=seed, check_every=every):
                if ours.is_terminal():
                    results.add(tuple(ours.returns()))
    assert (0.5, 0.5) in results and results & {(1.0, 0.0), (0.0, 1.0)}


class _OracleGame:
    """The oracle's stand-in for a loaded game (its default planning replays on ``new_kernel``)."""

    def __init__(self, max_moves):
        self.max_moves = max_moves

    def new_kernel(self):
        return oracle.StrategoKernel(self.max_moves)


def test_worlds_and_planned_histories_are_the_oracles():
    """At every 17th step, setup (for both players) and play (for the mover): one seed gives
    one world (every field and board) in both, through ``resample`` on numpy and PCG32
    streams (left in the same state); the planned histories are equal and deal the world; the
    real state is untouched; the worlds vary (not a vacuous check)."""
    game, stand_in = pyspiel.load_game("stratego", {"max_moves": 300}), _OracleGame(300)
    distinct, checked, setup = set(), 0, 0
    for game_seed in range(2):
        for ours, theirs, history in _play_both(300, seed=7 + game_seed, check_every=100):
            if ours.is_terminal() or len(history) % 17:
                continue
            chance = ours.current_player() == tt.CHANCE
            for player in (0, 1) if chance else (ours.current_player(),):
                seed = [game_seed, len(history), player]
                world = ours.resample(player, np.random.default_rng(seed))
                expected = theirs.resample(player, np.random.default_rng(seed))
                assert _fields(world) == _fields(expected) and str(world) == str(expected)
                mine, its = PCG32(len(history)), PCG32(len(history))
                assert _fields(ours.resample(player, mine)) == _fields(theirs.resample(player, its))
                assert (mine.state, mine.inc) == (its.state, its.inc)
                planned = world.plan_history(game, history, player)
                assert planned == expected.plan_history(stand_in, history, player)
                rebuilt = game.new_kernel()
                for action in planned:
                    rebuilt.apply(action)
                assert str(rebuilt) == str(world)
                distinct.add(str(world))
                setup += chance
                checked += 1
            assert _fields(ours) == _fields(theirs)
    assert checked > 30 and setup > 5 and len(distinct) > checked // 2
