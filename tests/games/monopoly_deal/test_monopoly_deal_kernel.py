"""The numba kernel of Monopoly Deal (lib/infosets/games/monopoly_deal/kernel.py) as the compiled
engine sees it (pimcts_aggregation): information-state keys against the strings and the
engine's conversions on random games, the bounded live hands, the determinizer's consistency
and distribution against the adapter's history sampler, and the compiled engine against the
Python reference (the rules themselves: test_monopoly_deal_oracle.py)."""

import random
from collections import Counter

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

# Random games over the player counts (the rules are the adapter's: the oracle test checks them
# step by step); in one game of STRINGS_EVERY every player's information-state string and key
# are compared at every step, in the others the engine's conversions at the end.
GAMES = [(3, 20), (2, 6), (4, 6), (5, 4)]
STRINGS_EVERY = 4


def _check_keys(kernel, real, keys, texts):
    """Equal strings, equal keys; distinct strings, distinct keys."""
    for p in range(real.n):
        text = real.information_state_string(p)
        key = int(kernel.rules.nb_infostate_key(real.s, p))
        assert keys.setdefault((p, key), text) == text  # no two strings share a key
        assert texts.setdefault((p, text), key) == key  # equal strings, equal keys


def _play_game(game, kernel, rnd, strings, keys, texts):
    real = game.new_kernel()
    while not real.is_terminal():
        if strings:
            _check_keys(kernel, real, keys, texts)
        if real.current_player() == tt.CHANCE:
            actions, weights = zip(*real.chance_outcomes())
            real.apply(rnd.choices(actions, weights)[0])
        else:
            real.apply(rnd.choice(real.legal_actions()))
    _check_keys(kernel, real, keys, texts)
    array = kernel.from_history(real.hist)
    assert array.tolist() == real.s.tolist() and array is not real.s
    assert kernel.history(array) == real.hist
    for p in range(real.n):
        assert kernel.infostate_string(array, p) == real.information_state_string(p)
    return real


def test_infostate_keys_and_engine_conversions_on_random_games():
    """Keys one-to-one with the strings along random games; the engine's array of a history
    is the adapter's, and gives back its history and strings."""
    ends = Counter()
    for players, games in GAMES:
        game = pyspiel.load_game("monopoly_deal", {"players": players})
        kernel = kernel_for(game)
        assert kernel.rules is kernel_module("monopoly_deal") and kernel.num_players == players
        rnd, keys, texts = random.Random(players), {}, {}
        for g in range(games):
            real = _play_game(game, kernel, rnd, g % STRINGS_EVERY == 0, keys, texts)
            ends[real.winner >= 0] += 1
        assert len(keys) > 100
    assert ends[True] > 5 and ends[False] > 5  # won by three sets, and ended by the pile


def test_live_hands_fit_the_array():
    """The largest hand (7 + 2 drawn + 1 per Pass Go) stays below LIVECAP on random games."""
    game = pyspiel.load_game("monopoly_deal")
    kernel = kernel_for(game)
    assert (
        max(len(h) for s in decision_states(game, 300, seed=2, stop=0.01) for h in s.kernel.live)
        <= 12
        < mk.LIVECAP
    )
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
        return tuple(
            (min(3, sum(k.hand[q][: mk.PASS_GO])), min(3, sum(k.hand[q][mk.FIRST_PROPERTY :])))
            for q in range(k.n)
            if q != player
        )

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
            game,
            state,
            _statistic(state.current_player()),
            draws=1000,
            seed=13,
            ours=lambda kernel, world: md.MonopolyDealKernel.wrap(world),
            theirs=lambda state, player, gen: hw.sample_world(state, player, gen).kernel,
            min_values=6,
        )
        assert pvalue > 1e-3


def test_compiled_engine_equals_the_python_reference():
    game = pyspiel.load_game("monopoly_deal")
    states = decision_states(game, 200, seed=17, stop=0.02)
    engines_agree(game, states, iterations=6, settings=cut_rollouts())
