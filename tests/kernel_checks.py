"""Checks shared by the tests of the tabletop ports' numba kernels (pimcts_aggregation): the
kernel against its pyspiel adapter (as pyspiel states or as the adapter's kernel object), its
determinizer against the adapter's sampler, and the compiled engine against the Python
reference engine on seeded positions."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
from pytest import approx
from scipy import stats

import infosets.games  # noqa: F401  (registers the games)
from infosets.core.pcg32 import PCG32
from infosets.games import _tabletop as tt
from infosets.games.kernels import kernel_for
from infosets.search.ismcts import ISMCTSBot
from infosets.search.mcts import OLMCTSBot
from infosets.search.pimcts import AGGREGATIONS, PIMCTSBot
from tabletop_checks import slot_values

CHANCE, TERMINAL = tt.CHANCE, tt.TERMINAL


# --- random play -------------------------------------------------------------------------


def _chance_action(rnd, state):
    """A chance outcome of ``state`` drawn with its probability."""
    outcomes = state.chance_outcomes()
    return rnd.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]


def decision_states(game, count, seed, stop=0.05, skip=0, min_legal=1, uniform_chance=False):
    """``count`` pyspiel decision states reached by random play: each decision after the first
    ``skip`` ones that offers at least ``min_legal`` legal actions stops its game there with
    probability ``stop``. ``min_legal=2`` keeps only real choices; the default keeps every
    decision. Chance outcomes are drawn by their probabilities, or with ``uniform_chance``
    uniformly (``rnd.choice``, another draw from the seed: the engine-equivalence positions of
    leduc_poker, liars_dice, trick_game and poker_tag were picked so)."""
    rnd, found = random.Random(seed), []
    while len(found) < count:
        state = game.new_initial_state()
        made = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(rnd.choice(outcomes)[0] if uniform_chance else _chance_action(rnd, state))
                continue
            if made >= skip and len(state.legal_actions()) >= min_legal and rnd.random() < stop:
                found.append(state.clone())
                break
            state.apply_action(rnd.choice(state.legal_actions()))
            made += 1
    return found


def decision_after(game, seed, moves):
    """The decision state after ``moves`` random decisions (chance by its probabilities) and
    the chance nodes that follow them."""
    rnd = random.Random(seed)
    state = game.new_initial_state()
    while state.is_chance_node() or moves > 0:
        if state.is_chance_node():
            state.apply_action(_chance_action(rnd, state))
        else:
            state.apply_action(rnd.choice(state.legal_actions()))
            moves -= 1
    return state


# --- the kernel against pyspiel states -----------------------------------------------------


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
    rules = kernel.rules
    mover = real.current_player()
    assert rules.nb_current_player(arr) == mover
    rules.nb_returns(arr, out)
    if mover == TERMINAL:
        assert rules.nb_legal_actions(arr, buf) == 0
        assert out.tolist() == real.returns()
        return
    assert not out.any()
    if mover == CHANCE:
        m = rules.nb_chance_outcomes(arr, buf, probs)
        outcomes = real.chance_outcomes()
        assert list(zip(buf[:m].tolist(), probs[:m].tolist())) == outcomes
        n = rules.nb_legal_actions(arr, buf)
        assert buf[:n].tolist() == [a for a, _ in outcomes]
    else:
        n = rules.nb_legal_actions(arr, buf)
        assert buf[:n].tolist() == real.legal_actions()
    if strings:
        for p in range(game.num_players()):
            text = real.information_state_string(p)
            assert kernel.infostate_string(arr, p) == text
            key = rules.nb_infostate_key(arr, p)
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
                action = _chance_action(rnd, real)
            else:
                action = rnd.choice(real.legal_actions())
            real.apply_action(action)
            kernel.rules.nb_apply_action(arr, action)
            step += 1
            check_step(game, kernel, real, arr, keys, strings=step % strings_every == 0, buffers=buffers)
        check_step(game, kernel, real, arr, keys, buffers=buffers)
        if keeps_history:
            assert kernel.history(arr) == real.history()
        assert kernel.from_state(real).tolist() == arr.tolist()
        finals.add(tuple(real.returns()))
    return finals


# --- the kernel against the adapter's kernel object ---------------------------------------


def _fields(kernel_object) -> dict:
    return slot_values(kernel_object)


def check_random_games(game, games: int, seed: int, strings_every: int, fields_every: int = 4):
    """``games`` random games played on the adapter's kernel and on the array side by side:
    mover, legal actions, chance outcomes and returns at every step; every field of the state
    (so every string view) every ``fields_every``-th step; in one game of ``strings_every``, at every step,
    all fields and all players' information state strings and keys (equal strings give equal
    keys, distinct strings distinct keys)."""
    kernel = kernel_for(game)
    rules, n = kernel.rules, game.num_players()
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
            assert rules.nb_current_player(arr) == mover
            step += 1
            if strings or step % fields_every == 0 or mover == TERMINAL:
                assert _fields(kernel.to_kernel(arr)) == _fields(real)
            if strings:
                for p in range(n):
                    text = real.information_state_string(p)
                    assert kernel.infostate_string(arr, p) == text
                    key = int(rules.nb_infostate_key(arr, p))
                    assert key_of.setdefault((p, text), key) == key
                    assert text_of.setdefault((p, key), text) == text
            if mover == TERMINAL:
                rules.nb_returns(arr, out)
                assert list(out) == real.returns()
                break
            if mover == CHANCE:
                m = rules.nb_chance_outcomes(arr, buf, probs)
                outcomes = real.chance_outcomes()
                assert [(int(a), p) for a, p in zip(buf[:m], probs[:m])] == outcomes
                action = rnd.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
            else:
                m = rules.nb_legal_actions(arr, buf)
                legal = real.legal_actions()
                assert list(buf[:m]) == legal
                action = rnd.choice(legal)
            real.apply(action)
            rules.nb_apply_action(arr, action)
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
        kernel.rules.nb_returns(arr, out)
        assert list(out) == state.returns()
        assert kernel.to_state(game, arr).returns() == state.returns()


# The game score of each port whose kernel heuristic is TAG's LeaderHeuristic, read from the
# adapter's Python kernel (not the numba code under test), and the lead scale its kernel
# documents (``nb_heuristic``: ``0.5 + 0.5 * d / (|d| + LEAD_SCALE)``, d = own - best other).
_SUSHI_DUMPLINGS = (0, 1, 3, 6, 10, 15)


def _sushi_go_points(k):
    """Points so far plus this round's table scored now: 5 per tempura pair, 10 per sashimi
    triple, dumplings 1/3/6/10/15, nigiri as laid (wasabi included); maki and puddings only
    once scored (the table slots are tempura, sashimi, dumplings, maki, nigiri, ...)."""
    return [k.score[p] + 5 * (t[0] // 2) + 10 * (t[1] // 3) + _SUSHI_DUMPLINGS[min(t[2], 5)] + t[4]
            for p, t in enumerate(k.table)]


_LEADER_SCORES = {
    "sushi_go": (_sushi_go_points, 10.0),
    "love_letter": (lambda k: list(k.tokens), 1.0),
    "virus": (lambda k: [k.healthy_organs(p) for p in range(k.n)], 1.0),
}


def _leader_values(scores, lead_scale):
    n = len(scores)
    out = []
    for p in range(n):
        d = float(scores[p] - max(scores[q] for q in range(n) if q != p))
        out.append(0.5 + 0.5 * d / (abs(d) + lead_scale))
    return out


def check_heuristic_on_returns_scale(game, states, seed: int = 0, every: int = 3):
    """The kernel's heuristic (``nb_heuristic``, what the compiled engine scores a cut-off
    with) at each of ``states`` and at every ``every``-th step of one random playout from
    each, to the end:

    * during play, TAG's LeaderHeuristic as the kernel documents it, recomputed here from the
      adapter kernel's game score (``_LEADER_SCORES``): ``0.5 + 0.5 d / (|d| + LEAD_SCALE)``
      with d = own score - best other score. So every value lies strictly inside (0, 1), the
      players with the strictly largest score get the largest value, and equal scores give
      equal values (checked as such too);
    * at the end, the returns (win shares, already on [0, 1]).

    Every playout runs to the end, so the end is checked once per state; the check fails
    unless some position during play has unequal scores, so a constant 0.5 or a wrong lead
    scale cannot pass vacuously. The lead scales are written here (10 points, 1 token, 1
    organ), not read from the kernel modules, so a changed constant fails too."""
    kernel = kernel_for(game)
    rules, n = kernel.rules, game.num_players()
    score_of, lead_scale = _LEADER_SCORES[game.get_type().short_name]
    rnd = random.Random(seed)
    out = np.zeros(n)
    uneven = ends = 0
    for state in states:
        k = state.kernel.copy()  # the adapter's kernel, played without the pyspiel checks
        arr = kernel.from_kernel(k)  # the array, played alongside
        step = 0
        while True:
            mover = k.current_player()
            assert rules.nb_current_player(arr) == mover
            if mover == TERMINAL:
                rules.nb_heuristic(arr, out)
                assert out.tolist() == k.returns(), state.history()
                ends += 1
                break
            if mover != CHANCE and step % every == 0:
                rules.nb_heuristic(arr, out)
                scores = score_of(k)
                assert out.tolist() == approx(_leader_values(scores, lead_scale), abs=1e-12), (
                    scores, state.history(), step)
                assert np.all((0.0 < out) & (out < 1.0))
                top = max(scores)
                leaders = [p for p in range(n) if scores[p] == top]
                assert all(out[p] == out[leaders[0]] for p in leaders)
                assert all(out[p] < out[leaders[0]] for p in range(n) if scores[p] < top)
                for p in range(n):
                    for q in range(n):
                        if scores[p] == scores[q]:
                            assert out[p] == out[q]
                uneven += len(set(scores)) > 1
            if mover == CHANCE:
                outcomes = k.chance_outcomes()
                action = rnd.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
            else:
                action = rnd.choice(k.legal_actions())
            k.apply(action)
            rules.nb_apply_action(arr, action)
            step += 1
    assert uneven > 0, "no checked position with unequal scores"
    assert ends == len(states)


# --- the determinizer ----------------------------------------------------------------------


def check_determinize_keeps_infostate(game, states, seed: int, draws: int = 20):
    """Every world keeps the player's information state string and key, and replays legally
    from the world (its pyspiel state plays to the end)."""
    kernel = kernel_for(game)
    rng = PCG32(seed).to_array()
    rnd = random.Random(seed)
    for state in states:
        player = state.current_player()
        arr = kernel.from_state(state)
        text, key = state.information_state_string(player), kernel.rules.nb_infostate_key(arr, player)
        for _ in range(draws):
            world = arr.copy()
            kernel.rules.nb_determinize(world, player, rng)
            assert kernel.infostate_string(world, player) == text
            assert kernel.rules.nb_infostate_key(world, player) == key
        real = kernel.to_state(game, world)
        while not real.is_terminal():
            real.apply_action(rnd.choice(real.legal_actions()))


def worlds(game, state, draws: int, seed: int, player=None):
    """``draws`` worlds (arrays) of the kernel's determinizer for ``player`` (by default the
    mover) at ``state``, drawn from one PCG32 stream seeded with ``seed``."""
    kernel = kernel_for(game)
    player = state.current_player() if player is None else player
    arr = kernel.from_state(state)
    rng = PCG32(seed).to_array()
    for _ in range(draws):
        world = arr.copy()
        kernel.rules.nb_determinize(world, player, rng)
        yield world


def _kernel_object(kernel, world):
    return kernel.to_kernel(world)


def _resample(state, player, gen):
    return state.kernel.resample(player, gen)


def history_of(kernel, world):
    """``compare_samplers``' ``ours`` for ports whose worlds are replayed histories."""
    return kernel.history(world)


def world_history(state, player, gen):
    """``compare_samplers``' ``theirs`` for ports whose worlds are replayed histories."""
    return state.kernel.world_history(player, gen)


def compare_samplers(game, state, statistic, draws: int, seed: int, player=None,
                     ours=_kernel_object, theirs=_resample, min_values: int = 2):
    """P-value of a chi-square test that ``statistic`` has one law under the kernel's
    determinizer and under the adapter's sampler (``draws`` each, for ``player``, by default the
    mover). The statistic reads ``ours(kernel, world)`` (by default the world's kernel object)
    and ``theirs(state, player, gen)`` (by default the adapter kernel's ``resample``).

    Fails when the two samplers together show fewer than ``min_values`` distinct values: a
    statistic that takes one value cannot tell two laws apart, and its test would pass
    vacuously."""
    kernel = kernel_for(game)
    player = state.current_player() if player is None else player
    gen = np.random.default_rng(seed)
    counts, others = Counter(), Counter()
    for world in worlds(game, state, draws, seed, player):
        counts[statistic(ours(kernel, world))] += 1
        others[statistic(theirs(state, player, gen))] += 1
    values = sorted(set(counts) | set(others))
    assert len(values) >= min_values, (
        f"the statistic took {len(values)} distinct values, fewer than {min_values}: "
        "it cannot compare the two samplers")
    table = np.array([[counts[v] for v in values], [others[v] for v in values]])
    return stats.chi2_contingency(table).pvalue


# --- the compiled engine against the Python reference ---------------------------------------


def _run(bot, state):
    step = bot.step_with_policy(state)
    return dict(step[0]), step[1], bot.last_search_info


def _both(bot_class, game, state, iterations, **kwargs):
    """Root statistics, move and search info of ``bot_class`` on ``state`` in the Python and
    the compiled engine (the same settings and seed)."""
    player = state.current_player()
    bots = [bot_class(game, player, iterations=iterations, engine=e, **kwargs)
            for e in ("python", "compiled")]
    python, compiled = (_run(bot, state) for bot in bots)
    assert bots[0].engine_used == "python" and bots[1].engine_used == "compiled"
    return python, compiled


def cut_rollouts(full_every: int = 8, shortest: int = 2, lengths: int = 5):
    """Engine settings by position index for ``engines_agree``: rollouts cut after
    ``shortest + i % lengths`` actions (scored by the kernel's heuristic in both engines) except
    in one position of ``full_every``, and first-play urgency, epsilon exploration and a depth
    limit in one position of three."""
    def settings(i):
        chosen = {} if i % full_every == 0 else {"rollout_length": shortest + i % lengths}
        if i % 3 == 1:
            chosen.update(fpu=0.5, explore_epsilon=0.1, max_depth=3)
        return chosen
    return settings


# Positions that give ``engines_agree`` every combination of its per-position settings once:
# the final move rule (i % 2), D (i % 4), the aggregation (i % 3) and IS-MCTS's availability
# (i % 5) repeat every lcm(2, 4, 3, 5) = 60 positions; with ``cut_rollouts()`` (i % 8, i % 5,
# i % 3) every 120. More positions repeat the same settings on other states, which are the
# kernel checks' subject, not the engines'.
SETTINGS_CYCLE = 60
CUT_ROLLOUTS_CYCLE = 120


def engines_agree(game, states, iterations, settings=(), determinizations=4):
    """OL-MCTS, PI-MCTS (every aggregation, D = 1..``determinizations``) and IS-MCTS
    (availability on and off) give the same moves, root statistics and search info in both
    engines on every state. ``settings`` gives extra bot settings per state: a list of keyword
    dicts cycled over the states, or a function of the state's index (``cut_rollouts``)."""
    cycle = [] if callable(settings) else list(settings) or [{}]
    for i, state in enumerate(states):
        extra = cycle[i % len(cycle)] if cycle else settings(i)
        ol = _both(OLMCTSBot, game, state, iterations, rng=i, final=("mean", "visits")[i % 2], **extra)
        pi = _both(PIMCTSBot, game, state, iterations, determinizations=1 + i % determinizations,
                   aggregation=AGGREGATIONS[i % 3], rng=i, **extra)
        ism = _both(ISMCTSBot, game, state, iterations, rng=i, availability=i % 5 != 0, **extra)
        for python, compiled in (ol, pi, ism):
            assert python == compiled, (i, extra, state.history())
