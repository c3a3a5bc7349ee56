"""Exact Oh Hell worlds (games/oh_hell/worlds.py): real states with the player's view in every
phase and at every table size, the consistent deals drawn uniformly (checked against an
enumeration that asks the engine which deals fit), served by ``sampler_for``."""

import collections
import itertools
from math import comb

import numpy as np
import pyspiel
import pytest
from scipy import stats as scipy_stats

from infosets.games.determinizers import determinizer_label, infostate_key, sampler_for
from infosets.games.oh_hell.worlds import OhHellWorlds
from infosets.games.trick_deals import below as _below

P_MIN = 1e-3  # fixed seeds: the tests are deterministic; this only guards against real bias


def random_state(game, rng, decisions):
    """A random game stopped at its ``decisions``-th decision (None if it ended first)."""
    state = game.new_initial_state()
    made = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.integers(len(outcomes))][0])
            continue
        if made == decisions:
            return state
        state.apply_action(int(rng.choice(state.legal_actions())))
        made += 1
    return None


def current_hands(state):
    """Each player's current hand (OpenSpiel deals card i to player i % players)."""
    history, players = state.history(), state.num_players()
    tricks = history[0]
    played = set(history[2 + players * tricks + 1 + players:])
    return tuple(frozenset(history[2 + i] for i in range(q, players * tricks, players)) - played
                 for q in range(players))


@pytest.mark.parametrize("spec", ["oh_hell(players=3)", "oh_hell(players=5)", "oh_hell(players=7)",
                                  "oh_hell(players=4,num_suits=3,num_cards_per_suit=7,"
                                  "num_tricks_fixed=5)"])
def test_worlds_are_real_states_with_the_players_view(spec):
    game = pyspiel.load_game(spec)
    rng = np.random.default_rng(3)
    sampler = OhHellWorlds(game)
    checked = voids = 0
    while checked < 12:
        state = random_state(game, rng, int(rng.integers(0, 40)))
        if state is None:
            continue
        player = state.current_player()
        key = infostate_key(state, player)
        worlds = [sampler(state, player, rng) for _ in range(10)]
        for world in worlds:
            assert infostate_key(world, player) == key
            assert world.current_player() == player
            assert current_hands(world)[player] == current_hands(state)[player]
            fresh = game.new_initial_state()
            for action in world.history():
                fresh.apply_action(action)
            assert str(fresh) == str(world)
        if sampler.plan(state, player).num_deals() > 1:
            assert any(current_hands(w) != current_hands(state) for w in worlds)
        voids += bool(sampler.plan(state, player).limited)
        checked += 1
    assert voids  # some states have an opponent known to be void in a suit
    assert sampler.refused == 0


def _consistent_deals(game, state, player):
    """Every consistent assignment of current hands, by brute force: each way to give the
    opponents their remaining cards from the unseen ones is replayed by the engine (plays
    legal, same information-state string). Independent of the sampler's reading of voids."""
    history, players = state.history(), game.num_players()
    tricks = history[0]
    cards = game.get_parameters()["num_suits"] * game.get_parameters()["num_cards_per_suit"]
    start = 2 + players * tricks + 1 + players
    plays = [(item.player, item.action) for item in state.full_history()[start:]]
    own = {history[2 + i] for i in range(player, players * tricks, players)}
    seen = own | {history[2 + players * tricks]} | {c for _, c in plays}
    unseen = [c for c in range(cards) if c not in seen]
    opponents = [q for q in range(players) if q != player]
    played_by = {q: [c for p, c in plays if p == q] for q in range(players)}
    view = state.information_state_string(player)
    found = []

    def deal(i, left, chosen):
        if i == len(opponents):
            dealt = list(history[2:2 + players * tricks])
            for q, hand in zip(opponents, chosen):
                initial = sorted(hand) + played_by[q]
                for k, pos in enumerate(range(q, players * tricks, players)):
                    dealt[pos] = initial[k]
            world = game.new_initial_state()
            for j, action in enumerate(history[:2] + dealt + history[2 + players * tricks:]):
                if j >= start and action not in world.legal_actions():
                    return
                world.apply_action(action)
            if world.information_state_string(player) == view:
                found.append(current_hands(world))
            return
        need = tricks - len(played_by[opponents[i]])
        for hand in itertools.combinations(left, need):
            deal(i + 1, [c for c in left if c not in hand], chosen + [hand])

    deal(0, unseen, [])
    return found


def test_the_deal_is_uniform_over_every_consistent_one():
    """A 20-card game, late in the play, both opponents known void in a suit: the worlds'
    hands are uniform over the engine's consistent deals."""
    game = pyspiel.load_game("oh_hell(players=3,num_suits=4,num_cards_per_suit=5)")
    rng = np.random.default_rng(1)
    while True:
        state = random_state(game, rng, int(rng.integers(5, 12)))
        if state is None:
            continue
        player = state.current_player()
        plan = OhHellWorlds(game).plan(state, player)
        unseen = sum(len(cards) for cards in plan.by_suit)
        needs = [plan.need[q] for q in plan.opponents]
        if len(plan.limited) == 2 and comb(unseen, needs[0]) * comb(unseen - needs[0], needs[1]) <= 2500:
            break
    deals = collections.Counter(_consistent_deals(game, state, player))
    assert 50 <= len(deals) <= 1000, len(deals)
    assert plan.num_deals() == len(deals)
    assert len(set(deals.values())) == 1  # one deal, one assignment: uniform is flat
    sampler = OhHellWorlds(game)
    draws = 30 * len(deals)
    rng = np.random.default_rng(5)
    counts = collections.Counter(current_hands(sampler(state, player, rng)) for _ in range(draws))
    assert set(counts) <= set(deals)  # no world the engine refuses
    assert scipy_stats.chisquare([counts[d] for d in deals]).pvalue > P_MIN


def test_worlds_vary_and_are_reproducible_from_the_rng():
    game = pyspiel.load_game("oh_hell(players=3)")
    state = random_state(game, np.random.default_rng(2), 6)
    player = state.current_player()

    def worlds(seed):
        rng = np.random.default_rng(seed)
        return [tuple(OhHellWorlds(game)(state, player, rng).history()) for _ in range(3)]

    assert worlds(4) == worlds(4)
    assert len(set(worlds(4))) == 3
    assert not set(worlds(5)) & set(worlds(4))


def test_exact_draws_beyond_64_bits():
    rng = np.random.default_rng(0)
    total = 2**70 + 5
    values = [_below(total, rng) for _ in range(200)]
    assert all(0 <= v < total for v in values)
    assert sum(v >= 2**69 for v in values) > 60  # the top bit is drawn, about half the time


def test_sampler_for_serves_oh_hell_with_these_worlds():
    game = pyspiel.load_game("oh_hell(players=3)")
    assert isinstance(sampler_for(game), OhHellWorlds)
    assert determinizer_label(game).startswith("exact worlds")


def test_bad_calls_are_refused_in_one_line():
    with pytest.raises(ValueError, match="^game: OhHellWorlds serves 'oh_hell'"):
        OhHellWorlds(pyspiel.load_game("hearts"))
    game = pyspiel.load_game("oh_hell(players=3)")
    sampler = OhHellWorlds(game)
    with pytest.raises(ValueError, match="^state:"):
        sampler(game.new_initial_state(), 0, np.random.default_rng(0))
    state = random_state(game, np.random.default_rng(0), 2)
    with pytest.raises(ValueError, match="^player:"):
        sampler(state, 3, np.random.default_rng(0))
