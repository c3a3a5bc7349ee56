"""The numba kernel of Colt Express (lib/infosets/games/colt_express/kernel.py) as the compiled
engine sees it (pimcts_aggregation): its view of the pyspiel adapter's states (histories,
strings, information-state keys) on random games, the determinizer's consistency and
distribution against the adapter's sampler, and the compiled engine against the Python
reference."""

import random
from collections import Counter

import numpy as np
import pyspiel

import infosets.games  # noqa: F401  (registers colt_express)
from infosets.core.pcg32 import PCG32
from infosets.games import _tabletop as tt
from infosets.games.colt_express import game as ce
from infosets.games.kernels import kernel_for, kernel_module
from kernel_checks import (
    CUT_ROLLOUTS_CYCLE,
    check_determinize_keeps_infostate,
    compare_samplers,
    cut_rollouts,
    decision_states,
    engines_agree,
    history_of,
    world_history,
)

# The engine's view (kernel_for: from_history, history, strings, keys) on 30 random games over
# the player counts; in one game of STRINGS_EVERY every player's information-state string and
# key are compared at every step, in the others at the end. The rules' agreement with the
# former Python rules is test_colt_express_oracle.py's (the adapter runs these very rules).
GAMES = [(3, 12), (2, 6), (4, 4), (5, 4), (6, 4)]
STRINGS_EVERY = 3


def _check_strings(game, kernel, real, arr, keys):
    for p in range(game.num_players()):
        text = real.information_state_string(p)
        assert kernel.infostate_string(arr, p) == text
        key = kernel.rules.nb_infostate_key(arr, p)
        assert keys.setdefault((p, key), text) == text  # no two strings share a key


def _check(kernel, real, arr, step, buf, probs, out):
    """Mover, chance outcomes or legal actions, returns and (every third decision) the
    heuristic of the adapter's kernel object ``real`` and the array; the next choices."""
    rules = kernel.rules
    mover = real.current_player()
    assert rules.nb_current_player(arr) == mover
    if real.is_terminal():
        rules.nb_returns(arr, out)
        assert list(out) == real.returns()
        rules.nb_heuristic(arr, out)
        assert list(out) == ce.heuristic(real)
        return None
    if mover == tt.CHANCE:
        m = rules.nb_chance_outcomes(arr, buf, probs)
        outcomes = real.chance_outcomes()
        assert [(int(a), p) for a, p in zip(buf[:m], probs[:m])] == outcomes
        return outcomes
    m = rules.nb_legal_actions(arr, buf)
    legal = real.legal_actions()
    assert list(buf[:m]) == legal
    if step % 3 == 0:
        rules.nb_heuristic(arr, out)
        assert list(out) == ce.heuristic(real)
    return [(a, 1.0) for a in legal]


def test_kernel_view_agrees_with_the_adapter_on_random_games():
    """The engine's view and the adapter's kernel object (what its pyspiel states wrap), side
    by side on ``GAMES``: a history's array, an array's history, strings, keys (no two strings
    share one), heuristic and flow."""
    kinds = Counter()
    for players, games in GAMES:
        game = pyspiel.load_game("colt_express", {"players": players})
        kernel = kernel_for(game)
        assert kernel.rules is kernel_module("colt_express") and kernel.num_players == players
        buf, probs = np.zeros(kernel.num_actions, np.int64), np.zeros(kernel.num_actions)
        out = np.zeros(players)
        rnd, keys = random.Random(players), {}
        for g in range(games):
            real, arr = game.new_kernel(), kernel.from_history([])
            step = 0
            while True:
                if g % STRINGS_EVERY == 0:
                    _check_strings(game, kernel, real, arr, keys)
                choices = _check(kernel, real, arr, step, buf, probs, out)
                if choices is None:
                    break
                actions, weights = zip(*choices)
                action = rnd.choices(actions, weights)[0]
                kinds[real.current_player() == tt.CHANCE] += 1
                real.apply(action)
                kernel.rules.nb_apply_action(arr, action)
                step += 1
            _check_strings(game, kernel, real, arr, keys)
            assert kernel.history(arr) == real.hist
            assert kernel.from_history(real.hist).tolist() == arr.tolist()
        assert len(keys) > 100
    assert kinds[True] > 3_000 and kinds[False] > 3_000


def test_determinize_keeps_the_information_state_and_replays():
    game = pyspiel.load_game("colt_express")
    states = decision_states(game, 40, seed=3, stop=0.02)
    check_determinize_keeps_infostate(game, states, seed=4, draws=10)
    kernel = kernel_for(game)
    rng = PCG32(5).to_array()
    changed = 0
    for state in states:
        arr, player = kernel.from_state(state), state.current_player()
        world = arr.copy()
        kernel.rules.nb_determinize(world, player, rng)
        assert np.array_equal(kernel.from_history(kernel.history(world)), world)
        real = kernel.to_state(game, world)  # the adapter replays the world legally
        assert real.information_state_string(player) == state.information_state_string(player)
        changed += kernel.history(world) != state.history()
    assert changed > 30


def _opponent_cards(game, player):
    """The statistic compared: every opponent's hand and the pile's (owner, card) pairs."""
    def statistic(history):
        k = ce.ColtExpressKernel(game.num_players())
        for action in history:
            k.apply(action)
        hands = tuple(tuple(k.hand[q]) for q in range(k.n) if q != player)
        return hands, tuple((o, c) for o, c, _, _ in k.pile)
    return statistic


def test_determinize_matches_the_adapter_resampler():
    """A planning position with face-down cards on the pile: the joint law of the opponents'
    hands and the pile under the kernel's determinizer and the adapter's sampler."""
    game = pyspiel.load_game("colt_express")
    state = next(s for s in decision_states(game, 400, seed=11, stop=0.08)
                 if s.kernel.phase == ce.PLAN and s.kernel.round == 0
                 and sum(1 for e in s.kernel.pile if e[2] and e[0] != s.current_player()) >= 1
                 and len(s.kernel.pile) >= 3)
    player = state.current_player()
    statistic = _opponent_cards(game, player)
    pvalue = compare_samplers(game, state, statistic, draws=3000, seed=13,
                              ours=history_of, theirs=world_history, min_values=6)
    assert pvalue > 1e-3


def test_compiled_engine_equals_the_python_reference():
    # One cycle of the per-position settings with cut_rollouts() (120 positions), not 200: line
    # tracing (NUMBA_DISABLE_JIT=1) of games/colt_express/, _tabletop and array_kernel under
    # the Python engine's searches of the 200 former positions reached every line by position
    # 32 (all but one by position 21).
    game = pyspiel.load_game("colt_express")
    states = decision_states(game, CUT_ROLLOUTS_CYCLE, seed=17, stop=0.15)
    engines_agree(game, states, iterations=6, settings=cut_rollouts())
