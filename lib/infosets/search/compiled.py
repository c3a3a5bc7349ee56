"""The compiled search engine: open-loop UCT (OL-MCTS / PI-MCTS) and IS-MCTS in numba.

Reproduces, at compiled speed, the agents of Ravichandran, Goodman and Lucas, "PIMCTS
evaluation in tabletop games" (docs/papers/pimcts_aggregation.md). The Python loops stay the
readable specification: ``infosets.search.mcts.uct_search`` (one open-loop tree),
``infosets.search.pimcts`` (D trees, aggregation) and ``infosets.search.ismcts.ISMCTSBot``
(one tree keyed by the mover's information state, availability counts, vector backup).
This module runs the same algorithms draw for draw with the same PCG32 generator
(``infosets.core.pcg32``), on a game kernel (``infosets.games.kernels``): seeded, it gives
the same root statistics and moves as the Python reference (tests/search/test_engine_equivalence.py).

Trees are preallocated arrays, one node per iteration at most:
* open-loop UCT: ``visits``, ``wsum``, ``mover`` per node and ``children[node, action]``
  (open loop: chance is redrawn every iteration, so children are player actions only);
* IS-MCTS: nodes found by their mover's information-state key in an open-addressing table,
  per node and action ``n``, ``w``, ``avail`` and ``present`` (the action has been legal
  there).

TAG's tree policies, MaxMC backup and MAST rollouts (issue 56; ``MCTSSettings.tree_policy``,
``backup``, ``rollout``) run in the same searches, given the optional ``tag`` arguments: one
loop per search (``uct_tree``, ``pimcts_trees``, ``ismcts_tree_with``), whose selection,
rollout and backup helpers (``_uct_select``, ``_ismcts_select``, ``_rollout``, ``_uct_backup``,
``_ismcts_backup``) take TAG's state ``tg`` (a ``TagSearch``) and call the numba twins of
``infosets.search.tag_rules`` (``tag_rules_nb``; ``_tag_choice``). Numba compiles one version
per argument types: with ``tag`` omitted, ``tg`` is None and every ``tg is None`` test is
decided at compile time (numba prunes branches on None arguments), so today's searches compile
without TAG's arrays and branches (a runtime test in the shared loop had cost about 10% on small
games' default runs); the TAG version is compiled for a game only when one of its bots uses a
TAG setting. With TAG's settings the nodes also keep the sum of squared rewards ``q``, the
number and reward sum of the selections made from them (TAG's ``nVisits`` and ``nodeValue``,
used by NoAveragingRM and EXP3; the visit that created a node is not counted), every player's
reward sums per action under MaxMC, and the search keeps the lowest and highest (scaled) reward
seen.

The final choice and the PI-MCTS aggregation are done by the Python code of the reference
(``choose_final``, ``aggregate``) from these statistics, with the generator's state carried
back, so there is one implementation of each rule.
"""

from __future__ import annotations

import math
import types
from collections import namedtuple
from types import ModuleType, SimpleNamespace

import numba as nb
import numpy as np
from numba import types as nb_types
from numba.extending import overload

from infosets.core.pcg32 import rng_bounded, rng_random
from infosets.search import tag_rules as tr
from infosets.search.root_stats import RootStats
from infosets.search.tag_rules_nb import (
    nb_argmax_tiebreak,
    nb_exp3_potentials,
    nb_mast_decay,
    nb_mast_rollout_choice,
    nb_mast_update,
    nb_mast_values,
    nb_max_mc_value,
    nb_rm_average_due,
    nb_rm_average_update,
    nb_rm_regrets,
    nb_rollout_finished,
    nb_sample_tree_policy,
    nb_ucb_tuned_scores,
    nb_update_reward_bounds,
)

CHANCE = -1
TERMINAL = -4

# The kernel contract (infosets.games.kernels), bound to one game's jitted functions in each
# engine that ``engine_for`` builds; the game-free module never calls them.
nb_current_player = nb_legal_actions = nb_chance_outcomes = nb_apply_action = None
nb_returns = nb_heuristic = nb_infostate_key = nb_determinize = None
nb_turn = nb_round = None  # optional: TAG's counters (END_TURN/END_ROUND rollouts)


def _sample_chance(s, actions, probs, rng):
    """A chance outcome by its probabilities (as ``search.common.sample_chance``)."""
    n = nb_chance_outcomes(s, actions, probs)
    u = rng_random(rng)
    acc = 0.0
    for i in range(n):
        acc += probs[i]
        if u < acc:
            return actions[i]
    return actions[n - 1]


@nb.njit(cache=True)
def _record(rec_p, rec_a, count, mover, action):
    """(player, action) ``count`` of a MAST rollout written to ``rec_p``/``rec_a``, grown
    (doubled, from 64) when full; returns the arrays."""
    if count == rec_p.shape[0]:
        size = 2 * count if count else 64
        grown_p = np.empty(size, np.int64)
        grown_a = np.empty(size, np.int64)
        grown_p[:count] = rec_p[:count]
        grown_a[:count] = rec_a[:count]
        rec_p, rec_a = grown_p, grown_a
    rec_p[count] = mover
    rec_a[count] = action
    return rec_p, rec_a


def _rollout(st, rng, limit, buf, probs, returns, tg, rec_p, rec_a):
    """Playout from ``st`` in place (as ``common.random_rollout``); raw returns (or the
    heuristic at a cut-off after ``limit`` actions, ``limit < 0``: none) into ``returns``.

    Players move uniformly at random; with TAG's MAST (``tg`` a ``TagSearch`` with ``mast``)
    by ``tag_rules_nb.nb_mast_values`` and ``nb_mast_rollout_choice``, each (player, action)
    played recorded in ``rec_p``/``rec_a`` (``_record``). Returns (count, rec_p, rec_a);
    ``tg`` None (today's settings) compiles the random playout alone. TAG's END_TURN/END_ROUND
    (``tg.termination``) stop as ``common.random_rollout`` does, by the kernel's ``nb_turn`` /
    ``nb_round`` and ``tag_rules_nb.nb_rollout_finished``."""
    steps = 0
    count = 0
    termination = _termination(tg)
    last, seen = 0, False  # the counter at the previous player decision of the rollout
    mover = nb_current_player(st)
    while mover != TERMINAL:
        if termination == tr.EXACT:
            if limit >= 0 and steps >= limit:
                break
        elif mover != CHANCE:
            now = nb_turn(st) if termination == tr.END_TURN else nb_round(st)
            changed = seen and now != last
            if limit >= 0 and nb_rollout_finished(False, steps, limit, termination, changed, changed, False,
                                                   False):
                break
            last, seen = now, True
        if mover == CHANCE:
            action = _sample_chance(st, buf, probs, rng)
        else:
            n = nb_legal_actions(st, buf)
            action = -1  # a random move unless MAST chooses (actions are >= 0)
            if tg is not None:
                if tg.mast:
                    if _by_mast(tg, mover):
                        nb_mast_values(tg.mast_n, tg.mast_w, mover, buf, n, 0.0, tg.vals)
                        action = buf[nb_mast_rollout_choice(tg.vals, n, tg.temperature, 0.0, rng, tg.pots)]
                    else:  # mast_opponents "random": a uniform move, recorded all the same
                        action = buf[int(rng_random(rng) * n)]
                    rec_p, rec_a = _record(rec_p, rec_a, count, mover, action)
                    count += 1
            if action < 0:
                action = buf[int(rng_random(rng) * n)]
        nb_apply_action(st, action)
        if mover != CHANCE or _counts_chance(tg):
            steps += 1
        mover = nb_current_player(st)
    if mover == TERMINAL:
        nb_returns(st, returns)
    else:
        nb_heuristic(st, returns)
    return count, rec_p, rec_a


# ``MCTSSettings.tree_policy`` codes and the layout of the ``tag`` argument of the searches.
POLICY_UCB, POLICY_UCB_TUNED, POLICY_RM, POLICY_EXP3 = 0, 1, 2, 3
POLICY_REGRET_MATCHING = 4  # NoAveragingRM's selection, plus the root's average (_uct_rm_root)
POLICIES = {"UCB": POLICY_UCB, "UCB_Tuned": POLICY_UCB_TUNED, "NoAveragingRM": POLICY_RM,
            "EXP3": POLICY_EXP3, "RegretMatching": POLICY_REGRET_MATCHING}
MAST_ALL, MAST_ROOT_ONLY = 1, 2  # ``tag[TAG_MAST]``: every player by MAST, or the root player only
TAG_POLICY, TAG_MAXMC, TAG_THRESHOLD, TAG_MAST = 0, 1, 2, 3
TAG_SELF_ONLY, TAG_COUNT_MOVES, TAG_TERMINATION = 4, 5, 6  # optional entries (absent: 0)
FPU_TAG = tr.FPU_DEFAULT  # an untried action's score under TAG's policies when fpu is None
EXP3_BOLTZMANN = tr.EXP3_BOLTZMANN_DEFAULT

# TAG's state of one search (issue 56): the settings (``policy`` code, ``maxmc``, its
# ``threshold``, ``mast``, MAST's ``temperature`` and the bot's table ``mast_n``/``mast_w``),
# the node statistics (``q`` squared reward sums; ``sel_n``/``sel_w`` the selections made from
# a node and their reward sum, TAG's nVisits and nodeValue; ``w_all`` every player's reward
# sums under MaxMC), scratch rows (``gn`` ... ``pots``), the reward ``bounds`` [low, high] seen,
# the path's actions and movers (MAST's tree moves), and where MaxMC finds a node's siblings (the
# tree's ``children``; IS-MCTS: ``present``).
TagSearch = namedtuple("TagSearch", "policy maxmc threshold mast temperature mast_n mast_w q sel_n sel_w "
                                    "w_all gw_all gn gw gq gav scores vec tmp bounds vals pots path_action "
                                    "path_mover siblings")


@nb.njit(cache=True)
def _tag_search(tag, temperature, mast_n, mast_w, num_actions, num_players, q, sel_n, sel_w, w_all,
                path_action, path_mover, siblings):
    """A ``TagSearch`` from the ``tag`` array [tree policy code, MaxMC on, its threshold, MAST
    on] and the search's own statistics arrays."""
    maxmc = tag[TAG_MAXMC] != 0
    return TagSearch(tag[TAG_POLICY], maxmc, tag[TAG_THRESHOLD], tag[TAG_MAST] != 0, temperature, mast_n,
                     mast_w, q, sel_n, sel_w, w_all,
                     np.zeros((num_actions if maxmc else 1, num_players), np.float64),
                     np.zeros(num_actions, np.float64), np.zeros(num_actions, np.float64),
                     np.zeros(num_actions, np.float64), np.zeros(num_actions, np.float64),
                     np.zeros(num_actions, np.float64), np.zeros(num_players, np.float64),
                     np.zeros(num_players, np.float64), np.array([np.inf, -np.inf]),
                     np.zeros(num_actions, np.float64), np.zeros(num_actions, np.float64), path_action,
                     path_mover, siblings)


# The parts of a ``TagSearch`` each helper reads: the searches pass a helper only its part (or
# None where today's rule applies: a UCB selection, the mean backup, a random rollout), since
# every array in a tuple argument is passed and reference-counted at each call (passing the
# whole ``TagSearch`` made the TAG searches up to 2x slower). The helpers also take a whole
# ``TagSearch``: they read fields by name.
TagSelect = namedtuple("TagSelect", "policy q sel_n sel_w gn gw gq gav scores bounds")
TagBackup = namedtuple("TagBackup", "policy maxmc threshold q sel_n sel_w w_all gw_all gn vec tmp bounds "
                                    "siblings self_only")
TagRollout = namedtuple("TagRollout", "mast temperature mast_n mast_w vals pots count_moves termination "
                                      "mast_player")


@nb.njit(cache=True)
def _tag_parts(tg, self_only, count_moves, termination=tr.EXACT, mast_player=-1):
    """The ``TagSelect``, ``TagBackup`` and ``TagRollout`` views of ``tg`` (same arrays);
    ``self_only``: SelfOnly's backup (every player's component the root player's reward);
    ``count_moves``: the rollout's limit counts players' actions only; ``termination``: the
    rollout's (``tag_rules.EXACT``, ``END_TURN``, ``END_ROUND``); ``mast_player``: the only
    player MAST moves (``mast_opponents`` "random"; -1: every player)."""
    return (TagSelect(tg.policy, tg.q, tg.sel_n, tg.sel_w, tg.gn, tg.gw, tg.gq, tg.gav, tg.scores, tg.bounds),
            TagBackup(tg.policy, tg.maxmc, tg.threshold, tg.q, tg.sel_n, tg.sel_w, tg.w_all, tg.gw_all, tg.gn,
                      tg.vec, tg.tmp, tg.bounds, tg.siblings, self_only),
            TagRollout(tg.mast, tg.temperature, tg.mast_n, tg.mast_w, tg.vals, tg.pots, count_moves,
                       termination, mast_player))


def _split(tg, tag, player):
    """``tg``'s parts (``_tag_parts``; MAST moves only the root ``player`` when ``tag[TAG_MAST]``
    is ``MAST_ROOT_ONLY``) and whether the search selects by TAG's policy, backs up
    TAG's statistics, rolls out by MAST, keeps the root player's tree only (SelfOnly, ``tag``'s
    optional ``TAG_SELF_ONLY``), passes its rollout part (MAST, or a limit counting moves,
    ``TAG_COUNT_MOVES``); Nones and False for today's settings (``tg`` None), chosen at compile
    time as ``_uct_tag``."""


@overload(_split)
def _split_typed(tg, tag, player):
    if _no_tag(tg):
        return lambda tg, tag, player: (None, None, None, False, False, False, False)

    def split(tg, tag, player):
        self_only = tag.shape[0] > TAG_SELF_ONLY and tag[TAG_SELF_ONLY] != 0
        count_moves = tag.shape[0] > TAG_COUNT_MOVES and tag[TAG_COUNT_MOVES] != 0
        termination = tag[TAG_TERMINATION] if tag.shape[0] > TAG_TERMINATION else tr.EXACT
        sel, back, roll = _tag_parts(tg, self_only, count_moves, termination,
                                     player if tag[TAG_MAST] == MAST_ROOT_ONLY else -1)
        return (sel, back, roll, tg.policy != POLICY_UCB, tg.policy != POLICY_UCB or tg.maxmc,
                tg.mast or count_moves or termination != tr.EXACT, self_only)
    return split


def _self_only(tg):
    """``tg.self_only`` where ``tg`` has it (a ``TagBackup``), else False (a whole ``TagSearch``)."""


@overload(_self_only)
def _self_only_typed(tg):
    if isinstance(tg, nb_types.BaseNamedTuple) and "self_only" in tg.fields:
        return lambda tg: tg.self_only
    return lambda tg: False


def _counts_chance(tg):
    """False when ``tg`` (a ``TagRollout``) has ``count_moves`` set: the rollout's limit counts
    players' actions only; True for today's settings (None) and a whole ``TagSearch``."""


@overload(_counts_chance)
def _counts_chance_typed(tg):
    if isinstance(tg, nb_types.BaseNamedTuple) and "count_moves" in tg.fields:
        return lambda tg: not tg.count_moves
    return lambda tg: True


def _termination(tg):
    """``tg.termination`` where ``tg`` has it (a ``TagRollout``), else EXACT (today's settings,
    None, and a whole ``TagSearch``)."""


@overload(_termination)
def _termination_typed(tg):
    if isinstance(tg, nb_types.BaseNamedTuple) and "termination" in tg.fields:
        return lambda tg: tg.termination
    return lambda tg: tr.EXACT


@nb.njit(cache=True)
def _no_counter(s):
    """The counter bound for a kernel without ``nb_turn``/``nb_round``: never read, since the bots
    refuse END_TURN/END_ROUND for such a game (``kernels.rollout_counter``)."""
    return 0


def _by_mast(tg, mover):
    """Whether ``mover`` moves by MAST in a MAST rollout of ``tg``: every player, or only
    ``tg.mast_player`` when it is set (a ``TagRollout``; ``mast_opponents`` "random")."""


@overload(_by_mast)
def _by_mast_typed(tg, mover):
    if isinstance(tg, nb_types.BaseNamedTuple) and "mast_player" in tg.fields:
        return lambda tg, mover: tg.mast_player < 0 or mover == tg.mast_player
    return lambda tg, mover: True


def _advance_opponents(st, player, buf, probs, rng, roll):
    """Play ``st`` on in place until ``player`` is to move or the game ends (as
    ``common.advance_to_turn``): chance by its probabilities, the other players at random or by
    MAST (``roll`` a ``TagRollout`` with ``mast``), nothing recorded. SelfOnly's moves of the
    other players (``MCTSSettings.opponent_tree``)."""
    mover = nb_current_player(st)
    while mover != TERMINAL and mover != player:
        if mover == CHANCE:
            action = _sample_chance(st, buf, probs, rng)
        else:
            n = nb_legal_actions(st, buf)
            action = -1
            if roll is not None:
                if roll.mast and _by_mast(roll, mover):
                    nb_mast_values(roll.mast_n, roll.mast_w, mover, buf, n, 0.0, roll.vals)
                    action = buf[nb_mast_rollout_choice(roll.vals, n, roll.temperature, 0.0, rng, roll.pots)]
            if action < 0:
                action = buf[int(rng_random(rng) * n)]
        nb_apply_action(st, action)
        mover = nb_current_player(st)
    return mover


def _no_tag(tag):
    """True when the searches run today's settings: ``tag`` typed None (omitted)."""
    return isinstance(tag, (nb_types.NoneType, nb_types.Omitted))


def _uct_tag(tag, temperature, mast_n, mast_w, cap, num_actions, num_players, children):
    """``uct_tree``'s ``TagSearch`` (``cap`` nodes) and MAST's empty record of a rollout's
    players and actions (``_record``), or three Nones for today's settings (``tag`` None):
    chosen when numba compiles the search for the argument types (``overload`` below), so
    today's search compiles without TAG's arrays and branches."""


@overload(_uct_tag)
def _uct_tag_typed(tag, temperature, mast_n, mast_w, cap, num_actions, num_players, children):
    if _no_tag(tag):
        return lambda tag, temperature, mast_n, mast_w, cap, num_actions, num_players, children: \
            (None, None, None)

    def build(tag, temperature, mast_n, mast_w, cap, num_actions, num_players, children):
        rows = cap if tag[TAG_MAXMC] != 0 else 1
        tg = _tag_search(tag, temperature, mast_n, mast_w, num_actions, num_players,
                         np.zeros(cap, np.float64), np.zeros(cap, np.int64), np.zeros(cap, np.float64),
                         np.zeros((rows, num_players), np.float64), np.empty(cap, np.int64),
                         np.empty(cap, np.int64), children)
        return tg, np.empty(0, np.int64), np.empty(0, np.int64)
    return build


def _ismcts_tag(tag, temperature, mast_n, mast_w, cap, num_actions, num_players, path_action, path_mover,
                present):
    """``ismcts_tree_with``'s ``TagSearch`` (``q`` and ``w_all`` per node and action, ``sel_w``
    the node's reward sum; ``sel_n`` unused: the node's visits serve) and MAST's empty record,
    or three Nones for today's settings, chosen at compile time as ``_uct_tag``."""


@overload(_ismcts_tag)
def _ismcts_tag_typed(tag, temperature, mast_n, mast_w, cap, num_actions, num_players, path_action,
                      path_mover, present):
    if _no_tag(tag):
        return lambda tag, temperature, mast_n, mast_w, cap, num_actions, num_players, path_action, \
            path_mover, present: (None, None, None)

    def build(tag, temperature, mast_n, mast_w, cap, num_actions, num_players, path_action, path_mover,
              present):
        rows = cap if tag[TAG_MAXMC] != 0 else 1
        tg = _tag_search(tag, temperature, mast_n, mast_w, num_actions, num_players,
                         np.zeros((cap, num_actions), np.float64), np.zeros(1, np.int64),
                         np.zeros(cap, np.float64),
                         np.zeros((rows, num_actions if rows > 1 else 1, num_players), np.float64),
                         path_action, path_mover, present)
        return tg, np.empty(0, np.int64), np.empty(0, np.int64)
    return build


@nb.njit(cache=True)
def _policy_of(tg):
    """The tree policy code of ``tg`` (``POLICY_UCB`` for today's settings, ``tg`` None)."""
    if tg is None:
        return POLICY_UCB
    return tg.policy


@nb.njit(cache=True)
def _tag_choice(policy, gn, gw, gq, gav, m, c, fpu, epsilon, node_visits, node_wsum, low, high, rng,
                scores):
    """Index among ``m`` gathered actions chosen by TAG's tree ``policy`` (as
    ``common.tag_choice``): UCB-Tuned scores and a tie-broken argmax, or NoAveragingRM regrets /
    EXP3 potentials sampled with ``epsilon``."""
    if policy == POLICY_UCB_TUNED:
        nb_ucb_tuned_scores(gn, gw, gq, gav, m, low, high, c, fpu, True, scores)
        return nb_argmax_tiebreak(scores, m, rng)
    if policy == POLICY_RM or policy == POLICY_REGRET_MATCHING:
        nb_rm_regrets(gn, gw, m, node_visits, node_wsum, fpu, scores)
    else:
        nb_exp3_potentials(gn, gw, m, node_visits, node_wsum, low, high, EXP3_BOLTZMANN, fpu, True,
                           scores)
    return nb_sample_tree_policy(scores, m, epsilon, True, rng)


@nb.njit(cache=True)
def _scaled(returns, normalize, low, span, vec, bounds):
    """The rewards stored in the tree (``returns`` mapped to [0, 1] if ``normalize``) into
    ``vec``; ``bounds`` [low, high] seen so far updated (``nb_update_reward_bounds``)."""
    for p in range(returns.shape[0]):
        if normalize:
            vec[p] = (returns[p] - low) / span
        else:
            vec[p] = returns[p]
    bounds[0], bounds[1] = nb_update_reward_bounds(bounds[0], bounds[1], vec)


@nb.njit(cache=True)
def _uct_select(node, buf, n, untried, children, visits, wsum, nchild, c, use_fpu, fpu, epsilon, rng, tg):
    """One selection step of ``uct_tree`` at ``node`` over the ``n`` legal actions in ``buf``:
    returns (action, child, new), ``new`` when the action has no child yet (the caller expands
    it; ``child`` is then -1). UCB1 (as ``mcts._select_child``), or TAG's tree policy of ``tg``
    (as ``mcts._select_child_tag``: the children's statistics in legal order, N the node's
    visits, ``_tag_choice``)."""
    if _policy_of(tg) != POLICY_UCB:
        if tg is not None:
            for i in range(n):
                ch = children[node, buf[i]]
                tg.gn[i] = visits[ch] if ch >= 0 else 0.0
                tg.gw[i] = wsum[ch] if ch >= 0 else 0.0
                tg.gq[i] = tg.q[ch] if ch >= 0 else 0.0
                tg.gav[i] = visits[node]
            k = _tag_choice(tg.policy, tg.gn, tg.gw, tg.gq, tg.gav, n, c, fpu if use_fpu else FPU_TAG,
                            epsilon, tg.sel_n[node], tg.sel_w[node], tg.bounds[0], tg.bounds[1], rng,
                            tg.scores)
            action = buf[k]
            child = children[node, action]
            return action, child, child < 0
    log_parent = math.log(visits[node]) if nchild[node] > 0 else 0.0
    nu = 0
    best = -np.inf
    best_child = -1
    action = -1
    chosen = False
    if epsilon > 0.0:
        chosen = rng_random(rng) < epsilon
    if chosen:
        action = buf[rng_bounded(rng, n)]
        best_child = children[node, action]
        if best_child < 0:
            untried[0] = action
            nu = 1
    elif not use_fpu:
        for i in range(n):
            a = buf[i]
            ch = children[node, a]
            if ch < 0:
                untried[nu] = a
                nu += 1
            elif nu == 0:
                score = wsum[ch] / visits[ch] + c * math.sqrt(log_parent / visits[ch])
                if score > best:
                    best, action, best_child = score, a, ch
    else:
        for i in range(n):
            a = buf[i]
            ch = children[node, a]
            if ch < 0:
                score = fpu
            else:
                score = wsum[ch] / visits[ch] + c * math.sqrt(log_parent / visits[ch])
            if score > best:
                best, action, best_child = score, a, ch
        if best_child < 0:
            untried[0] = action
            nu = 1
    if nu > 0:
        if not use_fpu and not chosen:
            action = untried[rng_bounded(rng, nu)]
        return action, -1, True
    return action, best_child, False


@nb.njit(cache=True)
def _uct_backup(path, plen, visits, wsum, mover_of, returns, normalize, low, span, tg):
    """Add one visit and the chooser's reward (mapped to [0, 1] if ``normalize``) to the root
    and to each node of ``path[:plen]`` (as ``mcts.uct_search``). With TAG's settings (``tg``;
    as ``mcts._backup_tag``), from the leaf up: also the reward's square, the parent's selection
    count and sum, and under MaxMC every player's sums and the value passed up
    (``nb_max_mc_value`` over the parent's children in action order)."""
    visits[0] += 1
    if tg is not None:
        if tg.policy != POLICY_UCB or tg.maxmc:  # TAG's statistics
            vec = tg.vec
            _scaled(returns, normalize, low, span, vec, tg.bounds)
            if _self_only(tg) and plen > 0:  # TAG's processResultsForParanoidOrSelfOnly
                vec[:] = vec[mover_of[path[0]]]
            for i in range(plen):
                visits[path[i]] += 1
            for i in range(plen - 1, -1, -1):
                nd = path[i]
                parent = path[i - 1] if i > 0 else 0
                r = vec[mover_of[nd]]
                wsum[nd] += r
                tg.q[nd] += r * r
                tg.sel_n[parent] += 1
                tg.sel_w[parent] += r
                if tg.maxmc:
                    for p in range(vec.shape[0]):
                        tg.w_all[nd, p] += vec[p]
                    if i > 0:
                        m = 0
                        taken = 0
                        children = tg.siblings
                        for a in range(children.shape[1]):
                            ch = children[parent, a]
                            if ch >= 0:
                                if ch == nd:
                                    taken = m
                                tg.gn[m] = visits[ch]
                                for p in range(vec.shape[0]):
                                    tg.gw_all[m, p] = tg.w_all[ch, p]
                                m += 1
                        nb_max_mc_value(vec, tg.gn, tg.gw_all, m, mover_of[nd], taken, visits[parent],
                                        tg.threshold, tg.tmp)
                        vec[:] = tg.tmp
            return
    for i in range(plen):
        nd = path[i]
        visits[nd] += 1
        if normalize:
            wsum[nd] += (returns[mover_of[nd]] - low) / span
        else:
            wsum[nd] += returns[mover_of[nd]]


@nb.njit(cache=True)
def _rm_root_update(tg, m, node_visits, node_wsum, fpu, buf, average):
    """RegretMatching: the root's regret-matching distribution over the ``m`` actions in ``buf``
    (visits and sums gathered in ``tg.gn``/``tg.gw``) added to ``average[action]``
    (``common.rm_average_add``: ``nb_rm_regrets``, ``nb_rm_average_update``)."""
    nb_rm_regrets(tg.gn, tg.gw, m, node_visits, node_wsum, fpu, tg.scores)
    tg.gq[:m] = 0.0
    nb_rm_average_update(tg.scores, m, tg.gq)
    for i in range(m):
        average[buf[i]] += tg.gq[i]


@nb.njit(cache=True)
def _rm_root_after(tg, m, node_visits, node_wsum, fpu, buf, last, average):
    """The root's average after an iteration's backup (``common.RootAverage``): an update when
    ``nb_rm_average_due``; after the ``last`` iteration the final move's top-up when at most
    ``max(m, 10)`` visits were made (``tag_rules.rm_average_top_up_due``: the updates made
    number ``node_visits // max(m, 10)``, the root's actions being the same on every visit)."""
    if nb_rm_average_due(node_visits, m):
        _rm_root_update(tg, m, node_visits, node_wsum, fpu, buf, average)
    if last and node_visits <= max(m, 10):
        _rm_root_update(tg, m, node_visits, node_wsum, fpu, buf, average)


def _uct_rm_root(world, buf, children, visits, wsum, tg, use_fpu, fpu, last, average):
    """RegretMatching in ``uct_tree`` after a backup: the root's actions (legal in ``world``),
    their children's visits and sums, the root's selection count and sum, to
    ``_rm_root_after``. Nothing under another policy or without ``average`` (None)."""
    if average is None:
        return
    if tg.policy == POLICY_REGRET_MATCHING:
        m = nb_legal_actions(world, buf)
        for i in range(m):
            ch = children[0, buf[i]]
            tg.gn[i] = visits[ch] if ch >= 0 else 0.0
            tg.gw[i] = wsum[ch] if ch >= 0 else 0.0
        _rm_root_after(tg, m, tg.sel_n[0], tg.sel_w[0], fpu if use_fpu else FPU_TAG, buf, last, average)


def _ismcts_rm_root(state, buf, root, node_visits, n_of, w_of, tg, use_fpu, fpu, last, average):
    """RegretMatching in ``ismcts_tree_with`` after a backup, at the ``root`` node (as
    ``_uct_rm_root``; its actions legal in ``state``, the player's own)."""
    if average is None:
        return
    if tg.policy == POLICY_REGRET_MATCHING:
        m = nb_legal_actions(state, buf)
        for i in range(m):
            tg.gn[i] = n_of[root, buf[i]]
            tg.gw[i] = w_of[root, buf[i]]
        _rm_root_after(tg, m, node_visits[root], tg.sel_w[root], fpu if use_fpu else FPU_TAG, buf, last,
                       average)
# TAG's tree reuse (``MCTSSettings.reuse_tree``; ``search.reuse``): the kept tree of an open-loop
# search is the tuple ``KEPT_FIELDS`` of arrays, sized for the kept nodes plus the next search's;
# ``count`` holds the nodes at the search's start, ``bounds`` the reward bounds (updated in place).
KEPT_FIELDS = ("visits", "wsum", "mover_of", "nchild", "children", "q", "sel_n", "sel_w", "w_all", "count",
               "bounds")


def fresh_kept(iterations: int, num_actions: int, num_players: int, maxmc: bool, bounds) -> tuple:
    """A kept tree holding the root alone, with room for ``iterations`` nodes (``KEPT_FIELDS``)."""
    cap = iterations + 1
    return (np.zeros(cap, np.int64), np.zeros(cap, np.float64), np.zeros(cap, np.int64),
            np.zeros(cap, np.int64), np.full((cap, num_actions), -1, np.int64), np.zeros(cap, np.float64),
            np.zeros(cap, np.int64), np.zeros(cap, np.float64),
            np.zeros((cap if maxmc else 1, num_players), np.float64), np.ones(1, np.int64),
            np.array(bounds, np.float64))


@nb.njit(cache=True)
def reroot_kept(kept, node, room):
    """The subtree of ``kept``'s ``node`` as a new kept tree (TAG's ``rootify``), its nodes renumbered
    breadth first (the root 0) into arrays with ``room`` more nodes; the root's visits are the
    selections made from it (its children's visits), as ``reuse.reroot_open_loop``."""
    visits, children = kept[0], kept[4]
    order = np.empty(visits.shape[0], np.int64)
    new_of = np.full(visits.shape[0], -1, np.int64)
    order[0], new_of[node] = node, 0
    m, i = 1, 0
    while i < m:
        for a in range(children.shape[1]):
            ch = children[order[i], a]
            if ch >= 0:
                order[m], new_of[ch] = ch, m
                m += 1
        i += 1
    cap = m + room
    rows = cap if kept[8].shape[0] > 1 else 1
    out = (np.zeros(cap, np.int64), np.zeros(cap, np.float64), np.zeros(cap, np.int64),
           np.zeros(cap, np.int64), np.full((cap, children.shape[1]), -1, np.int64),
           np.zeros(cap, np.float64), np.zeros(cap, np.int64), np.zeros(cap, np.float64),
           np.zeros((rows, kept[8].shape[1]), np.float64),
           np.full(1, m, np.int64), kept[10].copy())
    for k in range(m):
        old = order[k]
        out[0][k], out[1][k], out[2][k], out[3][k] = visits[old], kept[1][old], kept[2][old], kept[3][old]
        out[5][k], out[6][k], out[7][k] = kept[5][old], kept[6][old], kept[7][old]
        if kept[8].shape[0] > 1:
            out[8][k] = kept[8][old]
        for a in range(children.shape[1]):
            if children[old, a] >= 0:
                out[4][k, a] = new_of[children[old, a]]
    out[0][0] = 0
    for a in range(children.shape[1]):
        if out[4][0, a] >= 0:
            out[0][0] += out[0][out[4][0, a]]
    return out


@nb.njit(cache=True)
def _adopt(kept, tg):
    """``uct_tree``'s arrays (visits, wsum, mover_of, nchild, children, path) and ``TagSearch`` (``tg``'s
    settings and scratch rows) on the kept tree ``kept`` (``KEPT_FIELDS``)."""
    cap = kept[0].shape[0]
    kept_tg = TagSearch(tg.policy, tg.maxmc, tg.threshold, tg.mast, tg.temperature, tg.mast_n, tg.mast_w,
                        kept[5], kept[6], kept[7], kept[8], tg.gw_all, tg.gn, tg.gw, tg.gq, tg.gav, tg.scores,
                        tg.vec, tg.tmp, kept[10], tg.vals, tg.pots, np.empty(cap, np.int64),
                        np.empty(cap, np.int64), kept[4])
    return kept[0], kept[1], kept[2], kept[3], kept[4], np.empty(cap, np.int64), kept_tg


def _kept_count(kept):
    """The nodes of the kept tree ``kept``, 1 (the root) for a fresh tree (``kept`` None)."""


@overload(_kept_count)
def _kept_count_typed(kept):
    if _no_tag(kept):
        return lambda kept: 1
    return lambda kept: kept[9][0]


def uct_tree(world, iterations, c, normalize, low, span, limit, max_depth, use_fpu, fpu,
             epsilon, rng, num_actions, num_players, out_n, out_w, depths, tag=None, temperature=0.0,
             mast_n=None, mast_w=None, out_bounds=None, out_rm=None, kept=None):
    """One open-loop UCT tree on ``world`` (as ``mcts.uct_search``). Root children's visits and reward
    sums go to ``out_n[a]``/``out_w[a]``; ``depths`` receives [sum of tree depths over iterations, max
    depth]. TAG's settings (issue 56): ``tag`` [tree policy code, MaxMC on, its threshold, MAST on(,
    SelfOnly on)], ``temperature`` MAST's Boltzmann temperature, ``mast_n``/``mast_w`` the bot's MAST
    table (updated in place; shape (1, 1) without MAST); ``tag`` omitted compiles today's search (UCB,
    mean backup, random rollouts) without TAG's branches (``_uct_tag``). ``out_bounds``/``out_rm`` (with
    ``tag``): the tree's reward bounds (EXP3's final move) and RegretMatching's root average per action
    (``_uct_rm_root``). ``kept`` (``reuse_tree``): the kept tree (``KEPT_FIELDS``) grown in place."""
    cap = iterations + 1
    visits = np.zeros(cap, np.int64)
    wsum = np.zeros(cap, np.float64)
    mover_of = np.zeros(cap, np.int64)
    nchild = np.zeros(cap, np.int64)
    children = np.full((cap, num_actions), -1, np.int64)
    path = np.empty(cap, np.int64)
    st = np.empty_like(world)
    buf, untried = np.empty(num_actions, np.int64), np.empty(num_actions, np.int64)
    probs, returns = np.empty(num_actions, np.float64), np.zeros(num_players, np.float64)
    tg, rec_p, rec_a = _uct_tag(tag, temperature, mast_n, mast_w, cap, num_actions, num_players, children)
    if kept is not None:  # reuse_tree: the kept tree's arrays instead (_adopt)
        visits, wsum, mover_of, nchild, children, path, tg = _adopt(kept, tg)
    root_player = nb_current_player(world)
    sel, back, roll, tag_select, tag_backup, tag_rollout, self_only = _split(tg, tag, root_player)
    nnodes, depth_total, depth_max = _kept_count(kept), 0, 0
    for it in range(iterations):
        st[:] = world
        node = 0
        plen = 0
        expanded = False
        while True:
            mover = nb_current_player(st)
            if mover == TERMINAL:
                nb_returns(st, returns)
                break
            if mover == CHANCE:
                nb_apply_action(st, _sample_chance(st, buf, probs, rng))
                continue
            if tag is not None:  # (today's search compiles without this test)
                if self_only and mover != root_player:  # SelfOnly: no node for the other players
                    _advance_opponents(st, root_player, buf, probs, rng, roll)
                    continue
            n = nb_legal_actions(st, buf)
            if max_depth >= 0 and plen >= max_depth:
                expanded = True
                break
            if tag_select:
                action, child, new = _uct_select(node, buf, n, untried, children, visits, wsum, nchild, c,
                                                 use_fpu, fpu, epsilon, rng, sel)
            else:
                action, child, new = _uct_select(node, buf, n, untried, children, visits, wsum, nchild, c,
                                                 use_fpu, fpu, epsilon, rng, None)
            if new:
                child = nnodes
                nnodes += 1
                mover_of[child] = mover
                children[node, action] = child
                nchild[node] += 1
                expanded = True
            node = child
            path[plen] = child
            if tag is not None:
                tg.path_action[plen] = action
                tg.path_mover[plen] = mover
            plen += 1
            nb_apply_action(st, action)
            if expanded:
                break
        depth_total += plen
        depth_max = max(depth_max, plen)
        nrec = 0
        if expanded:
            if tag is not None:
                if self_only:
                    _advance_opponents(st, root_player, buf, probs, rng, roll)
            if tag_rollout:
                nrec, rec_p, rec_a = _rollout(st, rng, limit, buf, probs, returns, roll, rec_p, rec_a)
            else:
                _rollout(st, rng, limit, buf, probs, returns, None, None, None)
        if tag_backup:
            _uct_backup(path, plen, visits, wsum, mover_of, returns, normalize, low, span, back)
        else:
            _uct_backup(path, plen, visits, wsum, mover_of, returns, normalize, low, span, None)
        if tag is not None:
            if tg.mast:  # MAST Both: the rollout's moves, then the tree's (tag_rules.mast_update)
                nb_mast_update(tg.mast_n, tg.mast_w, rec_p, rec_a, nrec, returns)
                nb_mast_update(tg.mast_n, tg.mast_w, tg.path_mover, tg.path_action, plen, returns)
            _uct_rm_root(world, buf, children, visits, wsum, tg, use_fpu, fpu, it + 1 == iterations, out_rm)
    for a in range(num_actions):
        ch = children[0, a]
        if ch >= 0:
            out_n[a] = visits[ch]
            out_w[a] = wsum[ch]
    if tag is not None:
        if out_bounds is not None:
            out_bounds[:] = tg.bounds
    depths[0] += depth_total
    depths[1] = max(depths[1], depth_max)


def kept_tree(state, player, budget, c, normalize, low, span, limit, max_depth, use_fpu, fpu, epsilon, rng,
              num_actions, num_players, out_n, out_w, depths, tag, temperature, mast_n, mast_w, out_bounds,
              out_rm, kept):
    """OL-MCTS under ``reuse_tree``: one tree (as ``pimcts_trees`` with one tree) on a world
    determinized for ``player``, grown from the kept tree ``kept`` (``KEPT_FIELDS``, in place)."""
    world = state.copy()
    nb_determinize(world, player, rng)
    uct_tree(world, budget, c, normalize, low, span, limit, max_depth, use_fpu, fpu, epsilon, rng,
             num_actions, num_players, out_n, out_w, depths, tag, temperature, mast_n, mast_w, out_bounds,
             out_rm, kept)


def pimcts_trees(state, player, trees, budget, c, normalize, low, span, limit, max_depth,
                 use_fpu, fpu, epsilon, rng, num_actions, num_players, out_n, out_w, depths, tag=None,
                 temperature=0.0, mast_n=None, mast_w=None, out_bounds=None, out_rm=None):
    """``trees`` open-loop trees, each on a world determinized for ``player`` (as
    ``PIMCTSBot.search``; ``trees = 1`` is OL-MCTS). Row t of ``out_n``/``out_w`` (and of
    ``out_bounds``, ``out_rm``) is tree t. TAG's settings as in ``uct_tree``; the trees share the MAST
    table, one after the other."""
    world = np.empty_like(state)
    for t in range(trees):
        world[:] = state
        nb_determinize(world, player, rng)
        if out_bounds is None:
            uct_tree(world, budget, c, normalize, low, span, limit, max_depth, use_fpu, fpu,
                     epsilon, rng, num_actions, num_players, out_n[t], out_w[t], depths, tag, temperature,
                     mast_n, mast_w)
        elif out_rm is None:
            uct_tree(world, budget, c, normalize, low, span, limit, max_depth, use_fpu, fpu,
                     epsilon, rng, num_actions, num_players, out_n[t], out_w[t], depths, tag, temperature,
                     mast_n, mast_w, out_bounds[t])
        else:
            uct_tree(world, budget, c, normalize, low, span, limit, max_depth, use_fpu, fpu,
                     epsilon, rng, num_actions, num_players, out_n[t], out_w[t], depths, tag, temperature,
                     mast_n, mast_w, out_bounds[t], out_rm[t])


@nb.njit(cache=True)
def _find_node(table_keys, table_nodes, key, mask):
    """Slot of ``key`` in the open-addressing table (or of the empty slot where it goes)."""
    slot = ((key * 0x5851F42D4C957F2D) >> 17) & mask  # multiplicative hashing (wraps in int64)
    while table_nodes[slot] >= 0 and table_keys[slot] != key:
        slot = (slot + 1) & mask
    return slot


def ismcts_tree(state, player, iterations, c, availability, normalize, low, span, limit,
                max_depth, use_fpu, fpu, epsilon, rng, num_actions, num_players, root_n, root_w,
                root_present, depths):
    """Single-observer IS-MCTS (as ``ISMCTSBot.search``): a world determinized for
    ``player`` each iteration, one tree of information-state nodes for all players.

    The root node's per-action visits, reward sums and presence go to ``root_*``.
    ``ismcts_tree_with`` runs it with the further options.
    """
    ismcts_tree_with(state, player, iterations, c, AVAIL_LEGAL if availability else AVAIL_PARENT,
                     False, False, normalize, low, span, limit, max_depth, use_fpu, fpu, epsilon, rng,
                     num_actions, num_players, root_n, root_w, root_present,
                     np.zeros(num_actions, np.int64), depths)


# Availability modes of ``ismcts_tree_with`` (``ISMCTSBot(availability=...)``): parent visits
# (plain UCT), availability counted from the first time an action is legal at its node, or
# from its expansion (the belote_ismcts authors' code: only expanded actions gain availability).
AVAIL_PARENT, AVAIL_LEGAL, AVAIL_EXPANDED = 0, 1, 2


@nb.njit(cache=True)
def _node_of(table_keys, table_nodes, key, mask, nnodes):
    """The node of ``key``, added as node ``nnodes`` if new; returns (node, node count)."""
    slot = _find_node(table_keys, table_nodes, key, mask)
    node = table_nodes[slot]
    if node < 0:
        node = nnodes
        nnodes += 1
        table_keys[slot] = key
        table_nodes[slot] = node
    return node, nnodes




@nb.njit(cache=True)
def _ismcts_select(node, buf, n, untried, node_visits, n_of, w_of, avail_of, present, c, avail_mode,
                   use_fpu, fpu, epsilon, rng, tg):
    """One selection step of ``ismcts_tree_with`` at ``node`` over the ``n`` legal actions in
    ``buf`` (as ``ISMCTSBot._select``): counts availability, scores by UCB (or FPU), draws an
    epsilon move or an untried action; returns (action, expand). Under TAG's tree policy of
    ``tg`` the actions' statistics are gathered in legal order instead, N the action's
    availability (the node's visits with ``AVAIL_PARENT``), and ``_tag_choice`` decides."""
    ucb = _policy_of(tg) == POLICY_UCB
    chosen = False
    if ucb and epsilon > 0.0:
        chosen = rng_random(rng) < epsilon
    log_parent = math.log(node_visits[node]) if node_visits[node] > 0 else 0.0
    nu = 0
    best = -np.inf
    action = buf[0]
    for i in range(n):
        a = buf[i]
        if not present[node, a]:
            present[node, a] = True
            if avail_mode != AVAIL_EXPANDED:
                avail_of[node, a] = 1
            na = 0
        else:
            na = n_of[node, a]
            if avail_mode != AVAIL_EXPANDED or na > 0:
                avail_of[node, a] += 1
        if tg is not None:
            if not ucb:
                tg.gn[i] = na
                tg.gw[i] = w_of[node, a]
                tg.gq[i] = tg.q[node, a]
                tg.gav[i] = avail_of[node, a] if avail_mode != AVAIL_PARENT else node_visits[node]
                continue
        if na == 0:
            if use_fpu:
                score = fpu
                if score > best:
                    best, action = score, a
            else:
                untried[nu] = a
                nu += 1
        elif nu == 0:
            if avail_mode != AVAIL_PARENT:
                score = w_of[node, a] / na + c * math.sqrt(math.log(avail_of[node, a]) / na)
            else:
                score = w_of[node, a] / na + c * math.sqrt(log_parent / na)
            if score > best:
                best, action = score, a
    if tg is not None:
        if not ucb:
            action = buf[_tag_choice(tg.policy, tg.gn, tg.gw, tg.gq, tg.gav, n, c,
                                     fpu if use_fpu else FPU_TAG, epsilon, node_visits[node], tg.sel_w[node],
                                     tg.bounds[0], tg.bounds[1], rng, tg.scores)]
    if not ucb:
        expand = n_of[node, action] == 0
    elif chosen:
        action = buf[rng_bounded(rng, n)]
        expand = n_of[node, action] == 0
    elif use_fpu:
        expand = n_of[node, action] == 0
    else:
        expand = nu > 0
        if expand:
            action = untried[rng_bounded(rng, nu)]
    if avail_mode == AVAIL_EXPANDED and n_of[node, action] == 0:
        avail_of[node, action] = 1
    return action, expand


@nb.njit(cache=True)
def _ismcts_backup(path_node, path_action, path_mover, plen, node_visits, n_of, w_of, returns, normalize,
                   low, span, tg):
    """Add one visit and the mover's reward (mapped to [0, 1] if ``normalize``) to each
    (node, action) of the path (as ``ISMCTSBot._backup``). With TAG's settings (``tg``; as
    ``ISMCTSBot._backup``), from the leaf up: also the reward's square, the node's reward
    sum, and under MaxMC every player's sums and the value passed up over the actions present
    at the node in action order (``nb_max_mc_value``)."""
    if tg is not None:
        if tg.policy != POLICY_UCB or tg.maxmc:  # TAG's statistics
            vec = tg.vec
            _scaled(returns, normalize, low, span, vec, tg.bounds)
            if _self_only(tg) and plen > 0:  # TAG's processResultsForParanoidOrSelfOnly
                vec[:] = vec[path_mover[0]]
            for i in range(plen - 1, -1, -1):
                node = path_node[i]
                a = path_action[i]
                node_visits[node] += 1
                n_of[node, a] += 1
                r = vec[path_mover[i]]
                w_of[node, a] += r
                tg.q[node, a] += r * r
                tg.sel_w[node] += r
                if tg.maxmc:
                    for p in range(vec.shape[0]):
                        tg.w_all[node, a, p] += vec[p]
                    if i > 0:
                        m = 0
                        taken = 0
                        present = tg.siblings
                        for b in range(present.shape[1]):
                            if present[node, b]:
                                if b == a:
                                    taken = m
                                tg.gn[m] = n_of[node, b]
                                for p in range(vec.shape[0]):
                                    tg.gw_all[m, p] = tg.w_all[node, b, p]
                                m += 1
                        nb_max_mc_value(vec, tg.gn, tg.gw_all, m, path_mover[i], taken, node_visits[node],
                                        tg.threshold, tg.tmp)
                        vec[:] = tg.tmp
            return
    for i in range(plen):
        node = path_node[i]
        a = path_action[i]
        node_visits[node] += 1
        n_of[node, a] += 1
        if normalize:
            w_of[node, a] += (returns[path_mover[i]] - low) / span
        else:
            w_of[node, a] += returns[path_mover[i]]


# TAG's tree reuse for IS-MCTS (``search.reuse``, ``ISMCTSBot._kept_nodes``): the kept table is
# the tuple ``TABLE_FIELDS``, sized (as ``ismcts_tree_with`` sizes it) for its nodes plus a search.
TABLE_FIELDS = ("table_keys", "table_nodes", "node_visits", "n_of", "w_of", "avail_of", "present", "q",
                "sel_w", "w_all", "count", "bounds")


def _table_count(kept):
    """The nodes of the kept table ``kept``, 0 for a fresh search (``kept`` None)."""


@overload(_table_count)
def _table_count_typed(kept):
    if _no_tag(kept):
        return lambda kept: 0
    return lambda kept: kept[10][0]


def fresh_table(iterations: int, num_actions: int, num_players: int, maxmc: bool, bounds) -> tuple:
    """An empty kept table (``TABLE_FIELDS``) for a search of ``iterations``."""
    cap = iterations + 2
    size = 1
    while size < 2 * cap:
        size *= 2
    rows = cap if maxmc else 1
    return (np.zeros(size, np.int64), np.full(size, -1, np.int64), np.zeros(cap, np.int64),
            np.zeros((cap, num_actions), np.int64), np.zeros((cap, num_actions), np.float64),
            np.zeros((cap, num_actions), np.int64), np.zeros((cap, num_actions), np.bool_),
            np.zeros((cap, num_actions), np.float64), np.zeros(cap, np.float64),
            np.zeros((rows, num_actions if rows > 1 else 1, num_players), np.float64), np.zeros(1, np.int64),
            np.array(bounds, np.float64))


@nb.njit(cache=True)
def _adopt_table(kept, tg):
    """``ismcts_tree_with``'s table and per-node arrays and ``TagSearch`` on the kept table ``kept``."""
    kept_tg = TagSearch(tg.policy, tg.maxmc, tg.threshold, tg.mast, tg.temperature, tg.mast_n, tg.mast_w,
                        kept[7], tg.sel_n, kept[8], kept[9], tg.gw_all, tg.gn, tg.gw, tg.gq, tg.gav,
                        tg.scores, tg.vec, tg.tmp, kept[11], tg.vals, tg.pots, tg.path_action, tg.path_mover,
                        kept[6])
    return kept[0], kept[1], kept[2], kept[3], kept[4], kept[5], kept[6], kept_tg


@nb.njit(cache=True)
def reroot_table(kept, root, by_moves, room, num_actions, num_players, maxmc):
    """The kept table of an IS-MCTS search for the next one, with room for ``room`` iterations.
    Keyed by moves: the subtree of node ``root``, renumbered (a parent is numbered before its
    children) and keyed from it (TAG's ``rootify``). Keyed by information state: every node, as
    ``ISMCTSBot._kept_nodes`` keeps them."""
    old_nodes = kept[1]
    n_old = 0
    for slot in range(old_nodes.shape[0]):
        if old_nodes[slot] >= 0:
            n_old += 1
    parent, act = np.full(n_old, -1, np.int64), np.zeros(n_old, np.int64)
    key_of = np.zeros(n_old, np.int64)
    for slot in range(old_nodes.shape[0]):
        if old_nodes[slot] >= 0:
            key_of[old_nodes[slot]] = kept[0][slot]
            if kept[0][slot] >= 0:
                parent[old_nodes[slot]] = kept[0][slot] // num_actions - 1
                act[old_nodes[slot]] = kept[0][slot] % num_actions
    new_of = np.full(n_old, -1, np.int64)
    m = 0
    for n in range(n_old):
        if not by_moves or n == root or (parent[n] >= 0 and new_of[parent[n]] >= 0):
            new_of[n] = m
            m += 1
    cap = room + 2 + m
    size = 1
    while size < 2 * cap:
        size *= 2
    rows = cap if maxmc else 1
    out = (np.zeros(size, np.int64), np.full(size, -1, np.int64), np.zeros(cap, np.int64),
           np.zeros((cap, num_actions), np.int64), np.zeros((cap, num_actions), np.float64),
           np.zeros((cap, num_actions), np.int64), np.zeros((cap, num_actions), np.bool_),
           np.zeros((cap, num_actions), np.float64), np.zeros(cap, np.float64),
           np.zeros((rows, num_actions if rows > 1 else 1, num_players), np.float64), np.full(1, m, np.int64),
           kept[11].copy())
    for n in range(n_old):
        k = new_of[n]
        if k < 0:
            continue
        key = key_of[n]
        if by_moves:
            key = -1 if n == root else (new_of[parent[n]] + 1) * num_actions + act[n]
        slot = _find_node(out[0], out[1], key, size - 1)
        out[0][slot], out[1][slot] = key, k
        out[2][k] = kept[2][n]
        out[3][k], out[4][k], out[5][k], out[6][k] = kept[3][n], kept[4][n], kept[5][n], kept[6][n]
        out[7][k], out[8][k] = kept[7][n], kept[8][n]
        if rows > 1:
            out[9][k] = kept[9][n]
    return out


def ismcts_tree_with(state, player, iterations, c, avail_mode, key_by_moves, heuristic_reward,
                     normalize, low, span, limit, max_depth, use_fpu, fpu, epsilon, rng, num_actions,
                     num_players, root_n, root_w, root_present, root_avail, depths, tag=None,
                     temperature=0.0, mast_n=None, mast_w=None, out_bounds=None, out_rm=None, kept=None):
    """``ismcts_tree`` with every option of ``ISMCTSBot``: ``avail_mode`` (``AVAIL_*``), ``key_by_moves``
    (a node is the player moves from the root, not the mover's information state: the belote_ismcts
    tree), ``heuristic_reward`` (playouts scored by the kernel's heuristic, also at the game's end).
    Root availabilities go to ``root_avail``. TAG's ``tag``, ``temperature``, ``mast_n``/``mast_w``,
    ``out_bounds``, ``out_rm`` as in ``uct_tree`` (omitted: today's); ``kept``: reuse_tree's table."""
    cap = iterations + 2 + _table_count(kept)
    size = 1
    while size < 2 * cap:
        size *= 2
    mask = size - 1
    table_keys, table_nodes = np.zeros(size, np.int64), np.full(size, -1, np.int64)
    node_visits = np.zeros(cap, np.int64)
    n_of, w_of = np.zeros((cap, num_actions), np.int64), np.zeros((cap, num_actions), np.float64)
    avail_of = np.zeros((cap, num_actions), np.int64)
    present = np.zeros((cap, num_actions), np.bool_)
    path_node = np.empty(cap, np.int64)
    path_action, path_mover = np.empty(cap, np.int64), np.empty(cap, np.int64)
    st = np.empty_like(state)
    buf, untried = np.empty(num_actions, np.int64), np.empty(num_actions, np.int64)
    probs, returns = np.empty(num_actions, np.float64), np.zeros(num_players, np.float64)
    tg, rec_p, rec_a = _ismcts_tag(tag, temperature, mast_n, mast_w, cap, num_actions, num_players,
                                   path_action, path_mover, present)
    if kept is not None:  # reuse_tree: the kept table and statistics instead (_adopt_table)
        table_keys, table_nodes, node_visits, n_of, w_of, avail_of, present, tg = _adopt_table(kept, tg)
    sel, back, roll, tag_select, tag_backup, tag_rollout, self_only = _split(tg, tag, player)
    nnodes, depth_total, depth_max = _table_count(kept), 0, 0
    for it in range(iterations):
        st[:] = state
        nb_determinize(st, player, rng)
        plen = 0
        node_key = -1  # the root's key when nodes are keyed by moves
        mover = nb_current_player(st)
        while mover != TERMINAL:
            if mover == CHANCE:
                nb_apply_action(st, _sample_chance(st, buf, probs, rng))
                mover = nb_current_player(st)
                continue
            if tag is not None:  # (today's search compiles without this test)
                if self_only and mover != player:  # SelfOnly: no node for the other players
                    mover = _advance_opponents(st, player, buf, probs, rng, roll)
                    continue
            if max_depth >= 0 and plen >= max_depth:
                break
            key = node_key if key_by_moves else nb_infostate_key(st, mover)
            node, nnodes = _node_of(table_keys, table_nodes, key, mask, nnodes)
            n = nb_legal_actions(st, buf)
            if tag_select:
                action, expand = _ismcts_select(node, buf, n, untried, node_visits, n_of, w_of, avail_of,
                                                present, c, avail_mode, use_fpu, fpu, epsilon, rng, sel)
            else:
                action, expand = _ismcts_select(node, buf, n, untried, node_visits, n_of, w_of, avail_of,
                                                present, c, avail_mode, use_fpu, fpu, epsilon, rng, None)
            node_key = (node + 1) * num_actions + action
            path_node[plen] = node
            path_action[plen] = action
            path_mover[plen] = mover
            plen += 1
            nb_apply_action(st, action)
            mover = nb_current_player(st)
            if expand:
                break
        if tag is not None:
            if self_only:
                _advance_opponents(st, player, buf, probs, rng, roll)
        depth_total += plen
        depth_max = max(depth_max, plen)
        nrec = 0
        if tag_rollout:
            nrec, rec_p, rec_a = _rollout(st, rng, limit, buf, probs, returns, roll, rec_p, rec_a)
        else:
            _rollout(st, rng, limit, buf, probs, returns, None, None, None)
        if heuristic_reward:
            nb_heuristic(st, returns)
        if tag_backup:
            _ismcts_backup(path_node, path_action, path_mover, plen, node_visits, n_of, w_of, returns,
                           normalize, low, span, back)
        else:
            _ismcts_backup(path_node, path_action, path_mover, plen, node_visits, n_of, w_of, returns,
                           normalize, low, span, None)
        if tag is not None:
            if tg.mast:  # MAST Both: the rollout's moves, then the tree's (tag_rules.mast_update)
                nb_mast_update(tg.mast_n, tg.mast_w, rec_p, rec_a, nrec, returns)
                nb_mast_update(tg.mast_n, tg.mast_w, path_mover, path_action, plen, returns)
            _ismcts_rm_root(state, buf, path_node[0], node_visits, n_of, w_of, tg, use_fpu, fpu,
                            it + 1 == iterations, out_rm)
    key = -1 if key_by_moves else nb_infostate_key(state, player)
    slot = _find_node(table_keys, table_nodes, key, mask)
    root = table_nodes[slot]
    if root >= 0:
        root_n[:], root_w[:] = n_of[root], w_of[root]
        root_present[:], root_avail[:] = present[root], avail_of[root]
    if tag is not None:
        if out_bounds is not None:
            out_bounds[:] = tg.bounds
    depths[0] += depth_total
    depths[1] = max(depths[1], depth_max)


# The searches above that call a game's rules are plain functions over the kernel contract's
# names (``nb_current_player`` ... ``nb_determinize``, infosets.games.kernels). ``engine_for``
# compiles a copy of them for one game, with those names bound to the game's kernel module:
# numba compiles and caches each game's engine on that game's first use, in its own cache
# files (the copies' names carry the game), and never compiles the games a run does not play.
GAME_FUNCTIONS = ("_sample_chance", "_rollout", "_advance_opponents", "_uct_rm_root", "_ismcts_rm_root",
                  "uct_tree", "kept_tree", "pimcts_trees", "ismcts_tree_with", "ismcts_tree")
# The searches a Python caller enters release the GIL while they run, so another thread (the
# terminal game's Ctrl-C, infosets.play.belote) is not frozen behind a long search.
SEARCH_ENTRIES = ("uct_tree", "kept_tree", "pimcts_trees", "ismcts_tree_with", "ismcts_tree")
KERNEL_CONTRACT = ("nb_current_player", "nb_legal_actions", "nb_chance_outcomes", "nb_apply_action",
                   "nb_returns", "nb_heuristic", "nb_infostate_key", "nb_determinize")
OPTIONAL_CONTRACT = ("nb_turn", "nb_round")  # bound to ``_no_counter`` where a kernel lacks one
_ENGINES: dict[str, SimpleNamespace] = {}
_ENGINES: dict[tuple[str, str], SimpleNamespace] = {}
# The helpers another compiled search shares (``multitree_nb``), by public names: the chance draw
# (a kernel-bound function, listed in that search's functions to bind), a MAST rollout's record,
# and TAG's sampled and tuned tree policies.
draw_chance, record_rollout_move, select_by_tag_policy = _sample_chance, _record, _tag_choice


def engine_for(rules: ModuleType) -> SimpleNamespace:
    """The compiled searches (``GAME_FUNCTIONS``) for one game's kernel module ``rules``
    (``games/<name>/kernel.py``), built once per process and compiled on first call."""
    return game_engine(rules, globals(), GAME_FUNCTIONS, entries=SEARCH_ENTRIES)


def game_engine(rules: ModuleType, source: dict, functions, *, entries=(), inlined=(), prefix: str = ""):
    """The functions named ``functions`` of a search module (``source``: its globals, which
    define them over the kernel contract's names) compiled for one game's kernel module ``rules``,
    built once per process per (module, game) and compiled on first call; the engine binder of
    this module (``engine_for``) and of ``multitree_nb``.

    Each is a copy whose namespace binds ``KERNEL_CONTRACT`` to the game's kernel and the names
    in ``functions`` to the copies made before it (so list a callee before its callers), named
    ``<prefix><function>__<game>`` (its own numba cache index) and stamped with the game's files
    (``core.numba_cache``) for numba's on-disk cache. Those in ``entries`` release the GIL; those
    in ``inlined`` are inlined into their callers (numba IR: fewer calls, fewer reference counts).
    Returns a namespace with ``game`` and one attribute per function."""
    key = (source["__name__"], rules.__name__)
    engine = _ENGINES.get(key)
    if engine is not None:
        return engine
    missing = [name for name in KERNEL_CONTRACT if not hasattr(rules, name)]
    if missing:
        raise ValueError(f"rules: {rules.__name__} lacks {', '.join(missing)} (infosets.games.kernels)")
    game = rules.__name__.rsplit(".", 2)[-2]  # the game's folder: games/<game>/kernel.py
    namespace = dict(source)
    namespace.update({name: getattr(rules, name) for name in KERNEL_CONTRACT})
    namespace.update({name: getattr(rules, name, _no_counter) for name in OPTIONAL_CONTRACT})
    engine = SimpleNamespace(game=game)
    for name in functions:
        original = source[name]
        copy = types.FunctionType(original.__code__, namespace, name, original.__defaults__)
        copy.__qualname__ = f"{prefix}{name}__{game}"  # its own numba cache index (core.numba_cache)
        copy.__module__, copy.__doc__ = source["__name__"], original.__doc__
        copy.infosets_game_files = rules.__file__  # stamps its cache with the game's files
        options = {"inline": "always"} if name in inlined else {}
        namespace[name] = nb.njit(cache=True, nogil=name in entries, **options)(copy)
        setattr(engine, name, namespace[name])
    _ENGINES[key] = engine
    return engine


class CompiledSearch:
    """Python front of the jitted searches for one game kernel and one set of settings.

    ``trees`` and ``ismcts`` take the move's PCG32 (``infosets.core.pcg32.PCG32``), run the
    jitted search on its state and hand the advanced state back, so the caller's later draws
    (final choice, aggregation) continue the same stream as in the Python reference.
    """

    def __init__(self, game, kernel, uct_c: float, scale, settings):
        self.game, self.kernel, self.uct_c, self.scale = game, kernel, float(uct_c), scale
        limit, depth = settings.rollout_length, settings.max_depth
        self._params = (-1 if limit is None else int(limit), -1 if depth is None else int(depth),
                        settings.fpu is not None, 0.0 if settings.fpu is None else float(settings.fpu),
                        float(settings.explore_epsilon))
        # TAG's settings (issue 56): None runs today's searches (the versions warm_cache warms).
        self._tag = None
        if not settings.tag_default:
            mast = 0 if settings.rollout != "MAST" else (
                MAST_ROOT_ONLY if settings.mast_opponents == "random" else MAST_ALL)
            self._tag = (np.array([POLICIES[settings.tree_policy], settings.backup == "MaxMC",
                                   settings.max_backup_threshold, mast,
                                   settings.opponent_tree == "SelfOnly", settings.rollout_count == "moves",
                                   tr.TERMINATIONS[settings.rollout_termination]],
                                  np.int64),
                         float(settings.mast_boltzmann))
        self._mast_gamma = float(settings.mast_gamma)
        self._self_only = settings.opponent_tree == "SelfOnly"
        self._maxmc = settings.backup == "MaxMC"
        # The bot's MAST table (players x actions), kept across its decisions.
        shape = (kernel.num_players, kernel.num_actions) if settings.rollout == "MAST" else (1, 1)
        self.mast_n = np.zeros(shape, np.int64)
        self.mast_w = np.zeros(shape, np.float64)
        self._history: list | None = None
        self._array: np.ndarray | None = None

    def _decay_mast(self):
        """The MAST table carried into a new decision (``tag_rules.mast_decay``, its twin)."""
        nb_mast_decay(self.mast_n, self.mast_w, self._mast_gamma)

    def _state_array(self, state) -> np.ndarray:
        history = self.kernel.history_of(state)
        if history != self._history:
            self._array, self._history = self.kernel.from_history(history), history
        return self._array

    @staticmethod
    def reroot(budget: int):
        """``reuse.KeptTree.move_to``'s re-rooting of a kept tree (``KEPT_FIELDS``): walk
        ``children`` from the root along the actions, then ``reroot_kept`` with room for
        ``budget`` iterations; None when a child is missing."""
        def reroot(kept, actions):
            node = 0
            for action in actions:
                node = int(kept[4][node, action])
                if node < 0:
                    return None
            return reroot_kept(kept, node, budget)
        return reroot

    def trees(self, state, player: int, trees: int, budget: int, rnd, tree=None):
        """Root statistics of ``trees`` open-loop trees of ``budget`` iterations, each on its
        own world; returns (list of RootStats, summed depth, max depth). ``tree`` (one tree,
        ``reuse_tree``): the ``reuse.KeptTree`` grown (its root a ``KEPT_FIELDS`` tuple, made
        fresh if None)."""
        kernel, scale = self.kernel, self.scale
        limit, max_depth, use_fpu, fpu, epsilon = self._params
        a = kernel.num_actions
        out_n = np.zeros((trees, a), np.int64)
        out_w = np.zeros((trees, a), np.float64)
        depths = np.zeros(2, np.int64)
        stream = rnd.to_array()
        args = (self._state_array(state), player, trees, budget, self.uct_c, scale.normalize,
                float(scale.low), float(scale.span), limit, max_depth, use_fpu, fpu, epsilon, stream, a,
                kernel.num_players, out_n, out_w, depths)
        bounds = np.empty((trees, 2), np.float64)
        rm = np.zeros((trees, a), np.float64)  # RegretMatching's root averages
        if self._tag is None:
            engine_for(kernel.rules).pimcts_trees(*args)
        elif tree is not None:
            self._decay_mast()
            if tree.root is None:
                tree.root = fresh_kept(budget, a, kernel.num_players, self._maxmc, tree.bounds)
            engine_for(kernel.rules).kept_tree(*args[:2], *args[3:16], out_n[0], out_w[0], depths, *self._tag,
                                               self.mast_n, self.mast_w, bounds[0], rm[0], tree.root)
            tree.bounds = [float(x) for x in tree.root[10]]
        else:
            self._decay_mast()
            engine_for(kernel.rules).pimcts_trees(*args, *self._tag, self.mast_n, self.mast_w, bounds, rm)
        rnd.load(stream)
        result = []
        for t in range(trees):
            visited = np.flatnonzero(out_n[t])
            stats = RootStats((int(x), (int(out_n[t, x]), float(out_w[t, x]))) for x in visited)
            stats.engine = "compiled"
            if self._tag is not None:
                stats.bounds = (float(bounds[t, 0]), float(bounds[t, 1]))
                if self._tag[0][TAG_POLICY] == POLICY_REGRET_MATCHING:
                    legal = state.legal_actions()
                    stats.rm_average = (legal, [float(rm[t, x]) for x in legal])
            result.append(stats)
        return result, int(depths[0]), int(depths[1])

    def ismcts_reroot(self, state, player: int, by_moves: bool, budget: int):
        """``reuse.KeptTree.move_to``'s re-rooting of a kept IS-MCTS table (``TABLE_FIELDS``) at
        ``state``: keyed by moves, walk the keys from the root's along the actions; keyed by
        information state, the key of ``player``'s; then ``reroot_table`` with room for ``budget``
        iterations, None when a key is missing."""
        rules, a, array = self.kernel.rules, self.kernel.num_actions, self._state_array(state)

        def reroot(kept, actions):
            mask = kept[0].shape[0] - 1
            key = -1 if by_moves else int(rules.nb_infostate_key(array, player))
            for action in actions if by_moves else ():
                node = int(kept[1][_find_node(kept[0], kept[1], key, mask)])
                if node < 0:
                    return None
                key = (node + 1) * a + action
            node = int(kept[1][_find_node(kept[0], kept[1], key, mask)])
            if node < 0:
                return None
            return reroot_table(kept, node, by_moves, budget, a, self.kernel.num_players, self._maxmc)
        return reroot

    def ismcts(self, state, player: int, iterations: int, availability, rnd, node_key: str = "infostate",
               reward: str = "returns", array: np.ndarray | None = None, tree=None):
        """IS-MCTS root statistics {action: (visits, mean reward)} over the legal actions of
        ``state`` seen at the root; returns (root, summed depth, max depth). ``availability``,
        ``node_key`` and ``reward`` as in ``ISMCTSBot``; ``array``: search this kernel state
        array instead of ``state``'s (``state`` may then be None). The root's availability
        counts are left in ``self.last_root_availability``, the search's reward bounds (TAG's
        settings) in ``self.last_root_bounds``. ``tree`` (``reuse_tree``): the ``reuse.KeptTree``
        grown (its root a ``TABLE_FIELDS`` tuple, made fresh if None)."""
        kernel, scale = self.kernel, self.scale
        limit, max_depth, use_fpu, fpu, epsilon = self._params
        a = kernel.num_actions
        root_n = np.zeros(a, np.int64)
        root_w = np.zeros(a, np.float64)
        present = np.zeros(a, np.bool_)
        avail = np.zeros(a, np.int64)
        depths = np.zeros(2, np.int64)
        if array is None:
            array = self._state_array(state)
            legal = state.legal_actions()
        else:
            buf = np.empty(a, np.int64)
            legal = buf[:kernel.rules.nb_legal_actions(array, buf)].tolist()
        mode = AVAIL_EXPANDED if availability == "expanded" else AVAIL_LEGAL if availability else AVAIL_PARENT
        stream = rnd.to_array()
        engine = engine_for(kernel.rules)
        by_moves = node_key == "moves" or self._self_only  # SelfOnly: keyed by the root player's moves
        args = (array, player, iterations, self.uct_c, mode, by_moves, reward == "heuristic",
                scale.normalize, float(scale.low), float(scale.span), limit, max_depth, use_fpu, fpu,
                epsilon, stream, a, kernel.num_players, root_n, root_w, present, avail, depths)
        bounds = np.array([np.inf, -np.inf])
        rm = np.zeros(a, np.float64)  # RegretMatching's root average
        if self._tag is None:
            engine.ismcts_tree_with(*args)
        elif tree is not None:
            self._decay_mast()
            if tree.root is None:
                tree.root = fresh_table(iterations, a, kernel.num_players, self._maxmc, tree.bounds)
            engine.ismcts_tree_with(*args, *self._tag, self.mast_n, self.mast_w, bounds, rm, tree.root)
            tree.bounds = [float(x) for x in tree.root[11]]
        else:
            self._decay_mast()
            engine.ismcts_tree_with(*args, *self._tag, self.mast_n, self.mast_w, bounds, rm)
        rnd.load(stream)
        self.last_root_bounds = (float(bounds[0]), float(bounds[1]))
        self.last_rm_average = (list(legal), [float(rm[x]) for x in legal])
        root = {}
        for x in legal:
            if present[x]:
                n = int(root_n[x])
                root[x] = (n, float(root_w[x]) / n if n else 0.0)
        self.last_root_availability = {x: int(avail[x]) for x in root}
        return root, int(depths[0]), int(depths[1])
