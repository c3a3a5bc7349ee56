"""Tests of the Virus! port (lib/infosets/games/virus.py)."""

import numpy as np
import pyspiel
import pytest

import infosets.games  # noqa: F401
from infosets.games import _tabletop as tt
from infosets.games import virus as vi
from tabletop_checks import (
    check_adapter_agrees_with_kernel,
    check_errors,
    check_kernel_is_a_search_state,
    check_resample_along_games,
    check_resample_keeps_infostate,
    chi_square_pvalue,
    play_to_decision,
)

R, G, B, Y, W = range(5)


@pytest.mark.parametrize("players", [2, 3, 6])
def test_random_sim(players):
    game = pyspiel.load_game(f"virus(players={players})")
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_adapter_agrees_with_kernel():
    check_adapter_agrees_with_kernel(pyspiel.load_game("virus"), seed=1, games=3)


@pytest.mark.parametrize("players", [3, 5])
def test_resample_keeps_infostate(players):
    check_resample_keeps_infostate(pyspiel.load_game(f"virus(players={players})"), seed=2,
                                   states=15)


def test_errors():
    check_errors("virus", bad_players=[1, 7])


def _kernel(hands, bodies=None, n=3):
    k = vi.VirusKernel(n)
    k.to_draw = [0] * n
    k.hands = [sorted(h) for h in hands]
    k.hand_epochs = [[0] * len(h) for h in hands]
    if bodies:
        for p, body in bodies.items():
            for slot, organ in body.items():
                k.bodies[p][slot] = organ
    for h in hands:
        for c in h:
            k.pool[c] -= 1
    return k


def test_virus_vaccine_and_destruction():
    k = _kernel([[vi.VIRUS + R, vi.VIRUS + W, vi.ORGAN + G], [], []],
                {1: {R: (vi.MEDICINE + R,), B: (vi.VIRUS + B,), Y: ()}})
    legal = k.legal_actions()
    red_on_red = vi.A_VIRUS + (R * vi.MAX_PLAYERS + 1) * vi.NUM_SLOTS + R
    red_on_blue = vi.A_VIRUS + (R * vi.MAX_PLAYERS + 1) * vi.NUM_SLOTS + B
    wild_on_blue = vi.A_VIRUS + (W * vi.MAX_PLAYERS + 1) * vi.NUM_SLOTS + B
    assert red_on_red in legal and red_on_blue not in legal and wild_on_blue in legal
    k.apply(red_on_red)                       # removes the vaccine
    assert k.bodies[1][R] == () and k.discard[vi.MEDICINE + R] == 1
    assert k.to_draw[0] == 1 and k.cur == 1
    k.to_draw[0] = 0
    k.cur = 0
    k.apply(wild_on_blue)                     # second virus destroys the organ
    assert k.bodies[1][B] is None and k.discard[vi.ORGAN + B] == 1


def test_medicine_cures_vaccinates_and_immunises():
    k = _kernel([[vi.MEDICINE + W, vi.MEDICINE + G, vi.MEDICINE + G], [], []],
                {0: {G: (vi.VIRUS + G,)}})
    cure = vi.A_MEDICINE + G * vi.NUM_SLOTS + G
    k.apply(cure)
    assert k.bodies[0][G] == ()
    for action in (cure, vi.A_MEDICINE + W * vi.NUM_SLOTS + G):
        k.cur, k.to_draw = 0, [0, 0, 0]
        k.apply(action)
    assert vi._immunised(k.bodies[0][G])
    k.hands[1], k.hand_epochs[1] = [vi.VIRUS + G], [0]
    k.cur, k.to_draw = 1, [0, 0, 0]
    assert all(a >= vi.A_DISCARD for a in k.legal_actions())   # immunised: no target


def test_four_healthy_organs_win():
    k = _kernel([[vi.ORGAN + Y], [], []],
                {0: {R: (), G: (vi.MEDICINE + G,), B: ()}, 1: {R: (vi.VIRUS + R,)}})
    k.apply(vi.A_ORGAN + Y)
    assert k.is_terminal() and k.returns() == [1.0, 0.0, 0.0]


def test_transplant_thief_error_and_glove():
    k = _kernel([[vi.TRANSPLANT, vi.THIEF, vi.GLOVE], [vi.ORGAN + R], []],
                {0: {R: ()}, 1: {G: (vi.VIRUS + G,), B: (vi.MEDICINE + B, vi.MEDICINE + W)}})
    legal = k.legal_actions()
    assert vi._triple(vi.A_TRANSPLANT, R, 1, B) not in legal    # their blue is immunised
    assert vi.A_THIEF + 1 * vi.NUM_SLOTS + G in legal
    assert vi.A_THIEF + 1 * vi.NUM_SLOTS + B not in legal
    k.apply(vi._triple(vi.A_TRANSPLANT, R, 1, G))
    assert k.bodies[0][G] == (vi.VIRUS + G,) and k.bodies[1][R] == ()
    assert k.bodies[0][R] is None and k.bodies[1][G] is None
    k.cur, k.to_draw = 0, [0, 0, 0]
    k.apply(vi.A_GLOVE)
    k.to_draw = [0, 0, 0]
    assert k.hands[1] == [] and k.legal_actions() == [vi.A_NEW_HAND]  # player 1's turn
    k.apply(vi.A_NEW_HAND)
    assert k.to_draw[1] == vi.HAND


def test_hidden_hands_uniform():
    game = pyspiel.load_game("virus")
    state = play_to_decision(game, np.random.default_rng(3), 0)
    player = state.current_player()
    unseen = np.array(vi.DECK_COUNTS, dtype=float)
    for c in state.kernel.hands[player]:
        unseen[c] -= 1
    rng = np.random.default_rng(4)
    counts = np.zeros(vi.NUM_TYPES, dtype=int)
    for _ in range(4000):
        hand = vi.sample_world(state, player, rng).kernel.hands[(player + 1) % 3]
        counts[hand[rng.integers(len(hand))]] += 1
    assert chi_square_pvalue(counts, unseen / unseen.sum()) > 1e-3


def test_resample_at_every_decision():
    check_resample_along_games(pyspiel.load_game("virus(players=4)"), seed=7, games=1)


def test_kernel_is_a_search_state():
    check_kernel_is_a_search_state(pyspiel.load_game("virus"), seed=8)


def _state_after_a_reshuffle(game, seed):
    """A decision where another player holds a card drawn before the last reshuffle."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(tt.sample_chance(state.kernel, rng))
            continue
        player = state.current_player()
        context = state.kernel.history_context(game, state.history())
        old = [entry[1] for q, held in enumerate(context["in_hand"]) if q != player
               for entry in held if entry[2] < context["epochs"] - 1]
        if old:
            return state, sorted(old)
        legal = state.legal_actions()
        state.apply_action(legal[rng.integers(len(legal))])
    raise AssertionError("no reshuffle with a card held from before it")


def test_cards_drawn_before_a_reshuffle_come_from_their_pile_and_worlds_replay():
    """The resampler alone dealt every hidden card from all unseen cards, so a card drawn
    before a reshuffle could become a card of the new pile, and the world kept the real
    history. The hidden draws of each pile now share that pile's cards, and each world's
    history rebuilds it."""
    game = pyspiel.load_game("virus(players=3)")
    state, old = _state_after_a_reshuffle(game, seed=4)
    player = state.current_player()
    rng = np.random.default_rng(5)
    for _ in range(30):
        world = vi.sample_world(state, player, rng)
        assert world.information_state_string(player) == state.information_state_string(player)
        context = world.kernel.history_context(game, world.history())
        assert sorted(entry[1] for q, held in enumerate(context["in_hand"]) if q != player
                      for entry in held if entry[2] < context["epochs"] - 1) == old
        rebuilt = game.new_initial_state()
        for action in world.history():
            rebuilt.apply_action(action)
        assert str(rebuilt) == str(world) and rebuilt.kernel.hands == world.kernel.hands
        assert all(rebuilt.information_state_string(p) == world.information_state_string(p)
                   for p in range(3))
