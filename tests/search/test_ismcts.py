"""IS-MCTS: dominant actions, vector backup, availability flag, samplers, the C++ factory."""

import numpy as np
import pyspiel
import pytest

import infosets.games  # noqa: F401
from infosets.search.ismcts import ISMCTSBot, make_cpp_ismcts_bot

PASS, BET = 0, 1


def kuhn_after_bet(card0, card1):
    state = pyspiel.load_game("kuhn_poker").new_initial_state()
    for action in (card0, card1, BET):
        state.apply_action(action)
    return state


@pytest.mark.parametrize("availability", [True, False])
def test_dominant_responses_to_a_bet(availability):
    game = pyspiel.load_game("kuhn_poker")
    # Holding the King, calling wins 2 for sure; holding the Jack, calling loses 2.
    for card1, best in ((2, BET), (0, PASS)):
        bot = ISMCTSBot(game, 1, iterations=300, rng=0, availability=availability)
        assert bot.step(kuhn_after_bet(1 if card1 != 1 else 0, card1)) == best


def test_root_gets_every_iteration_and_results_are_reproducible():
    game = pyspiel.load_game("leduc_poker")
    state = game.new_initial_state()
    state.apply_action(0)
    state.apply_action(3)
    runs = [ISMCTSBot(game, 0, iterations=500, rng=seed).search(state) for seed in (11, 11, 12)]
    assert runs[0] == runs[1] and runs[0] != runs[2]  # seeded, and the seed matters
    assert sum(v for v, _ in runs[0].values()) == 500
    assert all(0.0 <= m <= 1.0 for _, m in runs[0].values())


def test_vector_backup_opponent_nodes_maximise_their_own_reward():
    game = pyspiel.load_game("kuhn_poker")
    state = game.new_initial_state()
    state.apply_action(0)  # player 0 holds the Jack
    state.apply_action(2)
    bot = ISMCTSBot(game, 0, iterations=4000, rng=3)
    bot.search(state)
    # Player 1 holding the King, facing a bet, must have learnt to call inside our tree.
    king_facing_bet = bot.nodes["2b"].stats
    assert king_facing_bet[BET][0] > king_facing_bet[PASS][0]
    assert king_facing_bet[BET][1] / king_facing_bet[BET][0] == pytest.approx(1.0)  # +2 -> 1.0


def test_policy_is_normalised_visits_and_bot_protocol():
    """policy() and step_with_policy() return the root visit counts of their search,
    normalised: checked against a twin bot's searches (same seed). A sum of 1, all that was
    checked before, holds for a uniform or one-hot policy too."""
    game = pyspiel.load_game("kuhn_poker")
    bot = ISMCTSBot(game, 1, iterations=200, rng=1, final="visits")
    twin = ISMCTSBot(game, 1, iterations=200, rng=1)
    state = kuhn_after_bet(0, 2)
    policy = bot.policy(state)
    assert policy == pytest.approx({a: n / 200 for a, (n, _) in twin.search(state).items()})
    assert 0.5 < policy[BET] < 1.0  # calling with the King gets most visits, not all
    pairs, action = bot.step_with_policy(state)
    assert dict(pairs) == pytest.approx({a: n / 200 for a, (n, _) in twin.search(state).items()})
    assert action in state.legal_actions() and bot.provides_policy()


def test_custom_sampler_receives_state_player_rng_and_can_change_own_infostate():
    """Each of the 300 worlds is ``sampler(state, player, rng)`` with the searched state
    (same history), the bot's seat and the bot's own numpy Generator: a Generator passed as
    ``rng`` is used as is, and after the one seed the search draws for its PCG32 the
    sampler's draws continue that stream, iteration after iteration."""
    game = pyspiel.load_game("kuhn_poker")
    real = kuhn_after_bet(0, 2)
    gen = np.random.default_rng(2)
    calls, draws = [], []

    def public_belief(state, player, rng):  # ignores our card: any deal with the same bets
        calls.append((state.history(), state.information_state_string(1), player, rng is gen))
        cards = rng.permutation(3)[:2]
        draws.append(cards.tolist())
        world = game.new_initial_state()
        for action in (int(cards[0]), int(cards[1]), BET):
            world.apply_action(action)
        return world

    bot = ISMCTSBot(game, 1, iterations=300, rng=gen, sampler=public_belief)
    result = bot.search(real)
    assert calls == [(real.history(), real.information_state_string(1), 1, True)] * 300
    reference = np.random.default_rng(2)
    reference.integers(0, 2**63 - 1)  # the search's PCG32 seed, drawn first
    assert draws == [reference.permutation(3)[:2].tolist() for _ in range(300)]
    # The root is a chance node over our own cards: the real one got about a third.
    assert 50 < sum(v for v, _ in result.values()) < 150


def test_agrees_with_openspiel_cpp_ismcts_on_dominant_moves():
    game = pyspiel.load_game("kuhn_poker")
    for card1, best in ((2, BET), (0, PASS)):
        state = kuhn_after_bet(1, card1)
        cpp = make_cpp_ismcts_bot(game, iterations=300, seed=5)
        assert cpp.step(state) == best
        assert ISMCTSBot(game, 1, iterations=300, rng=5).step(state) == best


def test_bad_input_one_line_errors():
    game = pyspiel.load_game("kuhn_poker")
    with pytest.raises(ValueError, match="^iterations:"):
        ISMCTSBot(game, 0, iterations=0, rng=0)
    with pytest.raises(ValueError, match="^final:"):
        ISMCTSBot(game, 0, rng=0, final="best")
    with pytest.raises(ValueError, match="^rng:"):
        ISMCTSBot(game, 0, rng=None)
    with pytest.raises(ValueError, match="^player:"):
        ISMCTSBot(game, 2, rng=0)
    with pytest.raises(ValueError, match="^game: no determinizer"):
        ISMCTSBot(pyspiel.load_game("goofspiel(imp_info=True,num_cards=4)"), 0, rng=0)
    with pytest.raises(ValueError, match="^game: engine='cpp' needs a C\\+\\+ game"):
        make_cpp_ismcts_bot(pyspiel.load_game("trick_game"), seed=0)


def _hearts_state(passes: int, seed: int = 3):
    """A hearts state after the deal and ``passes`` random passes (12: the first play)."""
    game = pyspiel.load_game("hearts")
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    state.apply_action(1)  # pass to the left
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        state.apply_action(outcomes[rng.integers(len(outcomes))][0])
    for _ in range(passes):
        legal = state.legal_actions()
        state.apply_action(legal[rng.integers(len(legal))])
    return game, state


def test_cpp_ismcts_on_hearts_refuses_the_passing_and_plays_past_it():
    # OpenSpiel's C++ bot kills the process at a pass (docs/openspiel.md): every pass decision,
    # the crashing one (the second seat's first, after three) among them, is a one-line error.
    for passes in (0, 3, 11):
        game, state = _hearts_state(passes)
        bot = make_cpp_ismcts_bot(game, iterations=50, seed=0)
        with pytest.raises(ValueError, match="^state: .*passing phase"):
            bot.step(state)
    game, state = _hearts_state(12)
    bot = make_cpp_ismcts_bot(game, iterations=50, seed=0)
    bot.restart_at(state)
    assert bot.step(state) in state.legal_actions()
