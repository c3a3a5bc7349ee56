"""The compiled twin of ``infosets.search.multitree``: MultiTree MCTS (one tree per player, as
TAG's ``MultiTreeNode`` at GAIGResearch/TabletopGames c4d7687cd6162405806a0dd1e1b31804f8a81b93)
in numba, on a game kernel (``infosets.games.kernels``).

The search of the PI-MCTS paper's MultiTree agents (Ravichandran, Goodman and Lucas,
"PIMCTS evaluation in tabletop games", docs/papers/pimcts_aggregation.md; docs/tag_agents.md,
section 1). ``multitree.MultiTree`` is the readable specification; this module runs the same
iterations with the same draws from the same PCG32 (``infosets.core.pcg32``), so seeded, both
give the same trees, root statistics and generator state (tests/search/test_multitree.py).

Layout: every player's tree in one set of arrays, nodes numbered in the order they are made:
per node its ``depth``, ``visits`` and reward sum ``wsum``; per (node, action) ``children``
(keyed by the owner's own action) and ``stats[node, action] = [visits, availability, reward
sum, sum of squares]`` (floats; an action has been legal at a node when its availability is
positive); per player its ``roots`` entry (-1: no tree yet) and reward ``bounds``; ``count``
the nodes made. The arrays start small and double when an iteration could fill them (each tree
gains at most a root and a node per iteration; with ``rollout_length = 0`` the trees stay at
their roots). One iteration's walk: each player's pointer ``cur``, last tree move ``last``
(-1: none), ``expanded`` and ``depth_hit`` flags, and the tree moves ``path[k] = (node,
action, mover)`` in order. Arrays are passed one by one, not in tuples, and the helpers
are inlined: numba counts references on a tuple's arrays and at calls, which took most of the
search's time (measured with perf: NRT_incref/decref).

Per game, ``engine_for(rules)`` binds the functions that call the kernel (``GAME_FUNCTIONS``)
to the game's kernel module with ``compiled.game_engine``, the binder of the other searches.
Every function here is kept in numba's on-disk cache, stamped as the engine's
(``core.numba_cache`` lists this file among the engine's): an edit of this file, of the engine's
or of a game's files recompiles what depends on it.
"""

from __future__ import annotations

import math
from collections import namedtuple
from types import ModuleType, SimpleNamespace

import numba as nb
import numpy as np

from infosets.core.pcg32 import rng_random
from infosets.search import tag_rules as tr
from infosets.search.compiled import (
    CHANCE,
    POLICIES,
    POLICY_REGRET_MATCHING,
    POLICY_UCB,
    TERMINAL,
    draw_chance,
    game_engine,
    record_rollout_move,
    select_by_tag_policy,
)
from infosets.search.multitree import check_settings
from infosets.search.tag_rules_nb import (
    nb_argmax_tiebreak,
    nb_mast_decay,
    nb_mast_rollout_choice,
    nb_mast_update,
    nb_mast_values,
    nb_rm_average_due,
    nb_rm_average_update,
    nb_rm_regrets,
    nb_update_reward_bounds,
)

# The kernel contract, bound per game by ``engine_for``; the game-free module never calls them.
nb_current_player = nb_legal_actions = nb_chance_outcomes = nb_apply_action = None
nb_returns = nb_heuristic = nb_infostate_key = nb_determinize = None
nb_turn = nb_round = None  # optional: TAG's counters (END_TURN/END_ROUND rollouts)

# The search's settings, scalars only: root ``player``, ``limit`` (rollout moves, -1 none),
# ``max_depth`` (-1 none), exploration ``c``, ``fpu``, ``epsilon``, tree ``policy`` code
# (``compiled.POLICIES``), ``mast`` and its ``temperature``, the reward scale (``normalize``,
# ``low``, ``span``), ``fresh``: a world determinized per iteration (IS-MCTS), else one world
# determinized before the first iteration and copied at each (OL-MCTS); ``mast_player``: the one
# player moving by MAST under ``mast_opponents`` "random", -1 for every player; ``termination``:
# the rollout termination code (``tag_rules.TERMINATIONS``: EXACT, END_TURN or END_ROUND).
Config = namedtuple(
    "Config",
    "player limit max_depth c fpu epsilon policy mast temperature normalize low span fresh mast_player "
    "termination",
)
N, VALID, W, Q = range(4)  # stats[node, action, :]
FIRST_CAPACITY = 64  # nodes allocated at first


@nb.njit(cache=True)
def _grown(depth, visits, wsum, children, stats, size):
    """The node arrays with room for ``size`` nodes, the first ones copied."""
    have = depth.shape[0]
    new_depth, new_visits = np.zeros(size, np.int64), np.zeros(size, np.int64)
    new_wsum = np.zeros(size, np.float64)
    new_children = np.full((size, children.shape[1]), -1, np.int64)
    new_stats = np.zeros((size, stats.shape[1], 4), np.float64)
    new_depth[:have] = depth
    new_visits[:have] = visits
    new_wsum[:have] = wsum
    new_children[:have] = children
    new_stats[:have] = stats
    return new_depth, new_visits, new_wsum, new_children, new_stats


@nb.njit(cache=True, inline="always")
def _locate(mover, cur, last, expanded, roots, depth, children, count):
    """The actor's node at its turn (``updateCurrentLocation``; a new root at its first move)."""
    node = cur[mover]
    if node < 0:
        node = roots[mover] = count[0]
        count[0] += 1
    if last[mover] >= 0 and not expanded[mover]:
        child = children[node, last[mover]]
        if child < 0:
            child = children[node, last[mover]] = count[0]
            count[0] += 1
            depth[child] = depth[node] + 1
            expanded[mover] = True
        node = child
    cur[mover] = node
    last[mover] = -1
    return node


@nb.njit(cache=True, inline="always")
def _ucb_scores(scratch, m, low, high, c, fpu):
    """``multitree.ucb_scores`` over the ``m`` gathered actions (rows 0, 1, 3 of ``scratch``:
    visits, reward sums, availabilities), into row 4."""
    for i in range(m):
        n, avail = scratch[0, i], scratch[3, i]
        if n == 0:
            scratch[4, i] = max(fpu, c * math.sqrt(avail))
        else:
            value = scratch[1, i] / n
            value = (value - low) / (high - low) if low < high else 0.0
            scratch[4, i] = value + c * math.sqrt(math.log(avail) / n)


@nb.njit(cache=True, inline="always")
def _select(node, mover, buf, m, stats, visits, wsum, bounds, scratch, cfg, rng):
    """``MultiTree._select``: the tree move at ``node`` over the ``m`` legal actions in ``buf``
    (``scratch`` rows: visits, sums, squares, availabilities, scores)."""
    for i in range(m):
        a = buf[i]
        scratch[0, i] = stats[node, a, N]
        scratch[1, i] = stats[node, a, W]
        scratch[2, i] = stats[node, a, Q]
        scratch[3, i] = stats[node, a, VALID]
    k = 0
    if m > 1:
        low, high = bounds[mover, 0], bounds[mover, 1]
        if cfg.policy == POLICY_UCB:
            _ucb_scores(scratch, m, low, high, cfg.c, cfg.fpu)
            k = nb_argmax_tiebreak(scratch[4], m, rng)
        else:
            k = select_by_tag_policy(
                cfg.policy,
                scratch[0],
                scratch[1],
                scratch[2],
                scratch[3],
                m,
                cfg.c,
                cfg.fpu,
                cfg.epsilon,
                visits[node],
                wsum[node],
                low,
                high,
                rng,
                scratch[4],
            )
    for i in range(m):
        stats[node, buf[i], VALID] += 1.0
    return buf[k]


@nb.njit(cache=True, inline="always")
def _backup(path, plen, values, vec, roots, bounds, visits, wsum, stats, cfg):
    """``MultiTree._backup``: every tree's bounds take the stored vector; each tree move adds
    its mover's reward."""
    for p in range(vec.shape[0]):
        vec[p] = (values[p] - cfg.low) / cfg.span if cfg.normalize else values[p]
    for p in range(vec.shape[0]):
        if roots[p] >= 0:
            bounds[p, 0], bounds[p, 1] = nb_update_reward_bounds(bounds[p, 0], bounds[p, 1], vec)
    for k in range(plen):
        node, a = path[k, 0], path[k, 1]
        r = vec[path[k, 2]]
        visits[node] += 1
        wsum[node] += r
        stats[node, a, N] += 1.0
        stats[node, a, W] += r
        stats[node, a, Q] += r * r


def _settle(st, buf, probs, rng):
    """``multitree._settle``: chance drawn until a player is to move or the game is over."""
    mover = nb_current_player(st)
    while mover == CHANCE:
        nb_apply_action(st, draw_chance(st, buf, probs, rng))
        mover = nb_current_player(st)
    return mover


def _counter(st, termination):
    """The kernel's turn (END_TURN) or round (END_ROUND) counter of ``st``."""
    return nb_turn(st) if termination == tr.END_TURN else nb_round(st)


def _rollout_move(mover, buf, m, cfg, rng, mast_n, mast_w, vals, pots):
    """``MultiTree._rollout_move``: uniformly random (one draw) or MAST's choice (every
    player's, or ``cfg.mast_player``'s only)."""
    if cfg.mast and (cfg.mast_player < 0 or mover == cfg.mast_player):
        nb_mast_values(mast_n, mast_w, mover, buf, m, 0.0, vals)
        return buf[nb_mast_rollout_choice(vals, m, cfg.temperature, 0.0, rng, pots)]
    return buf[int(rng_random(rng) * m)]


def _play(
    st,
    cfg,
    rng,
    buf,
    probs,
    cur,
    last,
    expanded,
    depth_hit,
    path,
    roots,
    depth,
    visits,
    wsum,
    children,
    stats,
    bounds,
    count,
    scratch,
    mast_n,
    mast_w,
    vals,
    pots,
    rec_p,
    rec_a,
):
    """The moves of one iteration (``MultiTree.iterate`` up to the evaluation); returns (tree
    moves, rollout moves, MAST's record, the player to move where it stopped)."""
    cur[:] = roots
    last[:] = -1
    expanded[:] = False
    depth_hit[:] = False
    plen = 0
    nroll = 0
    before, counted = 0, False  # END_TURN/END_ROUND: the counter before the last rollout move
    mover = _settle(st, buf, probs, rng)
    while mover != TERMINAL:
        node = _locate(mover, cur, last, expanded, roots, depth, children, count)
        m = nb_legal_actions(st, buf)
        if expanded[mover] or depth_hit[mover]:
            if cfg.termination != tr.EXACT:
                before, counted = _counter(st, cfg.termination), True
            action = _rollout_move(mover, buf, m, cfg, rng, mast_n, mast_w, vals, pots)
            if cfg.mast:
                rec_p, rec_a = record_rollout_move(rec_p, rec_a, nroll, mover, action)
            nroll += 1
        else:
            action = _select(node, mover, buf, m, stats, visits, wsum, bounds, scratch, cfg, rng)
            path[plen, 0], path[plen, 1], path[plen, 2] = node, action, mover
            plen += 1
            last[mover] = action
            if cfg.max_depth >= 0 and depth[node] >= cfg.max_depth:
                depth_hit[mover] = True
        nb_apply_action(st, action)
        mover = _settle(st, buf, probs, rng)
        if cfg.limit >= 0 and mover != TERMINAL and nroll >= cfg.limit:  # finishRollout
            if cfg.termination == tr.EXACT or (counted and _counter(st, cfg.termination) != before):
                break
    return plen, nroll, rec_p, rec_a, mover


def multitree_tree(
    state, iterations, cfg, rng, num_actions, num_players, mast_n, mast_w, root_stats, sizes, out_bounds,
    rm_average,
):
    """``multitree.multitree_search`` on a kernel state (``cfg`` a ``Config``): each iteration on
    a world determinized for ``cfg.player`` (``cfg.fresh``), or all on one world determinized
    first. Player p's root statistics go to ``root_stats[p]`` (per action: visits, availability,
    reward sum, sum of squares), its tree's node count to ``sizes[p]`` and its reward bounds to
    ``out_bounds[p]``; the MAST table ``mast_n``/``mast_w`` is updated in place under
    ``cfg.mast``; under RegretMatching the root's average strategy is summed into
    ``rm_average[action]`` (``multitree_search``'s ``common.RootAverage``)."""
    capacity = min(num_players * (iterations + 1), FIRST_CAPACITY)
    depth, visits, wsum = np.zeros(capacity, np.int64), np.zeros(capacity, np.int64), np.zeros(capacity)
    children = np.full((capacity, num_actions), -1, np.int64)
    stats = np.zeros((capacity, num_actions, 4), np.float64)
    roots = np.full(num_players, -1, np.int64)
    roots[cfg.player] = 0
    count = np.ones(1, np.int64)
    bounds = np.empty((num_players, 2), np.float64)
    bounds[:, 0], bounds[:, 1] = np.inf, -np.inf
    cur, last = np.empty(num_players, np.int64), np.empty(num_players, np.int64)
    expanded, depth_hit = np.zeros(num_players, np.bool_), np.zeros(num_players, np.bool_)
    path = np.empty((num_players * (iterations + 2), 3), np.int64)  # a tree's depth + 1 moves each
    st, buf = np.empty_like(state), np.empty(num_actions, np.int64)
    probs, vals, pots = np.empty(num_actions), np.empty(num_actions), np.empty(num_actions)
    scratch = np.zeros((5, num_actions), np.float64)
    values, vec = np.zeros(num_players), np.zeros(num_players)
    rec_p, rec_a = np.empty(0, np.int64), np.empty(0, np.int64)
    world = state.copy()
    root_legal = np.empty(num_actions, np.int64)
    root_m = nb_legal_actions(world, root_legal)
    if not cfg.fresh:
        nb_determinize(world, cfg.player, rng)
    for _ in range(iterations):
        if count[0] + 2 * num_players > depth.shape[0]:  # a root and a node per tree at most
            depth, visits, wsum, children, stats = _grown(
                depth, visits, wsum, children, stats, 2 * depth.shape[0]
            )
        st[:] = world
        if cfg.fresh:
            nb_determinize(st, cfg.player, rng)
        plen, nroll, rec_p, rec_a, mover = _play(
            st,
            cfg,
            rng,
            buf,
            probs,
            cur,
            last,
            expanded,
            depth_hit,
            path,
            roots,
            depth,
            visits,
            wsum,
            children,
            stats,
            bounds,
            count,
            scratch,
            mast_n,
            mast_w,
            vals,
            pots,
            rec_p,
            rec_a,
        )
        if mover == TERMINAL:
            nb_returns(st, values)
        else:
            nb_heuristic(st, values)
        _backup(path, plen, values, vec, roots, bounds, visits, wsum, stats, cfg)
        if cfg.policy == POLICY_REGRET_MATCHING and nb_rm_average_due(visits[0], root_m):
            _rm_root_add(root_legal, root_m, stats, visits, wsum, cfg.fpu, scratch, rm_average)
        if cfg.mast:  # MAST Both: the rollout's moves, then the tree's (tag_rules.mast_update)
            nb_mast_update(mast_n, mast_w, rec_p, rec_a, nroll, values)
            nb_mast_update(mast_n, mast_w, path[:, 2], path[:, 1], plen, values)
    if cfg.policy == POLICY_REGRET_MATCHING and visits[0] <= max(root_m, 10):  # the final move's top-up
        _rm_root_add(root_legal, root_m, stats, visits, wsum, cfg.fpu, scratch, rm_average)
    _report(roots, children, stats, count[0], root_stats, sizes)
    out_bounds[:] = bounds


@nb.njit(cache=True)
def _rm_root_add(legal, m, stats, visits, wsum, fpu, scratch, average):
    """RegretMatching: the root player's root (node 0) adds its regret-matching distribution
    over its ``m`` legal actions ``legal`` to ``average[action]`` (``common.rm_average_add``;
    ``scratch`` rows 0-2 and 4 as work space). Called after a backup when
    ``nb_rm_average_due`` and at the end when the root has at most max(m, 10) visits: the
    root is visited once every iteration, so the updates made number visits // max(m, 10)
    and ``tag_rules.rm_average_top_up_due`` reduces to that."""
    for i in range(m):
        scratch[0, i] = stats[0, legal[i], N]
        scratch[1, i] = stats[0, legal[i], W]
        scratch[2, i] = 0.0
    nb_rm_regrets(scratch[0], scratch[1], m, visits[0], wsum[0], fpu, scratch[4])
    nb_rm_average_update(scratch[4], m, scratch[2])
    for i in range(m):
        average[legal[i]] += scratch[2, i]


@nb.njit(cache=True)
def _report(roots, children, stats, count, root_stats, sizes):
    """Each player's root statistics and tree size (nodes reachable from its root)."""
    owner = np.full(count, -1, np.int64)
    for p in range(roots.shape[0]):
        if roots[p] >= 0:
            root_stats[p] = stats[roots[p]]
            owner[roots[p]] = p
    for node in range(count):  # a child is made after its parent: one pass in order
        if owner[node] >= 0:
            sizes[owner[node]] += 1
            for a in range(children.shape[1]):
                if children[node, a] >= 0:
                    owner[children[node, a]] = owner[node]


# The functions that call a game's kernel, compiled per game by ``engine_for`` (compiled's chance
# draw among them, bound to the game here too); all but the search are inlined into it.
GAME_FUNCTIONS = ("draw_chance", "_settle", "_counter", "_rollout_move", "_play", "multitree_tree")


def engine_for(rules: ModuleType) -> SimpleNamespace:
    """``multitree_tree`` for one game's kernel module ``rules`` (``games/<name>/kernel.py``),
    built once per process by ``compiled.game_engine`` and compiled on its first call, with
    numba's on-disk cache stamped as the other searches' (``core.numba_cache``)."""
    inlined = GAME_FUNCTIONS[:-1]
    return game_engine(
        rules, globals(), GAME_FUNCTIONS, entries=("multitree_tree",), inlined=inlined, prefix="multitree."
    )


class CompiledMultiTree:
    """Python front of the jitted MultiTree search for one game kernel and one set of settings
    (``MCTSSettings``; the same validation as ``multitree.MultiTree``). It keeps the MAST table
    (``mast_n``, ``mast_w``) across searches, decayed by ``mast_gamma`` at each."""

    def __init__(self, kernel, uct_c: float, scale, settings):
        check_settings(settings, uct_c)
        self.kernel, self.scale, self.settings = kernel, scale, settings
        limit, depth = settings.rollout_length, settings.max_depth
        self._params = (
            -1 if limit is None else int(limit),
            -1 if depth is None else int(depth),
            float(uct_c),
            float(tr.FPU_DEFAULT if settings.fpu is None else settings.fpu),
            float(settings.explore_epsilon),
            POLICIES[settings.tree_policy],
            settings.rollout == "MAST",
            float(settings.mast_boltzmann),
        )
        self._random_opponents = settings.rollout == "MAST" and settings.mast_opponents == "random"
        self._termination = tr.TERMINATIONS[settings.rollout_termination]
        shape = (kernel.num_players, kernel.num_actions) if settings.rollout == "MAST" else (1, 1)
        self.mast_n = np.zeros(shape, np.int64)
        self.mast_w = np.zeros(shape, np.float64)
        self.last_roots: list[dict[int, tuple[int, float]]] = []
        self.last_sizes: list[int] = []
        self.last_rows = self.last_bounds = None
        self.last_rm_average = None

    def search(self, state, player: int, iterations: int, rnd, array: np.ndarray | None = None, fresh=True):
        """Root statistics {action: (visits, mean stored reward)} of ``player``'s tree after
        ``iterations`` iterations from ``state`` (or the kernel state ``array``), drawing from the
        PCG32 ``rnd`` (its state carried back); ``fresh``: a world per iteration, else one world
        for all. Every player's root statistics are left in ``last_roots`` (their rows, visits,
        availability, reward sum and sum of squares per action, in ``last_rows``), the tree
        sizes in ``last_sizes``, the trees' reward bounds in ``last_bounds`` and, under
        RegretMatching, the root's (legal actions, summed distributions) in ``last_rm_average``."""
        kernel, scale = self.kernel, self.scale
        if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1:
            raise ValueError(f"iterations: must be an int >= 1, got {iterations!r}")
        if not 0 <= player < kernel.num_players:
            raise ValueError(f"player: must be in 0..{kernel.num_players - 1}, got {player}")
        if array is None:
            array = kernel.from_state(state)
        normalize = scale is not None and scale.normalize
        cfg = Config(
            player,
            *self._params,
            normalize,
            float(scale.low) if normalize else 0.0,
            float(scale.span) if normalize else 1.0,
            bool(fresh),
            player if self._random_opponents else -1,
            self._termination,
        )
        root_stats = np.zeros((kernel.num_players, kernel.num_actions, 4), np.float64)
        sizes = np.zeros(kernel.num_players, np.int64)
        bounds = np.empty((kernel.num_players, 2), np.float64)
        rm_average = np.zeros(kernel.num_actions, np.float64)
        if cfg.mast:
            nb_mast_decay(self.mast_n, self.mast_w, float(self.settings.mast_gamma))
        stream = rnd.to_array()
        engine_for(kernel.rules).multitree_tree(
            array,
            iterations,
            cfg,
            stream,
            kernel.num_actions,
            kernel.num_players,
            self.mast_n,
            self.mast_w,
            root_stats,
            sizes,
            bounds,
            rm_average,
        )
        rnd.load(stream)
        if cfg.policy == POLICIES["RegretMatching"]:
            legal = state.legal_actions() if state is not None else _legal_of(kernel, array)
            self.last_rm_average = (list(legal), [float(rm_average[a]) for a in legal])
        self.last_rows, self.last_bounds = root_stats, bounds
        self.last_roots = [_root_dict(root_stats[p]) for p in range(kernel.num_players)]
        self.last_sizes = sizes.tolist()
        return self.last_roots[player]


def _legal_of(kernel, array: np.ndarray) -> list[int]:
    """The legal actions of a kernel state array, in the kernel's order."""
    buf = np.empty(kernel.num_actions, np.int64)
    return buf[: kernel.rules.nb_legal_actions(array, buf)].tolist()


def _root_dict(rows: np.ndarray) -> dict[int, tuple[int, float]]:
    """{action: (visits, mean)} of the actions legal at some visit of a root (``multitree``'s
    ``root_stats``)."""
    return {
        int(a): (int(rows[a, N]), float(rows[a, W] / rows[a, N]) if rows[a, N] else 0.0)
        for a in np.flatnonzero(rows[:, VALID])
    }
