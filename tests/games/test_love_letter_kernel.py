"""The love_letter numba kernel (pimcts_aggregation) against its pyspiel adapter, the
adapter's resampler, and the Python reference engines."""

import random
from collections import Counter

import numpy as np
import pyspiel
import pytest
from scipy import stats

from infosets.games import _love_letter_kernel as lk
from infosets.games import _tabletop as tt
from infosets.games import love_letter as ll
from infosets.games.kernels import k_heuristic, kernel_for
from kernel_checks import (
    check_determinize_keeps_infostate,
    check_heuristic_on_returns_scale,
    check_pyspiel_games,
    check_random_games,
    compare_samplers,
    cut_rollouts,
    decision_states,
    engines_agree,
    worlds,
)

# (players, tokens_to_win) -> random games (1,000 in all; a game is a series of rounds)
CASES = {(2, 1): 300, (3, 1): 300, (4, 2): 250, (2, 0): 50, (3, 0): 50, (4, 0): 50}


@pytest.mark.parametrize("players,tokens", sorted(CASES))
def test_kernel_agrees_with_adapter_on_random_games(players, tokens):
    game = pyspiel.load_game("love_letter", {"players": players, "tokens_to_win": tokens})
    distinct = check_random_games(game, CASES[players, tokens], seed=players + 10 * tokens,
                                  strings_every=10)
    assert distinct > 100  # many distinct information states met, no key collision
    check_pyspiel_games(game, 3, seed=players)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_determinize_keeps_the_information_state(players):
    game = pyspiel.load_game("love_letter", {"players": players})
    states = decision_states(game, 40, seed=players)
    check_determinize_keeps_infostate(game, states, seed=players)
    check_heuristic_on_returns_scale(game, states)


def _state_with_seen_card(players):
    """A decision state where the mover has seen another player's card (Priest, Baron tie
    or King) and other cards stay unseen."""
    game = pyspiel.load_game("love_letter", {"players": players, "tokens_to_win": 1})
    for state in decision_states(game, 400, seed=7, stop=0.3):
        k, p = state.kernel, state.current_player()
        seen = [(q, i) for q in range(players) if q != p for i, m in enumerate(k.seen[q]) if m >> p & 1]
        if seen and sum(k.alive) == players:
            return game, state, seen
    raise AssertionError("no such state")


def test_determinize_matches_the_adapter_resample():
    game, state, _ = _state_with_seen_card(3)
    player = state.current_player()
    others = [q for q in range(3) if q != player]

    def hands(k):
        return tuple(tuple(sorted(k.hands[q])) for q in others)

    def pool(k):
        return k.pool[ll.GUARD], k.pool[ll.PRINCESS]

    for statistic in (hands, pool):
        pvalue = compare_samplers(game, state, statistic, draws=3000, seed=5)
        assert pvalue > 1e-3, (statistic.__name__, pvalue)


def test_compare_samplers_refuses_a_statistic_with_one_value():
    """A constant statistic cannot tell two laws apart: the helper fails rather than
    returning p = 1, so no sampler test built on it passes vacuously."""
    game, state, _ = _state_with_seen_card(3)
    with pytest.raises(AssertionError, match="distinct values"):
        compare_samplers(game, state, lambda k: 0, draws=20, seed=5)


def test_determinize_keeps_seen_cards():
    game, state, seen = _state_with_seen_card(3)
    kernel = kernel_for(game)
    player = state.current_player()
    for world in worlds(game, state, draws=300, seed=3):
        k = kernel.to_kernel(world)
        assert k.hands[player] == state.kernel.hands[player]
        for q, i in seen:
            assert k.hands[q][i] == state.kernel.hands[q][i]
        assert sum(k.pool) == sum(state.kernel.pool)


def test_heuristic_is_the_leader_lead_in_tokens():
    game = pyspiel.load_game("love_letter", {"players": 3})
    kernel = kernel_for(game)
    k = game.new_kernel()
    k.tokens = [2, 0, 1]
    out = np.zeros(3)
    k_heuristic(kernel.kid, kernel.from_kernel(k), out)
    leads = np.array([1, -2, -1])
    assert np.allclose(out, 0.5 + 0.5 * leads / (np.abs(leads) + lk.LEAD_SCALE))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_compiled_engine_equals_python_reference(players):
    game = pyspiel.load_game("love_letter", {"players": players})
    engines_agree(game, decision_states(game, 70, seed=20 + players), iterations=10, settings=cut_rollouts())


# -- the public record: Baron ties and wins, missed Guard guesses --------------------------
# Measured 2026-11-27 on the sampler before the record was kept (3 states x 200 worlds):
# consistent after a Baron tie 71 of 600, after a Baron win 475 of 600, after a Guard miss
# 483 of 600. (kind, seed) of the states below: a tie whose cards the player knows through a
# Priest look at one of them (seed 1), a tie of two cards the player has not seen (seed 6).

RECORD_GAME = {"players": 4, "tokens_to_win": 1}
RECORD_STATES = [("tie", 1), ("tie", 6), ("win", 1), ("miss", 1)]


def _after_play(game, kind, seed):
    """The first decision state of seeded random games whose last play of the round is a Baron
    tie (``kind`` "tie"), a Baron win ("win") or a missed Guard guess ("miss"), and a player
    still in who took no part in it (so the outcome constrains cards they have not seen)."""
    rnd = random.Random(seed)
    for _ in range(1000):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(rnd.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
                continue
            k = state.kernel
            if k.log and k.log[-1][0] >= 0 and rnd.random() < 0.5:
                mover, card, target, _, outcome = k.log[-1]
                if kind == "tie":
                    hit, part = card == ll.BARON and outcome == "tie", {mover, target}
                elif kind == "win":
                    hit, part = card == ll.BARON and outcome.startswith("out"), {mover, target}
                else:
                    hit, part = card == ll.GUARD and outcome == "miss", {target}
                others = [q for q in range(k.n) if q not in part and k.alive[q]]
                if hit and others:
                    return state, others[0]
            state.apply_action(rnd.choice(state.legal_actions()))
    raise AssertionError(f"no state after a {kind}")


def _reference_world(game, state, player, gen):
    """A world of the Python sampler's law, built without the public record: the cards
    ``player`` does not see now dealt uniformly, redrawn until ``rebuild_world`` finds a history
    keeping ``player``'s information state at every move (the rebuilt world's kernel)."""
    k, history = state.kernel, state.history()
    while True:
        world = k.copy()
        pool = world.pool[:]
        slots = tt.pool_unseen_cards(world.hands, world.seen, player, pool)
        cards = tt.shuffled_cards(pool, gen)
        for (q, i), c in zip(slots, cards):
            world.hands[q][i] = c
        world.pool = tt.list_to_counts(cards[len(slots):], ll.NUM_TYPES)
        rebuilt = tt.rebuild_world(game, history, world, player)
        if rebuilt is not None:
            return rebuilt.kernel


@pytest.mark.parametrize("kind,seed", RECORD_STATES)
def test_determinize_keeps_the_public_record(kind, seed):
    """Every world after a Baron tie, a Baron win or a missed Guard guess is one the Python
    sampler's check accepts (a history keeping the player's information state at every move
    deals its cards), with the ``seen`` masks that history gives."""
    game = pyspiel.load_game("love_letter", RECORD_GAME)
    kernel = kernel_for(game)
    state, player = _after_play(game, kind, seed)
    history = state.history()
    consistent = 0
    for world in worlds(game, state, draws=200, seed=11, player=player):
        k = kernel.to_kernel(world)
        rebuilt = tt.rebuild_world(game, history, k, player)
        consistent += rebuilt is not None and rebuilt.kernel.seen == k.seen
    assert consistent == 200


@pytest.mark.parametrize("kind,seed", RECORD_STATES)
def test_determinize_law_is_the_python_samplers(kind, seed):
    """Kernel worlds and the Python sampler's (``_reference_world``) have one law: each other
    player's hand, chi-square on 3,000 and 1,500 worlds (fixed seeds)."""
    game = pyspiel.load_game("love_letter", RECORD_GAME)
    kernel = kernel_for(game)
    state, player = _after_play(game, kind, seed)
    gen = np.random.default_rng(13)
    ours = [kernel.to_kernel(w).hands for w in worlds(game, state, draws=3000, seed=13, player=player)]
    theirs = [_reference_world(game, state, player, gen).hands for _ in range(1500)]
    compared = 0
    for q in range(game.num_players()):
        if q == player or not state.kernel.alive[q]:
            continue
        counts, others = Counter(tuple(h[q]) for h in ours), Counter(tuple(h[q]) for h in theirs)
        values = sorted(set(counts) | set(others))
        if len(values) < 2:  # one hand in every world of both samplers
            continue
        table = np.array([[counts[v] for v in values], [others[v] for v in values]])
        pvalue = stats.chi2_contingency(table).pvalue
        assert pvalue > 1e-3, (kind, q, pvalue, table)
        compared += 1
    assert compared
