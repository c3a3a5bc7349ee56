"""Public-state constraints, deals and max-flow construction (infosets.filtering)."""

import itertools
import random

import numpy as np
import pyspiel
import pytest

from infosets.filtering.construct import NoConsistentHistory, construct_assignment, construct_history
from infosets.filtering.deals import assignment_of, iter_assignments, iter_deals
from infosets.filtering.enumerate import count_histories, iter_histories
from infosets.filtering.mcmc import AssignmentTable
from infosets.filtering.policies import OhHellSpec, UniformPolicy
from infosets.filtering.public_state import DealConstraints, OhHellPublicState, bits
from infosets.filtering.scenarios import game_for, sample_public_state, true_hands
from infosets.filtering.value import OhHellValue

GAME = "oh_hell(players=3,num_suits=3,num_cards_per_suit=4,num_tricks_fixed=3)"


def random_state(seed, stop=None):
    game = pyspiel.load_game(GAME)
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    while not state.is_terminal() and (stop is None or len(state.history()) < stop):
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(actions[rng.choice(len(actions), p=np.asarray(probs))])
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.integers(len(legal))])
    return state


def test_oh_hell_random_sim():
    pyspiel.random_sim_test(pyspiel.load_game(GAME), num_sims=5, serialize=False, verbose=False)


def test_lean_scoring_matches_pyspiel_on_random_games():
    for seed in range(200):
        state = random_state(seed)
        ps = OhHellPublicState.from_state(state)
        for p in range(3):
            v = OhHellValue(ps, UniformPolicy(3), value_player=p)
            assert v.value(true_hands(state)) == state.returns()[p]


def test_true_deal_satisfies_constraints_and_replays():
    for seed in range(100):
        state = random_state(seed, stop=2 + 9 + 1 + 3 + int(seed % 9))
        ps = OhHellPublicState.from_state(state)
        c = ps.constraints()
        hands = true_hands(state)
        assert c.hands_consistent(hands)
        assert ps.reproduced_by(hands)
        assert assignment_of(c, hands) in set(iter_assignments(c))


def test_voids_are_read_from_failures_to_follow():
    # 3 players, 2 suits x 4; dealer 2 so player 0 leads; C=0, D=1; card = rank*2 + suit.
    ps = OhHellPublicState(3, 2, 4, 2, 2, 7, (0, 0, 0), (0, 2, 1))  # C2, C3, then D2 by p2
    c = ps.constraints()
    assert c.void[2] == (True, False) and c.void[0] == (False, False)
    assert c.known == (1 << 0, 1 << 2, 1 << 1)
    assert c.need == (1, 1, 1, 8 - 1 - 6)


def test_enumeration_matches_brute_force_over_all_deals():
    ps = OhHellPublicState(3, 2, 4, 2, 2, 7, (0, 0, 0), (0, 2, 1))
    c = ps.constraints()
    cards = [x for s in c.unknown_by_suit for x in s]
    brute = set()
    for a, b, d in itertools.permutations(cards, 3):
        hands = ((1 << 0) | (1 << a), (1 << 2) | (1 << b), (1 << 1) | (1 << d))
        if ps.reproduced_by(hands):
            brute.add(hands)
    enumerated = list(iter_histories(c))
    assert len(enumerated) == len(set(enumerated)) == count_histories(c)
    assert set(enumerated) == brute
    assert AssignmentTable(c).size == len(brute)


def test_construction_gives_a_consistent_history():
    spec = OhHellSpec(3, 4, 5, 4)
    rand = random.Random(0)
    for seed in range(20):
        ps, _ = sample_public_state(spec, UniformPolicy(3), 3 + seed % 7, seed)
        hands = construct_history(ps.constraints(), rand)
        assert ps.reproduced_by(hands)


def test_construction_fails_clearly_when_no_history_exists():
    c = DealConstraints(num_players=2, num_suits=2, suit_of=(0, 1, 0, 1, 0), known=(0, 0),
                        need=(2, 2), void=((False, False), (True, False)),
                        unknown_by_suit=((0, 2, 4), (1,)))
    with pytest.raises(NoConsistentHistory, match="no history is consistent") as err:
        construct_assignment(c)
    assert "\n" not in str(err.value)
    assert list(iter_assignments(c)) == []


@pytest.mark.parametrize("plays, problem", [
    ((0, 2, 1, 4, 6, 3), "showed void"),  # p2 shows void in C, then plays C... see below
    ((0, 2, 7), "trump card was played"),
    ((0, 0), "distinct"),
])
def test_impossible_public_sequences_raise_one_line(plays, problem):
    if problem == "showed void":
        # trick 1: p0 C2(0), p1 C3(2), p2 D2(1) -> p2 void in C; trick 2 led by the winner
        # (p1 with C3): p1 C4(4), p2 C5(6) is a club after showing void.
        plays = (0, 2, 1, 4, 6)
    ps = OhHellPublicState(3, 2, 4, 2, 2, 7, (0, 0, 0), plays)
    with pytest.raises(ValueError, match=problem) as err:
        ps.constraints()
    assert "\n" not in str(err.value)


def test_impossible_public_state_from_void_counts():
    # 2 suits x 4, trump D5 (7). p0 leads C2 (0); p1 (D2 = 1) and p2 (D3 = 3) show void in
    # clubs. Three clubs stay unknown but only p0 (1 card) and the pile (1 card) may hold them.
    ps = OhHellPublicState(3, 2, 4, 2, 2, 7, (0, 0, 0), (0, 1, 3))
    c = ps.constraints()
    assert c.void[1][0] and c.void[2][0] and c.suit_totals == (3, 1)
    with pytest.raises(NoConsistentHistory, match="public state: no history is consistent"):
        construct_history(c, random.Random(0))
    assert list(iter_assignments(c)) == []


def test_deals_in_assignment_counts_iter_deals():
    ps, _ = sample_public_state(OhHellSpec(3, 3, 4, 3), UniformPolicy(3), 3, 1)
    c = ps.constraints()
    for a in list(iter_assignments(c))[:10]:
        deals = list(iter_deals(c, a))
        assert len(deals) == len(set(deals)) == c.deals_in_assignment(a)
        assert all(assignment_of(c, d) == a for d in deals)
        assert all(bin(h).count("1") == 3 for d in deals for h in d)
    assert bits(0b1011) == [0, 1, 3]


def test_bad_public_state_inputs():
    with pytest.raises(ValueError, match="state: the deal has not started"):
        OhHellPublicState.from_state(game_for(OhHellSpec(3, 2, 4, 2)).new_initial_state())
