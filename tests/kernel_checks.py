"""Shared checks of a tabletop port's numba kernel against its pyspiel adapter and of the compiled
engine against the Python reference on it (pimcts_aggregation's compiled engine)."""

from __future__ import annotations

import random

import numpy as np

from infosets.games.kernels import (
    k_apply_action,
    k_chance_outcomes,
    k_current_player,
    k_infostate_key,
    k_legal_actions,
    k_returns,
)
from infosets.search.ismcts import ISMCTSBot
from infosets.search.mcts import OLMCTSBot
from infosets.search.pimcts import AGGREGATIONS, PIMCTSBot

CHANCE, TERMINAL = -1, -4


class _Buffers:
    def __init__(self, kernel):
        self.buf = np.zeros(kernel.num_actions, np.int64)
        self.probs = np.zeros(kernel.num_actions)
        self.out = np.zeros(kernel.num_players)


def check_step(game, kernel, real, arr, keys, strings=True, buffers=None):
    """Mover, legal set (or chance outcomes), returns, information state strings and key
    injectivity of the kernel array ``arr`` against the pyspiel state ``real``."""
    b = buffers or _Buffers(kernel)
    buf, probs, out = b.buf, b.probs, b.out
    kid = kernel.kid
    mover = real.current_player()
    assert k_current_player(kid, arr) == mover
    k_returns(kid, arr, out)
    if mover == TERMINAL:
        assert k_legal_actions(kid, arr, buf) == 0
        assert out.tolist() == real.returns()
        return
    assert not out.any()
    if mover == CHANCE:
        m = k_chance_outcomes(kid, arr, buf, probs)
        outcomes = real.chance_outcomes()
        assert list(zip(buf[:m].tolist(), probs[:m].tolist())) == outcomes
        n = k_legal_actions(kid, arr, buf)
        assert buf[:n].tolist() == [a for a, _ in outcomes]
    else:
        n = k_legal_actions(kid, arr, buf)
        assert buf[:n].tolist() == real.legal_actions()
    if strings:
        for p in range(game.num_players()):
            text = real.information_state_string(p)
            assert kernel.infostate_string(arr, p) == text
            key = k_infostate_key(kid, arr, p)
            assert keys.setdefault((p, int(key)), text) == text  # the key is injective here


def random_games_agree(game, kernel, games, seed, strings_every=1, keeps_history=True):
    """Play ``games`` random games in both; compare at every step (strings at every
    ``strings_every``-th step and at the end) and, for kernels whose arrays keep it, the
    history. Returns the set of final returns seen."""
    rnd, keys, finals = random.Random(seed), {}, set()
    buffers = _Buffers(kernel)
    for _ in range(games):
        real, arr = game.new_initial_state(), kernel.from_history([])
        step = 0
        check_step(game, kernel, real, arr, keys, buffers=buffers)
        while not real.is_terminal():
            if real.is_chance_node():
                outcomes = real.chance_outcomes()
                action = rnd.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
            else:
                action = rnd.choice(real.legal_actions())
            real.apply_action(action)
            k_apply_action(kernel.kid, arr, action)
            step += 1
            check_step(game, kernel, real, arr, keys, strings=step % strings_every == 0, buffers=buffers)
        check_step(game, kernel, real, arr, keys, buffers=buffers)
        if keeps_history:
            assert kernel.history(arr) == real.history()
        assert kernel.from_state(real).tolist() == arr.tolist()
        finals.add(tuple(real.returns()))
    return finals


def positions(game, count, seed, stop=0.4, skip=0):
    """``count`` decision states reached by random play (each decision after the first
    ``skip`` ones is kept with probability ``stop``)."""
    rnd, found = random.Random(seed), []
    while len(found) < count:
        state = game.new_initial_state()
        made = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(rnd.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
                continue
            if made >= skip and len(state.legal_actions()) > 1 and rnd.random() < stop:
                found.append(state.clone())
                break
            state.apply_action(rnd.choice(state.legal_actions()))
            made += 1
    return found


def _run(bot, state):
    step = bot.step_with_policy(state)
    return dict(step[0]), step[1], bot.last_search_info


def _both(bot, game, state, iterations, **kwargs):
    player = state.current_player()
    python, compiled = (bot(game, player, iterations=iterations, engine=e, **kwargs)
                        for e in ("python", "compiled"))
    result = _run(python, state), _run(compiled, state)
    assert python.engine_used == "python" and compiled.engine_used == "compiled"
    return result


def engines_agree(game, states, iterations, settings=()):
    """OL-MCTS, PI-MCTS (1-3 trees, each aggregation) and IS-MCTS give the same moves, root
    statistics and search info in both engines on every state; ``settings`` cycles per state."""
    settings = list(settings) or [{}]
    for i, state in enumerate(states):
        extra = settings[i % len(settings)]
        ol = _both(OLMCTSBot, game, state, iterations, rng=i, final=("mean", "visits")[i % 2], **extra)
        pi = _both(PIMCTSBot, game, state, iterations, determinizations=1 + i % 3,
                   aggregation=AGGREGATIONS[i % 3], rng=i, **extra)
        ism = _both(ISMCTSBot, game, state, iterations, rng=i, availability=i % 5 != 0, **extra)
        for python, compiled in (ol, pi, ism):
            assert python == compiled, (i, state.history())
