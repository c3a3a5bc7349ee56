"""TAG heuristics for our games (pimcts_aggregation): definitions on hand-made states."""

import numpy as np
import pyspiel
import pytest

import infosets.games  # noqa: F401
from infosets.games import heuristics as h


def test_leader_pure_and_ordinal_definitions():
    assert h.leader([10, 4, 7], scale=6) == pytest.approx([0.75, 0.0, 0.25])
    assert h.pure_score([30, 60, 90], scale=60) == pytest.approx([0.5, 1.0, 1.0])
    # ties share the better place (TAG getOrdinalPosition): two alive players, one out
    assert h.ordinal_position([1, 1, 0]) == pytest.approx([1.0, 1.0, 0.0])
    assert h.win_plus([500.0, 2000.0, -3.0]) == pytest.approx([0.5, 0.9, 0.0])


def _random_state(name, moves, seed):
    game = pyspiel.load_game(name)
    state = game.new_initial_state()
    rng = np.random.default_rng(seed)
    for _ in range(moves):
        if state.is_terminal():
            break
        if state.is_chance_node():
            acts, probs = zip(*state.chance_outcomes())
            state.apply_action(acts[rng.choice(len(acts), p=np.array(probs) / sum(probs))])
        else:
            la = state.legal_actions()
            state.apply_action(la[rng.integers(len(la))])
    return state


@pytest.mark.parametrize("name", ["sushi_go(players=3)", "love_letter(players=3)",
                                  "exploding_kittens(players=3)", "virus(players=3)",
                                  "dominion(players=3)", "stratego", "hearts", "tic_tac_toe"])
def test_every_paper_game_has_a_heuristic_in_unit_range(name):
    for moves in (0, 30, 10_000):
        state = _random_state(name, moves, seed=moves)
        values = h.heuristic(state)
        assert len(values) == state.get_game().num_players()
        assert all(0.0 <= v <= 1.0 for v in values)
        if state.is_terminal():
            lo, hi = state.get_game().min_utility(), state.get_game().max_utility()
            assert values == pytest.approx([(r - lo) / (hi - lo) for r in state.returns()])


def test_sushi_go_leader_reads_the_points():
    state = _random_state("sushi_go(players=3)", 60, seed=1)
    scores = state.kernel.scores()
    expect = h.leader(scores, h.SCALES["sushi_go"])
    assert h.heuristic(state) == pytest.approx(expect)
    assert h.heuristic(state.kernel) == h.heuristic(state)        # kernels score the same


def test_hearts_reads_penalty_points():
    state = _random_state("hearts", 120, seed=2)
    pts = h.hearts_scores(state)
    assert all(p <= 0 for p in pts) and min(pts) < 0


def test_stratego_material_is_antisymmetric():
    state = _random_state("stratego", 200, seed=3)
    a, b = h.stratego_material(state.kernel)
    assert a == pytest.approx(-b)


def test_unknown_game_is_rejected():
    with pytest.raises(ValueError, match="^game"):
        h.heuristic_for(pyspiel.load_game("kuhn_poker"))


@pytest.mark.parametrize("name", ["poker_tag", "colt_express", "monopoly_deal", "seven_wonders"])
def test_newer_ports_have_their_tag_heuristic_on_states_and_kernels(name):
    """Regression: the tuned Python engine crashed on these ports (no heuristic for their kernels)."""
    import numpy as np
    import pyspiel

    from infosets.games import heuristics

    game = pyspiel.load_game(name, {"players": 3})
    state, rng = game.new_initial_state(), np.random.default_rng(3)
    for _ in range(40):
        if state.is_terminal():
            break
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    for target in (state, state.kernel):
        values = heuristics.heuristic(target)
        assert len(values) == 3 and all(0.0 <= v <= 1.0 for v in values)
    assert heuristics.heuristic_for(game) is heuristics.heuristic
