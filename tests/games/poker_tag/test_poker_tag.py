"""Tests of the TAG Poker port (lib/infosets/games/poker_tag/: its adapter in game.py, its rules in
kernel.py), as run in pimcts_aggregation (docs/papers/pimcts_aggregation.md)."""

import itertools

import numpy as np
import pyspiel
import pytest

import infosets.games  # noqa: F401
from infosets.games import _history_worlds as hw
from infosets.games import _tabletop as tt
from infosets.games import determinizers
from infosets.games.poker_tag import game as pk
from infosets.games.poker_tag import kernel as pkk
from tabletop_checks import (
    check_adapter_agrees_with_kernel,
    check_errors,
    check_kernel_is_a_search_state,
    chi_square_pvalue,
    play_checking_every_view,
    play_to_decision,
    player_views,
)


def _cards(text: str) -> list[int]:
    return [pk.RANKS.index(c[0]) * 4 + pk.SUITS.index(c[1]) for c in text.split()]


def _value(text: str) -> int:
    """The kernel's hand code of the cards ``text`` names (category << 20, then the ranks)."""
    cards = np.array(_cards(text), np.int64)
    return int(pkk.hand_code(cards, len(cards)))


def _code(*ranks: int) -> int:
    """A hand code from its category and tie-break ranks (rank 0 is a two, 12 an ace)."""
    return sum(r << (20 - 4 * i) for i, r in enumerate(ranks))


def _poker_layout(n):
    """The documented observation tensor layout (module docstring), in order."""
    return [
        ("player", n),
        ("hole", 52),
        ("board", 52),
        ("street", 4),
        ("mover", n),
        ("stack", n),
        ("bet", n),
        ("folded", n),
        ("all_in", n),
        ("out", n),
        ("acted", n),
        ("first", n),
        ("small", n),
        ("big", n),
        ("hand", 1),
        ("bet_made", 1),
    ]


def _check_poker_tensors(state, n, obs_size):
    kernel = state.kernel
    mover = state.current_player()
    for p, v in player_views(state, _poker_layout(n), obs_size, hi=1):
        assert set(np.flatnonzero(v["hole"])) == {c for c in kernel.hole[2 * p : 2 * p + 2] if c >= 0}
        assert set(np.flatnonzero(v["board"])) == set(kernel.board)
        assert not (v["hole"] * v["board"]).any()
        if state.is_terminal():
            assert not v["street"].any()
        else:
            assert v["street"].sum() == 1 and v["street"][kernel.street] == 1
        if mover >= 0:  # betting happens on a full board of the street
            assert len(kernel.board) == (0, 3, 4, 5)[int(np.argmax(v["street"]))]
            assert len(np.flatnonzero(v["hole"])) == (0 if kernel.out[p] else 2)  # out: no cards
        # chips: fractions of the total, conserved (behind + in this hand's pot)
        assert v["stack"].sum() + v["bet"].sum() == pytest.approx(1.0, abs=1e-6)
        assert v["stack"] == pytest.approx([m / (n * kernel.start_money) for m in kernel.money])
        for flag in ("folded", "all_in", "out", "acted", "first", "small", "big", "bet_made"):
            assert set(np.unique(v[flag])) <= {0.0, 1.0}, flag


@pytest.mark.parametrize("players", [2, 3, 6])
def test_random_sim_with_tensors(players):
    game = pyspiel.load_game(f"poker_tag(players={players})")
    assert game.get_type().provides_observation_tensor
    assert game.get_type().provides_information_state_tensor
    pyspiel.random_sim_test(game, num_sims=4, serialize=True, verbose=False)
    assert game.num_players() == players
    obs_size = game.observation_tensor_size()
    assert sum(size for _, size in _poker_layout(players)) == obs_size
    assert [name for name, _ in game.new_initial_state().kernel.tensor_pieces(False)] == [
        name for name, _ in _poker_layout(players)
    ]
    rng = np.random.default_rng(players)
    moves = sum(
        play_checking_every_view(
            game.new_initial_state(), rng, lambda s: _check_poker_tensors(s, players, obs_size)
        )
        for _ in range(2)
    )
    assert moves >= 4


def test_game_type_and_defaults():
    game = pyspiel.load_game("poker_tag")
    gt = game.get_type()
    assert game.num_players() == 3
    assert (gt.min_num_players, gt.max_num_players) == (2, 6)
    assert gt.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert game.num_distinct_actions() == pk.NUM_ACTIONS
    assert game.max_chance_outcomes() == 52
    assert (game.min_utility(), game.max_utility()) == (0.0, 1.0)


def test_adapter_agrees_with_kernel():
    check_adapter_agrees_with_kernel(pyspiel.load_game("poker_tag"), seed=1, games=20)


def test_errors():
    check_errors("poker_tag", bad_players=[1, 7])
    with pytest.raises(ValueError, match="max_hands"):
        pyspiel.load_game("poker_tag(max_hands=0)")
    with pytest.raises(ValueError, match="big_blind"):
        pyspiel.load_game("poker_tag(small_blind=10,big_blind=5)")
    state = play_to_decision(pyspiel.load_game("poker_tag"), np.random.default_rng(0), 1)
    with pytest.raises(ValueError, match="player"):
        hw.sample_world(state, -1, np.random.default_rng(0))
    with pytest.raises(ValueError, match="rng"):
        hw.sample_world(state, 0, 7)


def test_hand_values_rank_standard_hands():
    order = [
        "2c 3d 5h 7s 9c Jd Kh",  # high card
        "2c 2d 5h 7s 9c Jd Kh",  # pair
        "2c 2d 5h 5s 9c Jd Kh",  # two pair
        "2c 2d 2h 7s 9c Jd Kh",  # trips
        "Ac 2d 3h 4s 5c Jd Kh",  # wheel straight
        "6c 7d 8h 9s Tc Jd 2h",  # straight to the jack
        "2h 5h 7h 9h Jh Kd Ac",  # flush
        "2c 2d 2h 7s 7c Jd Kh",  # full house
        "2c 2d 2h 2s 9c Jd Kh",  # quads
        "5h 6h 7h 8h 9h Kd Ac",  # straight flush
        "Th Jh Qh Kh Ah 2d 3c",  # royal flush
    ]
    values = [_value(h) for h in order]
    assert values == sorted(values) and len(set(values)) == len(values)
    assert _value("Ac 2d 3h 4s 5c Jd Kh") == _code(4, 3)  # the wheel: a straight to the five
    # Kickers decide between equal pairs; the board plays for both when it is best.
    assert _value("Ac Ad Kh 7s 6c 3d 2h") > _value("Ac Ad Qh 7s 6c 3d 2h")
    assert _value("2c 3d Th Js Qc Kd Ah") == _value("4c 5d Th Js Qc Kd Ah")
    # Two trips make a full house with the higher trips.
    assert _value("9c 9d 9h 4s 4c 4d Ah") == _code(6, 7, 2)


def _dealt(players=3, seed=0, **params):
    """A kernel after the hole-card deal (blinds posted) with a seeded deal."""
    k = pk.PokerKernel(players, **params)
    rng = np.random.default_rng(seed)
    while k.current_player() == tt.CHANCE:
        outcomes = k.chance_outcomes()
        k.apply(outcomes[rng.integers(len(outcomes))][0])
    return k


def test_blinds_seats_and_first_actions():
    k = _dealt(3)
    assert (k.first, k.big, k.small) == (0, 2, 1)
    assert k.bets == [0, 5, 10] and k.money == [50, 45, 40]
    assert k.current_player() == 0
    # Facing 10: call 10; raise xm adds 10 * m on top of the call.
    assert k.legal_actions() == [
        pk.FOLD,
        pk.CALL,
        pk.RAISE1,
        pk.RAISE2,
        pk.RAISE3,
        pk.RAISE4,
        pk.ALL_IN,
    ]  # x4: 10 + 40 = the whole stack of 50
    k.apply(pk.RAISE1)
    assert k.bets[0] == 20
    k.apply(pk.CALL)
    k.apply(pk.CALL)
    assert k.current_player() == tt.CHANCE and k.street == 1  # the flop is dealt
    for _ in range(3):
        outcomes = k.chance_outcomes()
        k.apply(outcomes[0][0])
    assert k.current_player() == 1  # small blind acts first
    assert k.legal_actions() == [pk.FOLD, pk.CHECK, pk.BET, pk.ALL_IN]
    k.apply(pk.BET)
    assert k.bets == [20, 25, 20]
    assert pk.CHECK not in k.legal_actions() and pk.BET not in k.legal_actions()
    heads_up = _dealt(2)
    assert (heads_up.first, heads_up.small, heads_up.big) == (0, 0, 1)


def _showdown(folded: list[int]):
    """Seeded hands settled by the kernel's ``_settle`` at a showdown: p0 aces, p1 nothing,
    p2 kings on a dry board; bets 20 / 50 / 35 with 0 / 0 / 15 chips behind."""
    k = _dealt(3)
    s = k.s
    s[pkk.HOLE : pkk.HOLE + 6] = _cards("Ac Ad 2c 3d Kc Kd")
    s[pkk.BOARD : pkk.BOARD + 5] = _cards("7h 8s 9d Jc 4h")
    s[pkk.NBOARD] = 5
    s[pkk.BETS : pkk.BETS + 3] = [20, 50, 35]
    s[pkk.MONEY : pkk.MONEY + 3] = [0, 0, 15]
    s[pkk.FOLDED : pkk.FOLDED + 3] = folded
    pkk._settle(s, True)
    return k


def test_side_pots_and_refund():
    k = _showdown([0, 0, 0])
    # Layer 0-20 (60) to p0; layer 20-35 (p1 and p2: 30) to p2; layer 35-50 (p1 only) to p1.
    assert k.money == [60, 15, 45]
    assert k.shown[-2] == 0b111
    k = _showdown([0, 1, 0])
    # p1 folded: layer 20-35 goes to p2 alone; layer 35-50 nobody still in paid: back to p1.
    assert k.money == [60, 15, 45]
    assert k.shown[-2] == 0b101


def test_unanswered_all_in_must_be_answered():
    k = _dealt(3)
    k.apply(pk.ALL_IN)  # p0 all in for 50
    k.apply(pk.FOLD)  # p1 folds: p2 is the only one who can still bet
    assert k.current_player() == 2
    assert k.legal_actions() == [pk.FOLD, pk.CALL, pk.ALL_IN]
    k.apply(pk.FOLD)
    assert k.hand == 1 and k.money == [65, 45, 40]


def test_game_ends_after_max_hands_and_money_is_conserved():
    game = pyspiel.load_game("poker_tag(max_hands=3)")
    rng = np.random.default_rng(4)
    for _ in range(20):
        k = game.new_kernel()
        while not k.is_terminal():
            assert sum(k.money) + sum(k.bets) == 150
            if k.current_player() == tt.CHANCE:
                k.apply(tt.sample_chance(k, rng))
            else:
                legal = k.legal_actions()
                k.apply(legal[rng.integers(len(legal))])
        assert k.hand <= 3 and sum(k.money) == 150
        assert k.hand == 3 or sum(not o for o in k.out) == 1
        assert abs(sum(k.returns()) - 1.0) < 1e-12


def _check_world(game, state, world, who):
    assert world.information_state_string(who) == state.information_state_string(who)
    assert world.observation_string(who) == state.observation_string(who)
    assert world.information_state_tensor(who) == state.information_state_tensor(who)
    assert world.observation_tensor(who) == state.observation_tensor(who)
    assert world.current_player() == state.current_player()
    rebuilt = game.new_initial_state()
    for action in world.history():
        rebuilt.apply_action(action)
    assert str(rebuilt) == str(world)


def test_worlds_keep_infostate_tensors_and_rebuild_from_history():
    game = pyspiel.load_game("poker_tag")
    rng = np.random.default_rng(5)
    sampler = determinizers.sampler_for(game)
    differs = 0
    for i in range(25):
        state = play_to_decision(game, rng, min_moves=int(rng.integers(0, 30)))
        for who in range(3):
            world = state.resample_from_infostate(
                who, pyspiel.UniformProbabilitySampler(int(rng.integers(1 << 30)), 0.0, 1.0)
            )
            _check_world(game, state, world, who)
            other = sampler(state, who, rng)
            _check_world(game, state, other, who)
            assert (
                pk.sample_world(state, who, np.random.default_rng(i)).history()
                == pk.sample_world(state, who, np.random.default_rng(i)).history()
            )
            opp = (who + 1) % 3
            differs += world.observation_tensor(opp) != state.observation_tensor(opp)
    assert differs > 10  # the opponents' hole cards do change between worlds


def test_current_hand_world_is_uniform_over_the_enumerated_set():
    """Heads-up pre-flop: the 50 * 49 ordered hole-card pairs of the opponent."""
    game = pyspiel.load_game("poker_tag(players=2)")
    state = play_to_decision(game, np.random.default_rng(6), 0)
    kernel = state.kernel
    mine = set(kernel.hole[0:2])
    worlds = [w for w in itertools.permutations(range(52), 2) if not set(w) & mine]
    index = {w: i for i, w in enumerate(worlds)}
    assert len(worlds) == 50 * 49
    rng = np.random.default_rng(7)
    counts = np.zeros(len(worlds), dtype=int)
    for _ in range(12 * len(worlds)):
        world = kernel.resample(0, rng)
        assert world.hole[0:2] == kernel.hole[0:2]
        counts[index[tuple(world.hole[2:4])]] += 1
    assert chi_square_pvalue(counts, [1 / len(worlds)] * len(worlds)) > 1e-3


def test_past_hands_keep_shown_cards_and_redraw_folded_ones():
    game = pyspiel.load_game("poker_tag")
    rng = np.random.default_rng(8)
    for _ in range(500):  # a past showdown that did not show every hole card
        state = play_to_decision(game, rng, min_moves=12)
        kernel, player = state.kernel, state.current_player()
        hands = [
            h
            for h in range(kernel.hand)
            if kernel.shown[h]
            and any(
                h2 == h and who != player and not kernel.shown[h] >> who & 1
                for _, h2, who in kernel.hole_slots
            )
        ]
        if hands:
            break
    hand = hands[0]
    slots = [(i, who) for i, h, who in kernel.hole_slots if h == hand]
    hidden = [i for i, who in slots if who != player and not kernel.shown[hand] >> who & 1]
    kept = [i for i, who in slots if who == player or kernel.shown[hand] >> who & 1]
    assert hidden and len(kept) >= 4
    varied = set()
    for _ in range(50):
        world = pk.sample_world(state, player, rng)
        history = world.history()
        assert [history[i] for i in kept] == [kernel.history[i] for i in kept]
        varied.add(tuple(history[i] for i in hidden))
    assert len(varied) > 1


def test_heuristic_is_the_normalised_leader_gap():
    k = _dealt(3)
    k.s[pkk.MONEY : pkk.MONEY + 3] = [70, 40, 30]
    k.s[pkk.BETS : pkk.BETS + 3] = [0, 5, 5]
    h = pk.heuristic(k)
    assert h == pytest.approx([0.5 + 30 / 300, 0.5 - 30 / 300, 0.5 - 40 / 300])
    state = play_to_decision(pyspiel.load_game("poker_tag"), np.random.default_rng(9), 3)
    assert all(0.0 <= v <= 1.0 for v in pk.heuristic(state))
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            state.apply_action(pk.ALL_IN if pk.ALL_IN in state.legal_actions() else pk.CALL)
    assert pk.heuristic(state) == state.returns()


def test_tensor_layout_sizes():
    game = pyspiel.load_game("poker_tag")
    n, L, H = 3, pk.max_hand_actions(3, 150), 10
    obs = 11 * n + 2 * 52 + 4 + 2  # 11 per-player pieces, hole, board, street, 2 scalars
    assert game.observation_tensor_shape() == [obs]
    assert game.information_state_tensor_shape() == [obs + L * (n + 9) + H * n]


def test_kernel_is_a_search_state():
    check_kernel_is_a_search_state(pyspiel.load_game("poker_tag"), seed=10)
