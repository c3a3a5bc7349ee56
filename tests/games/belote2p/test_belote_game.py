"""The pyspiel adapter ``belote2p`` (on the kernel's rules): OpenSpiel conformance, resampling."""

import numpy as np
import pyspiel
import pytest
from scipy import stats

import infosets.games  # noqa: F401  (registers belote2p)
from infosets.games.belote2p import deal as deal_lib
from infosets.games.belote2p.game import hidden_slots, sample_world


def _dealt_state(game, rng):
    return game.new_state_from_deal(deal_lib.fair_deal(rng, game.constraint), int(rng.integers(2)))


def test_random_sim_test():
    game = pyspiel.load_game("belote2p")
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)


def test_parameters_and_bad_parameters():
    game = pyspiel.load_game("belote2p(min_trumps=3,points_lo=70,points_hi=82)")
    assert game.constraint.min_trumps == 3
    with pytest.raises(Exception, match="min_trumps"):
        pyspiel.load_game("belote2p(min_trumps=9)")


def test_chance_deal_is_fair_and_normalised():
    game = pyspiel.load_game("belote2p")
    rng = np.random.default_rng(1)
    state = game.new_initial_state()
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        actions, probs = zip(*outcomes)
        assert abs(sum(probs) - 1) < 1e-9
        state.apply_action(int(rng.choice(actions, p=probs)))
    assert game.constraint.is_fair(state.deal)
    assert state.current_player() == state.first_leader


def _midgame(game, rng, plies):
    state = _dealt_state(game, rng)
    for _ in range(plies):
        state.apply_action(int(rng.choice(state.legal_actions())))
    return state


def test_resample_keeps_information_state_and_is_seeded():
    game = pyspiel.load_game("belote2p")
    rng = np.random.default_rng(2)
    for plies in (0, 3, 10, 21, 30):
        state = _midgame(game, rng, plies)
        player = state.current_player()
        deals = set()
        for seed in range(5):
            world = state.resample_from_infostate(
                player, pyspiel.UniformProbabilitySampler(seed, 0.0, 1.0))
            assert world.information_state_string(player) == state.information_state_string(
                player)
            assert world.observation_string(player) == state.observation_string(player)
            assert world.legal_actions() == state.legal_actions()
            assert game.constraint.is_fair(world.deal)
            deals.add(tuple(world.deal))
        if plies <= 10:  # many hidden cards: the sampler's seeds must give other worlds
            assert len(deals) > 1, plies
        a = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(9, 0., 1.))
        b = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(9, 0., 1.))
        assert a.deal == b.deal


def test_hidden_part_is_uniform_chi_square():
    """Without a deal constraint, a hidden card is uniform over the slots the history allows:
    each opponent hand slot with probability 1 / |allowed cards|, the piles sharing the rest."""
    game = pyspiel.load_game("belote2p(min_trumps=0,points_lo=0,points_hi=152)")
    rng = np.random.default_rng(4)
    state = _midgame(game, rng, 9)
    player = state.current_player()
    opp = 1 - player
    slots = hidden_slots(state, player)
    n_hand = sum(16 * opp <= s < 16 * opp + 6 for s in slots)
    cards = [state.deal[s] for s in slots]
    excluded = state.kernel.excluded(opp)
    n_allowed = sum(not excluded >> c & 1 for c in cards)
    card = state.deal[slots[0]]  # a card really in the opponent's hand: allowed
    p_hand = 1 / n_allowed
    expected = np.array([p_hand] * n_hand
                        + [(1 - n_hand * p_hand) / (len(slots) - n_hand)] * (len(slots) - n_hand))
    counts = np.zeros(len(slots))
    n = 3000
    for _ in range(n):
        world = sample_world(state, player, rng)
        assert world.information_state_string(player) == state.information_state_string(player)
        counts[[world.deal[s] for s in slots].index(card)] += 1
    assert stats.chisquare(counts, expected * n).pvalue > 1e-3


def test_resample_respects_revealed_voids():
    """Worlds must keep every past reply legal: a player who did not follow suit holds no
    card of that suit (the replay of the history raises otherwise)."""
    game = pyspiel.load_game("belote2p")
    rng = np.random.default_rng(12)
    checked = 0
    for _ in range(60):
        state = _midgame(game, rng, int(rng.integers(4, 28)))
        player = state.current_player()
        excluded = state.kernel.excluded(1 - player)
        for _ in range(5):
            world = sample_world(state, player, rng)
            assert world.kernel.hand[1 - player] & excluded == 0
            assert world.information_state_string(player) == state.information_state_string(
                player)
        checked += excluded != 0
    assert checked >= 10


def test_clone_is_independent():
    game = pyspiel.load_game("belote2p")
    state = _midgame(game, np.random.default_rng(0), 4)
    copy = state.clone()
    copy.apply_action(copy.legal_actions()[0])
    assert len(state.plays) == 4 and len(copy.plays) == 5


def test_an_illegal_card_is_refused_and_changes_nothing():
    """The adapter applies a card only if the kernel's duties allow it (``apply_if_legal``);
    chance outcomes and legal cards go through."""
    game = pyspiel.load_game("belote2p")
    state = _dealt_state(game, np.random.default_rng(3))
    state.apply_action(state.legal_actions()[0])  # a lead: the reply has duties
    legal = state.legal_actions()
    illegal = next(c for c in range(32) if c not in legal)
    before = (state.s.copy(), state.history())
    with pytest.raises(Exception, match="not legal"):
        state.apply_action(illegal)
    assert np.array_equal(state.s, before[0]) and state.history() == before[1]
    state.apply_action(legal[0])
    assert len(state.plays) == 2
