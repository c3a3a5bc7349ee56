"""Tests of the Virus! port (lib/infosets/games/virus/: game.py's adapter on kernel.py's rules)."""

import random
from collections import Counter

import numpy as np
import pyspiel
import pytest

import infosets.games  # noqa: F401
from infosets.core.pcg32 import PCG32
from infosets.games import _tabletop as tt
from infosets.games.virus import game as vi
from infosets.games.virus import kernel as vk
from tabletop_checks import (
    check_adapter_agrees_with_kernel,
    check_errors,
    check_kernel_is_a_search_state,
    check_resample_along_games,
    check_resample_keeps_infostate,
    chi_square_pvalue,
    play_to_decision,
)

R, G, B, Y, W = range(5)


@pytest.mark.parametrize("players", [2, 3, 6])
def test_random_sim(players):
    game = pyspiel.load_game(f"virus(players={players})")
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_adapter_agrees_with_kernel():
    check_adapter_agrees_with_kernel(pyspiel.load_game("virus"), seed=1, games=3)


@pytest.mark.parametrize("players", [3, 5])
def test_resample_keeps_infostate(players):
    check_resample_keeps_infostate(pyspiel.load_game(f"virus(players={players})"), seed=2,
                                   states=15)


def test_errors():
    check_errors("virus", bad_players=[1, 7])


def _set_hand(k, p, cards):
    """Player ``p`` holds ``cards`` (sorted, all of epoch 0)."""
    s, at = k.s, vk.HAND * p
    s[vk.HANDS + at : vk.HANDS + at + len(cards)] = sorted(cards)
    s[vk.HAND_EPOCH + at : vk.HAND_EPOCH + at + len(cards)] = 0
    s[vk.HAND_LEN + p] = len(cards)


def _turn_of(k, p):
    """Player ``p`` to move, nobody owing a card."""
    k.s[vk.CUR] = p
    k.s[vk.TO_DRAW : vk.TO_DRAW + k.n] = 0


def _kernel(hands, bodies=None, n=3):
    """A dealt kernel: player 0 to move holding ``hands[0]`` ..., with organs ``bodies``
    ({player: {slot: attached cards}}) placed by the rules' ``_set_organ``."""
    k = vi.VirusKernel(n)
    _turn_of(k, 0)
    for p, h in enumerate(hands):
        _set_hand(k, p, h)
    for p, body in (bodies or {}).items():
        for slot, organ in body.items():
            vk._set_organ(k.s, p, slot, len(organ), *(list(organ) + [0, 0])[:2])
    for h in hands:
        for c in h:
            k.s[vk.POOL + c] -= 1
    return k


def test_virus_vaccine_and_destruction():
    k = _kernel([[vi.VIRUS + R, vi.VIRUS + W, vi.ORGAN + G], [], []],
                {1: {R: (vi.MEDICINE + R,), B: (vi.VIRUS + B,), Y: ()}})
    legal = k.legal_actions()
    red_on_red = vi.A_VIRUS + (R * vi.MAX_PLAYERS + 1) * vi.NUM_SLOTS + R
    red_on_blue = vi.A_VIRUS + (R * vi.MAX_PLAYERS + 1) * vi.NUM_SLOTS + B
    wild_on_blue = vi.A_VIRUS + (W * vi.MAX_PLAYERS + 1) * vi.NUM_SLOTS + B
    assert red_on_red in legal and red_on_blue not in legal and wild_on_blue in legal
    k.apply(red_on_red)                       # removes the vaccine
    assert k.bodies[1][R] == () and k.discard[vi.MEDICINE + R] == 1
    assert k.to_draw[0] == 1 and k.cur == 1
    _turn_of(k, 0)
    k.apply(wild_on_blue)                     # second virus destroys the organ
    assert k.bodies[1][B] is None and k.discard[vi.ORGAN + B] == 1


def test_medicine_cures_vaccinates_and_immunises():
    k = _kernel([[vi.MEDICINE + W, vi.MEDICINE + G, vi.MEDICINE + G], [], []],
                {0: {G: (vi.VIRUS + G,)}})
    cure = vi.A_MEDICINE + G * vi.NUM_SLOTS + G
    k.apply(cure)
    assert k.bodies[0][G] == ()
    for action in (cure, vi.A_MEDICINE + W * vi.NUM_SLOTS + G):
        _turn_of(k, 0)
        k.apply(action)
    assert vk._immunised(k.s, 0, G)
    _set_hand(k, 1, [vi.VIRUS + G])
    _turn_of(k, 1)
    assert all(a >= vi.A_DISCARD for a in k.legal_actions())   # immunised: no target


def test_four_healthy_organs_win():
    k = _kernel([[vi.ORGAN + Y], [], []],
                {0: {R: (), G: (vi.MEDICINE + G,), B: ()}, 1: {R: (vi.VIRUS + R,)}})
    k.apply(vi.A_ORGAN + Y)
    assert k.is_terminal() and k.returns() == [1.0, 0.0, 0.0]


def test_transplant_thief_error_and_glove():
    k = _kernel([[vi.TRANSPLANT, vi.THIEF, vi.GLOVE], [vi.ORGAN + R], []],
                {0: {R: ()}, 1: {G: (vi.VIRUS + G,), B: (vi.MEDICINE + B, vi.MEDICINE + W)}})
    legal = k.legal_actions()
    assert vk._triple(vi.A_TRANSPLANT, R, 1, B) not in legal    # their blue is immunised
    assert vi.A_THIEF + 1 * vi.NUM_SLOTS + G in legal
    assert vi.A_THIEF + 1 * vi.NUM_SLOTS + B not in legal
    k.apply(vk._triple(vi.A_TRANSPLANT, R, 1, G))
    assert k.bodies[0][G] == (vi.VIRUS + G,) and k.bodies[1][R] == ()
    assert k.bodies[0][R] is None and k.bodies[1][G] is None
    _turn_of(k, 0)
    k.apply(vi.A_GLOVE)
    _turn_of(k, 1)
    assert k.hands[1] == [] and k.legal_actions() == [vi.A_NEW_HAND]  # player 1's turn
    k.apply(vi.A_NEW_HAND)
    assert k.to_draw[1] == vi.HAND


def test_hidden_hands_uniform():
    game = pyspiel.load_game("virus")
    state = play_to_decision(game, np.random.default_rng(3), 0)
    player = state.current_player()
    unseen = np.array(vi.DECK_COUNTS, dtype=float)
    for c in state.kernel.hands[player]:
        unseen[c] -= 1
    rng = np.random.default_rng(4)
    counts = np.zeros(vi.NUM_TYPES, dtype=int)
    for _ in range(4000):
        hand = vi.sample_world(state, player, rng).kernel.hands[(player + 1) % 3]
        counts[hand[rng.integers(len(hand))]] += 1
    assert chi_square_pvalue(counts, unseen / unseen.sum()) > 1e-3


def test_resample_at_every_decision():
    check_resample_along_games(pyspiel.load_game("virus(players=4)"), seed=7, games=1)


def test_kernel_is_a_search_state():
    check_kernel_is_a_search_state(pyspiel.load_game("virus"), seed=8)


def _state_after_a_reshuffle(game, seed):
    """A decision where another player holds a card drawn before the last reshuffle."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(tt.sample_chance(state.kernel, rng))
            continue
        player = state.current_player()
        context = state.kernel.history_context(game, state.history())
        old = [entry[1] for q, held in enumerate(context["in_hand"]) if q != player
               for entry in held if entry[2] < context["epochs"] - 1]
        if old:
            return state, sorted(old)
        legal = state.legal_actions()
        state.apply_action(legal[rng.integers(len(legal))])
    raise AssertionError("no reshuffle with a card held from before it")


def test_cards_drawn_before_a_reshuffle_come_from_their_pile_and_worlds_replay():
    """The resampler alone dealt every hidden card from all unseen cards, so a card drawn
    before a reshuffle could become a card of the new pile, and the world kept the real
    history. The hidden draws of each pile now share that pile's cards, and each world's
    history rebuilds it."""
    game = pyspiel.load_game("virus(players=3)")
    state, old = _state_after_a_reshuffle(game, seed=4)
    player = state.current_player()
    rng = np.random.default_rng(5)
    for _ in range(30):
        world = vi.sample_world(state, player, rng)
        assert world.information_state_string(player) == state.information_state_string(player)
        context = world.kernel.history_context(game, world.history())
        assert sorted(entry[1] for q, held in enumerate(context["in_hand"]) if q != player
                      for entry in held if entry[2] < context["epochs"] - 1) == old
        rebuilt = game.new_initial_state()
        for action in world.history():
            rebuilt.apply_action(action)
        assert str(rebuilt) == str(world) and rebuilt.kernel.hands == world.kernel.hands
        assert all(rebuilt.information_state_string(p) == world.information_state_string(p)
                   for p in range(3))


def _random_action(kernel, rnd):
    if kernel.current_player() == tt.CHANCE:
        outcomes = kernel.chance_outcomes()
        return rnd.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
    return rnd.choice(kernel.legal_actions())


def _apply_tracking_draws(kernel, held, epoch, step, action):
    """Apply ``action`` and update, by the rule written out on the history alone, ``held``
    (per player the [step, card, epoch] of each draw still held: a card leaving a hand takes
    away the earliest draw of its type still held) and the epoch (one more when the deck
    grows: a reshuffle). Returns the new epoch."""
    drawer = kernel._drawer()
    if drawer >= 0:
        held[drawer].append([step, action, epoch])
    movers = () if drawer >= 0 else range(kernel.n) if action == vi.A_GLOVE else (kernel.cur,)
    before = {q: kernel.hands[q][:] for q in movers}
    deck = sum(kernel.pool)
    kernel.apply(action)
    if sum(kernel.pool) > deck - (drawer >= 0):
        epoch += 1
    for q in movers:
        left = tt.list_to_counts(before[q], vi.NUM_TYPES)
        for c in kernel.hands[q]:
            left[c] -= 1
        for c, k in enumerate(left):
            for _ in range(k):
                held[q].remove(next(e for e in held[q] if e[1] == c))
    return epoch


# 40 games (2-4 players), not 100. Line tracing (NUMBA_DISABLE_JIT=1) of
# games/virus/, _tabletop and array_kernel over the first 100 games of this seed: 401 of the
# 415 lines run in game 0, all but one by game 2, the last (the MAX_ROUNDS cap) in game 13;
# each of the first 40 games reshuffles.
EPOCH_GAMES = 40


def test_kernel_epochs_are_the_history_epochs():
    """The kernel's hand epochs (the determinization's information) after every step of 40
    random games are those the history gives each draw still held, and ``history_context``
    (the draws' steps too) agrees. The kernel had no epochs: only the history knew them."""
    rnd = random.Random(11)
    reshuffled = 0
    for g in range(EPOCH_GAMES):
        n = 2 + g % 3
        game = pyspiel.load_game(f"virus(players={n})")
        kernel, held, epoch, history = game.new_kernel(), [[] for _ in range(n)], 0, []
        while not kernel.is_terminal():
            action = _random_action(kernel, rnd)
            epoch = _apply_tracking_draws(kernel, held, epoch, len(history), action)
            history.append(action)
            assert kernel.epoch == epoch
            for q in range(n):
                assert sorted(zip(kernel.hands[q], kernel.hand_epochs[q])) == \
                    sorted((card, e) for _, card, e in held[q])
                assert [(c, e) for c, e in zip(kernel.hands[q], kernel.hand_epochs[q])] == \
                    sorted(zip(kernel.hands[q], kernel.hand_epochs[q]))
            if len(history) % 97 == 0 or kernel.is_terminal():
                context = kernel.history_context(game, history)
                assert context["epochs"] == epoch + 1
                assert [sorted(map(tuple, h)) for h in context["in_hand"]] == \
                    [sorted(map(tuple, h)) for h in held]
                assert [[e[1] for e in h] for h in context["in_hand"]] == kernel.hands
        reshuffled += epoch > 0
    assert reshuffled > 0.9 * EPOCH_GAMES  # 40 of the first 40 games reshuffle (99 of 100)


def _epoch_cards(kernel, player):
    """Per epoch, the sorted cards of the other players' hands of that epoch."""
    cards = {}
    for q in range(kernel.n):
        if q != player:
            for c, e in zip(kernel.hands[q], kernel.hand_epochs[q]):
                cards.setdefault(e, []).append(c)
    return {e: sorted(c) for e, c in cards.items()}


def test_resample_keeps_each_older_epochs_cards_and_is_resample_given():
    """``resample`` (the search's worlds) dealt every hidden card from all unseen cards; now
    a card of an older epoch stays among that epoch's hidden cards, each hand keeps its
    epochs, and ``resample_given`` (sample_world's placement) is the same draw."""
    game = pyspiel.load_game("virus(players=3)")
    moved = 0
    for seed in range(6):
        state, old = _state_after_a_reshuffle(game, seed)
        kernel, player = state.kernel, state.current_player()
        context = kernel.history_context(game, state.history())
        last = context["epochs"] - 1
        for draw in range(40):
            world = kernel.resample(player, PCG32(draw))
            hidden = [c for q in range(3) if q != player for c in world.hands[q]]
            assert not Counter(old) - Counter(hidden)  # the older cards stay in hidden hands
            before = _epoch_cards(kernel, player)
            after = _epoch_cards(world, player)
            assert {e: c for e, c in after.items() if e < last} == \
                {e: c for e, c in before.items() if e < last}
            assert [sorted(h) for h in world.hand_epochs] == [sorted(h) for h in kernel.hand_epochs]
            assert world.hands[player] == kernel.hands[player]
            assert sum(world.pool) == sum(kernel.pool)
            moved += world.hands != kernel.hands
            given = kernel.resample_given(player, PCG32(draw), context)
            assert given.hands == world.hands and given.pool == world.pool
            assert given.hand_epochs == world.hand_epochs
            dealt = context["dealt"]
            for q in range(3):
                if q != player:
                    assert sorted(dealt[entry[0]] for entry in context["in_hand"][q]) == world.hands[q]
    assert moved > 100
