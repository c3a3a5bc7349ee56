"""TAG's tree policies, backups and rollout rules, as pure functions (issue 56, stage 1).

The PI-MCTS paper (Ravichandran, Goodman and Lucas, "PIMCTS evaluation in tabletop games",
docs/papers/pimcts_aggregation.md) runs TAG's own MCTS agents (GAIGResearch/TabletopGames,
``src/main/java/players/mcts/``), tuned per game. ``lib/infosets/papers/pimcts_settings.csv``
(column ``tag_not_modelled``) lists the settings our engines lack; this module states the
rules of those settings, read from TAG at commit c4d7687cd6162405806a0dd1e1b31804f8a81b93,
over plain per-node statistics:

* ``n[a]`` visits of action ``a`` at the node, ``w[a]`` and ``q[a]`` the sum and the sum of
  squares of the deciding player's rewards after it (TAG's ``ActionStats``), ``avail[a]`` the
  number of node visits on which ``a`` was available (``ActionStats.validVisits``, TAG's
  ``N`` in the exploration terms), ``node_visits`` and ``node_wsum`` the node's visits and its
  reward sum over all its actions (``nVisits`` and ``nodeValue * nVisits``);
* ``low``/``high``: the lowest and highest reward of any player seen so far in this search
  (``SingleTreeNode.normaliseRewardsAfterIteration``, kept on the root; ``update_reward_bounds``);
* every draw from a ``PCG32`` stream (``infosets.core.pcg32``); the numba twins in
  ``infosets.search.tag_rules_nb`` take the same stream as a ``uint64[2]`` array and make the
  same draws.

TAG's defaults (``MCTSParams``) apply where a tuned file is silent: ``K = 1.0``, ``FPU = 1e6``,
``exploreEpsilon = 0.1``, ``exp3Boltzmann = 0.1``, ``MASTBoltzmann = 0.1``, ``MASTGamma = 0.0``,
``MASTDefaultValue = 0.0``, ``maxBackupThreshold = 1,000,000``, ``rolloutLength = 1000``,
``rolloutTermination = EXACT`` (the rule called DEFAULT in issue 56), ``rolloutIncrementType = TICK``,
``normaliseRewards = true``. (TAG's ``K`` default was ``sqrt 2`` until its commit 2a34e8e11,
March 2025, which ``pimcts_settings.csv`` follows where a file is silent; ``K_DEFAULT`` is the
commit read here.) Progressive bias, progressive widening, pUCT and OMA terms are off
by TAG's defaults and in every tuned file of the paper's games, so they are left out.

TAG breaks ties in its tree policy by shuffling the actions (``Collections.shuffle``) and
taking the first strict maximum: a uniform draw among the tied maxima, which
``argmax_tiebreak`` makes with one ``bounded`` draw when (and only when) there is a tie.

Two things TAG does that our engines do not, worth knowing when wiring: TAG's
``exploreEpsilon`` applies to the Greedy, RegretMatching, EXP3 and NoAveragingRM tree policies
only (``SingleTreeNode.treePolicyAction``), not to UCB or UCB_Tuned; and TAG's plain UCB
(``ucbValue``, ``default`` branch) is ``sqrt(ln N / n)`` with no ``K`` since TAG's commit
10421f192 ("FPU refactor", March 2024); UCB_Tuned keeps ``K``.

Wiring (stage 2, done; ``MCTSSettings.tree_policy``/``backup``/``rollout``, in both engines,
tests/search/test_tag_wiring.py):

* ``ucb_tuned_scores`` + ``argmax_tiebreak`` (UCB_Tuned), ``rm_regrets``/``exp3_potentials`` +
  ``sample_tree_policy`` (NoAveragingRM, EXP3): ``common.tag_choice``, called by
  ``mcts._select_child_tag`` and ``ISMCTSBot._select``; twins ``compiled._tag_choice``,
  ``_uct_select``, ``_ismcts_select``. N is the action's availability count in IS-MCTS
  (ours: counted at selection, including the current visit; TAG's ``validVisits`` is counted in
  the backup) and the node's visits in open loop; ``node_visits``/``node_wsum`` are the number
  and reward sum of the selections made from the node (the visit that created it is not
  counted). ``low``/``high`` (``update_reward_bounds``) are kept per tree on the stored rewards
  (mapped to [0, 1] when the bot normalises). ``fpu`` None is ``FPU_DEFAULT``; UCB_Tuned ignores
  ``explore_epsilon`` as TAG does; EXP3 uses ``EXP3_BOLTZMANN_DEFAULT``. Not wired: TAG's final
  choice for EXP3 (``sample_tree_policy(..., explore=False)``); the bots keep their ``final``.
* ``max_mc_value`` (``backup`` MaxMC): ``mcts._backup_tag``/``ISMCTSBot._backup``, twins
  ``compiled._uct_backup``/``_ismcts_backup``, over the node's actions in action order.
* ``mast_values`` + ``mast_rollout_choice``: ``common.random_rollout`` and ``compiled._rollout``;
  ``mast_update`` after each iteration (rollout's then tree's moves, raw returns);
  ``mast_decay`` at each decision of the bot, which holds the table (PI-MCTS: the D trees of a
  move share it, one after the other).
* ``rollout_finished`` (``MCTSSettings.rollout_termination`` END_TURN/END_ROUND, twin
  ``nb_rollout_finished``): the stopping test of ``common.random_rollout`` and
  ``compiled._rollout`` at the players' decisions, on the game's turn/round counter
  (``infosets.games.kernels.rollout_counter``); EXACT keeps their ``steps >= limit`` test, the
  players' actions only under ``rollout_count`` "moves" (TAG's TICK). Not wired:
  ``rollout_depth``'s TURN/ROUND increments and END_ACTION/START_ACTION (no paper row uses them).

Structural settings are not stated here and not wired yet (a later stage of issue 56): ``opponentTreePolicy``
MultiTree (one tree per player, ``MultiTreeNode``) and SelfOnly (the tree holds the root
player's decisions only, opponents moved by the rollout policy, every player backed up with
the root player's reward), and ``reuseTree`` (``MCTSPlayer.backtrack``/``SingleTreeNode.rootify``).
"""

from __future__ import annotations

import math

import numpy as np

from infosets.core.pcg32 import PCG32

# TAG's MCTSParams defaults.
K_DEFAULT = 1.0
FPU_DEFAULT = 1e6
EXPLORE_EPSILON_DEFAULT = 0.1
EXP3_BOLTZMANN_DEFAULT = 0.1
MAST_BOLTZMANN_DEFAULT = 0.1
MAST_GAMMA_DEFAULT = 0.0
MAST_DEFAULT_VALUE = 0.0
MAX_BACKUP_THRESHOLD_DEFAULT = 1_000_000
ROLLOUT_LENGTH_DEFAULT = 1000
RANGE_FLOOR = 1e-6  # ucbValue: range below this is taken as this
TEMPERATURE_FLOOR = 0.001  # BoltzmannActionPlayer: temperature = max(temperature, 0.001)
EXP3_OVERFLOW = 1e6  # exp3Value: a NaN or infinite potential becomes this

# MCTSEnums.RolloutTermination, in TAG's order; EXACT is TAG's default (the brief's DEFAULT).
EXACT, END_ACTION, END_TURN, START_ACTION, END_ROUND = range(5)
TERMINATIONS = {"EXACT": EXACT, "DEFAULT": EXACT, "END_ACTION": END_ACTION,
                "END_TURN": END_TURN, "START_ACTION": START_ACTION, "END_ROUND": END_ROUND}
# MCTSEnums.RolloutIncrement: what one unit of rollout depth is.
TICK, TURN, ROUND = range(3)


def _arrays(**named):
    """The named per-action sequences as float arrays of one common length (ValueError else)."""
    out = {k: np.asarray(v, dtype=np.float64) for k, v in named.items()}
    sizes = {k: a.shape for k, a in out.items()}
    if len(set(sizes.values())) != 1 or any(len(s) != 1 for s in sizes.values()):
        raise ValueError(f"per-action arrays must be 1-d of one length, got shapes {sizes}")
    for k, a in out.items():
        if not np.all(np.isfinite(a)):
            raise ValueError(f"{k}: must be finite")
    return out


def _check_counts(n, avail=None):
    if np.any(n < 0) or np.any(n != np.floor(n)):
        raise ValueError("n: visit counts must be non-negative integers")
    if avail is not None and np.any(avail < n):
        raise ValueError("avail: an action's availability count must be at least its visits")


def _check_bounds(low, high, needed):
    if needed and not (math.isfinite(low) and math.isfinite(high) and low <= high):
        raise ValueError(f"low/high: need finite low <= high once rewards were seen, got {low}, {high}")


def normalise(value: float, low: float, high: float) -> float:
    """``utilities.Utils.normalise``: ``value`` mapped from [low, high] to [0, 1]; 0.0 when
    ``low == high``."""
    if low < high:
        return (value - low) / (high - low)
    if low == high:
        return 0.0
    raise ValueError(f"normalise: low {low} above high {high}")


def update_reward_bounds(low: float, high: float, result) -> tuple[float, float]:
    """``SingleTreeNode.normaliseRewardsAfterIteration``: the search's lowest and highest
    reward after an iteration returning ``result`` (one reward per player). Start from
    ``(inf, -inf)``; TAG does this when rewards are normalised or the policy is UCB_Tuned."""
    r = np.asarray(result, dtype=np.float64)
    if r.ndim != 1 or r.size == 0 or not np.all(np.isfinite(r)):
        raise ValueError("result: must be a non-empty 1-d array of finite rewards")
    return min(low, float(r.min())), max(high, float(r.max()))


def argmax_tiebreak(scores, rng: PCG32) -> int:
    """The index TAG's UCB/Greedy choice takes (``treePolicyAction``: shuffle, then first
    strict maximum): the maximum, a uniform draw ``rng.bounded(ties)`` among exact ties.
    No draw with a single maximum."""
    s = np.asarray(scores, dtype=np.float64)
    if s.ndim != 1 or s.size == 0 or np.any(np.isnan(s)):
        raise ValueError("scores: must be a non-empty 1-d array without NaN")
    best = s.max()
    ties = np.flatnonzero(s == best)
    if ties.size == 1:
        return int(ties[0])
    return int(ties[rng.bounded(int(ties.size))])


def ucb_tuned_scores(n, w, q, avail, low: float, high: float, k: float = K_DEFAULT,
                     fpu: float = FPU_DEFAULT, normalise_rewards: bool = True) -> np.ndarray:
    """UCB-Tuned scores as ``SingleTreeNode.ucbValue`` computes them (treePolicy UCB_Tuned).

    Unvisited action: ``max(FPU, K sqrt(N))`` with ``N = avail[a]`` (its value is 0). Visited:
    ``v = normalise(w/n, low, high)`` (raw ``w/n`` if not ``normalise_rewards``) plus
    ``K sqrt(ln N / n * min(V0, var + sqrt(2 ln N / n)))``, where ``range = max(high - low,
    1e-6)``, the normalised mean square is ``(q/n + low^2 - 2 low w/n) / range^2`` and
    ``var = max(0, mean square - v^2)``; ``V0 = 1/4`` (``sqrt(range / 2)`` unnormalised, the
    mean square then raw ``q/n``). TAG's N has no ``+1``: ``N = 1`` gives no exploration.
    """
    a = _arrays(n=n, w=w, q=q, avail=avail)
    n, w, q, avail = a["n"], a["w"], a["q"], a["avail"]
    _check_counts(n, avail)
    if np.any(q < 0):
        raise ValueError("q: sums of squared rewards must be non-negative")
    if not (k >= 0 and math.isfinite(k)) or math.isnan(fpu):
        raise ValueError(f"k must be finite and >= 0 and fpu a number, got {k}, {fpu}")
    _check_bounds(low, high, bool(np.any(n > 0)))
    out = np.empty(n.size)
    for i in range(n.size):
        if n[i] == 0:
            out[i] = max(fpu, k * math.sqrt(avail[i]))
            continue
        mean = w[i] / n[i]
        rng_ = max(high - low, RANGE_FLOOR)
        mean_sq = q[i] / n[i]
        standard_var = 0.25
        if normalise_rewards:
            value = normalise(mean, low, high)
            mean_sq = (mean_sq + low * low - 2 * low * w[i] / n[i]) / (rng_ * rng_)
        else:
            value = mean
            standard_var = math.sqrt(rng_ / 2.0)
        log_n = math.log(avail[i])
        variance = max(0.0, mean_sq - value * value)
        min_term = min(standard_var, variance + math.sqrt(2 * log_n / n[i]))
        out[i] = value + k * math.sqrt(log_n / n[i] * min_term)
    return out


def rm_regrets(n, w, node_visits: int, node_wsum: float, fpu: float = FPU_DEFAULT) -> np.ndarray:
    """Regret-matching values of the actions to consider (``SingleTreeNode.rmValue``, treePolicy
    NoAveragingRM and RegretMatching): ``max(0, N (w/n - node_wsum/N) + [n == 0] FPU)`` with
    ``N = node_visits`` and ``w/n = 0`` for an unvisited action. Raw rewards (TAG does not
    normalise here). NoAveragingRM keeps no regret table: regrets are these, recomputed from
    the visit statistics on every visit; ``node_update`` is its whole update."""
    a = _arrays(n=n, w=w)
    n, w = a["n"], a["w"]
    _check_counts(n)
    if node_visits < 0 or node_visits != int(node_visits) or not math.isfinite(node_wsum):
        raise ValueError(f"need int node_visits >= 0, finite node_wsum, got {node_visits}, {node_wsum}")
    if math.isnan(fpu):
        raise ValueError("fpu: must be a number")
    node_value = node_wsum / node_visits if node_visits > 0 else 0.0
    out = np.empty(n.size)
    for i in range(n.size):
        value = w[i] / n[i] if n[i] > 0 else 0.0
        regret = value * node_visits - node_value * node_visits
        if n[i] == 0:
            regret += fpu
        out[i] = max(0.0, regret)
    return out


def exp3_potentials(n, w, node_visits: int, node_wsum: float, low: float, high: float,
                    boltzmann: float = EXP3_BOLTZMANN_DEFAULT, fpu: float = FPU_DEFAULT,
                    normalise_rewards: bool = True) -> np.ndarray:
    """EXP3 potentials (``SingleTreeNode.exp3Value``, treePolicy EXP3): ``exp(v / exp3Boltzmann)``
    with ``v = normalise(w/n, low, high)`` (``w/n - node_wsum/node_visits`` unnormalised) for a
    visited action and ``v = 0`` plus ``FPU`` after exponentiation for an unvisited one; a
    NaN or infinite exponential becomes 1e6."""
    a = _arrays(n=n, w=w)
    n, w = a["n"], a["w"]
    _check_counts(n)
    if not boltzmann > 0 or math.isnan(fpu) or node_visits < 0 or not math.isfinite(node_wsum):
        raise ValueError(f"need boltzmann > 0, fpu a number, node_visits >= 0 and node_wsum finite, "
                         f"got {boltzmann}, {fpu}, {node_visits}, {node_wsum}")
    _check_bounds(low, high, normalise_rewards and bool(np.any(n > 0)))
    node_value = node_wsum / node_visits if node_visits > 0 else 0.0
    out = np.empty(n.size)
    for i in range(n.size):
        value = 0.0
        if n[i] > 0:
            value = w[i] / n[i]
            value = normalise(value, low, high) if normalise_rewards else value - node_value
        try:
            pot = math.exp(value / boltzmann)
        except OverflowError:
            pot = math.inf
        if math.isnan(pot) or math.isinf(pot):
            pot = EXP3_OVERFLOW
        if n[i] == 0:
            pot += fpu
        out[i] = pot
    return out


def _sample_index(potentials: np.ndarray, u: float) -> int:
    """``Utils.sampleFrom(Utils.pdf(potentials), u)``: first index whose cumulative probability
    reaches ``u``; uniform when the sum is not a positive finite number. (TAG raises if rounding
    leaves the total below ``u``; this returns the last index of positive probability.)"""
    m = potentials.size
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


def sample_tree_policy(values, rng: PCG32, explore_epsilon: float = EXPLORE_EPSILON_DEFAULT,
                       explore: bool = True) -> int:
    """The choice among ``values`` (``rm_regrets`` or ``exp3_potentials``) of
    ``SingleTreeNode.treePolicyAction`` for RegretMatching, EXP3 and NoAveragingRM: one action
    is taken without a draw; else with ``explore`` and ``rng.random() < exploreEpsilon`` a
    uniform action (``rng.bounded``); else uniform if no value is positive; else sampled
    with probability proportional to its value (one ``rng.random()``)."""
    v = np.asarray(values, dtype=np.float64)
    if v.ndim != 1 or v.size == 0 or np.any(np.isnan(v)) or np.any(v < 0):
        raise ValueError("values: must be a non-empty 1-d array of non-negative numbers")
    if not 0.0 <= explore_epsilon <= 1.0:
        raise ValueError(f"explore_epsilon: must be in [0, 1], got {explore_epsilon}")
    if v.size == 1:
        return 0
    if explore and rng.random() < explore_epsilon:
        return rng.bounded(v.size)
    if not np.any(v > 0.0):
        return rng.bounded(v.size)
    return _sample_index(v, rng.random())


def node_update(n, w, q, avail, considered, taken: int, reward: float) -> None:
    """The statistics update of ``SingleTreeNode.backUpSingleNode`` for one player's reward,
    in place: every considered (available) action gains one availability, the taken one a
    visit, ``reward`` and ``reward^2`` (``ActionStats.update``). The node's own visit count
    gains one too (the caller's ``node_visits += 1``; ``node_wsum += reward``)."""
    for name, arr in (("n", n), ("w", w), ("q", q), ("avail", avail), ("considered", considered)):
        if not isinstance(arr, np.ndarray) or arr.ndim != 1 or arr.size != np.asarray(n).size:
            raise ValueError(f"{name}: must be a 1-d numpy array of the length of n")
    if not 0 <= taken < n.size or not considered[taken]:
        raise ValueError(f"taken: {taken} must index a considered action")
    if not math.isfinite(reward):
        raise ValueError(f"reward: must be finite, got {reward}")
    for i in range(n.size):
        if considered[i]:
            avail[i] += 1
    n[taken] += 1
    w[taken] += reward
    q[taken] += reward * reward


def max_mc_value(result, n, w_all, decision_player: int, taken: int, node_visits: int,
                 threshold: int = MAX_BACKUP_THRESHOLD_DEFAULT) -> np.ndarray:
    """The reward vector a node passes to its parent under ``backupPolicy MaxMC``
    (``SingleTreeNode.backUpSingleNode``, after its own update, so ``node_visits``, ``n`` and
    ``w_all`` include this iteration). ``n[a]`` and ``w_all[a, p]`` (every player's reward sum)
    over the actions considered, in the node's action order. Once ``node_visits > threshold``
    and the best action (highest ``w_all[a, decision_player] / n[a]``, first strict maximum in
    order, unvisited ones never) is not ``taken``, every player's value becomes
    ``(1 - m) result + m best_mean`` with ``m = (node_visits - threshold) / node_visits``;
    otherwise ``result`` unchanged."""
    r = np.asarray(result, dtype=np.float64)
    n = np.asarray(n, dtype=np.float64)
    w_all = np.asarray(w_all, dtype=np.float64)
    if r.ndim != 1 or n.ndim != 1 or w_all.shape != (n.size, r.size):
        raise ValueError(f"shapes: need result (P,), n (A,), w_all (A, P), "
                         f"got {r.shape}, {n.shape}, {w_all.shape}")
    _check_counts(n)
    if not (np.all(np.isfinite(r)) and np.all(np.isfinite(w_all))):
        raise ValueError("result and w_all: must be finite")
    if not 0 <= decision_player < r.size or not 0 <= taken < n.size or n[taken] < 1:
        raise ValueError("decision_player and taken: must index a player and a visited action")
    if threshold < 0 or node_visits < 1:
        raise ValueError(f"need threshold >= 0 and node_visits >= 1, got {threshold}, {node_visits}")
    out = r.copy()
    if node_visits <= threshold:
        return out
    best, best_value = -1, -np.finfo(np.float64).max
    for i in range(n.size):
        value = w_all[i, decision_player] / n[i] if n[i] > 0 else -np.finfo(np.float64).max
        if value > best_value:
            best, best_value = i, value
    if best != taken:
        m = (node_visits - threshold) / node_visits
        for p in range(r.size):
            out[p] = (1 - m) * r[p] + m * (w_all[best, p] / n[best])
    return out


def _check_mast(mast_n, mast_w):
    if not (isinstance(mast_n, np.ndarray) and isinstance(mast_w, np.ndarray)
            and mast_n.ndim == 2 and mast_n.shape == mast_w.shape):
        raise ValueError("mast_n, mast_w: must be numpy arrays of one shape (players, actions)")


def mast_update(mast_n, mast_w, players, actions, delta) -> None:
    """``SingleTreeNode.MASTBackup`` after an iteration, in place: for each (player, action)
    played in it (MAST Both: the rollout's then the tree's, repeats counted each time),
    ``mast_n[player, action] += 1`` and ``mast_w[player, action] += delta[player]``, ``delta``
    the iteration's raw reward vector (the heuristic's values, before any normalisation)."""
    _check_mast(mast_n, mast_w)
    players, actions = np.asarray(players), np.asarray(actions)
    d = np.asarray(delta, dtype=np.float64)
    if players.shape != actions.shape or players.ndim != 1 or d.shape != (mast_n.shape[0],):
        raise ValueError("players/actions: 1-d of one length; delta: one reward per player")
    if players.size and (players.min() < 0 or players.max() >= mast_n.shape[0]
                         or actions.min() < 0 or actions.max() >= mast_n.shape[1]):
        raise ValueError("players/actions: out of the table's range")
    if not np.all(np.isfinite(d)):
        raise ValueError("delta: must be finite")
    for i in range(players.size):
        mast_n[players[i], actions[i]] += 1
        mast_w[players[i], actions[i]] += d[players[i]]


def mast_decay(mast_n, mast_w, gamma: float = MAST_GAMMA_DEFAULT) -> None:
    """The table carried to the bot's next decision, in place (``MCTSPlayer.createRootNode``
    with ``Utils.decay``): for ``0 <= gamma < 1`` each count becomes ``floor(n gamma)`` and
    its sum is scaled by ``new n / old n`` (the mean kept, or zeroed with the count);
    ``gamma >= 1`` keeps the table. ``gamma = 0`` (TAG's default) empties it, as TAG's fresh
    root statistics do."""
    _check_mast(mast_n, mast_w)
    if not gamma >= 0.0:
        raise ValueError(f"gamma: must be >= 0, got {gamma}")
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


def mast_values(mast_n, mast_w, player: int, actions, default: float = MAST_DEFAULT_VALUE) -> np.ndarray:
    """``MASTActionHeuristic.evaluateAction`` for ``player``'s legal ``actions``: the mean
    ``mast_w / mast_n``, or ``default`` (``MASTDefaultValue``) for an action never counted."""
    _check_mast(mast_n, mast_w)
    acts = np.asarray(actions)
    if not 0 <= player < mast_n.shape[0] or acts.ndim != 1 or (
            acts.size and (acts.min() < 0 or acts.max() >= mast_n.shape[1])):
        raise ValueError("player/actions: out of the table's range")
    out = np.empty(acts.size)
    for i in range(acts.size):
        c = mast_n[player, acts[i]]
        out[i] = mast_w[player, acts[i]] / c if c > 0 else default
    return out


def mast_rollout_choice(values, rng: PCG32, temperature: float = MAST_BOLTZMANN_DEFAULT,
                        epsilon: float = 0.0) -> int:
    """The rollout move of TAG's MAST policy (``MASTPlayer``, a ``BoltzmannActionPlayer`` built
    with ``MASTBoltzmann`` and epsilon 0.0 by ``MCTSParams.constructStrategy``): one legal
    action is played without a draw (``AbstractPlayer.getAction``); else, if ``epsilon > 0``
    and ``rng.random() < epsilon``, a uniform action; else index sampled (one ``rng.random()``)
    from ``exp((v - max v) / T)``, ``T = max(temperature, 0.001)`` (Boltzmann, not
    epsilon-greedy)."""
    v = np.asarray(values, dtype=np.float64)
    if v.ndim != 1 or v.size == 0 or not np.all(np.isfinite(v)):
        raise ValueError("values: must be a non-empty 1-d array of finite numbers")
    if math.isnan(temperature) or not 0.0 <= epsilon <= 1.0:
        raise ValueError(f"temperature a number and epsilon in [0, 1], got {temperature}, {epsilon}")
    if v.size == 1:
        return 0
    t = max(temperature, TEMPERATURE_FLOOR)
    top = v.max()
    pots = np.empty(v.size)
    for i in range(v.size):
        pots[i] = math.exp((v[i] - top) / t)
    if epsilon > 0.0 and rng.random() < epsilon:
        return rng.bounded(v.size)
    return _sample_index(pots, rng.random())


def rollout_max_length(rollout_length: int = ROLLOUT_LENGTH_DEFAULT, per_player: bool = False,
                       n_players: int = 1) -> int:
    """``maxRollout`` of ``SingleTreeNode.finishRollout``: ``rolloutLength``, times the number
    of players if ``rolloutLengthPerPlayer``."""
    if rollout_length < 0 or n_players < 1:
        raise ValueError(f"need rollout_length >= 0 and n_players >= 1, got {rollout_length}, {n_players}")
    return rollout_length * n_players if per_player else rollout_length


def rollout_depth(increment: int, actions_done: int, turn: int = 0, turn_at_start: int = 0,
                  round_: int = 0, round_at_start: int = 0) -> int:
    """``rolloutDepth`` of ``finishRollout`` by ``rolloutIncrementType``: TICK the rollout's
    actions so far (the players', chance being inside TAG's forward model), TURN/ROUND the
    turn/round counter's advance since the rollout began."""
    if increment == TICK:
        return actions_done
    if increment == TURN:
        return turn - turn_at_start
    if increment == ROUND:
        return round_ - round_at_start
    raise ValueError(f"increment: must be TICK, TURN or ROUND (0-2), got {increment}")


def rollout_finished(terminal: bool, depth: int, max_length: int, termination: int = EXACT,
                     turn_changed: bool = False, round_changed: bool = False,
                     last_actor_is_root: bool = False, actor_is_root: bool = False) -> bool:
    """``SingleTreeNode.finishRollout``, asked before each rollout action: stop at a terminal
    state; else go on while ``depth < max_length``; once there, EXACT stops, END_TURN stops
    when the last rollout action changed the turn counter (``turn_changed``: the counter now
    differs from the one before that action; false before any action), END_ROUND likewise for
    the round counter, END_ACTION when the last actor was the root player and the turn owner
    now is not, START_ACTION when the last actor was not and the turn owner now is (last
    actor before any rollout action: the last actor in the tree).

    So ``rolloutLength 0`` with EXACT evaluates the leaf at once, while with END_TURN/END_ROUND
    (Hearts) the rollout plays to the end of the turn/round."""
    if termination not in (EXACT, END_ACTION, END_TURN, START_ACTION, END_ROUND):
        raise ValueError(f"termination: must be one of EXACT..END_ROUND (0-4), got {termination}")
    if depth < 0 or max_length < 0:
        raise ValueError(f"need depth >= 0 and max_length >= 0, got {depth}, {max_length}")
    if terminal:
        return True
    if depth < max_length:
        return False
    if termination == EXACT:
        return True
    if termination == END_ACTION:
        return last_actor_is_root and not actor_is_root
    if termination == START_ACTION:
        return not last_actor_is_root and actor_is_root
    if termination == END_TURN:
        return turn_changed
    return round_changed


# RegretMatching's average strategy (treePolicy RegretMatching), read from the authors'
# submission code, GAIGResearch/TabletopGames c6d074e6646916e9f28082b03845625c881593ee,
# src/main/java/players/mcts/SingleTreeNode.java: ``backUpSingleNode``,
# ``updateRegretMatchingAverage``, ``bestAction`` and ``regretMatchingAverage``. Its selection
# in the tree is NoAveragingRM's (``rm_regrets`` + ``sample_tree_policy``, epsilon included);
# what it adds is a running sum of the regret-matching distributions at a node, from which the
# final move at the root is sampled. Only the root's sum is ever read.
RM_AVERAGE_EVERY_MIN = 10  # updateEvery = max(#actions, 10)


def rm_policy(regrets) -> np.ndarray:
    """``Utils.pdf`` of the regrets (``rm_regrets``): each over their sum, uniform when the sum
    is not a positive finite number (every regret 0)."""
    r = np.asarray(regrets, dtype=np.float64)
    if r.ndim != 1 or r.size == 0 or np.any(np.isnan(r)) or np.any(r < 0):
        raise ValueError("regrets: must be a non-empty 1-d array of non-negative numbers")
    total = 0.0
    for i in range(r.size):
        total += r[i]
    out = np.empty(r.size)
    for i in range(r.size):
        out[i] = 1.0 / r.size if (math.isinf(total) or total <= 0.0) else r[i] / total
    return out


def rm_average_due(node_visits: int, num_actions: int) -> bool:
    """Whether ``backUpSingleNode`` adds the node's current regret-matching distribution to its
    average after this visit: ``node_visits`` (``nVisits``, this visit included) a positive
    multiple of ``updateEvery = max(num_actions, 10)``, ``num_actions`` the actions available
    on this visit."""
    if node_visits < 0 or num_actions < 1:
        raise ValueError(f"need node_visits >= 0 and num_actions >= 1, got {node_visits}, {num_actions}")
    every = max(num_actions, RM_AVERAGE_EVERY_MIN)
    return node_visits >= every and node_visits % every == 0


def rm_average_update(average, regrets) -> None:
    """``updateRegretMatchingAverage``, in place: ``average[i] += rm_policy(regrets)[i]`` over
    the node's actions to consider (``average`` a float array aligned with ``regrets``)."""
    if not isinstance(average, np.ndarray) or average.shape != np.shape(regrets):
        raise ValueError("average: must be a numpy array of the regrets' shape")
    pdf = rm_policy(regrets)
    for i in range(pdf.size):
        average[i] += pdf[i]


def rm_average_top_up_due(updates: int, node_visits: int, num_actions: int) -> bool:
    """Whether ``bestAction`` adds the root's current distribution once more before choosing:
    when no update was made yet (``updates == 0``) or ``node_visits <= max(num_actions, 10)``
    (the submission code; TAG c4d7687 tops up only an empty average)."""
    if updates < 0 or node_visits < 0 or num_actions < 1:
        raise ValueError(f"need updates, node_visits >= 0 and num_actions >= 1, got "
                         f"{updates}, {node_visits}, {num_actions}")
    return updates == 0 or node_visits <= max(num_actions, RM_AVERAGE_EVERY_MIN)


def rm_average_choice(average, rng: PCG32) -> int:
    """The final move under RegretMatching (``regretMatchingAverage``): an index sampled from
    ``Utils.pdf`` of the summed distributions with one ``rng.random()`` (first index whose
    cumulative probability reaches it; uniform if the sum is 0). One action is taken without a
    draw, as TAG's agent moves without searching then (``AbstractPlayer.getAction``). TAG
    walks its ``HashMap``'s key order; here the order is the caller's (legal order), so the
    distribution is TAG's and the draw-to-action map is ours."""
    a = np.asarray(average, dtype=np.float64)
    if a.ndim != 1 or a.size == 0 or not np.all(np.isfinite(a)) or np.any(a < 0):
        raise ValueError("average: must be a non-empty 1-d array of finite non-negative numbers")
    if a.size == 1:
        return 0
    return _sample_index(a, rng.random())
