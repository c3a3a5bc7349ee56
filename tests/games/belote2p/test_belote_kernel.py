"""The belote2p kernel as the compiled engine sees it (belote_ismcts): the engine's view
(``kernels.Kernel``: chance outcomes, legal sets, returns, histories, information-state strings
and keys) agrees with the pyspiel adapter on random games, and the determinizer keeps the
information state and draws like the adapter's ``sample_world``. The rules themselves are
checked against the frozen former Python rules in ``test_belote_oracle.py``."""

import random
from collections import Counter

import numpy as np
import pyspiel
from scipy import stats

import infosets.games  # noqa: F401  (registers belote2p)
from infosets.core.pcg32 import PCG32
from infosets.games.belote2p import deal as deal_lib
from infosets.games.belote2p import kernel as bk
from infosets.games.belote2p.game import sample_world
from infosets.games.belote2p.position import Position
from infosets.games.kernels import kernel_for

GAME = pyspiel.load_game("belote2p")
KERNEL = kernel_for(GAME)


def _check(real, arr, keys, strings=True):
    rules = KERNEL.rules
    buf, probs, out = np.zeros(32, np.int64), np.zeros(32), np.zeros(2)
    assert rules.nb_current_player(arr) == real.current_player()
    n = rules.nb_legal_actions(arr, buf)
    if real.is_terminal():
        rules.nb_returns(arr, out)
        assert list(out) == real.returns()
        return
    if real.is_chance_node():
        m = rules.nb_chance_outcomes(arr, buf, probs)
        assert [(int(a), p) for a, p in zip(buf[:m], probs[:m])] == real.chance_outcomes()
        assert m == n
    else:
        assert list(buf[:n]) == real.legal_actions()
    if strings:
        for p in (0, 1):
            text = real.information_state_string(p)
            assert KERNEL.infostate_string(arr, p) == text
            if not real.is_chance_node():
                assert keys.setdefault((p, rules.nb_infostate_key(arr, p)), text) == text


def test_kernel_view_agrees_with_the_adapter_on_100_random_games():
    """100 games: the engine's conversions and the information-state key (one key per
    information-state string) on the adapter's states."""
    rnd, rng, keys = random.Random(5), np.random.default_rng(5), {}
    for game_index in range(100):
        real, arr = GAME.new_initial_state(), KERNEL.from_history([])
        exact_chance = game_index < 12  # the exact deal probabilities are slow: a few games
        while real.is_chance_node():
            if exact_chance:
                _check(real, arr, keys)
                action = rnd.choice(real.legal_actions())
            else:
                if not real.history():
                    deal = deal_lib.fair_deal(rng) + [int(rng.integers(2))]
                action = deal[len(real.history())]
            real.apply_action(action)
            bk.nb_apply_action(arr, action)
        _check(real, arr, keys)
        while not real.is_terminal():
            action = rnd.choice(real.legal_actions())
            real.apply_action(action)
            bk.nb_apply_action(arr, action)
            _check(real, arr, keys, strings=game_index % 4 == 0 or real.is_terminal())
        assert KERNEL.history(arr) == real.history()
        assert KERNEL.to_state(GAME, arr).history() == real.history()
    assert len(keys) > 1_000


def test_a_state_dealt_directly_converts_like_one_dealt_by_chance():
    rng = np.random.default_rng(1)
    deal, first = deal_lib.fair_deal(rng), 1
    direct = GAME.new_state_from_deal(deal, first)
    chance = GAME.new_initial_state()
    for action in deal + [first]:
        chance.apply_action(action)
    for _ in range(7):
        action = int(rng.choice(direct.legal_actions()))
        direct.apply_action(action)
        chance.apply_action(action)
    assert np.array_equal(KERNEL.from_state(direct), KERNEL.from_state(chance))
    assert bk.adapter_history(chance) == chance.history()


def _position(seed, plies):
    """A state after ``plies`` random cards, with at least one revealed void."""
    rng = np.random.default_rng(seed)
    while True:
        state = GAME.new_state_from_deal(deal_lib.fair_deal(rng), int(rng.integers(2)))
        for _ in range(plies):
            state.apply_action(int(rng.choice(state.legal_actions())))
        player = state.current_player()
        if state.kernel.excluded(1 - player):
            return state, player


def _opponent_hand(arr, player):
    return int(arr[bk.HAND + 1 - player])


def test_determinize_keeps_the_information_state_and_matches_sample_world():
    state, player = _position(3, 13)
    arr, rng = KERNEL.from_state(state), PCG32(9).to_array()
    excluded = state.kernel.excluded(1 - player)
    ours, theirs = Counter(), Counter()
    draws = 3000
    for i in range(draws):
        world = arr.copy()
        bk.nb_determinize(world, player, rng)
        hand = _opponent_hand(world, player)
        assert hand & excluded == 0
        ours.update(c for c in range(32) if hand >> c & 1)
        if i % 100 == 0:
            assert KERNEL.infostate_string(world, player) == state.information_state_string(player)
            real = KERNEL.to_state(GAME, world)  # replays legally, and the deal is fair
            assert GAME.constraint.is_fair(real.deal)
            assert real.information_state_string(player) == state.information_state_string(player)
    npg = np.random.default_rng(4)
    for _ in range(draws):
        world = sample_world(state, player, npg)
        hand = world.kernel.hand[1 - player]
        theirs.update(c for c in range(32) if hand >> c & 1)
    cards = sorted(set(ours) | set(theirs))
    assert len(cards) > state.kernel.hand[1 - player].bit_count()
    table = np.array([[ours[c] for c in cards], [theirs[c] for c in cards]])
    assert stats.chi2_contingency(table).pvalue > 1e-3


def test_determinize_switches_off_give_the_authors_uniform_shuffle():
    state, player = _position(6, 11)
    arr = KERNEL.from_state(state)
    arr[bk.INFER] = arr[bk.CONSTRAIN] = 0
    hidden = state.kernel.hidden_from(player)
    rng, counts = PCG32(2).to_array(), Counter()
    for _ in range(4000):
        world = arr.copy()
        bk.nb_determinize(world, player, rng)
        hand = _opponent_hand(world, player)
        assert hand | hidden == hidden
        counts.update(c for c in range(32) if hand >> c & 1)
    cards = [c for c in range(32) if hidden >> c & 1]
    assert sorted(counts) == cards  # excluded cards too: no inference
    assert stats.chisquare([counts[c] for c in cards]).pvalue > 1e-3


def test_determinize_depends_only_on_what_the_player_sees():
    state, player = _position(8, 9)
    other = sample_world(state, player, np.random.default_rng(0))
    assert other.deal != state.deal
    worlds = []
    for s in (state, other):
        world = KERNEL.from_state(s)
        bk.nb_determinize(world, player, PCG32(5).to_array())
        worlds.append(world)
    assert np.array_equal(worlds[0], worlds[1])


def test_position_arrays_play_like_the_rules_kernel():
    rng, rnd = np.random.default_rng(2), random.Random(2)
    for _ in range(50):
        k = Position.from_deal(deal_lib.fair_deal(rng), int(rng.integers(2)))
        arr = bk.array_from_position(k)
        buf, out = np.zeros(32, np.int64), np.zeros(2)
        while not k.is_terminal():
            n = bk.nb_legal_actions(arr, buf)
            assert list(buf[:n]) == k.legal_moves()
            card = rnd.choice(k.legal_moves())
            k.play(card)
            bk.nb_apply_action(arr, card)
        bk.nb_returns(arr, out)
        assert list(out) == [k.score(0), k.score(1)]
