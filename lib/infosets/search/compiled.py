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

The final choice and the PI-MCTS aggregation are done by the Python code of the reference
(``choose_final``, ``aggregate``) from these statistics, with the generator's state carried
back, so there is one implementation of each rule.
"""

from __future__ import annotations

import math
import types
from types import ModuleType, SimpleNamespace

import numba as nb
import numpy as np

from infosets.core.pcg32 import rng_bounded, rng_random
from infosets.search.root_stats import RootStats

CHANCE = -1
TERMINAL = -4

# The kernel contract (infosets.games.kernels), bound to one game's jitted functions in each
# engine that ``engine_for`` builds; the game-free module never calls them.
nb_current_player = nb_legal_actions = nb_chance_outcomes = nb_apply_action = None
nb_returns = nb_heuristic = nb_infostate_key = nb_determinize = None


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


def _rollout(st, rng, limit, buf, probs, returns):
    """Random playout from ``st`` in place; raw returns (or the heuristic at a cut-off after
    ``limit`` actions, ``limit < 0``: none) into ``returns``."""
    steps = 0
    mover = nb_current_player(st)
    while mover != TERMINAL:
        if limit >= 0 and steps >= limit:
            break
        if mover == CHANCE:
            action = _sample_chance(st, buf, probs, rng)
        else:
            n = nb_legal_actions(st, buf)
            action = buf[int(rng_random(rng) * n)]
        nb_apply_action(st, action)
        steps += 1
        mover = nb_current_player(st)
    if mover == TERMINAL:
        nb_returns(st, returns)
    else:
        nb_heuristic(st, returns)


@nb.njit(cache=True)
def _uct_select(node, buf, n, untried, children, visits, wsum, nchild, c, use_fpu, fpu, epsilon, rng):
    """One UCB1 selection step of ``uct_tree`` at ``node`` over the ``n`` legal actions in
    ``buf`` (as ``mcts._select_child``): returns (action, child, new), ``new`` when the action
    has no child yet (the caller expands it; ``child`` is then -1)."""
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
def _uct_backup(path, plen, visits, wsum, mover_of, returns, normalize, low, span):
    """Add one visit and the chooser's reward (mapped to [0, 1] if ``normalize``) to the root
    and to each node of ``path[:plen]``."""
    visits[0] += 1
    for i in range(plen):
        nd = path[i]
        visits[nd] += 1
        if normalize:
            wsum[nd] += (returns[mover_of[nd]] - low) / span
        else:
            wsum[nd] += returns[mover_of[nd]]


def uct_tree(world, iterations, c, normalize, low, span, limit, max_depth, use_fpu, fpu,
             epsilon, rng, num_actions, num_players, out_n, out_w, depths):
    """One open-loop UCT tree on ``world`` (as ``mcts.uct_search``).

    Root children's visits and reward sums go to ``out_n[a]``/``out_w[a]``; ``depths``
    receives [sum of tree depths over iterations, max depth].
    """
    cap = iterations + 1
    visits = np.zeros(cap, np.int64)
    wsum = np.zeros(cap, np.float64)
    mover_of = np.zeros(cap, np.int64)
    nchild = np.zeros(cap, np.int64)
    children = np.full((cap, num_actions), -1, np.int64)
    path = np.empty(cap, np.int64)
    st = np.empty_like(world)
    buf = np.empty(num_actions, np.int64)
    untried = np.empty(num_actions, np.int64)
    probs = np.empty(num_actions, np.float64)
    returns = np.zeros(num_players, np.float64)
    nnodes = 1
    depth_total = 0
    depth_max = 0
    for _ in range(iterations):
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
            n = nb_legal_actions(st, buf)
            if max_depth >= 0 and plen >= max_depth:
                expanded = True
                break
            action, child, new = _uct_select(node, buf, n, untried, children, visits, wsum, nchild, c,
                                             use_fpu, fpu, epsilon, rng)
            if new:
                child = nnodes
                nnodes += 1
                mover_of[child] = mover
                children[node, action] = child
                nchild[node] += 1
                expanded = True
            node = child
            path[plen] = child
            plen += 1
            nb_apply_action(st, action)
            if expanded:
                break
        depth_total += plen
        if plen > depth_max:
            depth_max = plen
        if expanded:
            _rollout(st, rng, limit, buf, probs, returns)
        _uct_backup(path, plen, visits, wsum, mover_of, returns, normalize, low, span)
    for a in range(num_actions):
        ch = children[0, a]
        if ch >= 0:
            out_n[a] = visits[ch]
            out_w[a] = wsum[ch]
    depths[0] += depth_total
    depths[1] = max(depths[1], depth_max)


def pimcts_trees(state, player, trees, budget, c, normalize, low, span, limit, max_depth,
                 use_fpu, fpu, epsilon, rng, num_actions, num_players, out_n, out_w, depths):
    """``trees`` open-loop trees, each on a world determinized for ``player`` (as
    ``PIMCTSBot.search``; ``trees = 1`` is OL-MCTS). Row t of ``out_n``/``out_w`` is tree t."""
    world = np.empty_like(state)
    for t in range(trees):
        world[:] = state
        nb_determinize(world, player, rng)
        uct_tree(world, budget, c, normalize, low, span, limit, max_depth, use_fpu, fpu,
                 epsilon, rng, num_actions, num_players, out_n[t], out_w[t], depths)


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
                   use_fpu, fpu, epsilon, rng):
    """One selection step of ``ismcts_tree_with`` at ``node`` over the ``n`` legal actions in
    ``buf`` (as ``ISMCTSBot._select``): counts availability, scores by UCB (or FPU), draws an
    epsilon move or an untried action; returns (action, expand)."""
    chosen = False
    if epsilon > 0.0:
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
            if use_fpu:
                score = fpu
                if score > best:
                    best, action = score, a
            else:
                untried[nu] = a
                nu += 1
            continue
        na = n_of[node, a]
        if avail_mode != AVAIL_EXPANDED or na > 0:
            avail_of[node, a] += 1
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
    if chosen:
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
def _ismcts_backup(path_node, path_action, path_mover, plen, node_visits, n_of, w_of, returns,
                   normalize, low, span):
    """Add one visit and the mover's reward (mapped to [0, 1] if ``normalize``) to each
    (node, action) of the path."""
    for i in range(plen):
        node = path_node[i]
        a = path_action[i]
        node_visits[node] += 1
        n_of[node, a] += 1
        if normalize:
            w_of[node, a] += (returns[path_mover[i]] - low) / span
        else:
            w_of[node, a] += returns[path_mover[i]]


def ismcts_tree_with(state, player, iterations, c, avail_mode, key_by_moves, heuristic_reward,
                     normalize, low, span, limit, max_depth, use_fpu, fpu, epsilon, rng, num_actions,
                     num_players, root_n, root_w, root_present, root_avail, depths):
    """``ismcts_tree`` with every option of ``ISMCTSBot``: ``avail_mode`` (``AVAIL_*``),
    ``key_by_moves`` (a node is the sequence of player moves from the root, not the mover's
    information state: the belote_ismcts tree), ``heuristic_reward`` (playouts scored by the
    kernel's heuristic, also at the end of the game). Root availabilities go to ``root_avail``.
    """
    cap = iterations + 2
    size = 1
    while size < 2 * cap:
        size *= 2
    mask = size - 1
    table_keys = np.zeros(size, np.int64)
    table_nodes = np.full(size, -1, np.int64)
    node_visits = np.zeros(cap, np.int64)
    n_of = np.zeros((cap, num_actions), np.int64)
    w_of = np.zeros((cap, num_actions), np.float64)
    avail_of = np.zeros((cap, num_actions), np.int64)
    present = np.zeros((cap, num_actions), np.bool_)
    path_node = np.empty(cap, np.int64)
    path_action = np.empty(cap, np.int64)
    path_mover = np.empty(cap, np.int64)
    st = np.empty_like(state)
    buf = np.empty(num_actions, np.int64)
    untried = np.empty(num_actions, np.int64)
    probs = np.empty(num_actions, np.float64)
    returns = np.zeros(num_players, np.float64)
    nnodes = 0
    depth_total = 0
    depth_max = 0
    for _ in range(iterations):
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
            if max_depth >= 0 and plen >= max_depth:
                break
            key = node_key if key_by_moves else nb_infostate_key(st, mover)
            node, nnodes = _node_of(table_keys, table_nodes, key, mask, nnodes)
            n = nb_legal_actions(st, buf)
            action, expand = _ismcts_select(node, buf, n, untried, node_visits, n_of, w_of, avail_of,
                                            present, c, avail_mode, use_fpu, fpu, epsilon, rng)
            node_key = (node + 1) * num_actions + action
            path_node[plen] = node
            path_action[plen] = action
            path_mover[plen] = mover
            plen += 1
            nb_apply_action(st, action)
            mover = nb_current_player(st)
            if expand:
                break
        depth_total += plen
        if plen > depth_max:
            depth_max = plen
        _rollout(st, rng, limit, buf, probs, returns)
        if heuristic_reward:
            nb_heuristic(st, returns)
        _ismcts_backup(path_node, path_action, path_mover, plen, node_visits, n_of, w_of, returns,
                       normalize, low, span)
    key = -1 if key_by_moves else nb_infostate_key(state, player)
    slot = _find_node(table_keys, table_nodes, key, mask)
    root = table_nodes[slot]
    if root >= 0:
        for a in range(num_actions):
            root_n[a] = n_of[root, a]
            root_w[a] = w_of[root, a]
            root_present[a] = present[root, a]
            root_avail[a] = avail_of[root, a]
    depths[0] += depth_total
    depths[1] = max(depths[1], depth_max)


# The searches above that call a game's rules are plain functions over the kernel contract's
# names (``nb_current_player`` ... ``nb_determinize``, infosets.games.kernels). ``engine_for``
# compiles a copy of them for one game, with those names bound to the game's kernel module:
# numba compiles and caches each game's engine on that game's first use, in its own cache
# files (the copies' names carry the game), and never compiles the games a run does not play.
GAME_FUNCTIONS = ("_sample_chance", "_rollout", "uct_tree", "pimcts_trees", "ismcts_tree_with",
                  "ismcts_tree")
KERNEL_CONTRACT = ("nb_current_player", "nb_legal_actions", "nb_chance_outcomes", "nb_apply_action",
                   "nb_returns", "nb_heuristic", "nb_infostate_key", "nb_determinize")
_ENGINES: dict[str, SimpleNamespace] = {}


def engine_for(rules: ModuleType) -> SimpleNamespace:
    """The compiled searches (``GAME_FUNCTIONS``) for one game's kernel module ``rules``
    (``games/<name>/kernel.py``), built once per process and compiled on first call."""
    engine = _ENGINES.get(rules.__name__)
    if engine is not None:
        return engine
    missing = [name for name in KERNEL_CONTRACT if not hasattr(rules, name)]
    if missing:
        raise ValueError(f"rules: {rules.__name__} lacks {', '.join(missing)} (infosets.games.kernels)")
    game = rules.__name__.rsplit(".", 2)[-2]  # the game's folder: games/<game>/kernel.py
    namespace = dict(globals())
    namespace.update({name: getattr(rules, name) for name in KERNEL_CONTRACT})
    engine = SimpleNamespace(game=game)
    for name in GAME_FUNCTIONS:
        source = globals()[name]
        copy = types.FunctionType(source.__code__, namespace, name, source.__defaults__)
        copy.__qualname__ = f"{name}__{game}"  # its own numba cache index (core.numba_cache)
        copy.__module__, copy.__doc__ = __name__, source.__doc__
        copy.infosets_game_files = rules.__file__  # stamps its cache with the game's files
        namespace[name] = nb.njit(cache=True)(copy)
        setattr(engine, name, namespace[name])
    _ENGINES[rules.__name__] = engine
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
        self._history: list | None = None
        self._array: np.ndarray | None = None

    def _state_array(self, state) -> np.ndarray:
        history = self.kernel.history_of(state)
        if history != self._history:
            self._array, self._history = self.kernel.from_history(history), history
        return self._array

    def trees(self, state, player: int, trees: int, budget: int, rnd):
        """Root statistics of ``trees`` open-loop trees of ``budget`` iterations, each on its
        own world; returns (list of RootStats, summed depth, max depth)."""
        kernel, scale = self.kernel, self.scale
        limit, max_depth, use_fpu, fpu, epsilon = self._params
        a = kernel.num_actions
        out_n = np.zeros((trees, a), np.int64)
        out_w = np.zeros((trees, a), np.float64)
        depths = np.zeros(2, np.int64)
        stream = rnd.to_array()
        engine_for(kernel.rules).pimcts_trees(self._state_array(state), player, trees, budget, self.uct_c,
                     scale.normalize, float(scale.low), float(scale.span), limit, max_depth, use_fpu,
                     fpu, epsilon, stream, a, kernel.num_players, out_n, out_w, depths)
        rnd.load(stream)
        result = []
        for t in range(trees):
            visited = np.flatnonzero(out_n[t])
            stats = RootStats((int(x), (int(out_n[t, x]), float(out_w[t, x]))) for x in visited)
            stats.engine = "compiled"
            result.append(stats)
        return result, int(depths[0]), int(depths[1])

    def ismcts(self, state, player: int, iterations: int, availability, rnd, node_key: str = "infostate",
               reward: str = "returns", array: np.ndarray | None = None):
        """IS-MCTS root statistics {action: (visits, mean reward)} over the legal actions of
        ``state`` seen at the root; returns (root, summed depth, max depth). ``availability``,
        ``node_key`` and ``reward`` as in ``ISMCTSBot``; ``array``: search this kernel state
        array instead of ``state``'s (``state`` may then be None). The root's availability
        counts are left in ``self.last_root_availability``."""
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
        engine.ismcts_tree_with(array, player, iterations, self.uct_c, mode, node_key == "moves",
                         reward == "heuristic", scale.normalize, float(scale.low), float(scale.span), limit,
                         max_depth, use_fpu, fpu, epsilon, stream, a, kernel.num_players, root_n, root_w,
                         present, avail, depths)
        rnd.load(stream)
        root = {}
        for x in legal:
            if present[x]:
                n = int(root_n[x])
                root[x] = (n, float(root_w[x]) / n if n else 0.0)
        self.last_root_availability = {x: int(avail[x]) for x in root}
        return root, int(depths[0]), int(depths[1])
