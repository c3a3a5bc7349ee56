"""Open-loop UCT on one sampled world (OL-MCTS), the per-world kernel of PI-MCTS.

Follows Ravichandran, Goodman and Lucas, "PIMCTS evaluation in tabletop games"
(docs/papers/pimcts_aggregation.md): OL-MCTS samples one world from the decision player's
information set and runs open-loop UCT on it (nodes are action sequences; chance outcomes
after the root are redrawn every iteration). Defaults: rewards in [0, 1], c = 1, rollouts to
the end, final move by highest mean.

Three engines run the per-world tree:
* ``"python"``: ``uct_search`` below (any game, including Python-registered ones): the
  readable specification. It draws from one PCG32 per move (``search.common.python_random``).
* ``"compiled"``: ``infosets.search.compiled`` on a game kernel (``infosets.games.kernels``):
  the same search in numba, draw for draw (same root statistics, depths and moves).
* ``"cpp"``: OpenSpiel's C++ ``MCTSBot.mcts_search`` (C++ games only). Where it differs:
  it uses raw returns, so c is scaled by the utility span (which leaves every UCB argmax
  unchanged); it spends the first iteration expanding the root (no child visit); it expands
  all children of a leaf at once (shuffled) and evaluates the leaf, not a new child.
  The final choice and the aggregation stay ours (we read the root children's
  ``explore_count`` and ``total_reward``, and the ``outcome`` C++ records for a terminal
  child: C++ ranks a known outcome before visits, and so do the visit-count finals here).
* ``"auto"``: compiled where the game has a kernel covering its parameters (and no custom
  sampler or rollout policy); else Python on Python-registered games and with per-game
  settings; else, per tree, C++ when the tree's budget is >= 10 x (``AUTO_CPP_MIN_RATIO``)
  the legal actions (the lost iteration is then negligible), Python below. The rule and its reasons
  live in ``infosets.search.engine_choice``; each bot logs its choice once at INFO there.
The bots' ``engine_used`` holds the planned engine from construction, then the engine that
ran the last search.
"""

from __future__ import annotations

import math

import numpy as np
import pyspiel

from infosets.core.checks import check_callable, check_game, check_int, check_player, check_real
from infosets.core.rng import as_generator
from infosets.games.determinizers import sampler_for
from infosets.games.kernels import (
    kernel_for,
    kernel_heuristic,
    kernel_sampler,
    require_kernel,
    rollout_counter,
)
from infosets.search import tag_rules as tr
from infosets.search.common import (
    RewardScale,
    RootAverage,
    advance_to_turn,
    argmax_random,
    check_decision_state,
    exp3_final,
    is_python_game,
    python_random,
    random_rollout,
    rm_final,
    sample_chance,
    tag_choice,
    uses_pcg,
)
from infosets.search.compiled import CompiledSearch
from infosets.search.engine_choice import log_choice, open_loop_choice, tree_uses_cpp
from infosets.search.multitree_runner import MultiTreeRunner
from infosets.search.reuse import KeptTree, reroot_open_loop
from infosets.search.root_stats import RootStats
from infosets.search.settings import DEFAULT, MCTSSettings, make_settings

ENGINES = ("python", "cpp", "auto", "compiled")
NEG_INF = float("-inf")
FINALS = ("mean", "visits")
CHANCE = int(pyspiel.PlayerId.CHANCE)
TERMINAL = int(pyspiel.PlayerId.TERMINAL)


def _select_child(node, legal, mover, rnd, uct_c, fpu, epsilon, stale):
    """One selection step of ``uct_search`` at ``node``: an epsilon move, else UCB1 over the
    children (in legal order, first max wins; FPU scores the unvisited ones), else an untried
    action expanded at random. Returns (action, child, new); a new child is added to
    ``node``. ``stale`` is the action returned when no score beats -inf (NaN rewards), as
    the loop this was taken from replayed its last action then."""
    children = node[2]
    # One pass: collect untried actions and, while there are none, score the children by
    # UCB1. Children imply visits.
    log_parent = math.log(node[0]) if children else 0.0
    sqrt = math.sqrt
    untried = None
    action, best, best_child = stale, NEG_INF, node  # raw rewards can be below -1
    chosen = epsilon > 0.0 and rnd.random() < epsilon  # an epsilon move: no UCB
    if chosen:
        action = legal[rnd.randrange(len(legal))]
        best_child = children.get(action)
        if best_child is None:
            untried = [action]
    elif fpu is None:
        for a in legal:
            ch = children.get(a)
            if ch is None:
                if untried is None:
                    untried = [a]
                else:
                    untried.append(a)
            elif untried is None:
                score = ch[1] / ch[0] + uct_c * sqrt(log_parent / ch[0])
                if score > best:
                    best, action, best_child = score, a, ch
    else:
        for a in legal:
            ch = children.get(a)
            score = fpu if ch is None else ch[1] / ch[0] + uct_c * sqrt(log_parent / ch[0])
            if score > best:
                best, action, best_child = score, a, ch
        if best_child is None:
            untried = [action]
    if untried is None:
        return action, best_child, False
    if fpu is None and not chosen:  # else the one untried action chosen above
        action = untried[rnd.randrange(len(untried))]
    child = children[action] = [0, 0.0, {}, mover, None]
    return action, child, True


def _new_node(mover, action):
    """A node of ``uct_search`` under TAG's settings: the five fields of its plain nodes
    [visits, reward sum of the player who chose it, children, that player, cached view], then
    the action that led to it and TAG's statistics (issue 56): sum of squared rewards,
    selections made from it and their reward sum (its mover's), every player's reward sums
    (MaxMC; None until used)."""
    return [0, 0.0, {}, mover, None, action, 0.0, 0, 0.0, None]


def _complete(root, path):
    """The fields of ``_new_node`` added to a node of ``path`` made by ``_select_child``
    (under UCB with TAG's backup or rollout; only an iteration's new leaf can lack them)."""
    for i, nd in enumerate(path):
        if len(nd) == 5:
            siblings = (path[i - 1] if i else root)[2]
            action = next(a for a, ch in siblings.items() if ch is nd)
            nd.extend((action, 0.0, 0, 0.0, None))


def _select_child_tag(node, legal, mover, rnd, uct_c, settings, bounds):
    """``_select_child`` under a TAG tree policy (``settings.tree_policy``, ``common.tag_choice``):
    the children's statistics in legal order, an unvisited one scored by FPU (TAG's 1e6 if
    ``fpu`` is None), N the node's visits (open loop: every action is available at each visit).
    Returns (action, child, new)."""
    children = node[2]
    n, w, q = [], [], []
    for a in legal:
        ch = children.get(a)
        if ch is None:
            n.append(0)
            w.append(0.0)
            q.append(0.0)
        else:
            n.append(ch[0])
            w.append(ch[1])
            q.append(ch[6])
    i = tag_choice(settings.tree_policy, n, w, q, [node[0]] * len(legal), node[7], node[8], bounds[0],
                   bounds[1], uct_c, settings.fpu, settings.explore_epsilon, rnd)
    action = legal[i]
    child = children.get(action)
    if child is None:
        child = children[action] = _new_node(mover, action)
        return action, child, True
    return action, child, False


def _backup_tag(root, path, returns, scale, settings, bounds):
    """The backup of ``uct_search`` with TAG's statistics (issue 56), from the leaf up: each
    node's visit, its chooser's reward and square, its parent's selection count and sum, and
    under ``backup`` MaxMC every player's sums and the value passed up
    (``tag_rules.max_mc_value`` over the parent's children in action order). ``bounds``
    [low, high] is updated with the stored rewards (``tag_rules.update_reward_bounds``)."""
    if scale.normalize:
        low, span = scale.low, scale.span
        vec = [(r - low) / span for r in returns]
    else:
        vec = list(returns)
    bounds[0], bounds[1] = tr.update_reward_bounds(bounds[0], bounds[1], vec)
    maxmc, players = settings.backup == "MaxMC", len(vec)
    if settings.opponent_tree == "SelfOnly" and path:  # TAG's processResultsForParanoidOrSelfOnly
        vec = [vec[path[0][3]]] * players
    root[0] += 1
    for nd in path:
        nd[0] += 1
    for i in range(len(path) - 1, -1, -1):
        nd = path[i]
        parent = path[i - 1] if i > 0 else root
        r = vec[nd[3]]
        nd[1] += r
        nd[6] += r * r
        parent[7] += 1
        parent[8] += r
        if maxmc:
            if nd[9] is None:
                nd[9] = [0.0] * players
            for p in range(players):
                nd[9][p] += vec[p]
            if i > 0:
                acts = sorted(parent[2])
                kids = [parent[2][a] for a in acts]
                w_all = [ch[9] if ch[9] is not None else [0.0] * players for ch in kids]
                vec = tr.max_mc_value(vec, [ch[0] for ch in kids], w_all, nd[3], acts.index(nd[5]),
                                      parent[0], settings.max_backup_threshold).tolist()


def _descend(root, world, rnd, uct_c, settings, bounds=None, opponents=None):
    """The tree part of one ``uct_search`` iteration from ``root``: select down to a new leaf,
    the depth bound or the end of the game. Returns (path, state, actions, returns, expanded):
    the nodes chosen, the state reached (None while it is still the world plus ``actions``,
    see ``uct_search``), ``returns`` if a terminal ended it, ``expanded`` if a rollout is due.
    ``opponents`` (SelfOnly: the root player and a function advancing a state to its turn,
    ``common.advance_to_turn``): the other players' moves are made by it, without nodes, and
    the node cache is not used."""
    max_depth, fpu, epsilon = settings.max_depth, settings.fpu, settings.explore_epsilon
    node = root
    path = []
    state = None  # materialised lazily: clone of world + the actions so far
    actions = []
    returns = None
    action = None
    deterministic = opponents is None  # no chance node (or SelfOnly move) drawn yet in this iteration
    while True:
        view = node[4] if deterministic else None
        if view is None:
            if state is None:
                state = _replay(world, actions)
            mover = state.current_player()
            if mover == TERMINAL:
                returns = state.returns()
                if deterministic:
                    node[4] = (TERMINAL, None, returns)
                return path, state, actions, returns, False
            if mover == CHANCE:
                state.apply_action(sample_chance(state, rnd))
                deterministic = False
                continue
            if opponents is not None and mover != opponents[0]:
                opponents[1](state)
                continue
            legal = state.legal_actions()
            if deterministic:
                node[4] = (mover, legal, None)
        else:
            mover, legal, returns = view
            if mover == TERMINAL:
                return path, state, actions, returns, False
        if max_depth is not None and len(path) >= max_depth:
            return path, state, actions, returns, True
        if bounds is None:
            action, child, new = _select_child(node, legal, mover, rnd, uct_c, fpu, epsilon, action)
        else:
            action, child, new = _select_child_tag(node, legal, mover, rnd, uct_c, settings, bounds)
        if not new and child is node:
            # No score beat -inf: the stale action is replayed on the real state, as before
            # this cache existed; stop trusting the cache.
            deterministic = False
        node = child
        path.append(node)
        if state is None:
            actions.append(action)
        else:
            state.apply_action(action)
        if new:
            return path, state, actions, returns, True


def _rm_root(root, legal):
    """RegretMatching: the root's statistics for ``common.RootAverage`` over ``legal``: its
    children's visits and reward sums, its selection count and their reward sum."""
    kids = root[2]
    n = [kids[a][0] if a in kids else 0 for a in legal]
    return n, [kids[a][1] if a in kids else 0.0 for a in legal], root[7], root[8]


def _replay(world, actions):
    """A clone of ``world`` with ``actions`` applied."""
    state = world.clone()
    for a in actions:
        state.apply_action(a)
    return state


def uct_search(world, iterations: int, uct_c: float, rnd, scale: RewardScale,
               rollout_policy=None, settings: MCTSSettings = DEFAULT, mast=None, tree: KeptTree | None = None
               ) -> RootStats:
    """Open-loop UCT from ``world`` (a decision node); returns the root children's statistics.

    Each node stores [visits, reward sum of the player who chose it, children, that player,
    cached view]. Selection is UCB1 with the parent's visits, an untried legal action is
    expanded at random, then a rollout plays to the end. ``settings`` (see
    ``infosets.search.settings``) cut the rollout, bound the depth, set FPU and epsilon.
    The result's ``depth_total``/``depth_max`` count tree nodes per iteration.

    Before the first chance node of an iteration the state at a node is a fixed function of
    its action path, so the node caches (current player, legal actions, returns if
    terminal) and the world is cloned and replayed only when a state is really needed
    (chance, an uncached node, the rollout). Results and random draws are unchanged.

    TAG's tree policy, backup and rollout (issue 56; ``settings.tree_policy``, ``backup``,
    ``rollout``; rules in ``infosets.search.tag_rules``; the compiled twin is
    ``compiled.uct_tree`` with its ``tag`` arguments): nodes made by ``_new_node``, selection
    by ``_select_child_tag`` (under UCB ``_select_child``'s), the backup ``_backup_tag`` (under
    UCB and mean the plain one), and the search keeps the reward bounds [low, high] of the stored
    rewards for UCB-Tuned/EXP3. With MAST the rollout is ``common.random_rollout``'s MAST policy
    on the bot's table ``mast`` (``mast_n``, ``mast_w``), updated after each iteration with the
    rollout's then the tree's moves (``tag_rules.mast_update``, the raw returns). Under
    ``opponent_tree`` SelfOnly the other players move by the rollout policy in the tree phase and
    before the rollout (``common.advance_to_turn``: no nodes, not recorded), so every node is the
    root player's, keyed by its own moves, and MaxMC backs up the root player's reward for all.
    Under ``mast_opponents`` "random" only the root player moves by MAST, the others uniformly
    at random (``random_rollout``'s ``mast_player``; SelfOnly's ``advance_to_turn`` without
    MAST). Under RegretMatching the root's average strategy is kept (``common.RootAverage``),
    returned as the result's ``rm_average`` (root legal actions, summed distributions). ``tree``
    (``reuse_tree``, ``reuse.KeptTree``): start from its kept root and reward bounds (fresh if
    none) and leave the tree there."""
    tag = not settings.tag_default
    use_mast = settings.rollout == "MAST"
    if use_mast and (mast is None or rollout_policy is not None):
        raise ValueError("rollout: 'MAST' needs the bot's MAST table and no rollout_policy")
    root = _new_node(-1, -1) if tag else [0, 0.0, {}, -1, None]
    bounds = [math.inf, -math.inf]
    if tree is not None:
        if tree.root is not None:
            root, bounds = tree.root, tree.bounds
        tree.root, tree.bounds = root, bounds
    select_bounds = None if settings.tree_policy == "UCB" else bounds
    stats_backup = settings.tree_policy != "UCB" or settings.backup != "mean"
    rollout_mast = (mast[0], mast[1], settings.mast_boltzmann) if use_mast else None
    mast_player = world.current_player() if use_mast and settings.mast_opponents == "random" else None
    opponent_mast = rollout_mast if mast_player is None else None  # random opponents: no MAST
    opponents = None
    if settings.opponent_tree == "SelfOnly":
        player = world.current_player()
        opponents = (player, lambda st: advance_to_turn(st, player, rnd, rollout_policy, opponent_mast))
    termination = settings.rollout_termination  # END_TURN/END_ROUND read the game's counter
    counter = rollout_counter(world.get_game(), termination) if termination != "EXACT" else None
    regret_matching = settings.tree_policy == "RegretMatching"
    rm = RootAverage(world.legal_actions(), settings.fpu) if regret_matching else None
    normalize, low, span = scale.normalize, scale.low, scale.span
    depth_total = depth_max = 0
    for _ in range(iterations):
        path, state, actions, returns, expanded = _descend(root, world, rnd, uct_c, settings, select_bounds,
                                                           opponents)
        if tag:
            _complete(root, path)
        depth = len(path)
        depth_total += depth
        if depth > depth_max:
            depth_max = depth
        record = [] if use_mast else None
        if expanded:
            if state is None:
                state = _replay(world, actions)
            if opponents is not None:  # SelfOnly: the rollout starts at the root player's turn
                opponents[1](state)
            mover = random_rollout(state, rnd, rollout_policy, settings.rollout_length, rollout_mast, record,
                                   settings.rollout_count == "steps", termination, counter, mast_player)
            returns = state.returns() if mover == TERMINAL else settings.heuristic(state)
        if stats_backup:
            _backup_tag(root, path, returns, scale, settings, bounds)
            if rm is not None and rm.due(root[7]):
                rm.add(*_rm_root(root, rm.legal))
        else:
            root[0] += 1
            if normalize:
                for nd in path:
                    nd[0] += 1
                    nd[1] += (returns[nd[3]] - low) / span
            else:
                for nd in path:
                    nd[0] += 1
                    nd[1] += returns[nd[3]]
        if use_mast:  # MAST Both: the rollout's moves, then the tree's
            record.extend((nd[3], nd[5]) for nd in path)
            tr.mast_update(mast[0], mast[1], [p for p, _ in record], [a for _, a in record], returns)
    stats = RootStats((a, (ch[0], ch[1])) for a, ch in root[2].items())
    stats.depth_total, stats.depth_max, stats.iterations = depth_total, depth_max, iterations
    if tag:
        stats.bounds = (bounds[0], bounds[1])  # EXP3's final choice (common.exp3_final)
    if rm is not None:
        stats.rm_average = rm.finish(*_rm_root(root, rm.legal))
    return stats


class CppTreeRunner:
    """OpenSpiel's C++ MCTSBot kept across searches of one budget (its RNG is seeded once)."""

    def __init__(self, game, iterations: int, uct_c: float, seed: int, scale: RewardScale):
        self.scale = scale
        self.evaluator = pyspiel.RandomRolloutEvaluator(1, seed)  # the bot keeps a reference
        c_raw = uct_c * scale.span if scale.normalize else uct_c
        self.bot = pyspiel.MCTSBot(game, self.evaluator, c_raw, iterations, 1000, False, seed, False)

    def search(self, world) -> RootStats:
        root = self.bot.mcts_search(world)
        scale, stats, outcomes = self.scale, RootStats(), {}
        for child in root.children:
            n, total = child.explore_count, child.total_reward
            if scale.normalize:
                total = (total - scale.low * n) / scale.span
            stats[child.action] = (n, total)
            if child.outcome:  # a terminal child: its exact return is known
                outcomes[child.action] = child.outcome[child.player]
        stats.outcomes = outcomes
        return stats


def cpp_uct_search(world, iterations: int, uct_c: float, seed: int, scale: RewardScale) -> RootStats:
    """The same search in OpenSpiel's C++ MCTSBot; rewards mapped to the ``scale`` range."""
    return CppTreeRunner(world.get_game(), iterations, uct_c, seed, scale).search(world)


def check_engine(game, engine: str) -> None:
    """ValueError unless ``engine`` is known and usable on ``game``."""
    if engine not in ENGINES:
        raise ValueError(f"engine: must be one of {ENGINES}, got {engine!r}")
    if engine == "cpp" and is_python_game(game):
        raise ValueError(f"engine: 'cpp' needs a C++ game; '{game.get_type().short_name}' is "
                         "Python-registered (OpenSpiel 2.0.2's C++ bots crash on it), use engine='python'")
    if engine == "compiled":
        require_kernel(game, "cpp" if not is_python_game(game) else None)


def search_world(world, iterations, uct_c, rnd, scale, rollout_policy, engine,
                 runners: dict | None = None, settings: MCTSSettings = DEFAULT, mast=None,
                 tree: KeptTree | None = None) -> RootStats:
    """One per-world tree with the Python or C++ engine, drawing from ``rnd`` (the move's
    PCG32); the C++ engine takes one seed draw per tree whether or not a runner is cached.

    ``runners`` caches one C++ runner per budget (seeded by the first call's draw).
    The result's ``engine`` attribute names the engine that ran.
    """
    if engine == "auto":
        engine = "cpp" if (not is_python_game(world.get_game()) and settings.is_default and
                           tree_uses_cpp(iterations, len(world.legal_actions()))) else "python"
    if engine == "cpp":
        seed = rnd.randrange(2**31 - 1)
        runner = runners.get(iterations) if runners is not None else None
        if runner is None:
            runner = CppTreeRunner(world.get_game(), iterations, uct_c, seed, scale)
            if runners is not None:
                runners[iterations] = runner
        stats = runner.search(world)
    else:
        stats = uct_search(world, iterations, uct_c, rnd, scale, rollout_policy, settings, mast, tree)
    stats.engine = engine
    return stats


def check_search_args(game, player, iterations, uct_c, sampler, rollout_policy) -> None:
    """The arguments OL-MCTS, PI-MCTS and IS-MCTS share, each refused with a one-line
    ValueError naming it: ``game`` not a loaded pyspiel.Game, ``player`` not a seat (an int in
    0 .. players - 1), ``iterations`` not an int >= 1 (a bool is not a budget), ``uct_c`` not
    a finite number >= 0, ``sampler``/``rollout_policy`` neither None nor callable.
    A simultaneous-move game is refused once the default sampler is chosen (``check_game``
    there), so that a game without a determinizer (a matrix game) is told that first."""
    check_game(game, sequential=False)
    check_player(player, game.num_players())
    check_int(iterations, "iterations", lo=1)
    check_real(uct_c, "uct_c", lo=0.0)
    if sampler is not None:
        check_callable(sampler, "sampler")
    if rollout_policy is not None:
        check_callable(rollout_policy, "rollout_policy")


def validate_common(game, player, iterations, uct_c, final, engine, sampler=None, rollout_policy=None):
    """``check_search_args``, then ``final`` and ``engine`` (OL-MCTS and PI-MCTS)."""
    check_search_args(game, player, iterations, uct_c, sampler, rollout_policy)
    if final not in FINALS:
        raise ValueError(f"final: must be one of {FINALS}, got {final!r}")
    check_engine(game, engine)


class OpenLoopPlanner:
    """The per-move tree work shared by OL-MCTS and PI-MCTS: sample D worlds, run D open-loop
    trees, with the engine chosen once (``"compiled"``/``"auto"``) or per tree (C++ auto).

    ``choice`` is the engine planned at construction and why (``engine_choice``, logged
    once at INFO for ``bot``, with ``budget`` the iterations of one tree). ``engine_used``
    names that plan until ``trees`` has run, then the engine that ran. After ``trees``,
    ``last_search_info`` holds the trees' depth statistics: ``mean_depth``, the tree nodes
    an iteration visits (the root's children are depth 1) averaged over every iteration of
    every tree, and ``max_depth`` (NaN and -1 when a tree ran in C++, which does not report
    them).
    """

    def __init__(self, game, player, uct_c, scale, sampler, rollout_policy, engine,
                 settings: MCTSSettings, *, budget: int, bot: str):
        self.game, self.player, self.uct_c, self.scale = game, player, uct_c, scale
        self.rollout_policy, self.settings = rollout_policy, settings
        kernel = kernel_for(game)
        custom = sampler is not None or rollout_policy is not None
        if engine == "compiled" and custom:
            raise ValueError("engine: 'compiled' draws worlds and rollouts in the kernel; "
                             "pass no sampler and no rollout_policy (or use engine='python')")
        if engine == "cpp" and not settings.is_default:
            raise ValueError("engine: 'cpp' runs OpenSpiel's MCTSBot, which takes none of rollout_length/"
                             "max_depth/fpu/explore_epsilon nor TAG's settings; use 'python' or 'compiled'")
        python_game = is_python_game(game)
        self.choice = open_loop_choice(game, engine, kernel, custom, settings, budget, python_game)
        log_choice(bot, game, self.choice)
        if engine == "auto" and kernel is not None and not custom:
            engine = "compiled"
        if engine == "auto" and python_game:
            engine = "python"  # C++ trees need a C++ game; decided here, once, from the game
        self.engine = engine
        if sampler is None:
            sampler = kernel_sampler(game, kernel) if kernel is not None else sampler_for(game)
        self.sampler = sampler
        check_game(game)  # turn-based (see check_search_args)
        self._compiled = (CompiledSearch(game, kernel, uct_c, scale, settings)
                          if engine == "compiled" else None)
        self._runners: dict = {}
        # The bot's MAST table (issue 56), kept across its decisions (decayed at each).
        shape = (game.num_players(), game.num_distinct_actions()) if settings.rollout == "MAST" else (1, 1)
        self.mast = (np.zeros(shape, np.int64), np.zeros(shape, np.float64))
        if settings.rollout == "MAST" and rollout_policy is not None:
            raise ValueError("rollout: 'MAST' is the rollout policy; pass no rollout_policy")
        self.engine_used = self.choice.engine
        self.last_search_info = None
        self._multitree = None  # TAG's MultiTree on the one world (search.multitree_runner)
        if settings.opponent_tree == "MultiTree":
            self._multitree = MultiTreeRunner(game, kernel, "compiled" if engine == "compiled" else "python",
                                              uct_c, scale, settings, rollout_policy)

    def trees(self, state, trees: int, budget: int, rng, rnd,
              tree: KeptTree | None = None) -> list[RootStats]:
        """``trees`` per-world trees of ``budget`` iterations; ``rnd`` is the move's PCG32. ``tree``
        (one tree): the kept tree it grows (``uct_search``, ``CompiledSearch.trees``)."""
        if self._multitree is not None:
            return self._multitree_trees(state, trees, budget, rng, rnd)
        if self._compiled is not None:
            result, depth_total, depth_max = self._compiled.trees(state, self.player, trees, budget, rnd,
                                                                  tree)
            self.engine_used = "compiled"
        else:
            sampler, pcg = self.sampler, uses_pcg(self.sampler)
            result, depth_total, depth_max = [], 0, 0
            if self.settings.rollout == "MAST":
                tr.mast_decay(*self.mast, self.settings.mast_gamma)
            for _ in range(trees):
                world = sampler(state, self.player, rnd if pcg else rng)
                stats = search_world(world, budget, self.uct_c, rnd, self.scale, self.rollout_policy,
                                     self.engine, self._runners, self.settings, self.mast, tree)
                result.append(stats)
                depth_total += stats.depth_total
                depth_max = max(depth_max, stats.depth_max)
            used = sorted({t.engine for t in result})
            self.engine_used = "+".join(used)
        if "cpp" in self.engine_used:  # C++ MCTSBot does not report its tree depths
            self.last_search_info = {"mean_depth": float("nan"), "max_depth": -1}
        else:
            self.last_search_info = {"mean_depth": depth_total / (trees * budget),
                                     "max_depth": int(depth_max)}
        return result


    def _multitree_trees(self, state, trees, budget, rng, rnd) -> list[RootStats]:
        """``trees`` under MultiTree: each a search of ``budget`` iterations on one world sampled
        first (``MultiTreeRunner``), the root player's root as a tree's statistics."""
        runner, result = self._multitree, []
        world_rng = rnd if uses_pcg(self.sampler) else rng
        for _ in range(trees):
            rows = runner.search(state, self.player, budget, rnd, fresh=False, sampler=self.sampler,
                                 world_rng=world_rng)
            stats = RootStats((a, nw) for a, nw in rows.items() if nw[0] > 0)
            stats.engine, stats.bounds, stats.iterations = runner.engine, runner.last_bounds, budget
            stats.rm_average = runner.last_rm_average  # RegretMatching's root average, else None
            result.append(stats)
        self.engine_used, self.last_search_info = runner.engine, runner.last_info
        return result


def choose_final(stats: RootStats, final: str, legal, rnd, settings: MCTSSettings = DEFAULT):
    """Highest mean (final="mean") or most visits among visited legal actions; random ties.

    With final="visits", a known terminal outcome (``stats.outcomes``) ranks first. Under
    ``settings.tree_policy`` EXP3, TAG's final choice instead: a sample from the root's EXP3
    potentials over ``legal`` in its order (``common.exp3_final``; ``stats.bounds`` the tree's
    reward bounds). Under RegretMatching, a sample from the root's average strategy
    (``stats.rm_average``, ``common.rm_final``).
    """
    if settings.tree_policy == "RegretMatching":
        actions, average = stats.rm_average
        return rm_final(actions, average, rnd)
    if settings.tree_policy == "EXP3":
        counts = [stats.get(a, (0, 0.0)) for a in legal]
        return exp3_final(list(legal), [n for n, _ in counts], [w for _, w in counts], stats.bounds,
                          settings.fpu, rnd)
    legal = set(legal)
    visited = {a: s for a, s in stats.items() if s[0] > 0 and a in legal}
    if not visited:
        return sorted(legal)[rnd.randrange(len(legal))]
    if final == "mean":
        return argmax_random({a: w / n for a, (n, w) in visited.items()}, rnd)
    outcomes = getattr(stats, "outcomes", {})
    return argmax_random({a: (outcomes.get(a, 0.0), n) for a, (n, _) in visited.items()}, rnd)


class OLMCTSBot(pyspiel.Bot):
    """OL-MCTS: open-loop UCT on ONE world sampled from the player's information set.

    Args:
      game, player: the game (loaded, turn-based) and this bot's seat (0 .. players - 1).
      iterations: budget per move (an int >= 1).
      uct_c: exploration constant K, a finite number >= 0 (on [0,1] rewards when
        normalize_rewards).
      rng: numpy Generator / SeedSequence / int seed >= 0 (required). Each move draws one seed
        from it for the move's PCG32, which every draw of the search uses.
      sampler: a callable ``sampler(state, player, rng)``; defaults to the game kernel's
        determinizer where there is a kernel, else ``sampler_for(game)``.
      normalize_rewards: map returns to [0, 1] with the game's utility bounds.
      final: "mean" or "visits" (under ``tree_policy`` "EXP3" or "RegretMatching" TAG's sample
        instead, ``choose_final``).
      rollout_policy: a callable ``policy(state, rnd) -> action`` or None (uniform random).
      engine: "python", "cpp" (C++ MCTSBot per world; C++ games only), "compiled" (the numba
        engine; games with a kernel) or "auto": compiled where a kernel covers the game's
        parameters (and no custom sampler or rollout_policy); else Python on a
        Python-registered game or with per-game settings; else, per tree, C++ when the
        budget is >= 10 x the world's legal actions, Python below
        (``infosets.search.engine_choice``). The choice and its reason are logged once at INFO
        on that module's logger; ``engine_used`` holds it from construction.
      rollout_length, heuristic, max_depth, fpu, explore_epsilon: per-game settings (see
        ``infosets.search.settings``); a kernel game's heuristic is its kernel's.
      tree_policy, backup, max_backup_threshold, rollout, mast_gamma, mast_boltzmann: TAG's
        settings (issue 56; ``infosets.search.settings``), in both engines; the defaults are
        today's search. MAST's table lives with the bot (shared by a move's trees).
        ``opponent_tree`` "MultiTree": one tree per player on the one sampled world
        (``search.multitree_runner``), the move from this player's tree.
    Raises:
      ValueError: a bad argument (one line naming it), before any compute; and from
        ``search``/``step`` a ``state`` that is not this bot's decision (chance, terminal or
        another player to move).
    """

    def __init__(self, game, player, *, iterations=4000, uct_c=1.0, rng, sampler=None,
                 normalize_rewards=True, final="mean", rollout_policy=None, engine="python",
                 rollout_length=None, heuristic=None, max_depth=None, fpu=None, explore_epsilon=0.0,
                 **tag):
        validate_common(game, player, iterations, uct_c, final, engine, sampler, rollout_policy)
        settings = game_settings(game, engine, rollout_length, heuristic, max_depth, fpu, explore_epsilon,
                                 **tag)
        self._rng = as_generator(rng)
        pyspiel.Bot.__init__(self)
        self.game, self.player = game, player
        self.iterations, self.uct_c, self.final = int(iterations), float(uct_c), final
        self.scale = RewardScale(game, normalize_rewards)
        self.rollout_policy = rollout_policy
        self._planner = OpenLoopPlanner(game, player, self.uct_c, self.scale, sampler, rollout_policy,
                                        engine, settings, budget=self.iterations, bot="OLMCTSBot")
        self.engine, self.sampler, self.settings = self._planner.engine, self._planner.sampler, settings
        self.last_search_info = None
        self._kept = KeptTree() if settings.reuse_tree else None  # TAG's reuseTree (search.reuse)

    @property
    def engine_used(self) -> str:
        """The engine that ran the last search ("python", "cpp", "compiled"; "cpp+python"
        when engine="auto" chose per tree); before the first search, the engine planned at
        construction (``infosets.search.engine_choice``; "cpp+python" where the budget rule
        decides per tree)."""
        return self._planner.engine_used

    def search(self, state, rnd=None) -> RootStats:
        """{action: (visits, summed reward)} of the root of one tree on one sampled world.
        ``state`` must be a decision of this bot's player (``ValueError`` naming it else)."""
        check_decision_state(state, self.player)
        rnd = python_random(self._rng) if rnd is None else rnd
        if self._kept is not None:
            self_only = self.settings.opponent_tree == "SelfOnly"
            compiled = self._planner._compiled
            reroot = reroot_open_loop if compiled is None else compiled.reroot(self.iterations)
            self._kept.move_to(state, self.player, self_only, reroot)
        stats = self._planner.trees(state, 1, self.iterations, self._rng, rnd, self._kept)[0]
        self.last_search_info = self._planner.last_search_info
        return stats

    def step_with_policy(self, state):
        check_decision_state(state, self.player)  # before the move's seed is drawn
        rnd = python_random(self._rng)
        stats = self.search(state, rnd)
        action = choose_final(stats, self.final, state.legal_actions(), rnd, self.settings)
        total = sum(n for n, _ in stats.values()) or 1
        return [(a, n / total) for a, (n, _) in stats.items()], action

    def step(self, state):
        return self.step_with_policy(state)[1]

    def provides_policy(self):
        return True

    def restart_at(self, state):
        if self._kept is not None:
            self._kept.clear()

    def inform_action(self, state, player_id, action):
        pass


def game_settings(game, engine, rollout_length, heuristic, max_depth, fpu, explore_epsilon,
                  **tag) -> MCTSSettings:
    """Validated settings; a rollout cut-off defaults to the game kernel's heuristic. The
    compiled engine scores cut-offs with its kernel's heuristic only. ``tag``: TAG's settings
    (``settings.TAG_FIELDS``); a rollout termination the game has no counter for is refused
    (``kernels.rollout_counter``)."""
    kernel = kernel_for(game)
    if engine == "compiled" and heuristic is not None:
        raise ValueError("heuristic: the compiled engine scores cut-offs with its kernel's "
                         "heuristic; pass heuristic=None (or use engine='python')")
    settings = make_settings(rollout_length, max_depth, fpu, explore_epsilon, heuristic,
                             kernel_heuristic(game, kernel) if kernel is not None else None, **tag)
    rollout_counter(game, settings.rollout_termination, engine != "python")  # refuses a game without it
    return settings
