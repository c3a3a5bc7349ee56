"""The love_letter numba kernel (pimcts_aggregation): its information-state keys against the
adapter's strings, its determinizer against the adapter's resampler and the frozen oracle's
world construction, its heuristic, and the compiled engine against the Python reference
engines. The rules themselves are checked against the oracle in ``test_love_letter_oracle.py``."""

import itertools
import math
import random
from collections import Counter

import numpy as np
import pyspiel
import pytest
from scipy import stats
from test_love_letter import (
    BARON_TIE,
    GUARD_MISS,
    KEPT_DRAWN,
    KEPT_OLD,
    TIE_DROPPED,
    TIE_KEPT,
    _consistent_placements,
    _fields,
    _p0_holds_no_guard,
    _p1_holds_the_king,
    _state,
    assert_worlds_depend_on_the_information_state_only,
    oracle,
)

from infosets.core.pcg32 import PCG32
from infosets.games import _tabletop as tt
from infosets.games.kernels import kernel_for
from infosets.games.love_letter import game as ll
from infosets.games.love_letter import kernel as lk
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
from tabletop_checks import chi_square_pvalue, play_to_decision

# (players, tokens_to_win) -> random games, each compared at every step (a game is a series of
# rounds). These were 1,000 games with every tenth compared at every step: the adapter steps the
# array's own rules, so the other 900 compared those rules with themselves (the rules are the
# oracle test's); the games compared at every step keep their number.
CASES = {(2, 1): 30, (3, 1): 30, (4, 2): 25, (2, 0): 5, (3, 0): 5, (4, 0): 5}


@pytest.mark.parametrize("players,tokens", sorted(CASES))
def test_infostate_keys_match_strings_on_random_games(players, tokens):
    """``nb_infostate_key`` is one-to-one with the adapter's information state strings on
    random games, and pyspiel states replay to the arrays (the rules themselves are checked
    against the oracle in ``test_love_letter_oracle.py``; the adapter runs this kernel)."""
    game = pyspiel.load_game("love_letter", {"players": players, "tokens_to_win": tokens})
    distinct = check_random_games(game, CASES[players, tokens], seed=players + 10 * tokens, strings_every=1)
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
    k.s[lk.TOKENS : lk.TOKENS + 3] = [2, 0, 1]
    out = np.zeros(3)
    kernel.rules.nb_heuristic(kernel.from_kernel(k), out)
    leads = np.array([1, -2, -1])
    assert np.allclose(out, 0.5 + 0.5 * leads / (np.abs(leads) + lk.LEAD_SCALE))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_compiled_engine_equals_python_reference(players):
    game = pyspiel.load_game("love_letter", {"players": players})
    engines_agree(game, decision_states(game, 70, seed=20 + players), iterations=10, settings=cut_rollouts())


# -- the public record: Baron ties and wins, missed Guard guesses, kept cards -------------
# Measured 2026-11-27 on the sampler before the record was kept (3 states x 200 worlds):
# consistent after a Baron tie 71 of 600, after a Baron win 475 of 600, after a Guard miss
# 483 of 600. (kind, seed) of the states below: a tie whose cards the player knows through a
# Priest look at one of them (seed 1), a tie of two cards the player has not seen (seed 6);
# "missplay" and "tieplay": the missed player, or one of the tied ones, has played since,
# keeping the constrained card (``_after_play``); their seeds are the first (from 1) whose
# law the samplers of f66bb4a got wrong (they kept the constraint on the kept card).

RECORD_GAME = {"players": 4, "tokens_to_win": 1}
RECORD_STATES = [("tie", 1), ("tie", 6), ("win", 1), ("miss", 1), ("missplay", 3), ("tieplay", 2)]


def _constraint(k, q):
    """The last log entry of the round that constrains ``q``'s card (a missed Guard guess at
    ``q``, a Baron tie of ``q``) if ``q`` has not played since, else None."""
    for entry in reversed(k.log):
        p, card, target, _, outcome = entry
        if p < 0:
            return None
        if (outcome == "miss" and target == q) or (outcome == "tie" and q in (p, target)):
            return entry
        if p == q:
            return None
    return None


def _after_play(game, kind, seed):
    """The first decision state of seeded random games whose last play of the round is a Baron
    tie (``kind`` "tie"), a Baron win ("win") or a missed Guard guess ("miss"), and a player
    still in who took no part in it (so the outcome constrains cards they have not seen).
    "missplay" and "tieplay": the last play is by a player a Guard missed, or one of a Baron
    tie, who kept that card and played the one they drew, of a type the kept card might be
    (the player cannot tell which was kept: the samplers of f66bb4a kept the constraint)."""
    rnd = random.Random(seed)
    for _ in range(3000):
        state = game.new_initial_state()
        part = None
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(rnd.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
                continue
            k = state.kernel
            if part is not None:
                others = [q for q in range(k.n) if q not in part and k.alive[q]]
                if others:
                    return state, others[0]
                break
            if kind in ("missplay", "tieplay"):
                q, hand = k.cur, k.hands[k.cur]
                entry = _constraint(k, q)
                if (
                    entry
                    and entry[4] == kind[:-4]
                    and hand[0] != hand[1]
                    and (kind == "tieplay" or hand[1] != entry[3])
                ):
                    drawn = [a for a in state.legal_actions() if ll.decode(a)[0] == hand[1]]
                    if drawn and rnd.random() < 0.5:
                        state.apply_action(rnd.choice(drawn))
                        part = {q, entry[0], entry[2]}
                        continue
            elif k.log and k.log[-1][0] >= 0 and rnd.random() < 0.5:
                mover, card, target, _, outcome = k.log[-1]
                if kind == "tie":
                    hit, involved = card == ll.BARON and outcome == "tie", {mover, target}
                elif kind == "win":
                    hit, involved = card == ll.BARON and outcome.startswith("out"), {mover, target}
                else:
                    hit, involved = card == ll.GUARD and outcome == "miss", {target}
                others = [q for q in range(k.n) if q not in involved and k.alive[q]]
                if hit and others:
                    return state, others[0]
            state.apply_action(rnd.choice(state.legal_actions()))
    raise AssertionError(f"no state after a {kind}")


def _worlds(state, player, draws, seed):
    """``draws`` worlds of ``nb_determinize`` (the function ``k_determinize`` runs) for
    ``player``, as kernel objects, from one PCG32 stream seeded with ``seed``."""
    arr = state.kernel.s
    rng = PCG32(seed).to_array()
    for _ in range(draws):
        world = arr.copy()
        lk.nb_determinize(world, player, rng)
        yield ll.LoveLetterKernel.wrap(world)


def _uniform_law(game, state, player):
    """The law of the uniform determinization, built without the record: each placement of
    the cards ``player`` does not see that some history keeping ``player``'s information
    state at every move deals (``_consistent_placements``, by brute force over the round's
    chance outcomes), weighted by the ways to deal it from the physical cards. Returns
    {hands (as a string): probability}."""
    k = state.kernel
    consistent = _consistent_placements(game, state, player)
    pool = k.pool[:]
    slots = tt.pool_unseen_cards(k.hands, k.seen, player, pool)
    weights = Counter()
    for cards in itertools.product(range(ll.NUM_TYPES), repeat=len(slots)):
        counts = tt.list_to_counts(cards, ll.NUM_TYPES)
        hands = [h[:] for h in k.hands]
        for (q, i), c in zip(slots, cards):
            hands[q][i] = c
        if str(hands) in consistent:
            weights[str(hands)] += math.prod(math.perm(p, c) for p, c in zip(pool, counts))
    total = sum(weights.values())
    return {hands: w / total for hands, w in weights.items()}


@pytest.mark.parametrize("kind,seed", RECORD_STATES)
def test_determinize_keeps_the_public_record(kind, seed):
    """Every world after a Baron tie, a Baron win, a missed Guard guess, or a play of a player
    they constrained, is one the Python sampler's check accepts (its history keeps the
    player's information state at every move and deals its cards), with the ``seen`` masks
    that history gives."""
    game = pyspiel.load_game("love_letter", RECORD_GAME)
    state, player = _after_play(game, kind, seed)
    history = state.history()
    consistent = 0
    for k in _worlds(state, player, draws=200, seed=11):
        rebuilt = tt.rebuild_world(game, history, k, player)
        consistent += rebuilt is not None and rebuilt.kernel.seen == k.seen
    assert consistent == 200


@pytest.mark.parametrize("kind,seed", RECORD_STATES)
def test_determinize_law_is_the_python_samplers(kind, seed):
    """Kernel worlds and ``resample``'s have one law (each other player's hand, chi-square on
    3,000 and 1,500 worlds), and it is the uniform determinization over every consistent
    placement (``_uniform_law``, built without the record: chi-square against its exact
    probabilities; fixed seeds)."""
    game = pyspiel.load_game("love_letter", RECORD_GAME)
    state, player = _after_play(game, kind, seed)
    gen = np.random.default_rng(13)
    ours = [k.hands for k in _worlds(state, player, draws=3000, seed=13)]
    python = [state.kernel.resample(player, gen).hands for _ in range(1500)]
    law = _uniform_law(game, state, player)
    compared = 0
    for q in range(game.num_players()):
        if q == player or not state.kernel.alive[q]:
            continue
        counts, others = Counter(tuple(h[q]) for h in ours), Counter(tuple(h[q]) for h in python)
        exact = Counter()
        for hands, p in law.items():
            exact[tuple(eval(hands)[q])] += p
        values = sorted(set(counts) | set(others))
        if len(values) < 2:  # one hand in every world
            continue
        table = np.array([[counts[v] for v in values], [others[v] for v in values]])
        pvalue = stats.chi2_contingency(table).pvalue
        assert pvalue > 1e-3, (kind, q, pvalue, table)
        values = sorted(set(values) | set(exact))
        pvalue = chi_square_pvalue([counts[v] for v in values], [exact[v] for v in values])
        assert pvalue > 1e-3, (kind, q, pvalue, values, [exact[v] for v in values])
        compared += 1
    assert compared


@pytest.mark.parametrize(
    "plays,first,second,who,rare",
    [
        (GUARD_MISS, KEPT_OLD, KEPT_DRAWN, 1, _p1_holds_the_king),
        (BARON_TIE, TIE_DROPPED, TIE_KEPT, 0, _p0_holds_no_guard),
    ],
)
def test_determinize_does_not_depend_on_the_copy_kept(plays, first, second, who, rare):
    """``nb_determinize`` in two rounds p2 cannot tell apart (test_love_letter.py): one seed,
    one world; the worlds the truth of one round would exclude occur."""
    game = pyspiel.load_game("love_letter(players=3,tokens_to_win=1)")
    states = [_state(game, draws, plays) for draws in (first, second)]
    assert states[0].history() != states[1].history()
    found = 0
    for seed in range(300):
        a, b = (next(_worlds(s, 2, draws=1, seed=seed)) for s in states)
        assert _fields(a) == _fields(b), seed
        found += rare(a)
    assert found > 10


def test_determinize_depends_on_the_information_state_only():
    """The kernel's worlds, seed for seed (``assert_worlds_depend_on_the_information_state_only``)."""
    assert_worlds_depend_on_the_information_state_only(
        lambda state, player, seed: next(_worlds(state, player, draws=1, seed=seed)), seed=22
    )


def test_determinize_deals_the_python_world():
    """Given the placement a kernel world deals, the frozen Python reference (the oracle's
    ``record``, ``witness`` and replay, on the same history) builds the same world, every
    field: one algorithm in both."""
    rng = np.random.default_rng(23)
    checked = 0
    for name in (
        "love_letter(players=4,tokens_to_win=1)",
        "love_letter(players=3,tokens_to_win=1)",
        "love_letter(players=2,tokens_to_win=2)",
    ):
        game = pyspiel.load_game(name)
        for _ in range(20):
            state = play_to_decision(game, rng, int(rng.integers(0, 14)))
            k = oracle.LoveLetterKernel(game.num_players(), game.tokens_to_win)
            for action in state.history():
                k.apply(action)
            assert _fields(k) == _fields(state.kernel)
            for player in range(game.num_players()):
                cases, events = k.record(player)
                for world in _worlds(state, player, draws=3, seed=checked):
                    case = next(case for case in cases if case.fits(world.hands))
                    assert _fields(k._replay(k.witness(events, case, world.hands))) == _fields(world)
                    checked += 1
    assert checked > 300
