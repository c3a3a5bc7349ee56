"""Tests of the leduc_poker kernel and its IS-MCTS world sampler (pimcts_aggregation:
Ravichandran, Goodman and Lucas, "PIMCTS evaluation in tabletop games")."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pyspiel
import pytest
from scipy import stats

from infosets.games.leduc_poker.kernel import (
    LeducKernelState,
    from_pyspiel,
    leduc_kernel_sampler,
    sample_world,
)
from infosets.search.ismcts import ISMCTSBot

GAME = pyspiel.load_game("leduc_poker")


def _assert_same(real, kernel):
    assert kernel.current_player() == real.current_player()
    assert kernel.is_terminal() == real.is_terminal()
    assert kernel.is_chance_node() == real.is_chance_node()
    if real.is_terminal():
        assert kernel.returns() == pytest.approx(real.returns())
        return
    assert list(kernel.legal_actions()) == real.legal_actions()
    for p in (0, 1):
        assert kernel.information_state_string(p) == real.information_state_string(p)
    if real.is_chance_node():
        kernel_outcomes, real_outcomes = kernel.chance_outcomes(), real.chance_outcomes()
        assert [a for a, _ in kernel_outcomes] == [a for a, _ in real_outcomes]
        assert [p for _, p in kernel_outcomes] == pytest.approx([p for _, p in real_outcomes])


def test_random_games_match_pyspiel():
    rnd = random.Random(7)
    for _ in range(3000):
        real, kernel = GAME.new_initial_state(), LeducKernelState()
        _assert_same(real, kernel)
        while not real.is_terminal():
            action = rnd.choice(real.legal_actions())
            real.apply_action(action)
            kernel.apply_action(action)
            _assert_same(real, kernel)
        assert kernel.history() == real.history()


def test_clone_is_independent():
    kernel = LeducKernelState()
    for a in (0, 3, 2):
        kernel.apply_action(a)
    copy = kernel.clone()
    copy.apply_action(0)
    assert kernel.current_player() == 1 and copy.is_terminal()
    assert from_pyspiel(GAME.new_initial_state()).history() == []
    assert from_pyspiel(copy).history() == [0, 3, 2, 0]


def _decision_states(count, seed):
    rnd = random.Random(seed)
    found = []
    while len(found) < count:
        state = GAME.new_initial_state()
        while not state.is_terminal():
            if not state.is_chance_node() and rnd.random() < 0.4:
                found.append(state.clone())
                break
            state.apply_action(rnd.choice(state.legal_actions()))
    return found


def test_sample_world_keeps_infostate_and_opponent_card_is_uniform():
    rng = np.random.default_rng(3)
    round2 = GAME.new_initial_state()
    for a in (0, 3, 1, 1, 4):  # public card 4, player 0 to act
        round2.apply_action(a)
    for state in [round2, from_pyspiel(round2), *_decision_states(6, seed=1)]:
        player = state.current_player()
        own = state.information_state_string(player)
        public = from_pyspiel(state).public
        counts = Counter()
        for _ in range(3000):
            world = sample_world(state, player, rng)
            assert world.information_state_string(player) == own
            assert world.history()[2:] == state.history()[2:]
            counts[world.card(1 - player)] += 1
        expected = [c for c in range(6) if c not in (world.card(player), public)]
        assert sorted(counts) == expected
        assert stats.chisquare([counts[c] for c in expected]).pvalue > 1e-3


def test_sample_world_rejects_bad_input():
    state = GAME.new_initial_state()
    state.apply_action(0)
    with pytest.raises(ValueError, match="state"):
        sample_world(state, 0, np.random.default_rng(0))
    state.apply_action(1)
    with pytest.raises(ValueError, match="player"):
        sample_world(state, 2, np.random.default_rng(0))


def test_ismcts_with_kernel_sampler_plays_legal_moves():
    for seed in range(4):
        rnd = random.Random(seed)
        bots = [ISMCTSBot(GAME, p, iterations=60, rng=seed * 2 + p, sampler=leduc_kernel_sampler)
                for p in (0, 1)]
        state = GAME.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rnd.choice(state.legal_actions()))
                continue
            action = bots[state.current_player()].step(state)
            assert action in state.legal_actions()
            state.apply_action(action)


def _root_visit_fractions(state, sampler, seeds):
    """Per seed, the fraction of root visits of each legal action."""
    player, legal = state.current_player(), state.legal_actions()
    rows = []
    for seed in seeds:
        bot = ISMCTSBot(GAME, player, iterations=1500, rng=seed, sampler=sampler)
        root = bot.search(state)
        total = sum(n for n, _ in root.values())
        rows.append([root.get(a, (0, 0.0))[0] / total for a in legal])
    return np.array(rows)


def test_root_visits_match_default_sampler():
    # Different RNG streams: compare per-seed visit fractions within 4 standard errors.
    state = _decision_states(1, seed=5)[0]
    default = _root_visit_fractions(state, None, range(100, 108))
    kernel = _root_visit_fractions(state, leduc_kernel_sampler, range(200, 208))
    error = np.sqrt(default.var(axis=0, ddof=1) / len(default) + kernel.var(axis=0, ddof=1) / len(kernel))
    gap = np.abs(default.mean(axis=0) - kernel.mean(axis=0))
    assert np.all(gap <= 4 * error + 1e-3), (default.mean(axis=0), kernel.mean(axis=0), error)
