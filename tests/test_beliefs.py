"""Tests for infosets.beliefs (Arjonilla et al. 2024, §3; docs/papers/belief_mixtures.md)."""
import numpy as np
import pyspiel
import pytest
from scipy import stats

import infosets.games  # noqa: F401  (registers trick_game)
from infosets import beliefs

LD2 = "liars_dice(numdice=1,dice_sides=2)"


def _model(name):
    return beliefs.world_model(pyspiel.load_game(name))


def test_section_3_3_example_exact():
    model = _model(LD2)
    state = model.state_of([0, 1])            # w2 = {P1: 1; P2: 2}
    ws, p = model.mixture_belief(state, 0, 0.5)
    probs = dict(zip(ws.histories, p))
    assert probs[(0, 0)] == pytest.approx(0.375, abs=1e-15)   # w1
    assert probs[(0, 1)] == pytest.approx(0.375, abs=1e-15)   # w2
    assert probs[(1, 1)] == pytest.approx(0.125, abs=1e-15)   # w3
    assert probs[(1, 0)] == pytest.approx(0.125, abs=1e-15)   # w4
    assert model.own_infostate_marginal(state, 0, 0.5) == pytest.approx({(0,): 0.75, (1,): 0.25})
    opp = {}
    for k, w in zip(ws.own_keys[1], p):
        opp[k] = opp.get(k, 0) + w
    assert opp == pytest.approx({(0,): 0.5, (1,): 0.5})


def test_private_and_public_extremes():
    model = _model(LD2)
    state = model.state_of([1, 0])
    ws, priv = model.private_belief(state, 1)      # player 2 holds face 1
    assert {h for h, q in zip(ws.histories, priv) if q > 0} == {(0, 0), (1, 0)}
    assert model.mixture_belief(state, 1, 0.0)[1] == pytest.approx(priv)
    assert model.mixture_belief(state, 1, 1.0)[1] == pytest.approx(np.full(4, 0.25))


def test_leduc_worlds_respect_the_board_card():
    game = pyspiel.load_game("leduc_poker")
    model = beliefs.world_model(game)
    assert model.slots == {0: 0, 1: 1}
    state = model.state_of([0, 3, 1, 1, 5])        # board card 5 is public
    ws, p = model.public_belief(state)
    assert len(ws.histories) == 20                  # ordered pairs from the 5 other cards
    assert all(5 not in h[:2] for h in ws.histories)
    assert p == pytest.approx(np.full(20, 1 / 20))
    _, priv = model.private_belief(state, 0)
    assert int((priv > 0).sum()) == 4


def test_mixture_sampler_matches_distribution_chi_square():
    model = _model("liars_dice(numdice=1,dice_sides=3)")
    state = model.state_of([2, 0, 1])               # one bid made
    ws, p = model.mixture_belief(state, 1, 0.3)
    rng = np.random.default_rng(7)
    index = {h: k for k, h in enumerate(ws.histories)}
    counts = np.zeros(len(p))
    for _ in range(6000):
        w = model.sample(state, 1, 0.3, rng)
        assert w.history()[2:] == state.history()[2:]      # public part kept
        counts[index[tuple(w.history())]] += 1
    assert stats.chisquare(counts, 6000 * p).pvalue > 1e-3


def test_private_sampler_keeps_infostate():
    game = pyspiel.load_game("leduc_poker")
    sampler = beliefs.belief_sampler(game, 0.0)
    model = beliefs.world_model(game)
    state = model.state_of([4, 1, 2])
    rng = np.random.default_rng(1)
    for _ in range(50):
        w = sampler(state, 1, rng)
        assert w.information_state_string(1) == state.information_state_string(1)


def test_trick_game_sampler_private_and_public():
    game = pyspiel.load_game("trick_game(num_cards=10)")
    rng = np.random.default_rng(3)
    state = game.new_initial_state()
    while state.is_chance_node():
        outcomes = [a for a, _ in state.chance_outcomes()]
        state.apply_action(int(rng.choice(outcomes)))
    state.apply_action(state.legal_actions()[0])
    private = beliefs.belief_sampler(game, 0.0)
    public = beliefs.belief_sampler(game, 1.0)
    player = state.current_player()
    other_hands = 0
    for _ in range(40):
        assert private(state, player, rng).information_state_string(player) == \
            state.information_state_string(player)
        w = public(state, player, rng)
        other_hands += w.information_state_string(player) != state.information_state_string(player)
    assert other_hands > 0


def test_schedules():
    model = _model(LD2)
    root = model.state_of([0, 1])
    later = model.state_of([0, 1, 0, 2])
    sched = beliefs.LambdaSchedule.first_later(0.2, 0.9)
    assert sched(root, 0) == 0.2 and sched(later, 0) == 0.9
    assert beliefs.LambdaSchedule.constant(0.4)(later, 0) == 0.4
    with pytest.raises(ValueError, match="lambda_schedule"):
        beliefs.LambdaSchedule([0.1])(later, 0)


@pytest.mark.parametrize("lam", [-0.1, 1.5, float("nan")])
def test_bad_lambda(lam):
    model = _model(LD2)
    with pytest.raises(ValueError, match="lam"):
        model.mixture_belief(model.state_of([0, 1]), 0, lam)
    with pytest.raises(ValueError, match="lambda_schedule"):
        beliefs.LambdaSchedule.constant(lam)


def test_unsupported_game():
    with pytest.raises(ValueError, match="game must be one of"):
        beliefs.world_model(pyspiel.load_game("kuhn_poker"))
    with pytest.raises(ValueError, match="numdice"):
        beliefs.WorldModel(pyspiel.load_game("liars_dice(numdice=2,dice_sides=2)"))


def test_trick_game_counts_match_the_uniform_belief_chi_square():
    game = pyspiel.load_game("trick_game(num_cards=10)")
    model = beliefs.world_model(game)
    rng = np.random.default_rng(9)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(int(rng.choice([a for a, _ in state.chance_outcomes()])))
    state.apply_action(state.legal_actions()[0])
    player = state.current_player()
    from infosets.games.trick_game import game as trick_game
    worlds = [tuple(w.history()) for w, _ in trick_game.consistent_worlds(state, player)]
    counts = dict.fromkeys(worlds, 0)
    for w, c in model.sample_counts(state, player, 0.0, 3000, rng):
        assert w.information_state_string(player) == state.information_state_string(player)
        counts[tuple(w.history())] += c
    assert sum(counts.values()) == 3000
    assert stats.chisquare(list(counts.values())).pvalue > 1e-3
    mixed = model.sample_counts(state, player, 0.5, 400, rng)
    assert sum(c for _, c in mixed) == 400
    assert any(w.information_state_string(player) != state.information_state_string(player)
               for w, _ in mixed)
