"""The exact perfect-information solver agrees with OpenSpiel's minimax / expectiminimax."""

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import minimax

import infosets.games  # noqa: F401  (registers trick_game)
from infosets.search import solvers

DEPTH = 1000  # expectiminimax depth: deeper than any game here


def expectimax(state, player):
    return minimax.expectiminimax(state, DEPTH, None, player)[0]


def random_world(game, rng, num_moves, stop_at_chance=False):
    """Deals every chance node on the way and makes `num_moves` random decisions."""
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            if stop_at_chance and moves >= num_moves:
                break
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
        elif moves < num_moves:
            state.apply_action(int(rng.choice(state.legal_actions())))
            moves += 1
        else:
            break
    return state


def assert_matches_expectimax(state, solver):
    for player in (0, 1):
        assert solver.solve(state, player) == pytest.approx(expectimax(state, player))
    if state.is_terminal() or state.is_chance_node():
        return
    mover = state.current_player()
    values = solver.action_values(state, mover)
    assert sorted(values) == state.legal_actions()
    for action, value in values.items():
        assert value == pytest.approx(expectimax(state.child(action), mover))


def test_tic_tac_toe_matches_openspiel_alpha_beta():
    game = pyspiel.load_game("tic_tac_toe")
    rng = np.random.default_rng(0)
    for key in ("history", "string"):
        solver = solvers.PerfectInfoSolver(key=key)
        for _ in range(15):
            state = random_world(game, rng, int(rng.integers(2, 6)))
            if state.is_terminal():
                continue
            mover = state.current_player()
            expected, _ = minimax.alpha_beta_search(game, state=state,
                                                    maximizing_player_id=mover)
            assert solver.solve(state, mover) == expected
            values = solver.action_values(state, mover)
            assert max(values.values()) == expected


def test_tic_tac_toe_root_is_a_draw_and_transpositions_merge():
    game = pyspiel.load_game("tic_tac_toe")
    by_history = solvers.PerfectInfoSolver(key="history")
    by_string = solvers.PerfectInfoSolver(key="string")
    state = game.new_initial_state()
    state.apply_action(4)
    assert by_history.solve(state, 0) == by_string.solve(state, 0) == 0.0
    assert by_string.nodes < by_history.nodes


@pytest.mark.parametrize("game_string, max_moves", [
    ("leduc_poker", 4), ("liars_dice(numdice=1,dice_sides=2)", 3),
    ("liars_dice(numdice=1,dice_sides=3)", 3)])
def test_imperfect_information_worlds_match_expectimax(game_string, max_moves):
    game = pyspiel.load_game(game_string)
    rng = np.random.default_rng(1)
    solver = solvers.PerfectInfoSolver()
    for i in range(25):
        state = random_world(game, rng, int(rng.integers(0, max_moves + 1)),
                            stop_at_chance=bool(i % 2))
        assert_matches_expectimax(state, solver)


def test_leduc_world_with_public_card_to_come_is_an_expectation():
    game = pyspiel.load_game("leduc_poker")
    state = game.new_initial_state()
    for action in (0, 5, 1, 1):  # deal J1 and K2; both check: the public card is next
        state.apply_action(action)
    assert state.is_chance_node()
    expected = sum(p * solvers.solve(state.child(a), 0) for a, p in state.chance_outcomes())
    assert solvers.solve(state, 0) == pytest.approx(expected)
    assert solvers.solve(state, 0) == pytest.approx(expectimax(state, 0))


@pytest.mark.parametrize("game_string", ["trick_game", "trick_game(num_cards=12,hand_size=4)"])
def test_trick_game_kernel_matches_expectimax(game_string):
    game = pyspiel.load_game(game_string)
    rng = np.random.default_rng(2)
    kernel = solvers.PerfectInfoSolver()
    plain = solvers.PerfectInfoSolver(card_equivalence=False)
    generic = solvers.PerfectInfoSolver(use_trick_kernel=False)
    for _ in range(20):
        state = random_world(game, rng, int(rng.integers(0, 4)))
        for solver in (kernel, plain, generic):
            assert_matches_expectimax(state, solver)


def test_trick_game_kernel_matches_generic_on_larger_deals():
    game = pyspiel.load_game("trick_game(num_cards=20)")
    rng = np.random.default_rng(3)
    fast = solvers.PerfectInfoSolver()
    for _ in range(8):
        state = random_world(game, rng, int(rng.integers(2, 5)))
        slow = solvers.PerfectInfoSolver(use_trick_kernel=False)
        assert fast.action_values(state, 1) == slow.action_values(state, 1)


def test_trick_game_chance_left_uses_generic_expectation():
    game = pyspiel.load_game("trick_game(num_cards=6,hand_size=2)")
    state = game.new_initial_state()
    for card in (0, 3, 1):  # p1's second card is still to come
        state.apply_action(card)
    assert solvers.solve(state, 0) == pytest.approx(expectimax(state, 0))


def test_known_trick_position():
    game = pyspiel.load_game("trick_game")  # C: 0-2, D: 3-5, H: 6-7, S: 8-9
    # p0: CA DA HA (three top cards); p1: CK DK HK. p0 leads and wins every trick.
    state = game.state_from_deal((0b0010100100, 0b0001010010))
    assert solvers.solve(state, 0) == 1.0
    assert solvers.action_values(state, 0) == {2: 1.0, 5: 1.0, 7: 1.0}
    # p0: CQ CK SK; p1: CA DQ SA: p1 tops every suit p0 holds, so p0 loses whatever it leads.
    state = game.state_from_deal((0b0100000011, 0b1000001100))
    assert solvers.action_values(state, 0) == {0: -1.0, 1: -1.0, 8: -1.0}


def test_bare_kernel_state_gives_the_same_values():
    game = pyspiel.load_game("trick_game(num_cards=20)")
    rng = np.random.default_rng(5)
    for _ in range(5):
        state = random_world(game, rng, int(rng.integers(0, 3)))
        mover = state.current_player()
        assert solvers.action_values(state.kernel, mover) == \
            solvers.action_values(state, mover)
        assert solvers.solve(state.kernel, 1) == solvers.solve(state, 1)
    with pytest.raises(ValueError, match="state"):
        solvers.solve(game.new_initial_state().kernel, 0)


@pytest.mark.parametrize("max_table_size", [1_000_000, 50])
def test_reused_table_gives_fresh_values(max_table_size):
    game = pyspiel.load_game("trick_game(num_cards=16,hand_size=5)")
    rng = np.random.default_rng(4)
    shared = solvers.PerfectInfoSolver(max_table_size=max_table_size)
    for _ in range(30):
        state = random_world(game, rng, int(rng.integers(0, 6)))
        assert shared.action_values(state, 0) == solvers.action_values(state, 0)
        assert shared.solve(state, 1) == solvers.solve(state, 1)


def test_bad_input_raises_one_line():
    leduc = pyspiel.load_game("leduc_poker").new_initial_state()
    cases = [
        (lambda: solvers.solve(leduc, 2), "player"),
        (lambda: solvers.action_values(leduc, 0), "state"),
        (lambda: solvers.solve(pyspiel.load_game("kuhn_poker(players=3)").new_initial_state(),
                               0), "state"),
        (lambda: solvers.solve(pyspiel.load_game("matrix_rps").new_initial_state(), 0),
         "state"),
        (lambda: solvers.PerfectInfoSolver(key="tostring"), "key"),
        (lambda: solvers.PerfectInfoSolver(max_table_size=0), "max_table_size"),
    ]
    for call, name in cases:
        with pytest.raises(ValueError, match=name) as info:
            call()
        assert "\n" not in str(info.value)
