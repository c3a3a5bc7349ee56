"""Checks shared by the tests of the tabletop ports' numba kernels (pimcts_aggregation): the
kernel against the pyspiel adapter, its determinizer against the adapter's ``resample``, and
the compiled engine against the Python reference engine on seeded positions."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
from scipy import stats

import infosets.games  # noqa: F401  (registers the games)
from infosets.core.pcg32 import PCG32
from infosets.games import _tabletop as tt
from infosets.games.kernels import (
    k_apply_action,
    k_chance_outcomes,
    k_current_player,
    k_determinize,
    k_heuristic,
    k_infostate_key,
    k_legal_actions,
    k_returns,
    kernel_for,
)
from infosets.search.ismcts import ISMCTSBot
from infosets.search.mcts import OLMCTSBot
from infosets.search.pimcts import AGGREGATIONS, PIMCTSBot


def _fields(kernel_object) -> dict:
    return {name: getattr(kernel_object, name) for name in type(kernel_object).__slots__}


def check_random_games(game, games: int, seed: int, strings_every: int, fields_every: int = 4):
    """``games`` random games played on the adapter's kernel and on the array side by side:
    mover, legal actions, chance outcomes and returns at every step; every field of the state
    (so every string view) every ``fields_every``-th step; in one game of ``strings_every``, at every step,
    all fields and all players' information state strings and keys (equal strings give equal
    keys, distinct strings distinct keys)."""
    kernel = kernel_for(game)
    kid, n = kernel.kid, game.num_players()
    buf, probs = np.zeros(kernel.num_actions, np.int64), np.zeros(kernel.num_actions)
    out = np.zeros(n)
    rnd = random.Random(seed)
    key_of, text_of = {}, {}
    for g in range(games):
        real, arr = game.new_kernel(), kernel.from_history([])
        strings = g % strings_every == 0
        step = 0
        while True:
            mover = real.current_player()
            assert k_current_player(kid, arr) == mover
            step += 1
            if strings or step % fields_every == 0 or mover == tt.TERMINAL:
                assert _fields(kernel.to_kernel(arr)) == _fields(real)
            if strings:
                for p in range(n):
                    text = real.information_state_string(p)
                    assert kernel.infostate_string(arr, p) == text
                    key = int(k_infostate_key(kid, arr, p))
                    assert key_of.setdefault((p, text), key) == key
                    assert text_of.setdefault((p, key), text) == text
            if mover == tt.TERMINAL:
                k_returns(kid, arr, out)
                assert list(out) == real.returns()
                break
            if mover == tt.CHANCE:
                m = k_chance_outcomes(kid, arr, buf, probs)
                outcomes = real.chance_outcomes()
                assert [(int(a), p) for a, p in zip(buf[:m], probs[:m])] == outcomes
                action = rnd.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
            else:
                m = k_legal_actions(kid, arr, buf)
                legal = real.legal_actions()
                assert list(buf[:m]) == legal
                action = rnd.choice(legal)
            real.apply(action)
            k_apply_action(kid, arr, action)
    return len(text_of)


def check_pyspiel_games(game, games: int, seed: int):
    """Random games through the pyspiel adapter itself (history replay, strings, returns)."""
    kernel = kernel_for(game)
    rnd = random.Random(seed)
    out = np.zeros(game.num_players())
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rnd.choice(state.legal_actions()))
        arr = kernel.from_state(state)
        assert _fields(kernel.to_kernel(kernel.from_history(state.history()))) == _fields(state.kernel)
        for p in range(game.num_players()):
            assert kernel.infostate_string(arr, p) == state.information_state_string(p)
        k_returns(kernel.kid, arr, out)
        assert list(out) == state.returns()
        assert kernel.to_state(game, arr).returns() == state.returns()


def decision_states(game, count: int, seed: int, stop: float = 0.05):
    """``count`` pyspiel decision states reached by random play (each decision stops the game
    there with probability ``stop``)."""
    rnd, found = random.Random(seed), []
    while len(found) < count:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, weights = zip(*state.chance_outcomes())
                state.apply_action(rnd.choices(actions, weights)[0])
                continue
            if rnd.random() < stop:
                found.append(state.clone())
                break
            state.apply_action(rnd.choice(state.legal_actions()))
    return found


def check_determinize_keeps_infostate(game, states, seed: int, draws: int = 20):
    """Every world keeps the player's information state string and key, and replays legally
    from the world (its pyspiel state plays to the end)."""
    kernel = kernel_for(game)
    rng = PCG32(seed).to_array()
    rnd = random.Random(seed)
    for state in states:
        player = state.current_player()
        arr = kernel.from_state(state)
        text, key = state.information_state_string(player), k_infostate_key(kernel.kid, arr, player)
        for _ in range(draws):
            world = arr.copy()
            k_determinize(kernel.kid, world, player, rng)
            assert kernel.infostate_string(world, player) == text
            assert k_infostate_key(kernel.kid, world, player) == key
        real = kernel.to_state(game, world)
        while not real.is_terminal():
            real.apply_action(rnd.choice(real.legal_actions()))


def compare_with_adapter_resample(game, state, statistic, draws: int, seed: int):
    """p-value of a chi-square test that ``statistic(kernel object)`` has one law under the
    kernel's determinizer and under the adapter's ``resample`` (``draws`` each)."""
    kernel = kernel_for(game)
    player = state.current_player()
    arr = kernel.from_state(state)
    rng, gen = PCG32(seed).to_array(), np.random.default_rng(seed)
    ours, theirs = Counter(), Counter()
    for _ in range(draws):
        world = arr.copy()
        k_determinize(kernel.kid, world, player, rng)
        ours[statistic(kernel.to_kernel(world))] += 1
        theirs[statistic(state.kernel.resample(player, gen))] += 1
    values = sorted(set(ours) | set(theirs))
    table = np.array([[ours[v] for v in values], [theirs[v] for v in values]])
    if len(values) < 2:
        return 1.0
    return stats.chi2_contingency(table).pvalue


def check_heuristic_on_returns_scale(game, states):
    kernel = kernel_for(game)
    out = np.zeros(game.num_players())
    for state in states:
        k_heuristic(kernel.kid, kernel.from_state(state), out)
        assert np.all((0.0 <= out) & (out <= 1.0))


def _run(bot, state):
    step = bot.step_with_policy(state)
    return dict(step[0]), step[1], bot.last_search_info


def _both(bot_class, game, state, iterations, **kwargs):
    player = state.current_player()
    bots = [bot_class(game, player, iterations=iterations, engine=e, **kwargs)
            for e in ("python", "compiled")]
    python, compiled = (_run(bot, state) for bot in bots)
    assert bots[0].engine_used == "python" and bots[1].engine_used == "compiled"
    return python, compiled


def check_engines_agree(game, states, iterations: int):
    """OL-MCTS, PI-MCTS (every aggregation, D = 1..4) and IS-MCTS (availability on and off)
    give the same moves, policies and depth statistics in both engines; most positions cut
    rollouts off after a few actions (scored by the kernel's heuristic in both engines)."""
    for i, state in enumerate(states):
        settings = {} if i % 8 == 0 else {"rollout_length": 2 + i % 5}
        if i % 3 == 1:
            settings.update(fpu=0.5, explore_epsilon=0.1, max_depth=3)
        ol = _both(OLMCTSBot, game, state, iterations, rng=i, final=("mean", "visits")[i % 2], **settings)
        pi = _both(PIMCTSBot, game, state, iterations, determinizations=1 + i % 4,
                   aggregation=AGGREGATIONS[i % 3], rng=i, **settings)
        ism = _both(ISMCTSBot, game, state, iterations, rng=i, availability=i % 5 != 0, **settings)
        for python, compiled in (ol, pi, ism):
            assert python == compiled, (i, settings)
