"""Tests of the Sushi Go! port (lib/infosets/games/sushi_go/: game.py's adapter on kernel.py's rules)."""

import numpy as np
import pyspiel
import pytest

import infosets.games  # noqa: F401
from infosets.games import _tabletop as tt
from infosets.games.sushi_go import game as sg
from infosets.games.sushi_go import kernel as sk
from tabletop_checks import (
    check_adapter_agrees_with_kernel,
    check_errors,
    check_resample_along_games,
    check_resample_keeps_infostate,
    chi_square_pvalue,
)


@pytest.mark.parametrize("players", [2, 3, 5])
def test_random_sim(players):
    game = pyspiel.load_game(f"sushi_go(players={players})")
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)
    assert game.num_players() == players


def test_adapter_agrees_with_kernel():
    check_adapter_agrees_with_kernel(pyspiel.load_game("sushi_go"), seed=1, games=5)


@pytest.mark.parametrize("players", [3, 5])
def test_resample_keeps_infostate(players):
    check_resample_keeps_infostate(pyspiel.load_game(f"sushi_go(players={players})"), seed=2, states=15)


def test_errors():
    check_errors("sushi_go", bad_players=[1, 6])


def _dealt_state(players, seed, picks=0):
    game = pyspiel.load_game(f"sushi_go(players={players})")
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    while state.is_chance_node() or picks > 0:
        if state.is_chance_node():
            state.apply_action(tt.sample_chance(state.kernel, rng))
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.integers(len(legal))])
            picks -= 1
    return state


def test_unknown_hand_is_uniform_over_unseen_cards():
    state = _dealt_state(3, seed=3, picks=1)  # player 1 to move; p0 picked in secret
    player = 1
    unseen = np.array(sk.DECK_COUNTS) - np.array(state.kernel.hands[player])
    rng = np.random.default_rng(4)
    counts = np.zeros(sk.NUM_TYPES, dtype=int)
    for _ in range(3000):
        world = sg.sample_world(state, player, rng).kernel
        hand = tt.counts_to_list(world.hands[2])
        counts[hand[rng.integers(len(hand))]] += 1
        assert sum(world.deck) == sum(state.kernel.deck)
    assert chi_square_pvalue(counts, unseen / unseen.sum()) > 1e-3


def test_three_players_know_every_hand_from_turn_three():
    state = _dealt_state(3, seed=5, picks=2 * 3 + 1)  # turn 2, p0 picked in secret
    kernel = state.kernel
    assert kernel.turn == 2 and kernel.cur == 1
    rng = np.random.default_rng(6)
    picks = {}
    for _ in range(2000):
        world = sg.sample_world(state, 1, rng).kernel
        for q in range(3):
            full = world.hands[q][:]
            if world.pending[q] >= 0:
                for c in world._action_cards(world.pending[q]):
                    full[c] += 1
            real = kernel.hands[q][:]
            if kernel.pending[q] >= 0:
                for c in kernel._action_cards(kernel.pending[q]):
                    real[c] += 1
            assert full == real  # every hand is known; only p0's secret pick varies
        picks[world.pending[0]] = picks.get(world.pending[0], 0) + 1
    probe = kernel.copy()
    probe.s[sk.HANDS : sk.HANDS + sk.NUM_TYPES] = [
        h + (1 if t in kernel._action_cards(kernel.pending[0]) else 0) for t, h in enumerate(kernel.hands[0])
    ]
    probe.s[sk.CUR] = 0
    pair = kernel.pending[0] >= sk.NUM_TYPES  # a chopsticks pick is announced
    legal = [a for a in probe.legal_actions() if (a >= sk.NUM_TYPES) == pair]
    assert set(picks) <= set(legal)
    observed = [picks.get(a, 0) for a in legal]
    assert chi_square_pvalue(observed, [1 / len(legal)] * len(legal)) > 1e-3


def _kernel_with_tables(tables, puddings=None, players=3):
    """A dealt kernel whose tables hold ``tables`` (placed by the rules' ``_place``)."""
    k = sg.SushiGoKernel(players)
    k.s[sk.TO_DEAL] = 0
    for p, cards in enumerate(tables):
        for c in cards:
            sk._place(k.s, p, c)
    if puddings is not None:
        k.s[sk.PUDDINGS : sk.PUDDINGS + players] = puddings
    return k


def _set_scores(k, scores):
    k.s[sk.SCORE : sk.SCORE + len(scores)] = scores


def test_round_scoring():
    T, S, D, M1, M2, M3, SA, SQ, E, P, W, C = range(12)
    k = _kernel_with_tables(
        [
            [T, T, T, S, S, S, W, SQ, E],  # 5 + 10 + 9 + 1 = 25, maki 0
            [D, D, D, M3, M2, W, W, E],  # 6 + 3 + maki 5 -> first: 6
            [M3, SA, W, M1, D],  # 2 + 1 + maki 4 -> second: 3
        ]
    )
    sk._score_round(k.s)
    assert k.score == [25, 15, 6]


def test_maki_tie_for_first_gives_no_second():
    M1, M2, M3 = sk.MAKI1, sk.MAKI2, sk.MAKI3
    k = _kernel_with_tables([[M3], [M2, M1], [M1]])
    sk._score_round(k.s)
    assert k.score == [3, 3, 0]


def test_pudding_scoring_and_tie_break():
    k = _kernel_with_tables([[], [], []], puddings=[3, 1, 1])
    k.s[sk.ROUND] = 2
    _set_scores(k, [10, 14, 14])
    sk._score_round(k.s)
    assert k.is_terminal()
    assert k.score == [16, 11, 11]
    assert k.returns() == [1.0, 0.0, 0.0]
    k2 = _kernel_with_tables([[], []], puddings=[2, 0], players=2)
    k2.s[sk.ROUND] = 2
    _set_scores(k2, [5, 11])
    sk._score_round(k2.s)
    assert k2.score == [11, 11]  # no pudding penalty with two players
    assert k2.returns() == [1.0, 0.0]  # tie on points broken by puddings


def test_chopsticks_pair_returns_chopsticks_to_hand():
    k = sg.SushiGoKernel(2)
    k.s[sk.TO_DEAL] = 0
    k.s[sk.TABLE + sk.T_CHOP] = 1
    for card in (sk.WASABI, sk.SQUID, sk.EGG):
        k.s[sk.HANDS + card] = 1
    k.s[sk.HANDS + sk.NUM_TYPES + sk.TEMPURA] = 3
    action = sk.pair_action(sk.WASABI, sk.SQUID)
    assert action in k.legal_actions()
    assert sk.pair_action(sk.SQUID, sk.EGG) in k.legal_actions()
    assert sk.pair_action(sk.EGG, sk.SQUID) not in k.legal_actions()
    k.apply(action)
    k.apply(sk.TEMPURA)
    assert k.table[0][sk.T_NIGIRI] == 9 and k.table[0][sk.T_CHOP] == 0
    # Hands passed: player 1 now holds player 0's egg plus the returned chopsticks.
    assert k.hands[1][sk.CHOPSTICKS] == 1 and k.hands[1][sk.EGG] == 1


def test_resample_at_every_decision():
    check_resample_along_games(pyspiel.load_game("sushi_go(players=4)"), seed=7, games=3)


@pytest.mark.parametrize("players,picks", [(3, 1), (4, 4 + 2), (2, 2 * 10 + 3)])
def test_world_history_rebuilds_the_world(players, picks):
    """A world's history deals its hands and makes its hidden picks (it used to keep the real
    draws while the kernel held other cards)."""
    state = _dealt_state(players, seed=8, picks=picks)
    game = state.get_game()
    player = state.current_player()
    rng = np.random.default_rng(9)
    changed = 0
    for _ in range(20):
        world = sg.sample_world(state, player, rng)
        rebuilt = game.new_initial_state()
        for action in world.history():
            rebuilt.apply_action(action)
        assert str(rebuilt) == str(world) and rebuilt.kernel.deck == world.kernel.deck
        assert all(
            rebuilt.information_state_string(p) == world.information_state_string(p) for p in range(players)
        )
        assert world.information_state_string(player) == state.information_state_string(player)
        changed += str(world) != str(state)
    assert changed
