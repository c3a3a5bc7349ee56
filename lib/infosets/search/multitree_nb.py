"""The compiled twin of ``infosets.search.multitree``: MultiTree MCTS (one tree per player, as
TAG's ``MultiTreeNode`` at GAIGResearch/TabletopGames c4d7687cd6162405806a0dd1e1b31804f8a81b93)
in numba, on a game kernel (``infosets.games.kernels``).

The search of the PI-MCTS paper's MultiTree agents (Ravichandran, Goodman and Lucas,
"PIMCTS evaluation in tabletop games", docs/papers/pimcts_aggregation.md; docs/tag_agents.md,
section 1). ``multitree.MultiTree`` is the readable specification; this module runs the same
iterations with the same draws from the same PCG32 (``infosets.core.pcg32``), so seeded, both
give the same trees, root statistics and generator state (tests/search/test_multitree.py).

Layout: every player's tree in one set of arrays (a ``Trees``), nodes numbered in the order
they are made; per node its ``depth``, ``visits``, reward sum ``wsum`` and per (node, action)
``children`` (the owner's own action), visits ``n``, availability ``valid``, reward sum ``w``,
sum of squares ``q`` and ``present`` (the action has been legal there); per player its
``roots`` entry (-1: no tree yet) and reward ``bounds``. The arrays start small and double
when full (a node per tree and iteration at most, but with ``rollout_length = 0`` the trees
stay at their roots). One iteration's walk (a ``Walk``): each player's pointer ``cur``, last
tree move ``last``, ``expanded`` and ``depth_hit`` flags, and the tree moves in order.

Per game, ``engine_for(rules)`` binds the functions that call the kernel (``GAME_FUNCTIONS``)
to the game's kernel module, as ``compiled.engine_for`` does. They are compiled without numba's
on-disk cache: the engine's cache stamps (``core.numba_cache``) cover ``compiled.py`` and
``tag_rules_nb.py`` only, and numba's own check would not see an edit of a kernel.
"""

from __future__ import annotations

import math
import types
from collections import namedtuple
from types import ModuleType, SimpleNamespace

import numba as nb
import numpy as np

from infosets.core.pcg32 import rng_random
from infosets.search import compiled
from infosets.search import tag_rules as tr
from infosets.search.compiled import (
    CHANCE,
    KERNEL_CONTRACT,
    POLICIES,
    POLICY_UCB,
    TERMINAL,
    _record,
    _tag_choice,
)
from infosets.search.tag_rules_nb import (
    nb_argmax_tiebreak,
    nb_mast_decay,
    nb_mast_rollout_choice,
    nb_mast_update,
    nb_mast_values,
    nb_update_reward_bounds,
)

# The kernel contract, bound per game by ``engine_for``; the game-free module never calls them.
nb_current_player = nb_legal_actions = nb_chance_outcomes = nb_apply_action = None
nb_returns = nb_heuristic = nb_infostate_key = nb_determinize = None

Trees = namedtuple("Trees", "depth visits wsum children n valid w q present roots bounds count")
Walk = namedtuple("Walk", "cur last expanded depth_hit path_node path_action path_mover gn gw gq gav scores")
# The search's settings: root ``player``, ``limit`` (rollout moves, -1 none), ``max_depth`` (-1 none),
# exploration ``c``, ``fpu``, ``epsilon``, tree ``policy`` code (``compiled.POLICIES``), ``mast``
# and its ``temperature``, and the reward scale (``normalize``, ``low``, ``span``).
Config = namedtuple(
    "Config", "player limit max_depth c fpu epsilon policy mast temperature normalize low span"
)
FIRST_CAPACITY = 64  # nodes allocated at first; doubled when full


@nb.njit
def _trees(capacity, num_actions, num_players, player):
    """Empty trees with room for ``capacity`` nodes and the root player's root (node 0)."""
    t = Trees(
        np.zeros(capacity, np.int64),
        np.zeros(capacity, np.int64),
        np.zeros(capacity, np.float64),
        np.full((capacity, num_actions), -1, np.int64),
        np.zeros((capacity, num_actions), np.int64),
        np.zeros((capacity, num_actions), np.int64),
        np.zeros((capacity, num_actions), np.float64),
        np.zeros((capacity, num_actions), np.float64),
        np.zeros((capacity, num_actions), np.bool_),
        np.full(num_players, -1, np.int64),
        np.empty((num_players, 2), np.float64),
        np.ones(1, np.int64),
    )
    t.bounds[:, 0] = np.inf
    t.bounds[:, 1] = -np.inf
    t.roots[player] = 0
    return t


@nb.njit
def _new_node(t, depth):
    """A new node at ``depth``; returns (the trees, grown to twice their room if full, its number)."""
    node = t.count[0]
    if node == t.depth.shape[0]:
        grown = _trees(2 * node, t.n.shape[1], t.roots.shape[0], 0)
        grown.depth[:node] = t.depth
        grown.visits[:node] = t.visits
        grown.wsum[:node] = t.wsum
        grown.children[:node] = t.children
        grown.n[:node] = t.n
        grown.valid[:node] = t.valid
        grown.w[:node] = t.w
        grown.q[:node] = t.q
        grown.present[:node] = t.present
        grown.roots[:] = t.roots
        grown.bounds[:] = t.bounds
        t = grown
    t.count[0] = node + 1
    t.depth[node] = depth
    return t, node


@nb.njit
def _ucb_scores(gn, gw, gav, m, low, high, c, fpu, out):
    """``multitree.ucb_scores`` over the first ``m`` gathered actions, into ``out``."""
    for i in range(m):
        if gn[i] == 0:
            out[i] = max(fpu, c * math.sqrt(gav[i]))
        else:
            value = gw[i] / gn[i]
            value = (value - low) / (high - low) if low < high else 0.0
            out[i] = value + c * math.sqrt(math.log(gav[i]) / gn[i])


@nb.njit
def _select(t, wk, cfg, node, mover, buf, m, rng):
    """``MultiTree._select``: the tree move at ``node`` over the ``m`` legal actions in ``buf``."""
    for i in range(m):
        a = buf[i]
        t.present[node, a] = True
        wk.gn[i] = t.n[node, a]
        wk.gw[i] = t.w[node, a]
        wk.gq[i] = t.q[node, a]
        wk.gav[i] = t.valid[node, a]
    k = 0
    if m > 1:
        low, high = t.bounds[mover, 0], t.bounds[mover, 1]
        if cfg.policy == POLICY_UCB:
            _ucb_scores(wk.gn, wk.gw, wk.gav, m, low, high, cfg.c, cfg.fpu, wk.scores)
            k = nb_argmax_tiebreak(wk.scores, m, rng)
        else:
            k = _tag_choice(
                cfg.policy,
                wk.gn,
                wk.gw,
                wk.gq,
                wk.gav,
                m,
                cfg.c,
                cfg.fpu,
                cfg.epsilon,
                t.visits[node],
                t.wsum[node],
                low,
                high,
                rng,
                wk.scores,
            )
    for i in range(m):
        t.valid[node, buf[i]] += 1
    return buf[k]


@nb.njit
def _backup(t, wk, plen, values, vec, cfg):
    """``MultiTree._backup``: every tree's bounds take the stored vector; each tree move adds
    its mover's reward."""
    for p in range(vec.shape[0]):
        vec[p] = (values[p] - cfg.low) / cfg.span if cfg.normalize else values[p]
    for p in range(vec.shape[0]):
        if t.roots[p] >= 0:
            t.bounds[p, 0], t.bounds[p, 1] = nb_update_reward_bounds(t.bounds[p, 0], t.bounds[p, 1], vec)
    for k in range(plen):
        node, a = wk.path_node[k], wk.path_action[k]
        r = vec[wk.path_mover[k]]
        t.visits[node] += 1
        t.wsum[node] += r
        t.n[node, a] += 1
        t.w[node, a] += r
        t.q[node, a] += r * r


def _settle(st, buf, probs, rng):
    """``multitree._settle``: chance drawn until a player is to move or the game is over."""
    mover = nb_current_player(st)
    while mover == CHANCE:
        nb_apply_action(st, _sample_chance(st, buf, probs, rng))
        mover = nb_current_player(st)
    return mover


def _locate(t, wk, mover):
    """The actor's node at its turn (``updateCurrentLocation``; a root at its first move):
    returns (the trees, possibly grown, the node)."""
    node = wk.cur[mover]
    if node < 0:
        t, node = _new_node(t, 0)
        t.roots[mover] = node
    last = wk.last[mover]
    if last >= 0 and not wk.expanded[mover]:
        child = t.children[node, last]
        if child < 0:
            t, child = _new_node(t, t.depth[node] + 1)
            t.children[node, last] = child
            wk.expanded[mover] = True
        node = child
    wk.cur[mover] = node
    wk.last[mover] = -1
    return t, node


def _play(st, t, wk, cfg, buf, probs, rng, mast_n, mast_w, vals, pots, rec_p, rec_a):
    """The moves of one iteration (``MultiTree.iterate`` up to the evaluation); returns (the
    trees, tree moves, rollout moves, MAST's record, the player to move where it stopped)."""
    for p in range(wk.cur.shape[0]):
        wk.cur[p] = t.roots[p]
        wk.last[p] = -1
        wk.expanded[p] = False
        wk.depth_hit[p] = False
    plen = 0
    nroll = 0
    mover = _settle(st, buf, probs, rng)
    while mover != TERMINAL:
        t, node = _locate(t, wk, mover)
        m = nb_legal_actions(st, buf)
        if wk.expanded[mover] or wk.depth_hit[mover]:
            if cfg.mast:
                nb_mast_values(mast_n, mast_w, mover, buf, m, 0.0, vals)
                action = buf[nb_mast_rollout_choice(vals, m, cfg.temperature, 0.0, rng, pots)]
                rec_p, rec_a = _record(rec_p, rec_a, nroll, mover, action)
            else:
                action = buf[int(rng_random(rng) * m)]
            nroll += 1
        else:
            action = _select(t, wk, cfg, node, mover, buf, m, rng)
            wk.path_node[plen] = node
            wk.path_action[plen] = action
            wk.path_mover[plen] = mover
            plen += 1
            wk.last[mover] = action
            if cfg.max_depth >= 0 and t.depth[node] >= cfg.max_depth:
                wk.depth_hit[mover] = True
        nb_apply_action(st, action)
        mover = _settle(st, buf, probs, rng)
        if cfg.limit >= 0 and mover != TERMINAL and nroll >= cfg.limit:  # finishRollout, EXACT
            break
    return t, plen, nroll, rec_p, rec_a, mover


def multitree_tree(
    state, iterations, cfg, rng, num_actions, num_players, mast_n, mast_w, root_n, root_w, root_present, sizes
):
    """``multitree.multitree_search`` on a kernel state (``cfg`` a ``Config``): each iteration on
    a world determinized for ``cfg.player``. Every player's root statistics go to row p of
    ``root_n``/``root_w`` (reward sums)/``root_present``, its tree's node count to ``sizes[p]``;
    the MAST table ``mast_n``/``mast_w`` is updated in place under ``cfg.mast``."""
    t = _trees(min(num_players * (iterations + 1), FIRST_CAPACITY), num_actions, num_players, cfg.player)
    moves = num_players * (iterations + 2)  # tree moves per iteration: at most a tree's depth + 1 each
    wk = Walk(
        np.empty(num_players, np.int64),
        np.empty(num_players, np.int64),
        np.zeros(num_players, np.bool_),
        np.zeros(num_players, np.bool_),
        np.empty(moves, np.int64),
        np.empty(moves, np.int64),
        np.empty(moves, np.int64),
        np.zeros(num_actions),
        np.zeros(num_actions),
        np.zeros(num_actions),
        np.zeros(num_actions),
        np.zeros(num_actions),
    )
    st = np.empty_like(state)
    buf = np.empty(num_actions, np.int64)
    probs = np.empty(num_actions, np.float64)
    vals = np.empty(num_actions, np.float64)
    pots = np.empty(num_actions, np.float64)
    values = np.zeros(num_players, np.float64)
    vec = np.zeros(num_players, np.float64)
    rec_p, rec_a = np.empty(0, np.int64), np.empty(0, np.int64)
    for _ in range(iterations):
        st[:] = state
        nb_determinize(st, cfg.player, rng)
        t, plen, nroll, rec_p, rec_a, mover = _play(
            st, t, wk, cfg, buf, probs, rng, mast_n, mast_w, vals, pots, rec_p, rec_a
        )
        if mover == TERMINAL:
            nb_returns(st, values)
        else:
            nb_heuristic(st, values)
        _backup(t, wk, plen, values, vec, cfg)
        if cfg.mast:  # MAST Both: the rollout's moves, then the tree's (tag_rules.mast_update)
            nb_mast_update(mast_n, mast_w, rec_p, rec_a, nroll, values)
            nb_mast_update(mast_n, mast_w, wk.path_mover, wk.path_action, plen, values)
    _report(t, root_n, root_w, root_present, sizes)


@nb.njit
def _report(t, root_n, root_w, root_present, sizes):
    """Each player's root statistics and tree size (nodes reachable from its root)."""
    count = t.count[0]
    owner = np.full(count, -1, np.int64)
    for p in range(t.roots.shape[0]):
        root = t.roots[p]
        if root < 0:
            continue
        root_n[p, :] = t.n[root]
        root_w[p, :] = t.w[root]
        root_present[p, :] = t.present[root]
        owner[root] = p
    for node in range(count):  # a child is made after its parent: one pass in order
        if owner[node] >= 0:
            sizes[owner[node]] += 1
            for a in range(t.children.shape[1]):
                child = t.children[node, a]
                if child >= 0:
                    owner[child] = owner[node]


# The functions that call a game's kernel, compiled per game by ``engine_for`` (compiled's chance
# draw among them, bound to the game here too).
_sample_chance = compiled._sample_chance
GAME_FUNCTIONS = ("_sample_chance", "_settle", "_locate", "_play", "multitree_tree")
_ENGINES: dict[str, SimpleNamespace] = {}


def engine_for(rules: ModuleType) -> SimpleNamespace:
    """``multitree_tree`` for one game's kernel module ``rules`` (``games/<name>/kernel.py``),
    built once per process and compiled on its first call (as ``compiled.engine_for``)."""
    engine = _ENGINES.get(rules.__name__)
    if engine is not None:
        return engine
    missing = [name for name in KERNEL_CONTRACT if not hasattr(rules, name)]
    if missing:
        raise ValueError(f"rules: {rules.__name__} lacks {', '.join(missing)} (infosets.games.kernels)")
    game = rules.__name__.rsplit(".", 2)[-2]
    namespace = dict(globals())
    namespace.update({name: getattr(rules, name) for name in KERNEL_CONTRACT})
    engine = SimpleNamespace(game=game)
    for name in GAME_FUNCTIONS:
        source = globals()[name]
        copy = types.FunctionType(source.__code__, namespace, name, source.__defaults__)
        copy.__qualname__ = f"{name}__{game}"
        copy.__module__, copy.__doc__ = __name__, source.__doc__
        namespace[name] = nb.njit(copy)
    engine.multitree_tree = namespace["multitree_tree"]
    _ENGINES[rules.__name__] = engine
    return engine


class CompiledMultiTree:
    """Python front of the jitted MultiTree search for one game kernel and one set of settings
    (``MCTSSettings``; the same validation as ``multitree.MultiTree``). It keeps the MAST table
    (``mast_n``, ``mast_w``) across searches, decayed by ``mast_gamma`` at each."""

    def __init__(self, kernel, uct_c: float, scale, settings):
        if settings.backup != "mean":
            raise ValueError(f"backup: MultiTree backs up the mean only, got {settings.backup!r}")
        if not (math.isfinite(uct_c) and uct_c >= 0):
            raise ValueError(f"uct_c: must be a finite number >= 0, got {uct_c}")
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
        shape = (kernel.num_players, kernel.num_actions) if settings.rollout == "MAST" else (1, 1)
        self.mast_n = np.zeros(shape, np.int64)
        self.mast_w = np.zeros(shape, np.float64)
        self.last_roots: list[dict[int, tuple[int, float]]] = []
        self.last_sizes: list[int] = []

    def search(self, state, player: int, iterations: int, rnd, array: np.ndarray | None = None):
        """Root statistics {action: (visits, mean stored reward)} of ``player``'s tree after
        ``iterations`` iterations from ``state`` (or the kernel state ``array``), drawing from the
        PCG32 ``rnd`` (its state carried back). Every player's root statistics are left in
        ``last_roots`` and the tree sizes in ``last_sizes``."""
        kernel, scale = self.kernel, self.scale
        if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1:
            raise ValueError(f"iterations: must be an int >= 1, got {iterations!r}")
        if not 0 <= player < kernel.num_players:
            raise ValueError(f"player: must be in 0..{kernel.num_players - 1}, got {player}")
        if array is None:
            array = kernel.from_history(kernel.history_of(state))
        normalize = scale is not None and scale.normalize
        cfg = Config(
            player,
            *self._params,
            normalize,
            float(scale.low) if normalize else 0.0,
            float(scale.span) if normalize else 1.0,
        )
        shape = (kernel.num_players, kernel.num_actions)
        root_n, root_w = np.zeros(shape, np.int64), np.zeros(shape, np.float64)
        present, sizes = np.zeros(shape, np.bool_), np.zeros(kernel.num_players, np.int64)
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
            root_n,
            root_w,
            present,
            sizes,
        )
        rnd.load(stream)
        self.last_roots = [
            {
                int(a): (int(root_n[p, a]), float(root_w[p, a]) / root_n[p, a] if root_n[p, a] else 0.0)
                for a in np.flatnonzero(present[p])
            }
            for p in range(kernel.num_players)
        ]
        self.last_sizes = sizes.tolist()
        return self.last_roots[player]
