"""Tests of the Dominion port (lib/infosets/games/dominion/game.py)."""

import numpy as np
import pyspiel
import pytest

import infosets.games  # noqa: F401
from infosets.core.pcg32 import PCG32
from infosets.games import _tabletop as tt
from infosets.games.dominion import game as dm
from infosets.games.dominion import kernel as dk
from tabletop_checks import (
    check_adapter_agrees_with_kernel,
    check_errors,
    check_kernel_is_a_search_state,
    check_resample_along_games,
    check_resample_keeps_infostate,
    chi_square_pvalue,
    play_to_decision,
)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_sim(players):
    game = pyspiel.load_game(f"dominion(players={players},max_turns=30)")
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_adapter_agrees_with_kernel():
    check_adapter_agrees_with_kernel(pyspiel.load_game("dominion(max_turns=40)"), seed=1, games=3)


def test_resample_keeps_infostate():
    check_resample_keeps_infostate(pyspiel.load_game("dominion(players=4)"), seed=2, states=15)


def test_resample_at_every_decision():
    check_resample_along_games(pyspiel.load_game("dominion(max_turns=45)"), seed=7, games=1)


def test_errors():
    check_errors("dominion", bad_players=[1, 5])
    with pytest.raises(ValueError, match="max_turns"):
        pyspiel.load_game("dominion(max_turns=0)")


def _set(k, zone, q, counts):
    """Set player ``q``'s count vector in ``zone`` (``dk.DRAW``, ``dk.HAND``, ...) of the array:
    card -> count, every other card 0."""
    row = dk.__dict__[zone] + q * dm.NUM_TYPES
    k.s[row : row + dm.NUM_TYPES] = 0
    for c, count in counts.items():
        k.s[row + c] = count


def _turn_kernel(hands, n=3, actions=1):
    """Player 0 to act with the given hands (card -> count) and ``actions`` actions; the rest
    of the decks drawn."""
    k = dm.DominionKernel(n, 100)
    for p in range(n):
        _set(k, "DRAW", p, {dm.COPPER: 7, dm.ESTATE: 3})
        _set(k, "HAND", p, hands[p])
    k.s[dk.H_TO_DRAW] = 0
    k.s[dk.H_CUR] = 0
    dk._begin_turn(k.s)
    if actions != 1:
        k.s[dk.H_ACTIONS] = actions
    return k


def test_militia_discards_to_three_and_moat_blocks():
    k = _turn_kernel(
        [{dm.MILITIA: 1, dm.COPPER: 4}, {dm.COPPER: 3, dm.ESTATE: 2}, {dm.MOAT: 1, dm.COPPER: 4}]
    )
    k.apply(dm.PLAY + dm.MILITIA)
    assert k.current_player() == 1 and k.phase == dm.MILITIA_DROP
    k.apply(dm.DROP + dm.ESTATE)
    k.apply(dm.DROP + dm.ESTATE)
    assert sum(k.hand[1]) == 3 and k.discard[1][dm.ESTATE] == 2
    assert sum(k.hand[2]) == 5 and k.known[2][dm.MOAT] == 1  # Moat revealed, no discard
    assert k.phase == dm.BUYING and k.coins == 6  # 4 Coppers + 2


def test_merchant_silver_and_market():
    k = _turn_kernel([{dm.MERCHANT: 1, dm.SILVER: 1, dm.COPPER: 3}, {}, {}])
    k.apply(dm.PLAY + dm.MERCHANT)
    k.apply(dm.COPPER)  # chance: Merchant draws a Copper
    assert k.phase == dm.BUYING  # no action card left: straight to buying
    assert k.coins == 1 + 2 + 4  # Merchant bonus, Silver, 4 Coppers
    k.apply(dm.BUY + dm.GOLD)
    assert k.discard[0][dm.GOLD] == 1 and k.supply[dm.GOLD] == 29
    assert k.current_player() == pyspiel.PlayerId.CHANCE  # clean-up draws


def test_mine_gains_a_public_treasure_to_hand():
    k = _turn_kernel(
        [{dm.MINE: 1, dm.MOAT: 1, dm.SILVER: 1, dm.ESTATE: 2}, {}, {}], actions=2
    )  # so the turn stays in the Action phase
    k.apply(dm.PLAY + dm.MINE)
    assert k.legal_actions() == [dm.END, dm.DROP + dm.SILVER]
    k.apply(dm.DROP + dm.SILVER)
    assert k.legal_actions() == [dm.GAIN + t for t in dm.TREASURES]
    k.apply(dm.GAIN + dm.GOLD)
    assert k.hand[0][dm.GOLD] == 1 and k.known[0][dm.GOLD] == 1 and k.trash[dm.SILVER] == 1
    assert "known Gold" in k.information_state_string(1).splitlines()[5]
    k.apply(dm.END)
    assert k.phase == dm.BUYING and k.coins == 3 and k.known[0][dm.GOLD] == 0


def test_cellar_redraws_as_many_as_discarded():
    k = _turn_kernel([{dm.CELLAR: 1, dm.ESTATE: 3, dm.COPPER: 1}, {}, {}])
    k.apply(dm.PLAY + dm.CELLAR)
    k.apply(dm.DROP + dm.ESTATE)
    k.apply(dm.DROP + dm.ESTATE)
    k.apply(dm.END)
    assert k.phase == dm.DRAWING and k.to_draw == 2


def test_game_ends_when_provinces_run_out_and_ties_favour_fewer_turns():
    k = _turn_kernel([{dm.GOLD: 3}, {}, {}], n=2)
    k.s[dk.SUPPLY + dm.PROVINCE] = 1
    for p in range(2):  # equal starting decks: 3 VP each
        _set(k, "DRAW", p, {dm.ESTATE: 3})
    _set(k, "DISCARD", 1, {dm.DUCHY: 2})  # player 1: 3 + 6 = 9 VP
    k.apply(dm.BUY + dm.PROVINCE)  # player 0: 3 + 6 = 9 VP, took one more turn
    assert k.is_terminal()
    assert k.victory_points(0) == k.victory_points(1) == 9
    assert k.returns() == [0.0, 1.0]


def test_hidden_hand_uniform_over_hand_and_draw_pile():
    game = pyspiel.load_game("dominion")
    state = play_to_decision(game, np.random.default_rng(3), 0)
    player = state.current_player()
    other = (player + 1) % 3
    rng = np.random.default_rng(4)
    counts = np.zeros(2, dtype=int)  # Copper or Estate
    for _ in range(3000):
        hand = dm.sample_world(state, player, rng).kernel.hand[other]
        pick = rng.integers(5)
        counts[0 if pick < hand[dm.COPPER] else 1] += 1
    assert chi_square_pvalue(counts, [0.7, 0.3]) > 1e-3


def test_kernel_is_a_search_state():
    check_kernel_is_a_search_state(pyspiel.load_game("dominion"), seed=8)


def _refill_steps(game, history, q):
    """Steps at which player q's empty draw pile took the discard pile (the reshuffles)."""
    kernel, steps = game.new_kernel(), []
    for step, action in enumerate(history):
        before = sum(kernel.draw[q])
        kernel.apply(action)
        if sum(kernel.draw[q]) > before:
            steps.append(step)
    return steps


def _hand_across_a_reshuffle(game, seed):
    """A state of player 1 - q's action phase where q's hand holds cards drawn before q's last
    reshuffle (publicly known: they were all q's cards outside the discard pile then)."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    while True:
        if state.is_chance_node():
            state.apply_action(tt.sample_chance(state.kernel, rng))
            continue
        k = state.kernel
        player = state.current_player()
        if k.cur == player and k.phase == dm.ACTION and k.turns >= 4:
            _, in_hand, _, _ = k.history_context(game, state.history())
            refills = _refill_steps(game, state.history(), 1 - player)
            if refills:
                before = [c for step, c in in_hand[1 - player] if step is not None and step <= refills[-1]]
                if before and sum(k.draw[1 - player]) >= 4:
                    return state, before
        legal = state.legal_actions()
        state.apply_action(legal[rng.integers(len(legal))])


def test_cards_drawn_before_a_reshuffle_stay_in_hand_and_worlds_replay():
    """The resampler once re-dealt a whole hidden hand from hand plus draw pile, so a card
    drawn before the reshuffle could end in the new draw pile, and the world kept the real
    history. Worlds keep those cards, deal the rest uniformly, and replay to themselves."""
    game = pyspiel.load_game("dominion(players=2)")
    state, before = _hand_across_a_reshuffle(game, seed=9)
    player, q = state.current_player(), 1 - state.current_player()
    fixed = tt.list_to_counts(before, dm.NUM_TYPES)
    pool = [state.kernel.draw[q][c] + state.kernel.hand[q][c] - fixed[c] for c in range(dm.NUM_TYPES)]
    rng = np.random.default_rng(10)
    counts = np.zeros(dm.NUM_TYPES, dtype=int)
    for i in range(400):
        world = dm.sample_world(state, player, rng)
        hand = world.kernel.hand[q]
        assert all(hand[c] >= fixed[c] for c in range(dm.NUM_TYPES))
        fresh = tt.counts_to_list([hand[c] - fixed[c] for c in range(dm.NUM_TYPES)])
        counts[fresh[rng.integers(len(fresh))]] += 1
        if i < 20:
            rebuilt = game.new_initial_state()
            for action in world.history():
                rebuilt.apply_action(action)
            assert str(rebuilt) == str(world)
            assert world.information_state_string(player) == state.information_state_string(player)
    assert chi_square_pvalue(counts, np.asarray(pool) / sum(pool)) > 1e-3


def test_the_mover_holds_no_treasure_in_the_buy_phase_of_any_world():
    """Treasures are all played when the Buy phase starts (the play area is public); the
    resampler once could deal the mover a treasure there."""
    game = pyspiel.load_game("dominion(players=2)")
    rng = np.random.default_rng(12)
    state = _play_until(
        game,
        rng,
        lambda s: (
            s.current_player() == 1
            and s.kernel.phase == dm.BUYING
            and s.kernel.cur == 1
            and sum(s.kernel.hand[1]) >= 2
        ),
    )
    for _ in range(40):
        world = dm.sample_world(state, 0, rng)
        assert not any(world.kernel.hand[1][c] for c in dm.TREASURES)
        assert world.information_state_string(0) == state.information_state_string(0)


def _play_until(game, rng, done):
    """Random play, ending every Buy phase at once (nothing bought), until ``done(state)``."""
    state = game.new_initial_state()
    while not done(state):
        if state.is_chance_node():
            state.apply_action(tt.sample_chance(state.kernel, rng))
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.integers(len(legal))] if state.kernel.phase != dm.BUYING else dm.END)
    return state


def _buying_state(game, rng):
    """Player 1's Buy phase (bought nothing yet) with a treasure in their draw pile."""
    return _play_until(
        game,
        rng,
        lambda s: (
            s.kernel.phase == dm.BUYING
            and s.kernel.cur == 1
            and any(s.kernel.draw[1][t] for t in dm.TREASURES)
        ),
    )


def test_the_kernels_resample_is_the_one_determinization_law():
    """``resample`` itself (what the Python reference engine and the compiled determinizer
    draw) keeps the cards held from before a reshuffle and gives the Buy-phase mover no
    treasure; the sampler's placements are its draws (no ``resample_given`` of its own)."""
    assert "resample_given" not in dm.DominionKernel.__dict__
    game = pyspiel.load_game("dominion(players=2)")
    state, before = _hand_across_a_reshuffle(game, seed=9)
    k, player = state.kernel, state.current_player()
    q = 1 - player
    fixed = tt.list_to_counts(before, dm.NUM_TYPES)
    assert all(h >= f for h, f in zip(k.held[q], fixed)) and sum(k.held[q]) > 0
    assert k.history_context(game, state.history())[2] == k.held
    rng = np.random.default_rng(13)
    moved = 0
    for _ in range(300):
        world = k.resample(player, rng)
        assert all(h >= max(f, m) for h, f, m in zip(world.hand[q], k.held[q], k.known[q]))
        assert world.information_state_string(player) == k.information_state_string(player)
        moved += world.hand[q] != k.hand[q]
    assert moved > 0
    buying = _buying_state(game, np.random.default_rng(14))
    for _ in range(100):
        world = buying.kernel.resample(0, rng)
        assert not any(world.hand[1][t] for t in dm.TREASURES)
        assert sum(world.hand[1]) == sum(buying.kernel.hand[1])


def test_held_counts_the_hand_at_a_reshuffle_even_a_gained_card():
    """At a reshuffle the whole hand is public: ``held`` takes it, a Gold gained to hand by
    Mine included (history_context's former rule counted draws only), and a pile of one card
    refilled with one card is a reshuffle too (the former rule saw no growth there)."""
    k = _turn_kernel([{dm.MINE: 1, dm.SMITHY: 1, dm.SILVER: 1, dm.ESTATE: 2}, {}, {}], actions=2)
    _set(k, "DRAW", 0, {dm.COPPER: 1})
    _set(k, "DISCARD", 0, {dm.DUCHY: 1})
    k.apply(dm.PLAY + dm.MINE)
    k.apply(dm.DROP + dm.SILVER)
    k.apply(dm.GAIN + dm.GOLD)
    assert k.held[0] == [0] * dm.NUM_TYPES
    k.apply(dm.PLAY + dm.SMITHY)
    k.apply(dm.COPPER)  # the last card; the Duchy is reshuffled in
    assert k.draw[0][dm.DUCHY] == 1 and k.phase == dm.DRAWING
    assert k.held[0] == k.hand[0] and k.held[0][dm.GOLD] == 1 and k.known[0][dm.GOLD] == 1
    k.apply(dm.DUCHY)
    assert k.held[0][dm.DUCHY] == 0 and k.held[0][dm.ESTATE] == 2
    assert k.phase == dm.BUYING and k.held[0][dm.GOLD] == k.held[0][dm.COPPER] == 0
    world = k.resample(1, np.random.default_rng(0))
    assert world.hand[0] == k.hand[0]  # every card of the mover's hand is public


def _former_random_shuffle(items, rng):
    """``_tabletop.shuffle_in_place`` before the one primitive (frozen copy)."""
    for i in range(len(items) - 1, 0, -1):
        j = int(rng.random() * (i + 1))
        if j > i:
            j = i
        items[i], items[j] = items[j], items[i]


def _former_dominion_shuffled_cards(counts, rng):
    """``dominion.game._shuffled_cards`` before the one primitive (frozen copy)."""
    if not hasattr(rng, "bounded"):
        cards = tt.counts_to_list(counts)
        _former_random_shuffle(cards, rng)
        return cards
    cards = tt.counts_to_list(counts)
    for i in range(len(cards) - 1, 0, -1):
        j = rng.bounded(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def _rng_pair(kind, seed):
    """Two generators of one kind in the same state (numpy Generator, PCG32, SamplerRng)."""
    if kind == "numpy":
        return np.random.default_rng(seed), np.random.default_rng(seed)
    if kind == "pcg32":
        return PCG32(seed), PCG32(seed)
    a, b = np.random.default_rng(seed), np.random.default_rng(seed)
    return tt.SamplerRng(a.random), tt.SamplerRng(b.random)


def _rng_state(rng):
    if isinstance(rng, PCG32):
        return rng.state, rng.inc
    if isinstance(rng, tt.SamplerRng):
        return _rng_state(rng._sampler.__self__)
    return rng.bit_generator.state["state"]["state"]


@pytest.mark.parametrize("kind", ["numpy", "pcg32", "sampler"])
def test_the_one_shuffle_primitive_draws_as_the_former_loops(kind):
    """``tt.shuffled_cards`` / ``tt.shuffle_in_place`` draw what the former loops drew, for
    every caller: without ``bounded`` (every port but Dominion) the former ``random()``
    Fisher-Yates on any rng, a PCG32 included; with ``bounded=True`` (Dominion's resample)
    the former ``dominion._shuffled_cards`` (``rng.bounded`` on a PCG32, ``random()``
    otherwise). Same cards in the same order, and the rng left in the same state, over 300
    seeds of count vectors of 0 to 17 types (Dominion's are 17) with 0 to 12 cards a type."""
    vectors = np.random.default_rng(2024)
    for seed in range(300):
        counts = [int(c) for c in vectors.integers(0, 13, size=int(vectors.integers(0, 18)))]
        if seed % 10 == 0:
            counts = [0] * dm.NUM_TYPES if seed % 20 == 0 else [1]  # nothing, or one card
        new, old = _rng_pair(kind, seed)
        expected = tt.counts_to_list(counts)
        _former_random_shuffle(expected, old)
        assert tt.shuffled_cards(counts, new) == expected, (kind, seed, counts)
        assert _rng_state(new) == _rng_state(old)
        new, old = _rng_pair(kind, seed)
        assert tt.shuffled_cards(counts, new, bounded=True) == \
            _former_dominion_shuffled_cards(counts, old), (kind, seed, counts)
        assert _rng_state(new) == _rng_state(old)
        items = [f"x{i}" for i in range(len(counts))]  # any list, in place
        new, old = _rng_pair(kind, seed)
        mine, theirs = items[:], items[:]
        tt.shuffle_in_place(mine, new)
        _former_random_shuffle(theirs, old)
        assert mine == theirs and _rng_state(new) == _rng_state(old)


def test_dominion_calls_the_one_shuffle_primitive(monkeypatch):
    """Dominion's resample carries no shuffle loop of its own: it asks ``tt.shuffled_cards``
    for the kernel's swaps (``bounded=True``). (Its worlds are the former ones on numpy and
    PCG32 streams: test_dominion_oracle checks them against the frozen code.)"""
    assert not hasattr(dm, "_shuffled_cards")
    calls, real = [], tt.shuffled_cards

    def spy(counts, rng, bounded=False):
        calls.append(bounded)
        return real(counts, rng, bounded)

    state = play_to_decision(pyspiel.load_game("dominion(players=3)"), np.random.default_rng(3), 12)
    player = state.current_player()
    monkeypatch.setattr(tt, "shuffled_cards", spy)
    state.kernel.resample(player, PCG32(5))
    assert calls == [True, True]  # one per other player
