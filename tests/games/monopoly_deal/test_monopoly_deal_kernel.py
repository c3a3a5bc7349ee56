"""The numba kernel of Monopoly Deal (lib/infosets/games/_monopoly_deal_kernel.py) against the
pyspiel adapter (pimcts_aggregation): rules, chance outcomes, returns, heuristic, the bounded
array's fields and information-state strings and keys on random games, the determinizer's
consistency and distribution, and the compiled engine against the Python reference."""

import random
from collections import Counter

import numpy as np
import pyspiel

import infosets.games  # noqa: F401  (registers monopoly_deal)
from infosets.core.pcg32 import PCG32
from infosets.games import _history_worlds as hw
from infosets.games import _monopoly_deal_kernel as mk
from infosets.games import _tabletop as tt
from infosets.games import monopoly_deal as md
from infosets.games.kernels import (
    MONOPOLY_DEAL,
    k_apply_action,
    k_chance_outcomes,
    k_current_player,
    k_determinize,
    k_heuristic,
    k_infostate_key,
    k_legal_actions,
    k_returns,
    kernel_for,
)
from kernel_checks import (
    check_determinize_keeps_infostate,
    compare_samplers,
    cut_rollouts,
    decision_states,
    engines_agree,
)

# 1,000 random games over the player counts; in one game of STRINGS_EVERY every player's
# information-state string and key are compared at every step, in the others every
# FIELDS_EVERY steps (the whole array against the adapter kernel's) and at the end.
GAMES = [(3, 500), (2, 200), (4, 180), (5, 120)]
STRINGS_EVERY = 40
FIELDS_EVERY = 25


def _check_strings(game, kernel, real, arr, keys, texts):
    """Strings (the array keeps the public log as its hash, so the log line is compared by
    hash) and keys: equal strings, equal keys; distinct strings, distinct keys."""
    assert arr[mk.PUBHASH] == mk.log_hash(real.log)
    for p in range(game.num_players()):
        text = real.information_state_string(p)
        view, log = text.rsplit("\nlog: ", 1)
        assert kernel.infostate_string(arr, p).rsplit("\nlog: ", 1)[0] == view
        key = int(k_infostate_key(kernel.kid, arr, p))
        assert keys.setdefault((p, key), text) == text  # no two strings share a key
        assert texts.setdefault((p, text), key) == key  # equal strings, equal keys


def _check(kernel, real, arr, step, buf, probs, out):
    """Mover, chance outcomes or legal actions, returns and the heuristic of the adapter's
    kernel object ``real`` and the array; the next choices."""
    kid = kernel.kid
    mover = real.current_player()
    assert k_current_player(kid, arr) == mover
    n = real.n
    if real.is_terminal():
        assert k_legal_actions(kid, arr, buf) == 0
        k_returns(kid, arr, out)
        assert list(out) == real.returns()
        k_heuristic(kid, arr, out)
        assert list(out) == md.heuristic(real)
        return None
    if mover == tt.CHANCE:
        m = k_chance_outcomes(kid, arr, buf, probs)
        outcomes = real.chance_outcomes()
        assert [(int(a), p) for a, p in zip(buf[:m], probs[:m])] == outcomes
        assert k_legal_actions(kid, arr, buf) == m
        return outcomes
    m = k_legal_actions(kid, arr, buf)
    legal = real.legal_actions()
    assert list(buf[:m]) == legal
    k_returns(kid, arr, out)
    assert not out[:n].any()
    if step % 3 == 0:
        k_heuristic(kid, arr, out)
        assert list(out) == md.heuristic(real)
    return [(a, 1.0) for a in legal]


def _play_game(game, kernel, rnd, strings, keys, texts, bufs):
    real, arr = game.new_kernel(), kernel.from_history([])
    step, kinds = 0, Counter()
    while True:
        if strings:
            _check_strings(game, kernel, real, arr, keys, texts)
        if step % FIELDS_EVERY == 0:
            assert mk.array_from_kernel(real).tolist() == arr.tolist()
        choices = _check(kernel, real, arr, step, *bufs)
        if choices is None:
            break
        actions, weights = zip(*choices)
        action = rnd.choices(actions, weights)[0]
        kinds[real.current_player() == tt.CHANCE] += 1
        real.apply(action)
        k_apply_action(kernel.kid, arr, action)
        step += 1
    _check_strings(game, kernel, real, arr, keys, texts)
    assert mk.array_from_kernel(real).tolist() == arr.tolist()
    assert kernel.history(arr) == real.hist
    return kinds, real


def test_kernel_agrees_with_the_adapter_on_random_games():
    """The adapter's kernel object (what its pyspiel states wrap) and the array, side by side."""
    kinds, ends = Counter(), Counter()
    for players, games in GAMES:
        game = pyspiel.load_game("monopoly_deal", {"players": players})
        kernel = kernel_for(game)
        assert kernel.kid == MONOPOLY_DEAL and kernel.num_players == players
        bufs = (np.zeros(kernel.num_actions, np.int64), np.zeros(kernel.num_actions), np.zeros(players))
        rnd, keys, texts = random.Random(players), {}, {}
        for g in range(games):
            k, real = _play_game(game, kernel, rnd, g % STRINGS_EVERY == 0, keys, texts, bufs)
            kinds.update(k)
            ends[real.winner >= 0] += 1
        assert len(keys) > 100
    assert kinds[True] > 10_000 and kinds[False] > 10_000
    assert ends[True] > 50 and ends[False] > 50  # won by three sets, and ended by the pile


def test_live_hands_fit_the_array():
    """The largest hand (7 + 2 drawn + 1 per Pass Go) stays below LIVECAP on random games."""
    game = pyspiel.load_game("monopoly_deal")
    kernel = kernel_for(game)
    assert max(len(h) for s in decision_states(game, 300, seed=2, stop=0.01)
               for h in s.kernel.live) <= 12 < mk.LIVECAP
    assert mk.SIZE == kernel.from_history([]).size


def test_determinize_keeps_the_information_state():
    game = pyspiel.load_game("monopoly_deal")
    states = decision_states(game, 40, seed=3, stop=0.02)
    check_determinize_keeps_infostate(game, states, seed=4, draws=10)
    kernel = kernel_for(game)
    rng = PCG32(5).to_array()
    changed = 0
    for state in states:
        arr, player = kernel.from_state(state), state.current_player()
        world = arr.copy()
        k_determinize(kernel.kid, world, player, rng)
        real = kernel.to_state(game, world)
        assert real.information_state_string(player) == state.information_state_string(player)
        # the world's history replays legally to the same hands, pile and public state; only
        # which of an opponent's same-type cards count as the earlier draws may differ
        replayed = game.state_from_history(real.kernel.hist).kernel
        assert replayed.information_state_string(player) == state.information_state_string(player)
        for q in range(game.num_players()):
            ours, theirs = real.kernel.live[q], replayed.live[q]
            same_cards = sorted(c for c, _ in ours) == sorted(c for c, _ in theirs)
            assert ours == theirs or (q != player and same_cards)
            assert replayed.hand[q] == real.kernel.hand[q]
        assert replayed.deck == real.kernel.deck
        changed += real.kernel.hist != state.history()
    assert changed > 30


def _statistic(player):
    """Per opponent: money cards and property cards in hand (each capped at 3)."""
    def statistic(k):
        return tuple((min(3, sum(k.hand[q][:md.PASS_GO])), min(3, sum(k.hand[q][md.FIRST_PROPERTY:])))
                     for q in range(k.n) if q != player)
    return statistic


def test_determinize_matches_the_adapter_resampler():
    """The joint law of the opponents' hands (as counts of kinds) under the kernel's
    determinizer and the adapter's sampler, early and late in a game."""
    game = pyspiel.load_game("monopoly_deal")
    states = decision_states(game, 60, seed=11, stop=0.01)
    late = max(states, key=lambda s: s.kernel.turns)
    for state in (states[0], late):
        pvalue = compare_samplers(
            game, state, _statistic(state.current_player()), draws=3000, seed=13,
            ours=lambda kernel, world: mk.kernel_from_array(world),
            theirs=lambda state, player, gen: hw.sample_world(state, player, gen).kernel,
            min_values=6)
        assert pvalue > 1e-3


def test_compiled_engine_equals_the_python_reference():
    game = pyspiel.load_game("monopoly_deal")
    states = decision_states(game, 200, seed=17, stop=0.02)
    engines_agree(game, states, iterations=6, settings=cut_rollouts())
