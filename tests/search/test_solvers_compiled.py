"""The compiled trick-game search (``search.trick_solver_nb``) returns exactly the Python
reference's values (``solvers._KernelSearch``), position by position and over whole PIMC games.

Solver: the PIMC evaluator of Arjonilla, Saffidine and Cazenave (2024; docs/papers/
belief_mixtures.md), Algorithm 1, on "CG nC" (``games/trick_game/array_rules.py``).
"""

import numpy as np
import pyspiel
import pytest

import infosets.games  # noqa: F401  (registers trick_game)
from infosets.games.trick_game import array_rules as K
from infosets.search import solvers
from infosets.search.pimc import PIMCBot


def random_position(num_cards, hand_size, rng, max_plays):
    """A fresh random deal followed by up to ``max_plays`` random legal cards (mid-trick
    positions included); never terminal."""
    cards = rng.permutation(num_cards)
    hands = (
        sum(1 << int(c) for c in cards[:hand_size]),
        sum(1 << int(c) for c in cards[hand_size : 2 * hand_size]),
    )
    state = K.from_deal(num_cards, hand_size, hands)
    for _ in range(int(rng.integers(0, max_plays + 1))):
        legal = state.legal_actions()
        child = state.child(int(rng.choice(legal)))
        if child.is_terminal():
            break
        state = child
    return state


@pytest.mark.parametrize(
    "num_cards, hand_size, count, max_plays",
    [(10, 3, 1500, 5), (10, 5, 1500, 9), (20, 6, 800, 11), (20, 10, 150, 19), (52, 13, 40, 26)],
)
def test_compiled_equals_python_reference(num_cards, hand_size, count, max_plays):
    rng = np.random.default_rng(num_cards * 100 + hand_size)
    compiled = solvers.PerfectInfoSolver()
    reference = solvers.PerfectInfoSolver(compiled_kernel=False)
    no_twins = solvers.PerfectInfoSolver(card_equivalence=False)
    no_twins_reference = solvers.PerfectInfoSolver(card_equivalence=False, compiled_kernel=False)
    for i in range(count):
        min_plays = 24 if num_cards == 52 else 0  # the Python search needs a short 52C endgame
        state = random_position(num_cards, hand_size, rng, max_plays)
        while len(state.plays) < min_plays:
            state = random_position(num_cards, hand_size, rng, max_plays)
        for player in (0, 1):
            values = compiled.action_values(state, player)
            assert values == reference.action_values(state, player)
            assert all(type(v) is float for v in values.values())
        assert compiled.solve(state, 1) == reference.solve(state, 1)
        if i % 4 == 0 and num_cards <= 20:
            assert no_twins.action_values(state, 0) == no_twins_reference.action_values(state, 0)


@pytest.mark.parametrize("slots", [1, 64])
def test_tiny_compiled_table_keeps_exact_values(slots):
    """Collisions overwrite entries of a small table; the values stay the reference's."""
    rng = np.random.default_rng(11)
    small = solvers.PerfectInfoSolver(kernel_table_slots=slots)
    for _ in range(200):
        state = random_position(16, 6, rng, 11)
        assert small.action_values(state, 0) == solvers.PerfectInfoSolver(
            compiled_kernel=False
        ).action_values(state, 0)


def test_compiled_search_visits_the_reference_nodes():
    """Fresh tables large enough to keep every entry, same move ordering and cutoffs: the
    same nodes are visited."""
    rng = np.random.default_rng(12)
    for _ in range(20):
        state = random_position(20, 8, rng, 0)
        compiled = solvers.PerfectInfoSolver(kernel_table_slots=1 << 20)
        reference = solvers.PerfectInfoSolver(compiled_kernel=False)
        compiled.action_values(state, 0)
        reference.action_values(state, 0)
        assert compiled.nodes == reference.nodes > 0


def test_clear_empties_the_compiled_table():
    state = random_position(20, 8, np.random.default_rng(13), 0)
    solver = solvers.PerfectInfoSolver()
    first = solver.action_values(state, 0)
    before = solver.nodes
    solver.action_values(state, 0)
    reused = solver.nodes - before
    solver.clear()
    before = solver.nodes
    assert solver.action_values(state, 0) == first
    assert solver.nodes - before > reused


@pytest.mark.parametrize(
    "game_string, seed",
    [
        ("trick_game(num_cards=10,hand_size=5)", 0),
        ("trick_game(num_cards=20,hand_size=6)", 1),
        ("trick_game(num_cards=20,hand_size=10)", 2),
    ],
)
def test_pimc_games_play_the_same_moves(game_string, seed):
    game = pyspiel.load_game(game_string)

    def play(compiled):
        bots = [
            PIMCBot(
                game,
                p,
                lam,
                rng=np.random.default_rng([seed, p]),
                num_worlds=40,
                evaluator=solvers.PerfectInfoSolver(compiled_kernel=compiled).action_values,
            )
            for p, lam in ((0, 1.0), (1, 0.0))
        ]
        deal = np.random.default_rng(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(int(deal.choice(actions, p=probs)))
            else:
                state.apply_action(bots[state.current_player()].step(state))
        return state.history(), state.returns()

    assert play(True) == play(False)
