"""CG nC (`trick_game`): its numba rules (through `array_rules.TrickState` and the pyspiel adapter)
against an independent reference, worlds, resampling (infostate kept, voids respected, uniform by
chi-square). The frozen former Python rules are checked in `test_trick_game_oracle.py`."""

import collections
import itertools

import numpy as np
import pyspiel
import pytest
from scipy import stats as scipy_stats

import infosets.games  # noqa: F401  (registers trick_game)
from infosets.games.trick_game import array_rules as K
from infosets.games.trick_game import game as T
from infosets.games.trick_game.deck import make_deck

P_MIN = 1e-3  # chi-square tests: fixed seeds, so a pass is reproducible


# --- an independent, slow reference of the rules (tuples, no bitmasks) -------------------
def reference_deck(n):
    sizes = [n // 4 + (s < n % 4) for s in range(4)]
    return [(s, r) for s in range(4) for r in range(sizes[s])]  # ascending rank in a suit


class ReferenceGame:
    """Plain-list rules from the reading notes; cards are (suit, rank) indices into reference_deck."""

    def __init__(self, n, h, deal):
        self.deck = reference_deck(n)
        self.h = h
        self.hands = [set(deal[:h]), set(deal[h:])]
        self.to_move, self.table, self.won = 0, [], [0, 0]

    def legal(self):
        hand = self.hands[self.to_move]
        if self.table:
            suit = self.deck[self.table[0][1]][0]
            follow = {c for c in hand if self.deck[c][0] == suit}
            if follow:
                return sorted(follow)
        return sorted(hand)

    def play(self, card):
        assert card in self.legal()
        self.hands[self.to_move].remove(card)
        self.table.append((self.to_move, card))
        if len(self.table) == 1:
            self.to_move = 1 - self.to_move
            return
        (p_lead, c_lead), (p_reply, c_reply) = self.table
        s_lead, r_lead = self.deck[c_lead]
        s_reply, r_reply = self.deck[c_reply]
        winner = p_reply if s_reply == s_lead and r_reply > r_lead else p_lead
        self.won[winner] += 1
        self.table, self.to_move = [], winner

    def done(self):
        return not self.hands[0] and not self.hands[1]

    def returns(self):
        diff = self.won[0] - self.won[1]
        return [float(np.sign(diff)), -float(np.sign(diff))]


def random_deal(rng, n, h):
    return [int(c) for c in rng.permutation(n)[:2 * h]]


def play_to(game, deal, plays):
    state = game.new_initial_state()
    for a in list(deal) + list(plays):
        state.apply_action(a)
    return state


def random_state(game, rng, num_plays):
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(int(rng.choice(state.legal_actions())))
    for _ in range(num_plays):
        state.apply_action(int(rng.choice(state.legal_actions())))
    return state


# --- registration and parameters ---------------------------------------------------------
@pytest.mark.parametrize("game_string", [
    "trick_game", "trick_game(num_cards=20)", "trick_game(num_cards=13,hand_size=6)",
    "trick_game(num_cards=4,hand_size=2)"])
def test_random_sim(game_string):
    pyspiel.random_sim_test(pyspiel.load_game(game_string), num_sims=10, serialize=True,
                            verbose=False)


def test_parameters_and_defaults():
    game = pyspiel.load_game("trick_game")
    assert (game.num_cards, game.hand_size) == (10, 3)
    assert pyspiel.load_game("trick_game(num_cards=20)").hand_size == 6
    assert game.num_distinct_actions() == 10 and game.max_chance_outcomes() == 10
    assert game.max_game_length() == 6
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert (game.min_utility(), game.max_utility()) == (-1.0, 1.0)


@pytest.mark.parametrize("game_string, name", [
    ("trick_game(players=3)", "players"), ("trick_game(num_cards=53)", "num_cards"),
    ("trick_game(num_cards=10,hand_size=6)", "hand_size"),
    ("trick_game(num_cards=10,hand_size=0)", "hand_size")])
def test_bad_parameters_raise_one_line(game_string, name):
    with pytest.raises(ValueError, match=name) as info:
        pyspiel.load_game(game_string)
    assert "\n" not in str(info.value)


def test_deck_layout():
    assert make_deck(10).names == ("CQ", "CK", "CA", "DQ", "DK", "DA", "HK", "HA", "SK",
                                     "SA")
    assert [bin(m).count("1") for m in make_deck(13).suit_mask] == [4, 3, 3, 3]
    assert [bin(m).count("1") for m in make_deck(20).suit_mask] == [5, 5, 5, 5]
    assert make_deck(52).names[-1] == "SA"


# --- hand-built rule positions -----------------------------------------------------------
def test_follow_suit_discard_and_winner_leads():
    game = pyspiel.load_game("trick_game")  # C: 0-2, D: 3-5, H: 6-7, S: 8-9
    state = game.state_from_deal((0b0001000011, 0b0000011100))  # p0 CQ CK HK, p1 CA DQ DK
    assert state.current_player() == 0  # player 0 leads the first trick
    assert state.legal_actions() == [0, 1, 6]
    state.apply_action(1)  # CK led
    assert state.legal_actions() == [2]  # p1 must follow with CA
    state.apply_action(2)  # CA wins
    assert state.current_player() == 1 and state.kernel.tricks == [0, 1]
    assert state.legal_actions() == [3, 4]
    state.apply_action(3)  # DQ led; p0 has no diamonds: any card, cannot win
    assert state.legal_actions() == [0, 6]
    state.apply_action(0)
    assert state.kernel.tricks == [0, 2] and state.kernel.voids == [1 << 1, 0]
    assert state.current_player() == 1
    state.apply_action(4)
    state.apply_action(6)
    assert state.is_terminal() and state.returns() == [-1.0, 1.0]


def test_state_from_deal_checks_hands():
    game = pyspiel.load_game("trick_game")
    with pytest.raises(ValueError, match="hands"):
        game.state_from_deal((0b11, 0b11100))  # p0 short of a card
    with pytest.raises(ValueError, match="hands"):
        game.state_from_deal((0b111, 0b1100))  # overlapping


def test_offsuit_higher_card_does_not_win():
    game = pyspiel.load_game("trick_game(num_cards=8,hand_size=2)")  # two cards per suit
    state = game.state_from_deal((0b00000101, 0b10100000), [0, 7])  # CK led, SA discarded
    assert state.kernel.tricks == [1, 0] and state.current_player() == 0


# 20 cards: C T J Q K A = 0..4, D = 5..9, H = 10..14, S = 15..19. Both play their lowest
# legal card; the tricks were worked out by hand.
@pytest.mark.parametrize("hand0, hand1, tricks0, expected", [
    ([2, 3, 4, 5, 6, 7], [0, 1, 8, 9, 10, 11], 3, [0.0, 0.0]),  # 3-3: draw
    ([2, 3, 4, 5, 6, 7], [0, 1, 8, 10, 11, 12], 6, [1.0, -1.0]),
    ([0, 1, 8, 10, 11, 12], [2, 3, 4, 5, 6, 7], 0, [-1.0, 1.0])])
def test_hand_played_results(hand0, hand1, tricks0, expected):
    game = pyspiel.load_game("trick_game(num_cards=20)")
    state = game.state_from_deal((sum(1 << c for c in hand0), sum(1 << c for c in hand1)))
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    assert state.kernel.tricks == [tricks0, 6 - tricks0]
    assert state.returns() == expected


def test_illegal_action_raises():
    game = pyspiel.load_game("trick_game")
    state = game.state_from_deal((0b0001000011, 0b0000011100))
    with pytest.raises(ValueError, match="action"):
        state.apply_action(5)


# --- kernel, adapter and reference agree on thousands of random games --------------------
@pytest.mark.parametrize("n, h, games", [(10, 3, 1500), (20, 6, 500), (13, 6, 300)])
def test_kernel_adapter_reference_agree(n, h, games):
    game = pyspiel.load_game(f"trick_game(num_cards={n},hand_size={h})")
    rng = np.random.default_rng(n * 100 + h)
    for _ in range(games):
        deal = random_deal(rng, n, h)
        state, kernel = game.new_initial_state(), K.TrickState(n, h)
        for card in deal:
            assert state.is_chance_node() and kernel.is_chance()
            outcomes = state.chance_outcomes()
            assert outcomes == kernel.chance_outcomes()
            assert {a for a, _ in outcomes} == set(range(n)) - set(state.history())
            state.apply_action(card)
            kernel.apply(card)
        ref = ReferenceGame(n, h, deal)
        while not ref.done():
            legal = ref.legal()
            assert state.current_player() == kernel.player == ref.to_move
            assert state.legal_actions() == kernel.legal_actions() == legal
            card = legal[int(rng.integers(len(legal)))]
            state.apply_action(card)
            kernel.apply(card)
            ref.play(card)
            assert state.kernel.tricks == kernel.tricks == ref.won
        assert state.is_terminal() and kernel.is_terminal()
        assert state.returns() == kernel.returns() == ref.returns()


def test_random_playout_is_seeded():
    a = K.TrickState(20, 6)
    b = K.TrickState(20, 6)
    K.random_playout(a, np.random.default_rng(5))
    K.random_playout(b, np.random.default_rng(5))
    assert a.plays == b.plays and a.dealt == b.dealt and a.is_terminal()
    # ... and the draws come from the rng handed in: other seeds give other games
    games = set()
    for seed in range(6, 10):
        c = K.TrickState(20, 6)
        K.random_playout(c, np.random.default_rng(seed))
        games.add((tuple(c.dealt), tuple(c.plays)))
    assert len(games) > 1


# --- information states and observations -------------------------------------------------
def test_infostate_hides_opponent_hand_and_undealt_cards():
    game = pyspiel.load_game("trick_game")
    # Same p0 hand and plays; p1's other cards differ.
    s1 = game.state_from_deal((0b0000000111, 0b0000111000), [0, 3])
    s2 = game.state_from_deal((0b0000000111, 0b1000011000), [0, 3])
    assert s1.information_state_string(0) == s2.information_state_string(0)
    assert s1.information_state_tensor(0) == s2.information_state_tensor(0)
    assert s1.information_state_string(1) != s2.information_state_string(1)
    assert s1.observation_string(0) == s2.observation_string(0)
    # Dealing order does not leak: the same hands dealt in another order.
    s3 = play_to(game, [2, 0, 1, 5, 3, 4], [0, 3])
    assert s3.information_state_string(0) == s1.information_state_string(0)
    assert s3.information_state_string(1) == s1.information_state_string(1)


def test_kernel_speaks_the_pyspiel_protocol():
    game = pyspiel.load_game("trick_game(num_cards=20)")
    rng = np.random.default_rng(9)
    for _ in range(200):
        state = game.new_initial_state()
        kernel = K.TrickState(20, 6)
        while True:
            for player in (0, 1):
                assert kernel.information_state_string(player) == \
                    state.information_state_string(player)
            assert kernel.current_player() == state.current_player()
            assert kernel.is_chance_node() == state.is_chance_node()
            if kernel.is_terminal():
                break
            assert kernel.legal_actions() == state.legal_actions()
            action = int(rng.choice(state.legal_actions()))
            child = kernel.child(action)
            assert child.plays != kernel.plays or child.dealt != kernel.dealt
            kernel = child.clone()
            state.apply_action(action)
        assert kernel.returns() == state.returns()


@pytest.mark.parametrize("perfect_recall", [True, False])
def test_public_observer_is_player_independent(perfect_recall):
    """The public observer: the same for both players, the same in every world of a public
    state (deals differing only in the hidden cards), different after different plays."""
    game = pyspiel.load_game("trick_game")
    observer = game.make_py_observer(pyspiel.IIGObservationType(
        public_info=True, perfect_recall=perfect_recall, private_info=pyspiel.PrivateInfoType.NONE))
    assert not {"player", "hand", "hands"} & set(observer.dict)

    def public(state, player):
        observer.set_from(state, player)
        return observer.string_from(state, player), observer.tensor.copy()

    def same(a, b):
        return a[0] == b[0] and np.array_equal(a[1], b[1])

    rng = np.random.default_rng(0)
    private_differs = 0
    for plays in range(2 * game.hand_size):
        state = random_state(game, rng, plays)
        seen = public(state, 0)
        assert same(seen, public(state, 1))
        assert "hand" not in seen[0]
        # worlds with other deals and the same plays: the public view cannot tell them apart
        for _ in range(4):
            world = T.sample_world(state, 0, rng, public=True)
            assert world.kernel.plays == state.kernel.plays
            if world.dealt_hands() == state.dealt_hands():
                continue
            private_differs += world.information_state_string(0) != state.information_state_string(0)
            for player in (0, 1):
                assert same(public(world, player), seen), (plays, player)
        # different plays from here: the public view tells them apart, for either player
        legal = state.legal_actions()
        children = [state.child(a) for a in legal]
        views = [public(child, p) for child in children for p in (0, 1)]
        for i, j in itertools.combinations(range(len(children)), 2):
            for p, q in itertools.product((0, 1), repeat=2):
                assert views[2 * i + p][0] != views[2 * j + q][0], (plays, legal[i], legal[j])
                assert not np.array_equal(views[2 * i + p][1], views[2 * j + q][1])
        # one more play is public too
        assert not same(public(children[0], 0), seen)
    assert private_differs > 0  # the worlds above really hid different private cards


# --- world enumeration -------------------------------------------------------------------
def _all_deals(n, h):
    for hand0 in itertools.combinations(range(n), h):
        rest = [c for c in range(n) if c not in hand0]
        for hand1 in itertools.combinations(rest, h):
            yield sum(1 << c for c in hand0), sum(1 << c for c in hand1)


def _brute_force_worlds(state, key):
    """Deals whose replay of the plays is legal and gives the same `key` string."""
    game = state.get_game()
    plays = state.kernel.plays
    target = key(state)
    found = set()
    for hands in _all_deals(game.num_cards, game.hand_size):
        try:
            world = game.state_from_deal(hands, plays)
        except ValueError:
            continue
        if key(world) == target:
            found.add(hands)
    return found


def test_consistent_and_public_worlds_match_brute_force():
    game = pyspiel.load_game("trick_game(num_cards=8,hand_size=3)")
    public = game.make_py_observer(pyspiel.IIGObservationType(
        public_info=True, perfect_recall=True, private_info=pyspiel.PrivateInfoType.NONE))
    rng = np.random.default_rng(3)
    for num_plays in (0, 2, 3):
        state = random_state(game, rng, num_plays)
        for player in (0, 1):
            worlds = list(T.consistent_worlds(state, player))
            deals = {w.dealt_hands() for w, _ in worlds}
            assert len(deals) == len(worlds) == T.count_consistent_worlds(state, player)
            expected = _brute_force_worlds(state, lambda s, p=player:
                                           s.information_state_string(p))
            assert deals == expected
            assert all(w.information_state_string(player) ==
                       state.information_state_string(player) for w, _ in worlds)
        worlds = list(T.public_worlds(state))
        deals = {w.dealt_hands() for w, _ in worlds}
        assert len(deals) == len(worlds) == T.count_public_worlds(state)
        assert deals == _brute_force_worlds(state, lambda s: public.string_from(s, 0))
        # 8 cards, 3 each: every deal has probability 1 / (C(8,3) C(5,3)) = 1 / 560.
        assert all(abs(p - 1 / 560) < 1e-12 for _, p in worlds)


def test_worlds_with_a_void_match_brute_force():
    state = _void_state()
    worlds = {w.dealt_hands() for w, _ in T.consistent_worlds(state, 0)}
    assert worlds == _brute_force_worlds(state, lambda s: s.information_state_string(0))
    assert len(worlds) == 10  # p1 holds 2 of the 5 non-club hidden cards


def test_root_world_counts():
    game = pyspiel.load_game("trick_game")
    state = random_state(game, np.random.default_rng(0), 0)
    assert T.count_public_worlds(state) == 4200  # C(10,3) C(7,3)
    assert T.count_consistent_worlds(state, 0) == 35  # C(7,3)


# --- resampling ---------------------------------------------------------------------------
def _void_state():
    """CG 10C after p0 leads CQ and p1, void in clubs, discards HK (p1 holds no clubs)."""
    game = pyspiel.load_game("trick_game")
    state = game.state_from_deal((0b0000010011, 0b1001001000), [0, 6])
    assert state.kernel.voids == [0, 1]
    return state


def test_resample_keeps_infostate_and_respects_voids():
    state = _void_state()
    sampler = pyspiel.UniformProbabilitySampler(7, 0., 1.)
    rng = np.random.default_rng(7)
    clubs = make_deck(10).suit_mask[0]
    for _ in range(300):
        for world in (state.resample_from_infostate(0, sampler), state.sample_world(0, rng)):
            assert world.information_state_string(0) == state.information_state_string(0)
            assert world.dealt_hands()[1] & clubs == 0  # p1 showed void in clubs
            assert world.history()[-2:] == state.history()[-2:]


@pytest.mark.parametrize("method", ["resample", "sample_world", "public"])
def test_draws_are_uniform_over_consistent_worlds(method):
    state = _void_state()
    sampler = pyspiel.UniformProbabilitySampler(11, 0., 1.)
    rng = np.random.default_rng(11)
    if method == "public":
        support = {w.dealt_hands() for w, _ in T.public_worlds(state)}
        draw = lambda: T.sample_world(state, 1, rng, public=True)  # noqa: E731
    else:
        support = {w.dealt_hands() for w, _ in T.consistent_worlds(state, 0)}
        draw = (lambda: state.resample_from_infostate(0, sampler)) if method == "resample" \
            else (lambda: T.sample_world(state, 0, rng))
    num = 40 * len(support)
    counts = collections.Counter(draw().dealt_hands() for _ in range(num))
    assert set(counts) <= support
    assert scipy_stats.chisquare([counts[d] for d in sorted(support)]).pvalue > P_MIN


def test_resample_bad_player_raises():
    state = _void_state()
    with pytest.raises(ValueError, match="player"):
        state.sample_world(2, np.random.default_rng(0))
