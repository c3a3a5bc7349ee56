"""Information-set MCTS (single observer, availability counts, vector backup).

Follows the IS-MCTS baseline of Ravichandran, Goodman and Lucas, "PIMCTS evaluation in
tabletop games" (docs/papers/pimcts_aggregation.md; Cowling, Powley and Whitehouse 2012):
one tree holding every player's moves, nodes keyed by the mover's information state in the
sampled world, a fresh world each iteration, UCB with availability counts
``Q(a) + c sqrt(ln(avail(a)) / n(a))`` and each node maximising its own mover's reward.

Engines: ``"python"`` (``ISMCTSBot.search`` below, the readable specification) and
``"compiled"`` (``infosets.search.compiled.ismcts_tree`` on a game kernel: the same search
draw for draw, both drawing from one PCG32 per move); ``"auto"`` picks compiled where the
game has a kernel covering its parameters (``infosets.search.engine_choice``).
``make_cpp_ismcts_bot`` builds OpenSpiel's C++ ``ISMCTSBot`` for comparison (C++ games
only); it is a different algorithm in its details (raw returns, its own keys and final
policy), so ``"auto"`` never substitutes it.
"""

from __future__ import annotations

import math

import numpy as np
import pyspiel

from infosets.core.checks import check_game, check_int, check_real
from infosets.core.rng import as_generator
from infosets.games.determinizers import infostate_key, resample_sampler, sampler_for, uses_aoh_key
from infosets.games.hearts.worlds import in_passing
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
from infosets.search.engine_choice import ismcts_choice, log_choice
from infosets.search.mcts import check_search_args, game_settings
from infosets.search.multitree_runner import MultiTreeRunner
from infosets.search.reuse import KeptTree, reroot_move_keys

FINALS = ("mean", "visits", "visits_mean")
ENGINES = ("python", "compiled", "auto")
AVAILABILITIES = (True, False, "expanded")
NODE_KEYS = ("infostate", "moves")
REWARDS = ("returns", "heuristic")
CHANCE = int(pyspiel.PlayerId.CHANCE)
TERMINAL = int(pyspiel.PlayerId.TERMINAL)
NEG_INF = float("-inf")


class _Node:
    """Per-action statistics of one information-state node: [visits, reward sum, availability]
    (under TAG's settings also the sum of squared rewards and every player's reward sums, MaxMC;
    ``_tag_entry``); the node's visits and (TAG's settings) its mover's reward sum over them."""

    __slots__ = ("stats", "visits", "wsum")

    def __init__(self):
        self.stats: dict[int, list] = {}
        self.visits = 0
        self.wsum = 0.0


def _worlds(sampler, state, player, rng, iterations):
    """The ``iterations`` sampled worlds, in order: ``sampler(state, player, rng)`` each.

    For OpenSpiel's resampler the per-world seeds (one ``random_raw`` draw each, as in
    ``determinizers.resample_sampler``) are drawn in one batch: the same values from the
    same stream, without a Python call per draw.
    """
    if sampler is resample_sampler:
        seeds = (rng.bit_generator.random_raw(iterations) & 0x7FFFFFFF).tolist()
        resample, uniform = state.resample_from_infostate, pyspiel.UniformProbabilitySampler
        return (resample(player, uniform(seed, 0.0, 1.0)) for seed in seeds)
    return (sampler(state, player, rng) for _ in range(iterations))


def _tag_entry(entry):
    """``entry`` with TAG's statistics [.., sum of squared rewards, every player's reward sums
    (None until used)], added in place to an entry made by ``_select``."""
    if len(entry) == 3:
        entry.extend((0.0, None))
    return entry


class ISMCTSBot(pyspiel.Bot):
    """Single-observer IS-MCTS as a pyspiel.Bot. Variants are flags.

    Args:
      game: the pyspiel game (loaded, turn-based).
      player: the seat this bot plays (0 .. players - 1).
      iterations: iterations per move (one sampled world each), an int >= 1.
      uct_c: exploration constant, a finite number >= 0.
      rng: numpy Generator / SeedSequence / int seed >= 0 (required). Each search draws one
        seed from it for its PCG32, which chance, expansions, rollouts and kernel worlds draw
        from.
      sampler: a callable ``sampler(state, player, rng) -> world``; defaults to the game
        kernel's determinizer where there is a kernel, else ``sampler_for(game)``.
        A sampler may return worlds where ``player`` holds another information state: the
        root then behaves as a chance node over own information states.
      availability: UCB uses availability counts (True: an action's count starts the first
        time it is legal at its node), parent visits (False: plain UCT), or "expanded": counts
        start when the action is expanded and only expanded actions gain them (the
        belote_ismcts authors' code).
      normalize_rewards: rewards mapped to [0, 1] with the game's utility bounds.
      final: "mean" (highest mean reward), "visits" (most visited) or "visits_mean" (most
        visited, ties to the higher mean) for ``step``; remaining ties are broken uniformly
        at random (seeded). Under ``tree_policy`` "EXP3", TAG's sample from the root's EXP3
        potentials instead (``common.exp3_final``); under "RegretMatching", a sample from the
        root's average strategy (``common.rm_final``; ``last_rm_average``).
      rollout_policy: a callable ``policy(state, rnd) -> action`` for rollouts; uniform random
        if None.
      engine: "python", "compiled" (games with a kernel) or "auto": compiled where a kernel
        covers the game's parameters and there is no custom sampler or rollout_policy, else
        Python (``infosets.search.engine_choice``; logged once at INFO with its reason).
        ``engine_used`` holds that engine from construction, then the one that ran the last
        search; ``last_search_info`` holds the tree depths of the last search.
      rollout_length, heuristic, max_depth, fpu, explore_epsilon: per-game settings, as
        ``OLMCTSBot`` (see ``infosets.search.settings``).
      tree_policy, backup, max_backup_threshold, rollout, mast_gamma, mast_boltzmann: TAG's
        settings (issue 56), as ``OLMCTSBot``: N in UCB-Tuned is the action's availability
        count (the node's visits with ``availability=False``); the MAST table lives with the bot.
        ``opponent_tree`` "MultiTree": one tree per player on a fresh world each iteration (TAG's
        MultiTree under Information_Set; ``search.multitree_runner``), the move from this
        player's tree; it keeps ``availability``, ``node_key`` and ``reward`` at their defaults.
      node_key: "infostate" (a node is the mover's information state in the sampled world) or
        "moves" (a node is the sequence of player moves from the root, chance left out: the
        belote_ismcts tree, for games whose moves are public).
      reward: "returns" (a finished playout scores its returns) or "heuristic" (every playout
        is scored by the game's heuristic, finished or cut off; belote2p's is the card points
        won, the belote_ismcts authors' reward).
    Raises:
      ValueError: a bad argument (one line naming it), before any compute; and from
        ``search``/``step``/``policy`` a ``state`` that is not this bot's decision (chance,
        terminal or another player to move).
    """

    def __init__(self, game, player, *, iterations=1000, uct_c=1.0, rng, sampler=None,
                 availability=True, normalize_rewards=True, final="mean", rollout_policy=None,
                 engine="python", rollout_length=None, heuristic=None, max_depth=None, fpu=None,
                 explore_epsilon=0.0, node_key="infostate", reward="returns", **tag):
        check_search_args(game, player, iterations, uct_c, sampler, rollout_policy)
        if final not in FINALS:
            raise ValueError(f"final: must be one of {FINALS}, got {final!r}")
        if engine not in ENGINES:
            raise ValueError(f"engine: must be one of {ENGINES}, got {engine!r}")
        if not (isinstance(availability, (bool, np.bool_)) or availability == "expanded"):
            raise ValueError(f"availability: must be one of {AVAILABILITIES}, got {availability!r}")
        if node_key not in NODE_KEYS:
            raise ValueError(f"node_key: must be one of {NODE_KEYS}, got {node_key!r}")
        if reward not in REWARDS:
            raise ValueError(f"reward: must be one of {REWARDS}, got {reward!r}")
        kernel = kernel_for(game)
        custom = sampler is not None or rollout_policy is not None
        if engine == "compiled":
            require_kernel(game, None)
            if custom:
                raise ValueError("engine: 'compiled' draws worlds and rollouts in the kernel; "
                                 "pass no sampler and no rollout_policy (or use engine='python')")
        settings = game_settings(game, engine, rollout_length, heuristic, max_depth, fpu, explore_epsilon,
                                 **tag)
        if settings.rollout == "MAST" and rollout_policy is not None:
            raise ValueError("rollout: 'MAST' is the rollout policy; pass no rollout_policy")
        self._reward_heuristic = None
        if reward == "heuristic":
            self._reward_heuristic = settings.heuristic or (
                kernel_heuristic(game, kernel) if kernel is not None else None)
            if self._reward_heuristic is None:
                raise ValueError("reward: 'heuristic' needs a game heuristic and this game has none")
        choice = ismcts_choice(game, engine, kernel, custom)
        log_choice("ISMCTSBot", game, choice)
        engine = choice.engine
        self._rng = as_generator(rng)
        pyspiel.Bot.__init__(self)
        self.game = game
        self.player = player
        self.iterations = int(iterations)
        self.uct_c = float(uct_c)
        if sampler is None:
            sampler = kernel_sampler(game, kernel) if kernel is not None else sampler_for(game)
        self.sampler = sampler
        check_game(game)  # turn-based (after sampler_for: see mcts.check_search_args)
        self.availability = availability
        self.node_key = node_key
        self.reward = reward
        self.last_root_availability: dict[int, int] = {}
        self.scale = RewardScale(game, normalize_rewards)
        self.final = final
        self.rollout_policy = rollout_policy
        self.settings = settings
        self._counter = rollout_counter(game, settings.rollout_termination)  # END_TURN/END_ROUND
        self.engine = engine
        self.engine_used = engine  # planned; then the engine that ran the last search
        self.last_search_info = None
        self._compiled = (CompiledSearch(game, kernel, self.uct_c, self.scale, settings)
                          if engine == "compiled" else None)
        self._aoh = uses_aoh_key(game)
        self.nodes: dict[str, _Node] = {}
        # TAG's settings (issue 56): the search's reward bounds and the bot's MAST table.
        self._tag = not settings.tag_default
        self._self_only = settings.opponent_tree == "SelfOnly"
        self._bounds = [math.inf, -math.inf]
        shape = (game.num_players(), game.num_distinct_actions()) if settings.rollout == "MAST" else (1, 1)
        self.mast = (np.zeros(shape, np.int64), np.zeros(shape, np.float64))
        # MAST's player under mast_opponents "random" (the others move at random), else None.
        random_opponents = settings.rollout == "MAST" and settings.mast_opponents == "random"
        self._mast_player = player if random_opponents else None
        self.last_rm_average = None  # RegretMatching: (root legal actions, summed distributions)
        self._multitree = None  # TAG's MultiTree: one tree per player (search.multitree_runner)
        if settings.opponent_tree == "MultiTree":
            custom_tree = (availability == "expanded" or not availability, node_key, reward)
            if custom_tree != (False, "infostate", "returns"):
                raise ValueError("opponent_tree: 'MultiTree' keys each tree by its owner's moves, counts "
                                 "availability and scores returns; keep availability, node_key, reward")
            self._multitree = MultiTreeRunner(game, kernel, engine, self.uct_c, self.scale, settings,
                                              rollout_policy)
        self._kept = KeptTree() if settings.reuse_tree else None  # TAG's reuseTree (_kept_nodes)

    def _kept_nodes(self, state) -> dict:
        """The nodes a search under ``reuse_tree`` starts from (TAG's ``newRootNode``,
        ``search.reuse``). Keyed by moves (``node_key`` "moves", SelfOnly): the subtree under the
        moves since the last decision (every player's, or the owner's under SelfOnly), keyed
        from its root. Keyed by information state: the whole table, if its walk is possible:
        the nodes a future iteration can reach are the current root's descendants, the nodes
        TAG's subtree keeps (every other key is another history's, with perfect recall and
        observed moves), so keeping the rest changes no draw and saves renumbering. No match
        (no node at the root's key): a fresh tree and fresh reward bounds."""
        kept, by_moves = self._kept, self.node_key == "moves" or self._self_only
        root_key = self._key(state, self.player)
        kept.move_to(state, self.player, self._self_only,
                     reroot_move_keys if by_moves else lambda nodes, _: nodes if root_key in nodes else None)
        self._bounds = kept.bounds
        return {} if kept.root is None else kept.root

    # -- the search ----------------------------------------------------------------------
    def _key(self, world, mover):
        if self.node_key == "moves" or self._self_only:
            return ()
        return infostate_key(world, mover) if self._aoh else world.information_state_string(mover)

    def search(self, state) -> dict[int, tuple[int, float]]:
        """Run a fresh search from ``state``; return {action: (visits, mean reward)} at the root.
        ``state`` must be a decision of this bot's player (``ValueError`` naming it else)."""
        check_decision_state(state, self.player)
        python_reuse = self._kept is not None and self._compiled is None
        self.nodes = nodes = self._kept_nodes(state) if python_reuse else {}
        if self._multitree is not None:
            return self._search_multitree(state)
        if self._compiled is not None:
            return self._search_compiled(state, None)
        rnd = python_random(self._rng)
        self.engine_used = "python"
        sampler, player = self.sampler, self.player
        depth_total = depth_max = 0
        worlds = (_worlds(sampler, state, player, self._rng, self.iterations) if not uses_pcg(sampler)
                  else (sampler(state, player, rnd) for _ in range(self.iterations)))
        settings = self.settings
        mast = settings.rollout == "MAST"
        if self._tag:
            if self._kept is None:
                self._bounds = [math.inf, -math.inf]
            if mast:
                tr.mast_decay(*self.mast, settings.mast_gamma)
        rm = None
        if settings.tree_policy == "RegretMatching":
            rm = RootAverage(state.legal_actions(), settings.fpu)
        for world in worlds:
            path, mover = self._descend(world, nodes, rnd)
            depth = len(path)
            depth_total += depth
            if depth > depth_max:
                depth_max = depth
            record = [] if mast else None
            returns = self._playout(world, mover, rnd, record)
            self._backup(path, returns)
            if rm is not None and path and rm.due(path[0][0].visits):
                rm.add(*_rm_root(path[0][0], rm.legal))
            if mast:  # MAST Both: the rollout's moves, then the tree's
                record.extend((m, a) for _, _, m, a in path)
                tr.mast_update(*self.mast, [p for p, _ in record], [a for _, a in record], returns)
        self.last_search_info = {"mean_depth": depth_total / self.iterations, "max_depth": depth_max}
        if self._kept is not None:
            self._kept.root, self._kept.bounds = nodes, self._bounds
        root = nodes.get(self._key(state, player))
        if rm is not None:
            self.last_rm_average = rm.finish(*_rm_root(root if root is not None else _Node(), rm.legal))
        if root is None:
            self.last_root_availability = {}
            return {}
        legal = set(state.legal_actions())
        self.last_root_availability = {a: e[2] for a, e in root.stats.items() if a in legal}
        return {a: (e[0], e[1] / e[0] if e[0] else 0.0) for a, e in root.stats.items() if a in legal}

    def _descend(self, world, nodes, rnd):
        """The tree part of one iteration on the sampled ``world``: chance drawn, a node per
        decision (found or added in ``nodes``), one selection step each, until an expansion,
        the depth bound or the end. Returns (path of (node, action entry, mover), the current
        player where it stopped). Under SelfOnly (``MCTSSettings.opponent_tree``) the nodes are
        the root player's, keyed by its own moves, and the other players move by the rollout
        policy (``common.advance_to_turn``), also after the expansion."""
        current_player, apply_action = world.current_player, world.apply_action
        self_only = self._self_only
        max_depth, by_moves, aoh = self.settings.max_depth, self.node_key == "moves" or self_only, self._aoh
        mast = (*self.mast, self.settings.mast_boltzmann) if self.settings.rollout == "MAST" else None
        if self._mast_player is not None:
            mast = None  # mast_opponents "random": the other players move at random
        tag = self._tag
        path = []
        moves_key = ()  # the node's key when nodes are keyed by moves
        # current_player() is TERMINAL (< 0, != CHANCE) at the end, CHANCE at chance nodes.
        mover = current_player()
        while mover != TERMINAL:
            if mover == CHANCE:
                apply_action(sample_chance(world, rnd))
                mover = current_player()
                continue
            if self_only and mover != self.player:
                mover = advance_to_turn(world, self.player, rnd, self.rollout_policy, mast)
                continue
            if max_depth is not None and len(path) >= max_depth:
                break
            if by_moves:
                key = moves_key
            else:
                key = infostate_key(world, mover) if aoh else world.information_state_string(mover)
            node = nodes.get(key)
            if node is None:
                node = nodes[key] = _Node()
            action, expand = self._select(node, world.legal_actions(), rnd)
            moves_key = (moves_key, action)
            path.append((node, node.stats[action], mover) if not tag else
                        (node, node.stats[action], mover, action))
            apply_action(action)
            mover = current_player()
            if expand:
                break
        if self_only:
            mover = advance_to_turn(world, self.player, rnd, self.rollout_policy, mast)
        return path, mover

    def _select(self, node, legal, rnd):
        """One selection step at ``node``: count availability, score the tried actions by UCB
        (or every action by FPU), then take an epsilon move, the best score or an untried
        action at random. Returns (action, expand). Under a TAG tree policy
        (``settings.tree_policy``, ``common.tag_choice``; twin ``compiled._ismcts_select``) the
        actions' statistics are gathered in legal order instead, N the availability (the node's
        visits without availability counts), and ``tag_choice`` decides."""
        settings, availability, c = self.settings, self.availability, self.uct_c
        fpu, epsilon = settings.fpu, settings.explore_epsilon
        from_expansion = availability == "expanded"
        ucb, tag = settings.tree_policy == "UCB", self._tag
        log, sqrt = math.log, math.sqrt
        stats = node.stats
        chosen = ucb and epsilon > 0.0 and rnd.random() < epsilon  # an epsilon move: no UCB
        # One pass: count availability, collect untried actions (or score them by FPU) and,
        # while there are none, score the tried ones by UCB (in legal order, first max wins).
        untried = None
        best, action = NEG_INF, legal[0]  # raw rewards can be below -1
        visits = node.visits
        log_parent = log(visits) if visits else 0.0
        gathered = []  # TAG's policies: (n, w, q, N) per legal action
        for a in legal:
            entry = stats.get(a)
            if entry is None:
                entry = stats[a] = [0, 0.0, 0 if from_expansion else 1]
                if tag:
                    entry.extend((0.0, None))  # _tag_entry
                n = 0
            else:
                n = entry[0]
                if n or not from_expansion:
                    entry[2] += 1
            if not ucb:
                gathered.append((n, entry[1], entry[3], entry[2] if availability else visits))
            elif n == 0:
                if fpu is not None:
                    if fpu > best:
                        best, action = fpu, a
                elif untried is None:
                    untried = [a]
                else:
                    untried.append(a)
            elif untried is None:
                score = entry[1] / n + c * sqrt((log(entry[2]) if availability else log_parent) / n)
                if score > best:
                    best, action = score, a
        if not ucb:
            n, w, q, avail = zip(*gathered)
            action = legal[tag_choice(settings.tree_policy, list(n), list(w), list(q), list(avail), visits,
                                      node.wsum, self._bounds[0], self._bounds[1], c, fpu, epsilon, rnd)]
            expand = stats[action][0] == 0
        elif chosen:
            action = legal[rnd.randrange(len(legal))]
            expand = stats[action][0] == 0
        elif fpu is not None:
            expand = stats[action][0] == 0
        else:
            expand = untried is not None
            if expand:
                action = untried[rnd.randrange(len(untried))]
        if from_expansion and stats[action][0] == 0:
            stats[action][2] = 1
        return action, expand

    def _playout(self, world, mover, rnd, record=None):
        """Roll ``world`` out (``random_rollout``, by MAST recording its moves in ``record``
        under MAST; cut after the settings' rollout length) and score it: the
        reward heuristic if set, else the returns at the end or the game heuristic at a cut."""
        if mover != TERMINAL:
            settings = self.settings
            mast = (*self.mast, settings.mast_boltzmann) if settings.rollout == "MAST" else None
            mover = random_rollout(world, rnd, self.rollout_policy, settings.rollout_length, mast, record,
                                   settings.rollout_count == "steps", settings.rollout_termination,
                                   self._counter, self._mast_player)
        if self._reward_heuristic is not None:
            return self._reward_heuristic(world)
        return world.returns() if mover == TERMINAL else self.settings.heuristic(world)

    def _backup(self, path, returns):
        """Add one visit and the mover's reward (scaled to [0, 1] if normalising) along ``path``.

        Under TAG's settings (twin ``compiled._ismcts_backup``) other than UCB with the mean
        backup, from the leaf up: each (node, action)'s visit, mover's reward and its square, the
        node's reward sum, and under MaxMC every player's sums and the value passed up
        (``tag_rules.max_mc_value`` over the node's actions in action order). The search's
        reward bounds are updated with the stored rewards (``tag_rules.update_reward_bounds``)."""
        scale, settings = self.scale, self.settings
        if self._tag and (settings.tree_policy != "UCB" or settings.backup != "mean"):
            if scale.normalize:
                low, span = scale.low, scale.span
                vec = [(r - low) / span for r in returns]
            else:
                vec = list(returns)
            self._bounds = list(tr.update_reward_bounds(self._bounds[0], self._bounds[1], vec))
            maxmc, players = settings.backup == "MaxMC", len(vec)
            if self._self_only and path:  # TAG's processResultsForParanoidOrSelfOnly
                vec = [vec[path[0][2]]] * players
            for i in range(len(path) - 1, -1, -1):
                node, entry, mover, action = path[i]
                _tag_entry(entry)
                node.visits += 1
                entry[0] += 1
                r = vec[mover]
                entry[1] += r
                entry[3] += r * r
                node.wsum += r
                if maxmc:
                    if entry[4] is None:
                        entry[4] = [0.0] * players
                    for p in range(players):
                        entry[4][p] += vec[p]
                    if i > 0:
                        acts = sorted(node.stats)
                        rows = [_tag_entry(node.stats[a]) for a in acts]
                        w_all = [e[4] if e[4] is not None else [0.0] * players for e in rows]
                        vec = tr.max_mc_value(vec, [e[0] for e in rows], w_all, mover, acts.index(action),
                                              node.visits, settings.max_backup_threshold).tolist()
            return
        if self._tag:
            path = [step[:3] for step in path]
        if scale.normalize:
            low, span = scale.low, scale.span
            for node, entry, mover in path:
                node.visits += 1
                entry[0] += 1
                entry[1] += (returns[mover] - low) / span
        else:
            for node, entry, mover in path:
                node.visits += 1
                entry[0] += 1
                entry[1] += returns[mover]

    def _search_multitree(self, state):
        """``search`` under MultiTree (``MultiTreeRunner``, a fresh world each iteration): the
        root player's root over ``state``'s legal actions, as {action: (visits, mean)}."""
        rnd = python_random(self._rng)
        runner = self._multitree
        rows = runner.search(state, self.player, self.iterations, rnd, fresh=True, sampler=self.sampler,
                             world_rng=rnd if uses_pcg(self.sampler) else self._rng)
        self.engine_used, self.last_search_info = runner.engine, runner.last_info
        self._bounds = list(runner.last_bounds)
        self.last_rm_average = runner.last_rm_average  # RegretMatching's root average, else None
        legal = set(state.legal_actions())
        self.last_root_availability = {a: runner.last_availability[a] for a in rows if a in legal}
        return {a: (n, w / n if n else 0.0) for a, (n, w) in rows.items() if a in legal}

    def _search_compiled(self, state, array):
        rnd = python_random(self._rng)
        tree = None
        if self._kept is not None and state is not None:  # reuse_tree (not from a kernel array)
            by_moves = self.node_key == "moves" or self._self_only
            reroot = self._compiled.ismcts_reroot(state, self.player, by_moves, self.iterations)
            self._kept.move_to(state, self.player, self._self_only, reroot)
            tree = self._kept
        root, depth_total, depth_max = self._compiled.ismcts(state, self.player, self.iterations,
                                                             self.availability, rnd, self.node_key,
                                                             self.reward, array, tree)
        self.last_root_availability = self._compiled.last_root_availability
        if self._tag:
            self._bounds = list(self._compiled.last_root_bounds)
            self.last_rm_average = self._compiled.last_rm_average
        self.engine_used = "compiled"
        self.last_search_info = {"mean_depth": depth_total / self.iterations, "max_depth": depth_max}
        return root

    def search_array(self, array: np.ndarray) -> dict[int, tuple[int, float]]:
        """``search`` from a state array of the game's kernel (compiled engine only), for
        callers that hold kernel positions (``belote_ismcts.BeloteISMCTSBot``)."""
        if self._compiled is None or self._multitree is not None:
            raise ValueError("engine: search_array needs the compiled engine (engine='compiled') "
                             "and a single tree (not opponent_tree='MultiTree')")
        return self._search_compiled(None, array)

    def final_action(self, root_stats: dict[int, tuple[int, float]]):
        """The move ``final`` picks from root statistics (ties uniformly at random, seeded by
        the bot's generator); None if no action was visited."""
        return self._choose(root_stats, python_random(self._rng))

    def _choose(self, root_stats, rnd):
        visited = {a: s for a, s in root_stats.items() if s[0] > 0}
        if not visited:
            return None
        if self.settings.tree_policy == "RegretMatching":  # TAG's final choice (common.rm_final)
            return rm_final(*self.last_rm_average, rnd)
        if self.settings.tree_policy == "EXP3":  # TAG's final choice (common.exp3_final)
            actions = sorted(root_stats)  # the root's legal actions seen, in legal order
            return exp3_final(actions, [root_stats[a][0] for a in actions],
                              [root_stats[a][0] * root_stats[a][1] for a in actions], self._bounds,
                              self.settings.fpu, rnd)
        if self.final == "visits_mean":
            return argmax_random({a: (s[0], s[1]) for a, s in visited.items()}, rnd)
        index = 1 if self.final == "mean" else 0
        return argmax_random({a: s[index] for a, s in visited.items()}, rnd)

    # -- pyspiel.Bot ---------------------------------------------------------------------
    def policy(self, state) -> dict[int, float]:
        """Normalised root visit counts after a fresh search."""
        return _normalised_visits(self.search(state), state)

    def step_with_policy(self, state):
        root = self.search(state)
        policy = _normalised_visits(root, state)
        action = self.final_action(root)
        if action is None:
            legal = state.legal_actions()
            action = legal[int(self._rng.integers(len(legal)))]
        return list(policy.items()), action

    def step(self, state):
        return self.step_with_policy(state)[1]

    def provides_policy(self):
        return True

    def restart_at(self, state):
        self.nodes = {}
        if self._kept is not None:
            self._kept.clear()

    def inform_action(self, state, player_id, action):
        pass


def _rm_root(root, legal):
    """RegretMatching: the root node's statistics for ``common.RootAverage`` over ``legal``:
    its actions' visits and reward sums, its visits and reward sum (twin
    ``compiled._ismcts_rm_root``)."""
    stats = root.stats
    n = [stats[a][0] if a in stats else 0 for a in legal]
    return n, [stats[a][1] if a in stats else 0.0 for a in legal], root.visits, root.wsum


def _normalised_visits(root, state):
    total = sum(v for v, _ in root.values())
    if total == 0:
        legal = state.legal_actions()
        return {a: 1.0 / len(legal) for a in legal}
    return {a: v / total for a, (v, _) in root.items()}


CPP_FINALS = {"visits": pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
              "mean": pyspiel.ISMCTSFinalPolicyType.MAX_VALUE,
              "normalized_visits": pyspiel.ISMCTSFinalPolicyType.NORMALIZED_VISIT_COUNT}


def make_cpp_ismcts_bot(game, *, iterations=1000, uct_c=1.0, seed, final="mean",
                        rollouts=1) -> pyspiel.Bot:
    """OpenSpiel's C++ ISMCTSBot, seeded (for comparison; engine="cpp").

    Differences from ``ISMCTSBot``: raw (unnormalised) returns, OpenSpiel's own
    resampling (``resample_from_infostate``, so only games that implement it), and its own
    node keys and final-policy rules.

    Args:
      game: a loaded, turn-based C++ game.
      iterations: an int >= 1; uct_c: a finite number >= 0; seed: an int (taken modulo
        2**31 - 1); final: one of ``CPP_FINALS``; rollouts: random rollouts per leaf, an int
        >= 1.
    Raises:
      ValueError: a bad argument (one line naming it), before the bot is built.
    """
    check_game(game)
    if is_python_game(game):
        raise ValueError(f"game: engine='cpp' needs a C++ game; '{game.get_type().short_name}' is "
                         "Python-registered (OpenSpiel 2.0.2's C++ bots crash on it), use engine='python'")
    if final not in CPP_FINALS:
        raise ValueError(f"final: must be one of {tuple(CPP_FINALS)}, got {final!r}")
    check_int(iterations, "iterations", lo=1)
    check_real(uct_c, "uct_c", lo=0.0)
    check_int(rollouts, "rollouts", lo=1)
    seed = check_int(seed, "seed") % (2**31 - 1)
    evaluator = pyspiel.RandomRolloutEvaluator(rollouts, seed)
    bot = pyspiel.ISMCTSBot(seed, evaluator, float(uct_c), int(iterations), -1, CPP_FINALS[final],
                            False, False)
    return _HeartsPassGuard(bot) if game.get_type().short_name == "hearts" else bot


class _HeartsPassGuard(pyspiel.Bot):
    """OpenSpiel's C++ ISMCTSBot on hearts, refusing a step in the passing phase with one line:
    there it crashes the process (segmentation fault, docs/openspiel.md). Past the passing it
    is the C++ bot, call for call."""

    def __init__(self, bot: pyspiel.Bot):
        pyspiel.Bot.__init__(self)
        self._bot = bot

    def _check(self, state):
        if in_passing(state):
            raise ValueError("state: OpenSpiel 2.0.2's C++ ISMCTSBot crashes the process in hearts' "
                             "passing phase; pass the cards another way (our ISMCTSBot plays it)")

    def step(self, state):
        self._check(state)
        return self._bot.step(state)

    def step_with_policy(self, state):
        self._check(state)
        return self._bot.step_with_policy(state)

    def restart_at(self, state):
        self._bot.restart_at(state)

    def inform_action(self, state, player_id, action):
        self._bot.inform_action(state, player_id, action)

    def provides_policy(self):
        return self._bot.provides_policy()
