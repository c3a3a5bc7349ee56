"""Numba twins of ``infosets.search.tag_rules`` (issue 56, stage 1): TAG's UCB-Tuned,
NoAveragingRM/EXP3 selection, MaxMC backup, MAST and rollout termination, for the compiled
engine (``infosets.search.compiled``, its searches given TAG's settings) of the PI-MCTS comparison of
Ravichandran, Goodman and Lucas, "PIMCTS evaluation in tabletop games"
(docs/papers/pimcts_aggregation.md).

Each function computes what its namesake in ``tag_rules`` computes (the rules, their TAG
sources in GAIGResearch/TabletopGames ``src/main/java/players/mcts/`` and TAG's defaults are
documented there) with the same floating-point operations in the same order, and makes the
same draws from the same PCG32 stream, here a ``uint64[2]`` array (``rng_random``,
``rng_bounded``); tests/search/test_tag_rules.py checks them equal on seeded random inputs.
Inputs are not validated (the Python reference raises on bad ones). Per-action arrays are
read on their first ``m`` entries, as the engine's action buffers are; results go to ``out``.
"""

from __future__ import annotations

import math

import numba as nb
import numpy as np

from infosets.core.pcg32 import rng_bounded, rng_random  # registers the cache stamps first

RANGE_FLOOR = 1e-6
TEMPERATURE_FLOOR = 0.001
EXP3_OVERFLOW = 1e6
EXACT, END_ACTION, END_TURN, START_ACTION, END_ROUND = 0, 1, 2, 3, 4
TICK, TURN, ROUND = 0, 1, 2
_MAX = np.finfo(np.float64).max


@nb.njit(cache=True)
def nb_update_reward_bounds(low, high, result):
    """``tag_rules.update_reward_bounds``: (low, high) after an iteration's ``result``."""
    for i in range(result.shape[0]):
        if result[i] < low:
            low = result[i]
        if result[i] > high:
            high = result[i]
    return low, high


@nb.njit(cache=True)
def nb_argmax_tiebreak(scores, m, rng):
    """``tag_rules.argmax_tiebreak`` over ``scores[:m]``."""
    best = scores[0]
    for i in range(1, m):
        if scores[i] > best:
            best = scores[i]
    ties = 0
    first = -1
    for i in range(m):
        if scores[i] == best:
            if ties == 0:
                first = i
            ties += 1
    if ties == 1:
        return first
    pick = rng_bounded(rng, ties)
    for i in range(m):
        if scores[i] == best:
            if pick == 0:
                return i
            pick -= 1
    return first


@nb.njit(cache=True)
def _normalise(value, low, high):
    if low < high:
        return (value - low) / (high - low)
    return 0.0


@nb.njit(cache=True)
def nb_ucb_tuned_scores(n, w, q, avail, m, low, high, k, fpu, normalise_rewards, out):
    """``tag_rules.ucb_tuned_scores`` into ``out[:m]``."""
    for i in range(m):
        if n[i] == 0:
            out[i] = max(fpu, k * math.sqrt(avail[i]))
            continue
        mean = w[i] / n[i]
        rng_ = max(high - low, RANGE_FLOOR)
        mean_sq = q[i] / n[i]
        standard_var = 0.25
        if normalise_rewards:
            value = _normalise(mean, low, high)
            mean_sq = (mean_sq + low * low - 2 * low * w[i] / n[i]) / (rng_ * rng_)
        else:
            value = mean
            standard_var = math.sqrt(rng_ / 2.0)
        log_n = math.log(avail[i])
        variance = max(0.0, mean_sq - value * value)
        min_term = min(standard_var, variance + math.sqrt(2 * log_n / n[i]))
        out[i] = value + k * math.sqrt(log_n / n[i] * min_term)


@nb.njit(cache=True)
def nb_rm_regrets(n, w, m, node_visits, node_wsum, fpu, out):
    """``tag_rules.rm_regrets`` into ``out[:m]``."""
    node_value = node_wsum / node_visits if node_visits > 0 else 0.0
    for i in range(m):
        value = w[i] / n[i] if n[i] > 0 else 0.0
        regret = value * node_visits - node_value * node_visits
        if n[i] == 0:
            regret += fpu
        out[i] = max(0.0, regret)


@nb.njit(cache=True)
def nb_exp3_potentials(n, w, m, node_visits, node_wsum, low, high, boltzmann, fpu,
                       normalise_rewards, out):
    """``tag_rules.exp3_potentials`` into ``out[:m]``."""
    node_value = node_wsum / node_visits if node_visits > 0 else 0.0
    for i in range(m):
        value = 0.0
        if n[i] > 0:
            value = w[i] / n[i]
            if normalise_rewards:
                value = _normalise(value, low, high)
            else:
                value = value - node_value
        pot = math.exp(value / boltzmann)
        if math.isnan(pot) or math.isinf(pot):
            pot = EXP3_OVERFLOW
        if n[i] == 0:
            pot += fpu
        out[i] = pot


@nb.njit(cache=True)
def _sample_index(potentials, m, u):
    """``tag_rules._sample_index`` over ``potentials[:m]``."""
    total = 0.0
    for i in range(m):
        total += potentials[i]
    uniform = math.isnan(total) or math.isinf(total) or total <= 0.0
    cdf = 0.0
    last = m - 1
    for i in range(m):
        p = 1.0 / m if uniform else potentials[i] / total
        if p > 0.0:
            last = i
        cdf += p
        if cdf >= u:
            return i
    return last


@nb.njit(cache=True)
def nb_sample_tree_policy(values, m, explore_epsilon, explore, rng):
    """``tag_rules.sample_tree_policy`` over ``values[:m]``."""
    if m == 1:
        return 0
    if explore and rng_random(rng) < explore_epsilon:
        return rng_bounded(rng, m)
    positive = False
    for i in range(m):
        if values[i] > 0.0:
            positive = True
    if not positive:
        return rng_bounded(rng, m)
    return _sample_index(values, m, rng_random(rng))


@nb.njit(cache=True)
def nb_node_update(n, w, q, avail, considered, m, taken, reward):
    """``tag_rules.node_update`` on the first ``m`` actions."""
    for i in range(m):
        if considered[i]:
            avail[i] += 1
    n[taken] += 1
    w[taken] += reward
    q[taken] += reward * reward


@nb.njit(cache=True)
def nb_max_mc_value(result, n, w_all, m, decision_player, taken, node_visits, threshold, out):
    """``tag_rules.max_mc_value`` into ``out`` (one value per player)."""
    for p in range(result.shape[0]):
        out[p] = result[p]
    if node_visits <= threshold:
        return
    best, best_value = -1, -_MAX
    for i in range(m):
        value = w_all[i, decision_player] / n[i] if n[i] > 0 else -_MAX
        if value > best_value:
            best, best_value = i, value
    if best != taken:
        mix = (node_visits - threshold) / node_visits
        for p in range(result.shape[0]):
            out[p] = (1 - mix) * result[p] + mix * (w_all[best, p] / n[best])


@nb.njit(cache=True)
def nb_mast_update(mast_n, mast_w, players, actions, count, delta):
    """``tag_rules.mast_update`` for the first ``count`` (player, action) pairs."""
    for i in range(count):
        mast_n[players[i], actions[i]] += 1
        mast_w[players[i], actions[i]] += delta[players[i]]


@nb.njit(cache=True)
def nb_mast_decay(mast_n, mast_w, gamma):
    """``tag_rules.mast_decay``."""
    if gamma >= 1.0:
        return
    for p in range(mast_n.shape[0]):
        for a in range(mast_n.shape[1]):
            old = mast_n[p, a]
            if old == 0:
                mast_w[p, a] = 0.0
                continue
            new = int(old * gamma)
            mast_w[p, a] = mast_w[p, a] * new / old
            mast_n[p, a] = new


@nb.njit(cache=True)
def nb_mast_values(mast_n, mast_w, player, actions, m, default, out):
    """``tag_rules.mast_values`` for ``actions[:m]`` into ``out[:m]``."""
    for i in range(m):
        c = mast_n[player, actions[i]]
        out[i] = mast_w[player, actions[i]] / c if c > 0 else default


@nb.njit(cache=True)
def nb_mast_rollout_choice(values, m, temperature, epsilon, rng, pots):
    """``tag_rules.mast_rollout_choice`` over ``values[:m]`` (``pots``: scratch of length m)."""
    if m == 1:
        return 0
    t = max(temperature, TEMPERATURE_FLOOR)
    top = values[0]
    for i in range(1, m):
        if values[i] > top:
            top = values[i]
    for i in range(m):
        pots[i] = math.exp((values[i] - top) / t)
    if epsilon > 0.0 and rng_random(rng) < epsilon:
        return rng_bounded(rng, m)
    return _sample_index(pots, m, rng_random(rng))


@nb.njit(cache=True)
def nb_rollout_depth(increment, actions_done, turn, turn_at_start, round_, round_at_start):
    """``tag_rules.rollout_depth``."""
    if increment == TURN:
        return turn - turn_at_start
    if increment == ROUND:
        return round_ - round_at_start
    return actions_done


@nb.njit(cache=True)
def nb_rollout_finished(terminal, depth, max_length, termination, turn_changed, round_changed,
                        last_actor_is_root, actor_is_root):
    """``tag_rules.rollout_finished``."""
    if terminal:
        return True
    if depth < max_length:
        return False
    if termination == EXACT:
        return True
    if termination == END_ACTION:
        return last_actor_is_root and not actor_is_root
    if termination == START_ACTION:
        return (not last_actor_is_root) and actor_is_root
    if termination == END_TURN:
        return turn_changed
    return round_changed


@nb.njit(cache=True)
def nb_rm_average_due(node_visits, num_actions):
    """``tag_rules.rm_average_due``."""
    every = max(num_actions, 10)
    return node_visits >= every and node_visits % every == 0


@nb.njit(cache=True)
def nb_rm_average_update(regrets, m, average):
    """``tag_rules.rm_average_update`` of ``regrets[:m]`` into ``average[:m]``."""
    total = 0.0
    for i in range(m):
        total += regrets[i]
    for i in range(m):
        average[i] += 1.0 / m if (math.isinf(total) or total <= 0.0) else regrets[i] / total
