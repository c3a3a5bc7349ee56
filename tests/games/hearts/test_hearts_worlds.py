"""Exact Hearts worlds (games/hearts/worlds.py): real states, the player's view kept in every
phase, the consistent deals drawn uniformly (checked against enumeration), and no unseen pass
or true card kept more often than chance."""

import collections
import itertools
import re

import numpy as np
import pyspiel
import pytest
from scipy import stats as scipy_stats

from infosets.games.determinizers import determinizer_label, sampler_for
from infosets.games.hearts.worlds import (
    ALL_CARDS,
    ONLY_HEARTS,
    ONLY_POINTS,
    TWO_OF_CLUBS,
    HeartsWorlds,
    _hand_limits,
    _Plan,
)

P_MIN = 1e-3  # fixed seeds: the tests are deterministic; this only guards against real bias
GAME = pyspiel.load_game("hearts")
RULES = HeartsWorlds(GAME).rules


def card(name: str) -> int:
    """OpenSpiel's index of a card named like '8C' (rank * 4 + suit, suits C D H S)."""
    return "23456789TJQKA".index(name[0]) * 4 + "CDHS".index(name[1])


def random_state(seed: int, decisions: int, pass_dir: int | None = None) -> pyspiel.State:
    """A seeded random Hearts game stopped at its ``decisions``-th decision."""
    rng = np.random.default_rng(seed)
    state = GAME.new_initial_state()
    seen = 0
    while True:
        if state.is_chance_node():
            outcomes = [a for a, _ in state.chance_outcomes()]
            if not state.history() and pass_dir is not None:
                outcomes = [pass_dir]
            state.apply_action(outcomes[rng.integers(len(outcomes))])
            continue
        if seen == decisions:
            return state
        legal = state.legal_actions()
        state.apply_action(legal[rng.integers(len(legal))])
        seen += 1


def test_card_indices_follow_openspiel():
    dealing = GAME.new_initial_state()
    dealing.apply_action(1)
    for name in ("2C", "8C", "TD", "QS", "5H", "AS"):
        assert dealing.action_to_string(pyspiel.PlayerId.CHANCE, card(name)) == name
    assert card("2C") == TWO_OF_CLUBS


@pytest.mark.parametrize("pass_dir", [0, 1, 2, 3])
@pytest.mark.parametrize("decisions", [0, 1, 5, 11, 12, 13, 30, 50, 62])
def test_worlds_are_real_states_with_the_players_view(pass_dir, decisions):
    """Every phase (passing, first lead, mid-game, last trick), the mover and a non-mover:
    the world has the player's information state, its history rebuilds it, none refused."""
    decisions = min(decisions, (64 if pass_dir else 52) - 1)   # 62: the last card of a game
    state = random_state(10 * pass_dir + decisions, decisions, pass_dir)
    sampler = HeartsWorlds(GAME)
    rng = np.random.default_rng(decisions)
    for player in (state.current_player(), (state.current_player() + 1) % 4):
        view = state.information_state_string(player)
        for _ in range(10):
            world = sampler(state, player, rng)
            assert world.information_state_string(player) == view
            assert world.current_player() == state.current_player()
            rebuilt = GAME.new_initial_state()
            for action in world.history():
                rebuilt.apply_action(action)
            assert str(rebuilt) == str(world)
    assert sampler.refused == 0


def test_worlds_vary_and_are_reproducible_from_the_rng():
    state = random_state(3, 20)
    sampler = HeartsWorlds(GAME)
    a = [sampler(state, 2, np.random.default_rng(5)).history() for _ in range(2)]
    assert a[0] == a[1]
    rng = np.random.default_rng(6)
    assert len({tuple(sampler(state, 2, rng).history()) for _ in range(20)}) > 10


def test_the_deal_is_uniform_over_every_consistent_one():
    """Late in a game every assignment of the unseen cards to the opponents is enumerated and
    kept when the true history, with those hands, replays legally to the same view; the
    sampled hands must be uniform over exactly that set (passes do not weigh: each hand
    leaves the same number of unseen passes)."""
    state = random_state(21, 12 + 40, pass_dir=1)  # trick 11 of 13
    player = state.current_player()
    plan = _Plan(state, player, RULES)
    opponents = plan.opponents
    unknown = sorted(c for _, cards in plan.classes for c in cards)
    need = [plan.need[p] for p in opponents]
    consistent = set()
    for hand0 in itertools.combinations(unknown, need[0]):
        rest = [c for c in unknown if c not in hand0]
        for hand1 in itertools.combinations(rest, need[1]):
            hand2 = tuple(c for c in rest if c not in hand1)
            hands = dict(zip(opponents, (hand0, hand1, hand2)))
            if _consistent(plan, hands, state, player):
                consistent.add(tuple(tuple(sorted(hands[p])) for p in opponents))
    assert 2 < len(consistent) < 2000
    sampler = HeartsWorlds(GAME)
    rng = np.random.default_rng(0)
    draws = collections.Counter()
    for _ in range(40 * len(consistent)):
        world = sampler(state, player, rng)
        draws[tuple(tuple(sorted(_hand(world, p) - plan.known_held[p])) for p in opponents)] += 1
    assert set(draws) <= consistent
    observed = [draws.get(h, 0) for h in sorted(consistent)]
    assert scipy_stats.chisquare(observed).pvalue > P_MIN


def _hand(world, seat):
    """Cards ``seat`` holds now (read from its own information state)."""
    block = world.information_state_string(seat).split("Hand:")[1].split("\n\n")[0]
    return {card(rank + line[0]) for line in block.strip().splitlines()
            for rank in line[2:].strip() if line[2:].strip() != "none"}


def _consistent(plan, hands, state, player) -> bool:
    """Does some world with these current opponent hands replay to the player's view? Built
    like a drawn world, with the unseen passes fixed to the receivers' first cards."""
    class Fixed:
        def __init__(self):
            self.hands = hands

        def draw(self, classes, rng):
            return {p: list(h) for p, h in self.hands.items()}

    saved = plan.counts
    plan.counts = Fixed()
    try:
        history = plan.draw_history(np.random.default_rng(0))
    finally:
        plan.counts = saved
    world = GAME.new_initial_state()
    for i, action in enumerate(history):
        if i >= len(history) - len(plan.plays) and action not in world.legal_actions():
            return False
        world.apply_action(action)
    return world.information_state_string(player) == state.information_state_string(player)


def test_no_unseen_pass_is_kept():
    """East passes after North: North's three cards are unseen by East, so a world keeps them
    with chance 1 / C(13, 3) given North's hand, far less than the 45% of OpenSpiel's
    resampler."""
    state = random_state(4, 3, pass_dir=1)    # North has passed, East to pass
    assert state.current_player() == 1

    def north_pass(s):
        return re.search(r"Passed Cards:\nN: ([^\n]*)", str(s)).group(1).strip()

    rng = np.random.default_rng(0)
    sampler = HeartsWorlds(GAME)
    kept = sum(north_pass(sampler(state, 1, rng)) == north_pass(state) for _ in range(200))
    assert kept <= 2


def test_a_true_card_stays_with_its_holder_no_more_than_chance():
    """At the first lead nothing but the leader's two of clubs is public: each card East
    cannot place stays with its true holder as often as that hand's share of the free cards
    (the holder's need over the cards any opponent may hold), in every pass direction."""
    for seed, pass_dir in [(8, 2), (9, 1), (10, 3)]:
        state = random_state(seed, 12, pass_dir=pass_dir)
        player = (state.current_player() + 1) % 4
        plan = _Plan(state, player, RULES)
        (mask, free), = [(m, c) for m, c in plan.classes if m == 0b111]
        pinned = {p: 0 for p in plan.opponents}
        for m, cards in plan.classes:
            if m != 0b111:
                pinned[plan.opponents[m.bit_length() - 1]] += len(cards)
        rng = np.random.default_rng(1)
        sampler = HeartsWorlds(GAME)
        truth = {p: _hand(state, p) & set(free) for p in plan.opponents}
        same = dict.fromkeys(truth, 0)
        for _ in range(600):
            world = sampler(state, player, rng)
            for p in truth:
                same[p] += len(truth[p] & _hand(world, p))
        for p in truth:
            expected = (plan.need[p] - pinned[p]) / len(free)
            assert abs(same[p] / (600 * len(truth[p])) - expected) < 0.015, (seed, p)


def test_the_play_reveals_voids_and_the_rules_hands():
    plays = [(0, card("2C")), (1, card("5H")), (2, card("3C")), (3, card("QS")),   # trick 1
             (2, card("4D")), (3, card("5D")), (0, card("6S")), (1, card("7D")),   # 0 void in D
             (1, card("2H"))]                                                     # unbroken? no
    limits = _hand_limits(plays, RULES, mover=2)
    voids = ALL_CARDS - {c for c in ALL_CARDS if c % 4 == 0}
    assert (1, voids) in limits and (1, ONLY_POINTS) in limits      # first trick: a heart
    assert (3, voids) in limits and (3, ONLY_POINTS) in limits      # first trick: the queen
    assert (0, ALL_CARDS - {c for c in ALL_CARDS if c % 4 == 1}) in limits
    assert (1, ONLY_HEARTS) not in limits       # hearts were broken on the first trick
    unbroken = [(0, card("2C")), (1, card("3C")), (2, card("4C")), (3, card("5C")),
                (3, card("6H"))]
    assert (3, ONLY_HEARTS) in _hand_limits(unbroken, RULES, mover=0)
    assert [lim for lim in _hand_limits([], RULES, mover=2)] == [
        (p, ALL_CARDS - {TWO_OF_CLUBS}) for p in (0, 1, 3)]


def test_sampler_for_serves_hearts_with_these_worlds():
    assert isinstance(sampler_for(GAME), HeartsWorlds)
    assert determinizer_label(GAME).startswith("exact worlds")


def test_bad_calls_are_refused_in_one_line():
    with pytest.raises(ValueError, match="^game: HeartsWorlds serves 'hearts'"):
        HeartsWorlds(pyspiel.load_game("spades"))
    state = random_state(1, 14)
    with pytest.raises(ValueError, match="player"):
        HeartsWorlds(GAME)(state, 4, np.random.default_rng(0))
    chance = GAME.new_initial_state()
    with pytest.raises(ValueError, match="^state: "):
        HeartsWorlds(GAME)(chance, 0, np.random.default_rng(0))
