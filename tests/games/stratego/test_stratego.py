"""Tests of the Stratego port (lib/infosets/games/stratego/game.py)."""

import numpy as np
import pyspiel
import pytest

import infosets.games  # noqa: F401
from infosets.games.stratego import game as st
from tabletop_checks import (
    check_adapter_agrees_with_kernel,
    check_errors,
    check_kernel_is_a_search_state,
    check_resample_along_games,
    check_resample_keeps_infostate,
    chi_square_pvalue,
    play_to_decision,
)

SHORT = "stratego(max_moves=150)"


def test_random_sim():
    pyspiel.random_sim_test(pyspiel.load_game(SHORT), num_sims=2, serialize=True, verbose=False)


def test_adapter_agrees_with_kernel():
    check_adapter_agrees_with_kernel(pyspiel.load_game(SHORT), seed=1, games=2)


def test_resample_keeps_infostate():
    check_resample_keeps_infostate(pyspiel.load_game(SHORT), seed=2, states=8)


def test_errors():
    check_errors("stratego", bad_players=[1, 3])
    with pytest.raises(ValueError, match="max_moves"):
        pyspiel.load_game("stratego(max_moves=0)")


def _empty_board():
    k = st.StrategoKernel(100)
    k.placed = 80
    return k


def _put(k, square, owner, rank):
    k.owner[square], k.rank[square] = owner, rank


def _move(k, src, dst):
    r0, c0 = divmod(src, 10)
    r1, c1 = divmod(dst, 10)
    direction = st.DIRECTIONS.index(((r1 > r0) - (r1 < r0), (c1 > c0) - (c1 < c0)))
    action = st.encode(src, direction, abs(r1 - r0) + abs(c1 - c0))
    assert action in k.legal_actions()
    k.apply(action)


def test_combat_rules():
    k = _empty_board()
    _put(k, 0, 0, st.SPY)
    _put(k, 1, 1, st.MARSHAL)
    _put(k, 99, 1, st.SCOUT)
    _put(k, 90, 0, st.MINER)
    _put(k, 80, 1, st.BOMB)
    _put(k, 50, 0, st.FLAG)
    _move(k, 0, 1)  # the Spy attacking the Marshal wins
    assert k.owner[1] == 0 and k.rank[1] == st.SPY and k.lost[1][st.MARSHAL] == 1
    assert k.revealed[1]
    _move(k, 99, 98)
    _move(k, 90, 80)  # a Miner defuses a Bomb
    assert k.owner[80] == 0 and k.lost[1][st.BOMB] == 1
    _move(k, 98, 97)
    k2 = _empty_board()
    _put(k2, 0, 0, 5)
    _put(k2, 1, 1, 5)
    _put(k2, 2, 1, st.FLAG)
    _put(k2, 30, 0, 6)
    _put(k2, 90, 1, 4)
    _move(k2, 0, 1)  # equal ranks: both die
    assert k2.owner[0] == k2.owner[1] == st.EMPTY
    _move(k2, 90, 80)
    _move(k2, 30, 20)
    _move(k2, 80, 70)
    _move(k2, 20, 10)
    _move(k2, 70, 60)
    _move(k2, 10, 11)
    _move(k2, 60, 61)
    _move(k2, 11, 12)
    _move(k2, 61, 62)
    _move(k2, 12, 2)  # taking the Flag wins
    assert k2.is_terminal() and k2.returns() == [1.0, 0.0]


def test_scout_long_move_is_revealed_and_lakes_block():
    k = _empty_board()
    _put(k, 30, 0, st.SCOUT)
    _put(k, 12, 0, st.SCOUT)
    _put(k, 39, 0, st.FLAG)
    _put(k, 99, 1, 5)
    targets = {st.decode(a)[2] for a in k.legal_actions() if st.decode(a)[:2] == (30, 0)}
    assert targets == set(range(1, 7))  # rows 4..9 of column 0 are free
    targets = {st.decode(a)[2] for a in k.legal_actions() if st.decode(a)[:2] == (12, 0)}
    assert targets == {1, 2}  # the lake at row 4 blocks column 2
    assert not any(st.decode(a)[0] == 39 for a in k.legal_actions())  # a Flag never moves
    _move(k, 30, 70)
    assert k.revealed[70]


def test_no_move_loses():
    k = _empty_board()
    _put(k, 0, 0, 5)
    _put(k, 99, 1, st.BOMB)
    _put(k, 98, 1, st.FLAG)
    _move(k, 0, 10)
    assert k.is_terminal() and k.returns() == [1.0, 0.0]


def test_resample_puts_bombs_only_on_unmoved_pieces_uniformly():
    game = pyspiel.load_game("stratego")
    state = play_to_decision(game, np.random.default_rng(5), 20)
    kernel = state.kernel
    player = state.current_player()
    other = 1 - player
    hidden = [s for s in range(100) if kernel.owner[s] == other and not kernel.revealed[s]]
    moved = [s for s in hidden if kernel.moved[s]]
    unmoved = [s for s in hidden if not kernel.moved[s]]
    assert moved and unmoved
    ranks = [kernel.rank[s] for s in hidden]
    fixed = sum(r in (st.FLAG, st.BOMB) for r in ranks)
    rng = np.random.default_rng(6)
    probe = unmoved[0]
    counts = np.zeros(st.NUM_RANKS, dtype=int)
    # 1,000 draws (the rebuilt worlds cost about 20 ms each). Measured 2026-12-02 with
    # _tabletop.shuffle_in_place patched in StrategoKernel.resample: a Sattolo shuffle (j < i)
    # fails at 1,000 draws on each of 3 seeds (p < 2e-4; at 500 on only 2 of 3), the naive
    # shuffle (j over the whole range) fails at any size here (p < 1e-260 at 300); the right
    # shuffle passes (p >= 0.097).
    for _ in range(1000):
        world = st.sample_world(state, player, rng).kernel
        assert all(world.rank[s] not in (st.FLAG, st.BOMB) for s in moved)
        assert sorted(world.rank[s] for s in hidden) == sorted(ranks)
        counts[world.rank[probe]] += 1
    # An unmoved piece: a Bomb/Flag with probability fixed / |unmoved| (split by their
    # counts), otherwise a movable rank in proportion to the movable ranks left over.
    probs = np.zeros(st.NUM_RANKS)
    p_fixed = fixed / len(unmoved)
    for r in ranks:
        if r in (st.FLAG, st.BOMB):
            probs[r] += p_fixed / fixed
        else:
            probs[r] += (1 - p_fixed) / (len(ranks) - fixed)
    assert chi_square_pvalue(counts, probs) > 1e-3


def test_resample_at_every_decision():
    check_resample_along_games(pyspiel.load_game(SHORT), seed=7, games=1)


def test_kernel_is_a_search_state():
    check_kernel_is_a_search_state(pyspiel.load_game(SHORT), seed=8)
