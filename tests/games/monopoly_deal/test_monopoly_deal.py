"""Tests of the Monopoly Deal port (lib/infosets/games/monopoly_deal/game.py)."""

import math
from collections import Counter

import numpy as np
import pyspiel
import pytest

import infosets.games  # noqa: F401
from infosets.games import _tabletop as tt
from infosets.games import determinizers
from infosets.games.monopoly_deal import game as md
from infosets.games.monopoly_deal import kernel as mk
from tabletop_checks import (
    check_adapter_agrees_with_kernel,
    check_errors,
    check_kernel_is_a_search_state,
    check_resample_along_games,
    check_resample_keeps_infostate,
    chi_square_pvalue,
)


@pytest.mark.parametrize("players", [2, 3])
def test_random_sim_with_tensors(players):
    game = pyspiel.load_game(f"monopoly_deal(players={players},max_turns=40)")
    assert game.get_type().provides_observation_tensor
    assert game.get_type().provides_information_state_tensor
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_adapter_agrees_with_kernel():
    check_adapter_agrees_with_kernel(pyspiel.load_game("monopoly_deal"), seed=1, games=3)


def test_resample_keeps_infostate():
    check_resample_keeps_infostate(pyspiel.load_game("monopoly_deal"), seed=2, states=8)


def test_resample_at_every_decision():
    check_resample_along_games(pyspiel.load_game("monopoly_deal(max_turns=10)"), seed=3, games=1)


def test_errors():
    check_errors("monopoly_deal", bad_players=[1, 6])
    with pytest.raises(ValueError, match="max_turns"):
        pyspiel.load_game("monopoly_deal(max_turns=0)")


def test_kernel_is_a_search_state():
    check_kernel_is_a_search_state(pyspiel.load_game("monopoly_deal"), seed=4)


def test_sampler_for_finds_the_replay_sampler():
    game = pyspiel.load_game("monopoly_deal")
    assert determinizers.sampler_for(game) is md.sample_world


def _random_state(game, rng, moves):
    state = game.new_initial_state()
    while not state.is_terminal() and (state.is_chance_node() or moves > 0):
        if state.is_chance_node():
            state.apply_action(tt.sample_chance(state.kernel, rng))
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.integers(len(legal))])
            moves -= 1
    return state


def test_world_rebuilds_from_its_history():
    game = pyspiel.load_game("monopoly_deal")
    rng = np.random.default_rng(5)
    for moves in (0, 6, 20, 45):
        state = _random_state(game, rng, moves)
        for player in range(3):
            world = state.resample_from_infostate(
                player, pyspiel.UniformProbabilitySampler(moves + player, 0.0, 1.0)
            )
            rebuilt = game.new_initial_state()
            for action in world.history():
                rebuilt.apply_action(action)
            assert str(rebuilt) == str(world)
            assert world.information_state_string(player) == state.information_state_string(player)


def test_opponent_hand_is_uniform_over_unseen_cards():
    """Player 1's view of player 0's 7 cards: exact multivariate hypergeometric law."""
    game = pyspiel.load_game("monopoly_deal")
    state = _random_state(game, np.random.default_rng(6), 0)  # dealt; player 0 to play
    k = state.kernel
    assert state.current_player() == 0 and sum(k.hand[0]) == 7
    unseen = [mk.DECK_COUNTS[t] - k.hand[1][t] for t in range(mk.NUM_TYPES)]
    classes = [
        [mk.PASS_GO],
        list(range(mk.M1 + 1)),
        [t for t in range(mk.NUM_TYPES) if t != mk.PASS_GO and t > mk.M1],
    ]
    sizes = [sum(unseen[t] for t in c) for c in classes]
    total = sum(sizes)
    law = {}
    for a in range(8):
        for b in range(8 - a):
            c = 7 - a - b
            law[(a, b)] = (
                math.comb(sizes[0], a) * math.comb(sizes[1], b) * math.comb(sizes[2], c) / math.comb(total, 7)
            )
    rng = np.random.default_rng(7)
    counts = Counter()
    for _ in range(2000):
        hand = md.sample_world(state, 1, rng).kernel.hand[0]
        counts[(sum(hand[t] for t in classes[0]), sum(hand[t] for t in classes[1]))] += 1
    keys = sorted(law)
    assert chi_square_pvalue([counts[key] for key in keys], [law[key] for key in keys]) > 1e-3


def test_tensors_do_not_leak():
    game = pyspiel.load_game("monopoly_deal")
    rng = np.random.default_rng(9)
    differs = 0
    phases = set()
    for moves in (0, 5, 12, 25, 40, 60):
        state = _random_state(game, rng, moves)
        if state.is_terminal():
            continue
        phases.add(state.kernel.phase)
        for player in range(3):
            obs = state.observation_tensor(player)
            info = state.information_state_tensor(player)
            for _ in range(4):
                world = md.sample_world(state, player, rng)
                assert world.observation_tensor(player) == obs
                assert world.information_state_tensor(player) == info
                other = (player + 1) % 3
                differs += world.observation_tensor(other) != state.observation_tensor(other)
    assert differs > 0
    assert mk.PLAY in phases


def _kernel(hands, n=3):
    """Player 0 to play with the given hands (card -> count); the deck holds the rest (the
    array written directly: cards in hand not drawn by any history step)."""
    k = md.MonopolyDealKernel(n, 100)
    s = k.s
    s[mk.NTD] = 0
    s[mk.TD : mk.TD + mk.MAXP + 1] = 0
    for p, h in enumerate(hands):
        base = mk.PL + mk.PS * p
        for card, c in h.items():
            s[base + mk.O_HAND + card] += c
            s[mk.DECK + card] -= c
            s[mk.DECKN] -= c
            for _ in range(c):
                m = s[base + mk.O_NLIVE]
                s[base + mk.O_LIVE + m], s[base + mk.O_LIDX + m] = card, -1
                s[base + mk.O_NLIVE] = m + 1
    return k


def _lay(k, p, colour, count, kind=0):
    k.s[mk.PL + mk.PS * p + mk.O_PROPS + colour * mk.NUM_KINDS + kind] += count


def _bank(k, p, card, count=1):
    k.s[mk.PL + mk.PS * p + mk.O_BANK + card] += count


def test_rent_is_paid_card_by_card_and_property_keeps_its_colour():
    k = _kernel([{mk.RENT_RY: 1}, {}, {}])
    _lay(k, 0, mk.RED, 3)
    _bank(k, 1, mk.M5, 1)
    _bank(k, 2, mk.M1, 1)
    _lay(k, 2, mk.PINK, 1)
    k.apply(mk.A_RENT + mk.RED)  # red complete set: 6 from everyone
    assert k.current_player() == 1 and k.legal_actions() == [mk.A_ACCEPT]
    k.apply(mk.A_ACCEPT)
    k.apply(mk.A_PAY_BANK + mk.M5)
    assert k.debt == 0 and k.current_player() == 2  # 5 is all player 1 has
    k.apply(mk.A_ACCEPT)
    k.apply(mk.A_PAY_BANK + mk.M1)
    k.apply(mk.A_PAY_PROP + mk.PINK * mk.NUM_KINDS)
    assert k.count(0, mk.PINK) == 1 and k.bank[0][mk.M5] == 1
    assert k.current_player() == 0 and k.plays_left == 2


def test_just_say_no_chain():
    k = _kernel([{mk.DEBT: 1, mk.JSN: 1}, {mk.JSN: 1}, {}])
    _bank(k, 1, mk.M5, 1)
    k.apply(mk.A_DEBT + 1)
    assert k.legal_actions() == [mk.A_JSN, mk.A_ACCEPT]
    k.apply(mk.A_JSN)  # player 1 says no
    assert k.current_player() == 0
    k.apply(mk.A_JSN)  # player 0 says no to the no
    assert k.current_player() == 1 and k.legal_actions() == [mk.A_ACCEPT]
    k.apply(mk.A_ACCEPT)
    assert k.current_player() == 1 and k.phase == mk.PAY
    k.apply(mk.A_PAY_BANK + mk.M5)
    assert k.bank[0][mk.M5] == 1 and k.discard[mk.JSN] == 2


def test_deal_breaker_and_three_sets_win():
    k = _kernel([{mk.BREAKER: 1}, {}, {}])
    _lay(k, 0, mk.BROWN, 2)
    _lay(k, 0, mk.BLUE, 2)
    _lay(k, 1, mk.UTIL, 1)
    _lay(k, 1, mk.UTIL, 1, kind=mk.W_RU - mk.FIRST_WILD + 1)
    assert mk.A_BREAKER + 1 * 10 + mk.UTIL in k.legal_actions()
    assert mk.A_SLY not in k.legal_actions()
    k.apply(mk.A_BREAKER + 1 * 10 + mk.UTIL)
    k.apply(mk.A_ACCEPT)
    assert k.is_terminal() and k.returns() == [1.0, 0.0, 0.0]


def test_house_needs_a_complete_set_and_discard_to_seven():
    k = _kernel([{mk.HOUSE: 1, mk.M1: 8}, {}, {}])
    _lay(k, 0, mk.GREEN, 2)
    assert mk.A_HOUSE + mk.GREEN not in k.legal_actions()
    _lay(k, 0, mk.GREEN, 1)
    k.apply(mk.A_HOUSE + mk.GREEN)
    assert k.rent(0, mk.GREEN) == 7 + 3
    k.apply(mk.A_END_TURN)
    assert k.phase == mk.DISCARD and k.legal_actions() == [mk.A_DISCARD + mk.M1]
    k.apply(mk.A_DISCARD + mk.M1)
    assert k.cur == 1 and k.current_player() == tt.CHANCE


def test_heuristic_is_the_scaled_leader_margin():
    k = _kernel([{}, {}, {}])
    _lay(k, 0, mk.BLUE, 2)  # one set, assets 8
    _bank(k, 1, mk.M10, 1)  # assets 10
    values = md.heuristic(k)
    assert values[0] == pytest.approx(0.5 + 0.5 * (1.08 - 0.10) / 3)
    assert values[1] == pytest.approx(0.5 + 0.5 * (0.10 - 1.08) / 3)
    assert values[2] == pytest.approx(0.5 + 0.5 * (0.0 - 1.08) / 3)


def test_runs_in_openspiel_rl_environment():
    from open_spiel.python import rl_environment

    game = pyspiel.load_game("monopoly_deal(max_turns=20)")
    env = rl_environment.Environment(game, chance_event_sampler=rl_environment.ChanceEventSampler(seed=3))
    step = env.reset()
    rng = np.random.default_rng(0)
    while not step.last():
        player = step.observations["current_player"]
        legal = step.observations["legal_actions"][player]
        step = env.step([legal[rng.integers(len(legal))]])
    assert sum(step.rewards) == pytest.approx(1.0)
