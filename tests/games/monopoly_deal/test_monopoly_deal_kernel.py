"""The numba kernel of Monopoly Deal (lib/infosets/games/monopoly_deal/kernel.py) against the
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
from infosets.games import _tabletop as tt
from infosets.games.kernels import kernel_for, kernel_module
from infosets.games.monopoly_deal import game as md
from infosets.games.monopoly_deal import kernel as mk
from kernel_checks import (
    check_determinize_keeps_infostate,
    compare_samplers,
    cut_rollouts,
    decision_states,
    engines_agree,
)

# 100 random games over the player counts; in one game of STRINGS_EVERY every player's
# information-state string and key are compared at every step, in the others every
# FIELDS_EVERY steps (the whole array against the adapter kernel's) and at the end. Measured
# 2026-12-02 (line tracing of games/monopoly_deal/ over these seeds' games): the 437 lines of
# the Python rules that 500 three-player games reach are all reached by the 7th game, and 200
# two-player games reach no other line, so the earlier 1,000 games (87 s) were 10x the time for
# no more rules checked.
GAMES = [(3, 50), (2, 20), (4, 18), (5, 12)]
STRINGS_EVERY = 10
FIELDS_EVERY = 25


def _check_strings(game, kernel, real, arr, keys, texts):
    """Strings (the array keeps the public log as its hash, so the log line is compared by
    hash) and keys: equal strings, equal keys; distinct strings, distinct keys."""
    assert arr[mk.PUBHASH] == mk.log_hash(real.log)
    for p in range(game.num_players()):
        text = real.information_state_string(p)
        view, log = text.rsplit("\nlog: ", 1)
        assert kernel.infostate_string(arr, p).rsplit("\nlog: ", 1)[0] == view
        key = int(kernel.rules.nb_infostate_key(arr, p))
        assert keys.setdefault((p, key), text) == text  # no two strings share a key
        assert texts.setdefault((p, text), key) == key  # equal strings, equal keys


def _check(kernel, real, arr, step, buf, probs, out):
    """Mover, chance outcomes or legal actions, returns and the heuristic of the adapter's
    kernel object ``real`` and the array; the next choices."""
    rules = kernel.rules
    mover = real.current_player()
    assert rules.nb_current_player(arr) == mover
    n = real.n
    if real.is_terminal():
        assert rules.nb_legal_actions(arr, buf) == 0
        rules.nb_returns(arr, out)
        assert list(out) == real.returns()
        rules.nb_heuristic(arr, out)
        assert list(out) == md.heuristic(real)
        return None
    if mover == tt.CHANCE:
        m = rules.nb_chance_outcomes(arr, buf, probs)
        outcomes = real.chance_outcomes()
        assert [(int(a), p) for a, p in zip(buf[:m], probs[:m])] == outcomes
        assert rules.nb_legal_actions(arr, buf) == m
        return outcomes
    m = rules.nb_legal_actions(arr, buf)
    legal = real.legal_actions()
    assert list(buf[:m]) == legal
    rules.nb_returns(arr, out)
    assert not out[:n].any()
    if step % 3 == 0:
        rules.nb_heuristic(arr, out)
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
        kernel.rules.nb_apply_action(arr, action)
        step += 1
    _check_strings(game, kernel, real, arr, keys, texts)
    assert mk.array_from_kernel(real).tolist() == arr.tolist()
    assert kernel.history(arr) == real.hist
    return kinds, real


def test_kernel_agrees_with_the_adapter_on_random_games():
    """The adapter's kernel object (what its pyspiel states wrap) and the array, side by side,
    on 100 random games (``GAMES``: every rule line 1,000 games reach is reached in far fewer)."""
    kinds, ends = Counter(), Counter()
    for players, games in GAMES:
        game = pyspiel.load_game("monopoly_deal", {"players": players})
        kernel = kernel_for(game)
        assert kernel.rules is kernel_module("monopoly_deal") and kernel.num_players == players
        bufs = (np.zeros(kernel.num_actions, np.int64), np.zeros(kernel.num_actions), np.zeros(players))
        rnd, keys, texts = random.Random(players), {}, {}
        for g in range(games):
            k, real = _play_game(game, kernel, rnd, g % STRINGS_EVERY == 0, keys, texts, bufs)
            kinds.update(k)
            ends[real.winner >= 0] += 1
        assert len(keys) > 100
    assert kinds[True] > 5_000 and kinds[False] > 5_000  # 9,645 and 13,303
    assert ends[True] > 25 and ends[False] > 25  # won by three sets (52), and ended by the pile (48)


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
        kernel.rules.nb_determinize(world, player, rng)
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
    determinizer and the adapter's sampler, early and late in a game.

    1,000 draws each (the adapter's history sampler costs about 25 ms a draw; 3,000 took two
    minutes). Measured 2026-12-02: at 1,000 draws the kernel passes (p = 0.72 early, 0.88 late),
    and Python copies of ``nb_determinize`` with a plausible bug fail in the late position on
    each of 3 seeds: drawing with replacement (p < 1e-85), an off-by-one bounded draw
    (``total - 1``, p < 1e-63), and uniform over the pool's card types instead of its cards
    (p < 1e-5)."""
    game = pyspiel.load_game("monopoly_deal")
    states = decision_states(game, 60, seed=11, stop=0.01)
    late = max(states, key=lambda s: s.kernel.turns)
    for state in (states[0], late):
        pvalue = compare_samplers(
            game, state, _statistic(state.current_player()), draws=1000, seed=13,
            ours=lambda kernel, world: mk.kernel_from_array(world),
            theirs=lambda state, player, gen: hw.sample_world(state, player, gen).kernel,
            min_values=6)
        assert pvalue > 1e-3


def test_compiled_engine_equals_the_python_reference():
    game = pyspiel.load_game("monopoly_deal")
    states = decision_states(game, 200, seed=17, stop=0.02)
    engines_agree(game, states, iterations=6, settings=cut_rollouts())
