"""The virus numba kernel (pimcts_aggregation, 3 players in the paper) in the compiled engine's
record (``kernels.kernel_for``) against the pyspiel adapter running it, the adapter's world
sampler, and the Python reference engines. The rules themselves are checked against the frozen
Python oracle (``test_virus_oracle.py``)."""

import random
from collections import Counter

import numpy as np
import pyspiel
import pytest

from infosets.core.pcg32 import PCG32
from infosets.games import _tabletop as tt
from infosets.games.kernels import kernel_for
from infosets.games.virus import game as vg
from infosets.games.virus import kernel as vk
from kernel_checks import (
    CUT_ROLLOUTS_CYCLE,
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

# players -> random games, each comparing every string and key at every step. The adapter steps
# the array's own rules (checked against the oracle in test_virus_oracle.py), so only these
# games check something: the former 100/100/40/20 games, of which one in 25/25/20/100 compared
# the strings, compared those rules with themselves in the others. Distinct information states
# met with the string games alone: over 1,000 for each number of players.
PLAYERS = {2: 4, 3: 4, 4: 2, 6: 1}


@pytest.mark.parametrize("players", sorted(PLAYERS))
def test_kernel_agrees_with_adapter_on_random_games(players):
    game = pyspiel.load_game("virus", {"players": players})
    distinct = check_random_games(game, PLAYERS[players], seed=players, strings_every=1)
    assert distinct > 500  # many distinct information states met, no key collision
    check_pyspiel_games(game, 2, seed=players)


@pytest.mark.parametrize("players", [2, 3, 6])
def test_determinize_keeps_the_information_state(players):
    game = pyspiel.load_game("virus", {"players": players})
    states = decision_states(game, 30, seed=players, stop=0.02)
    check_determinize_keeps_infostate(game, states, seed=players)
    check_heuristic_on_returns_scale(game, states)


def test_determinize_matches_the_adapter_resample():
    game = pyspiel.load_game("virus", {"players": 3})
    state = decision_states(game, 1, seed=4, stop=0.05)[0]
    player = state.current_player()
    other = (player + 1) % 3

    def hand(k):
        return tuple(k.hands[other])

    def deck(k):
        return k.pool[vg.ORGAN + vg.WILD], k.pool[vg.THIEF], k.pool[vg.MEDICINE]

    for statistic in (hand, deck):
        pvalue = compare_samplers(game, state, statistic, draws=3000, seed=5)
        assert pvalue > 1e-3, (statistic.__name__, pvalue)


def test_determinize_keeps_own_hand_and_the_table():
    game = pyspiel.load_game("virus", {"players": 3})
    state = decision_states(game, 1, seed=8, stop=0.05)[0]
    kernel = kernel_for(game)
    player = state.current_player()
    for world in worlds(game, state, draws=200, seed=3):
        k = kernel.to_kernel(world)
        assert k.hands[player] == state.kernel.hands[player]
        assert k.bodies == state.kernel.bodies and k.discard == state.kernel.discard
        assert [len(h) for h in k.hands] == [len(h) for h in state.kernel.hands]
        assert all(h == sorted(h) for h in k.hands)


def test_heuristic_is_the_leader_lead_in_healthy_organs():
    game = pyspiel.load_game("virus", {"players": 3})
    kernel = kernel_for(game)
    k = game.new_kernel()
    k.s[vk.TO_DRAW : vk.TO_DRAW + 3] = 0
    vk._set_organ(k.s, 0, vg.RED, 0, 0, 0)
    vk._set_organ(k.s, 0, vg.BLUE, 1, vg.MEDICINE + vg.BLUE, 0)
    vk._set_organ(k.s, 1, vg.RED, 1, vg.VIRUS + vg.RED, 0)  # infected: not healthy
    vk._set_organ(k.s, 2, vg.GREEN, 0, 0, 0)
    out = np.zeros(3)
    kernel.rules.nb_heuristic(kernel.from_kernel(k), out)
    leads = np.array([2 - 1, 0 - 2, 1 - 2])
    assert np.allclose(out, 0.5 + 0.5 * leads / (np.abs(leads) + vk.LEAD_SCALE))


def test_compiled_engine_equals_python_reference():
    game = pyspiel.load_game("virus", {"players": 3})
    engines_agree(
        game,
        decision_states(game, CUT_ROLLOUTS_CYCLE, seed=23, stop=0.02),
        iterations=6,
        settings=cut_rollouts(),
    )


def _positions(count, seed, stop, skip=0):
    """``count`` pyspiel decision states of random games (2-4 players), each game stopped at
    a decision after the first ``skip`` with probability ``stop``: long games, many past a
    reshuffle."""
    rnd, found = random.Random(seed), []
    while len(found) < count:
        game = pyspiel.load_game("virus", {"players": 2 + len(found) % 3})
        found += decision_states(game, 1, seed=rnd.randrange(1 << 30), stop=stop, skip=skip)
    return found


def _older_epochs(state):
    """Per epoch before the last (from ``history_context``: the history's epochs), the sorted
    cards of the other players' hands of that epoch; and the last epoch."""
    game, player = state.get_game(), state.current_player()
    context = state.kernel.history_context(game, state.history())
    last = context["epochs"] - 1
    cards = {}
    for q, held in enumerate(context["in_hand"]):
        for _, card, epoch in held:
            if q != player and epoch < last:
                cards.setdefault(epoch, []).append(card)
    return {e: sorted(c) for e, c in cards.items()}, last


def _by_epoch(k, player, older: bool, last: int):
    """The other players' hand cards of epochs before ``last`` (``older``) or of ``last``,
    per player (a list each) and per epoch (sorted)."""
    hands, epochs = [], {}
    for q in range(k.n):
        kept = [(c, e) for c, e in zip(k.hands[q], k.hand_epochs[q]) if (e < last) == older]
        hands.append([c for c, _ in kept] if q != player else [])
        for c, e in kept:
            if q != player:
                epochs.setdefault(e, []).append(c)
    return hands, {e: sorted(c) for e, c in epochs.items()}


def test_determinize_keeps_each_older_epochs_cards():
    """``nb_determinize`` dealt every hidden card from all unseen cards, so a card drawn
    before a reshuffle could turn into a card of a later pile (or of the deck). Now, for each
    epoch before the last, the other players' cards of that epoch stay those cards (each
    hand keeping its epochs), and the last epoch's cards and the deck stay one multiset."""
    states = [s for s in _positions(300, seed=31, stop=0.01, skip=30) if _older_epochs(s)[0]]
    assert len(states) >= 60
    rng = PCG32(7).to_array()
    changed = 0
    for state in states:
        game, player = state.get_game(), state.current_player()
        kernel = kernel_for(game)
        arr = kernel.from_state(state)
        older, last = _older_epochs(state)
        old_cards = Counter(c for cards in older.values() for c in cards)
        for _ in range(20):
            world = arr.copy()
            vk.nb_determinize(world, player, rng)
            k = vg.VirusKernel.wrap(world)
            hidden = Counter(c for q in range(k.n) if q != player for c in k.hands[q])
            assert not old_cards - hidden  # the older cards all stay in the hidden hands
            assert k.hands[player] == state.kernel.hands[player]
            assert [sorted(h) for h in k.hand_epochs] == [sorted(h) for h in state.kernel.hand_epochs]
            hands, epochs = _by_epoch(k, player, True, last)
            assert epochs == older and k.epoch == last
            _, fresh = _by_epoch(k, player, False, last)
            _, real = _by_epoch(state.kernel, player, False, last)
            assert Counter(fresh.get(last, [])) + Counter(tt.counts_to_list(k.pool)) == Counter(
                real.get(last, [])
            ) + Counter(tt.counts_to_list(state.kernel.pool))
            changed += hands != _by_epoch(state.kernel, player, True, last)[0]
    assert changed > 100  # the older epochs' cards do move between the players


def test_determinize_is_the_python_resample_draw_for_draw():
    """On 240 positions (2-4 players, most past a reshuffle) ``nb_determinize`` and
    ``VirusKernel.resample`` given the same PCG32 seed give the same world and leave the
    generator in the same state."""
    states = _positions(240, seed=41, stop=0.01)
    assert sum(state.kernel.epoch > 0 for state in states) >= 100
    assert sum(bool(_older_epochs(state)[0]) for state in states) >= 30
    for i, state in enumerate(states):
        player = state.current_player()
        kernel = kernel_for(state.get_game())
        world, stream = kernel.from_state(state), PCG32(i).to_array()
        vk.nb_determinize(world, player, stream)
        python = PCG32(i)
        resampled = state.kernel.resample(player, python)
        assert world.tolist() == resampled.s.tolist(), i
        assert (python.state, python.inc) == (int(stream[0]), int(stream[1]))
