"""Game kernels of the compiled engine (pimcts_aggregation) against their pyspiel adapters:
legal sets, chance outcomes, returns and information state strings on random games, and the
determinizer's consistency and distribution."""

import random
from collections import Counter

import numpy as np
import pyspiel
import pytest
from scipy import stats

import infosets.games  # noqa: F401  (registers trick_game)
from infosets.core.pcg32 import PCG32
from infosets.games.kernels import kernel_for

GAMES = [("leduc_poker", {}), ("liars_dice", {"dice_sides": 6}), ("liars_dice", {"dice_sides": 3}),
         ("trick_game", {}), ("trick_game", {"num_cards": 13, "hand_size": 5})]
HIDDEN_DEAL_GAMES = GAMES[:3]


def _check(game, kernel, real, arr, keys):
    buf, probs = np.zeros(kernel.num_actions, np.int64), np.zeros(kernel.num_actions)
    out = np.zeros(kernel.num_players)
    rules = kernel.rules
    assert rules.nb_current_player(arr) == real.current_player()
    n = rules.nb_legal_actions(arr, buf)
    if real.is_terminal():
        rules.nb_returns(arr, out)
        assert list(out) == real.returns()
        return
    if real.is_chance_node():
        m = rules.nb_chance_outcomes(arr, buf, probs)
        assert [(int(a), p) for a, p in zip(buf[:m], probs[:m])] == real.chance_outcomes()
    else:
        assert list(buf[:n]) == real.legal_actions()
    for p in range(game.num_players()):
        text = real.information_state_string(p)
        assert kernel.infostate_string(arr, p) == text
        key = rules.nb_infostate_key(arr, p)
        assert keys.setdefault((p, key), text) == text  # the key is injective


@pytest.mark.parametrize("name,params", GAMES)
def test_kernel_agrees_with_pyspiel_on_1000_random_games(name, params):
    game = pyspiel.load_game(name, params)
    kernel = kernel_for(game)
    rnd, keys = random.Random(5), {}
    for _ in range(1000):
        real, arr = game.new_initial_state(), kernel.from_history([])
        _check(game, kernel, real, arr, keys)
        while not real.is_terminal():
            action = rnd.choice(real.legal_actions())
            real.apply_action(action)
            kernel.rules.nb_apply_action(arr, action)
            _check(game, kernel, real, arr, keys)
        assert kernel.history(arr) == real.history()
        assert kernel.to_state(game, arr).history() == real.history()


@pytest.mark.parametrize("name,params", HIDDEN_DEAL_GAMES)
def test_determinize_keeps_the_information_state_and_is_uniform(name, params):
    game = pyspiel.load_game(name, params)
    kernel = kernel_for(game)
    rnd, rng = random.Random(1), PCG32(9).to_array()
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(rnd.choice(state.legal_actions()))
    state.apply_action(state.legal_actions()[1])  # player 0 acts: player 1 decides next
    player = state.current_player()
    arr = kernel.from_state(state)
    counts = Counter()
    for _ in range(3000):
        world = arr.copy()
        kernel.rules.nb_determinize(world, player, rng)
        counts[kernel.history(world)[1 - player]] += 1
        assert kernel.infostate_string(world, player) == state.information_state_string(player)
    real = kernel.to_state(game, world)  # replays legally in pyspiel
    assert real.information_state_string(player) == state.information_state_string(player)
    own = state.history()[player]
    allowed = [c for c in range(game.max_chance_outcomes()) if name != "leduc_poker" or c != own]
    assert sorted(counts) == allowed
    assert stats.chisquare([counts[c] for c in allowed]).pvalue > 1e-3


def test_kernels_exist_only_for_supported_parameters():
    assert kernel_for(pyspiel.load_game("leduc_poker")) is not None
    assert kernel_for(pyspiel.load_game("liars_dice", {"numdice": 2})) is None
    assert kernel_for(pyspiel.load_game("kuhn_poker")) is None


def test_trick_game_determinize_is_uniform_over_consistent_worlds_and_respects_voids():
    from infosets.games.trick_game.game import count_consistent_worlds
    game = pyspiel.load_game("trick_game", {"num_cards": 8, "hand_size": 3})
    kernel = kernel_for(game)
    # Clubs are cards 0-1, diamonds 2-3, hearts 4-5, spades 6-7. Player 0 leads the club 0,
    # player 1 discards the diamond 3: void in clubs, so the hidden club 1 is player 0's
    # opponent's only in worlds that break the void.
    hands = (0b00010101, 0b01101000)
    state = game.state_from_deal(hands, [0, 3])
    arr, rng, counts = kernel.from_state(state), PCG32(4).to_array(), Counter()
    for _ in range(4000):
        world = arr.copy()
        kernel.rules.nb_determinize(world, 0, rng)
        assert kernel.infostate_string(world, 0) == state.information_state_string(0)
        real = kernel.to_state(game, world)
        assert real.information_state_string(0) == state.information_state_string(0)
        counts[int(world[3])] += 1  # player 1's dealt hand
    assert all(not (hand & 0b11) for hand in counts)  # never a club: the void holds
    assert len(counts) == count_consistent_worlds(state, 0)
    assert stats.chisquare(list(counts.values())).pvalue > 1e-3
