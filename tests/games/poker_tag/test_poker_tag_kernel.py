"""The numba kernel of TAG's Poker (lib/infosets/games/poker_tag/kernel.py), the rules both
engines play (pimcts_aggregation): the engine's view (``kernel_for``: histories, strings, the
information-state key's injectivity) on random games, hand ranking against the frozen oracle's
``hand_value`` (``oracle.py``), the heuristic, the determinizer's consistency and distribution,
and the compiled engine against the Python reference."""

import itertools
import random
from collections import Counter

import numpy as np
import oracle_checks as oc
import pyspiel
import pytest
from scipy import stats

import infosets.games  # noqa: F401  (registers poker_tag)
from infosets.core.pcg32 import PCG32
from infosets.games.kernels import kernel_for, kernel_module
from infosets.games.poker_tag import game as pk
from infosets.games.poker_tag import kernel as pkk
from infosets.search.ismcts import ISMCTSBot
from infosets.search.pimcts import PIMCTSBot
from kernel_checks import SETTINGS_CYCLE, _both, decision_states, engines_agree

oracle = oc.load_oracle(__file__)

# 300 random games over four parameter sets (short games keep the string checks cheap; the
# rules' agreement with the former Python rules is test_poker_tag_oracle.py's).
GAMES = [
    ("poker_tag", 50),
    ("poker_tag(players=2,max_hands=3)", 100),
    ("poker_tag(players=6,max_hands=2)", 60),
    ("poker_tag(max_hands=2,starting_money=30,bet=10)", 90),
]


def _check(game, kernel, real, arr, keys, buf, probs, out):
    rules = kernel.rules
    assert rules.nb_current_player(arr) == real.current_player()
    if real.is_terminal():
        rules.nb_returns(arr, out)
        assert list(out) == real.returns()
        rules.nb_heuristic(arr, out)
        assert list(out) == oracle.heuristic(real)
        return
    if real.is_chance_node():
        m = rules.nb_chance_outcomes(arr, buf, probs)
        assert [(int(a), p) for a, p in zip(buf[:m], probs[:m])] == real.chance_outcomes()
        return
    n = rules.nb_legal_actions(arr, buf)
    assert list(buf[:n]) == real.legal_actions()
    rules.nb_heuristic(arr, out)
    assert list(out) == oracle.heuristic(real)
    for p in range(game.num_players()):
        text = real.information_state_string(p)
        assert kernel.infostate_string(arr, p) == text
        key = rules.nb_infostate_key(arr, p)
        assert keys.setdefault((p, key), text) == text  # no two strings share a key


@pytest.mark.parametrize("spec,games", GAMES)
def test_kernel_agrees_with_the_adapter_on_random_games(spec, games):
    game = pyspiel.load_game(spec)
    kernel = kernel_for(game)
    assert kernel.rules is kernel_module("poker_tag") and kernel.num_players == game.num_players()
    buf, probs = np.zeros(kernel.num_actions, np.int64), np.zeros(kernel.num_actions)
    out = np.zeros(kernel.num_players)
    rnd, keys = random.Random(len(spec)), {}
    for _ in range(games):
        real, arr = game.new_initial_state(), kernel.from_history([])
        _check(game, kernel, real, arr, keys, buf, probs, out)
        while not real.is_terminal():
            action = rnd.choice(real.legal_actions())
            real.apply_action(action)
            kernel.rules.nb_apply_action(arr, action)
            _check(game, kernel, real, arr, keys, buf, probs, out)
        assert kernel.history(arr) == real.history()
    assert len(keys) > 1000


def _hands(rng):
    """Random 5-7 card sets: uniform ones, rank-heavy ones (pairs, straights) and suited
    ones (flushes, straight flushes)."""
    for _ in range(4000):
        yield rng.choice(52, size=int(rng.integers(5, 8)), replace=False)
    for _ in range(3000):
        ranks = rng.integers(0, 13, size=7)
        yield np.unique([r * 4 + rng.integers(4) for r in ranks])
    for _ in range(3000):
        suit, start = rng.integers(4), rng.integers(-1, 9)
        run = [((start + i) % 13) * 4 + suit for i in range(5)]
        extra = rng.choice(52, size=2, replace=False)
        yield np.unique(np.concatenate([run, extra]))


def test_hand_codes_order_hands_as_hand_value():
    """The kernel's hand codes order and tie hands as the oracle's readable ``hand_value``."""
    rng = np.random.default_rng(0)
    hands = [np.asarray(h, np.int64) for h in _hands(rng) if len(np.unique(h)) >= 5]
    values = [oracle.hand_value([int(c) for c in h]) for h in hands]
    codes = [pkk.hand_code(h, len(h)) for h in hands]
    assert {v[0] for v in values} == set(range(9))  # every category occurs
    order = sorted(range(len(hands)), key=values.__getitem__)
    for a, b in zip(order, order[1:]):
        assert (values[a] < values[b]) == (codes[a] < codes[b]), (hands[a], hands[b])
        assert (values[a] == values[b]) == (codes[a] == codes[b]), (hands[a], hands[b])


def _decision(game, seed, moves):
    rnd = random.Random(seed)
    state = game.new_initial_state()
    made = 0
    while state.is_chance_node() or made < moves:
        if state.is_terminal():
            state, made = game.new_initial_state(), 0
        elif state.is_chance_node():
            state.apply_action(rnd.choice(state.legal_actions()))
        else:
            state.apply_action(rnd.choice(state.legal_actions()))
            made += 1
    return state


def test_determinize_keeps_the_information_state_and_rebuilds():
    game = pyspiel.load_game("poker_tag")
    kernel = kernel_for(game)
    rng = PCG32(3).to_array()
    changed = 0
    for i in range(60):
        state = _decision(game, i, moves=i % 25)
        arr = kernel.from_state(state)
        for player in range(3):
            world = arr.copy()
            kernel.rules.nb_determinize(world, player, rng)
            real = kernel.to_state(game, world)  # the world replays legally in the adapter
            assert real.information_state_string(player) == state.information_state_string(player)
            assert kernel.infostate_string(world, player) == state.information_state_string(player)
            assert kernel.rules.nb_infostate_key(world, player) == kernel.rules.nb_infostate_key(arr, player)
            assert np.array_equal(kernel.from_history(kernel.history(world)), world)
            changed += kernel.history(world) != state.history()
    assert changed > 100


def test_determinize_is_uniform_over_the_opponent_hole_cards():
    """Heads-up pre-flop: the 50 * 49 ordered hole-card pairs of the opponent, as the
    adapter's own test enumerates them."""
    game = pyspiel.load_game("poker_tag(players=2)")
    kernel = kernel_for(game)
    state = _decision(game, 6, 0)
    arr = kernel.from_state(state)
    player = state.current_player()
    other = 1 - player
    mine = set(state.kernel.hole[2 * player : 2 * player + 2])
    worlds = [w for w in itertools.permutations(range(52), 2) if not set(w) & mine]
    index = {w: i for i, w in enumerate(worlds)}
    counts = np.zeros(len(worlds), int)
    rng = PCG32(7).to_array()
    for _ in range(12 * len(worlds)):
        world = arr.copy()
        kernel.rules.nb_determinize(world, player, rng)
        base = pkk.HOLE + 2 * other
        counts[index[(int(world[base]), int(world[base + 1]))]] += 1
    assert stats.chisquare(counts).pvalue > 1e-3


def test_determinize_matches_the_adapter_in_past_hands():
    """A past hand whose showdown did not show every hole card: the redrawn cards' marginal
    (first hidden card) matches the adapter's sampler, and shown cards stay."""
    game = pyspiel.load_game("poker_tag")
    kernel = kernel_for(game)
    rnd = np.random.default_rng(8)
    for seed in range(2000):
        state = _decision(game, seed, moves=12 + seed % 20)
        k, player = state.kernel, state.current_player()
        hands = [
            h
            for h in range(k.hand)
            if k.shown[h]
            and any(h2 == h and who != player and not k.shown[h] >> who & 1 for _, h2, who in k.hole_slots)
        ]
        if hands:
            break
    hand = hands[0]
    hidden = [i for i, h, who in k.hole_slots if h == hand and who != player and not k.shown[hand] >> who & 1]
    kept = [i for i, h, who in k.hole_slots if h == hand and (who == player or k.shown[hand] >> who & 1)]
    arr = kernel.from_state(state)
    rng = PCG32(11).to_array()
    ours, theirs = Counter(), Counter()
    draws = 4000
    for _ in range(draws):
        world = arr.copy()
        kernel.rules.nb_determinize(world, player, rng)
        history = kernel.history(world)
        assert [history[i] for i in kept] == [state.history()[i] for i in kept]
        ours[history[hidden[0]]] += 1
        theirs[pk.sample_world(state, player, rnd).history()[hidden[0]]] += 1
    cards = sorted(set(ours) | set(theirs))
    table = np.array([[ours[c] for c in cards], [theirs[c] for c in cards]])
    assert stats.chi2_contingency(table).pvalue > 1e-3


# Few iterations: the Python engine replays every sampled world through the adapter.
ITERATIONS = 12


def _positions(game, count, seed):
    return decision_states(game, count, seed, stop=0.4, uniform_chance=True)


def test_compiled_engine_equals_the_python_reference():
    # One cycle of engines_agree's per-position settings (60 positions), not 200: line tracing
    # (NUMBA_DISABLE_JIT=1) of games/poker_tag/, _tabletop and array_kernel under the Python
    # engine's searches of the 200 former positions reached every line by position 23.
    game = pyspiel.load_game("poker_tag")
    engines_agree(game, _positions(game, SETTINGS_CYCLE, seed=17), ITERATIONS)


def test_compiled_engine_equals_the_python_reference_with_tag_settings():
    """TAG's Poker settings cut rollouts at once (length 0) and score the leaf heuristically."""
    game = pyspiel.load_game("poker_tag")
    for i, state in enumerate(_positions(game, 20, seed=5)):
        pi = _both(PIMCTSBot, game, state, ITERATIONS, determinizations=2, rng=i, rollout_length=0)
        ism = _both(ISMCTSBot, game, state, ITERATIONS, rng=i, rollout_length=3, max_depth=3, fpu=0.5)
        assert pi[0] == pi[1] and ism[0] == ism[1]
