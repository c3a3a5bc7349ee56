"""Open-loop UCT on one sampled world (OL-MCTS), the per-world kernel of PI-MCTS.

Follows Ravichandran, Goodman and Lucas, "PIMCTS evaluation in tabletop games" (NOTES.md
slug ``pimcts_aggregation``): OL-MCTS samples one world from the decision player's
information set and runs open-loop UCT on it (nodes are action sequences; chance outcomes
after the root are redrawn every iteration). Defaults: rewards in [0, 1], c = 1, rollouts to
the end, final move by highest mean.

Two engines run the per-world tree:
* ``"python"``: ``uct_search`` below (any game, including Python-registered ones).
* ``"cpp"``: OpenSpiel's C++ ``MCTSBot.mcts_search`` (C++ games only). Where it differs:
  it uses raw returns, so c is scaled by the utility span (which leaves every UCB argmax
  unchanged); it spends the first iteration expanding the root (no child visit); it expands
  all children of a leaf at once (shuffled) and evaluates the leaf, not a new child.
  The final choice and the aggregation stay ours (we read the root children's
  ``explore_count`` and ``total_reward``, and the ``outcome`` C++ records for a terminal
  child: C++ ranks a known outcome before visits, and so do the visit-count finals here).
* ``"auto"``: C++ when the tree's budget is >= AUTO_CPP_MIN_RATIO x the legal actions (the
  lost iteration is then negligible), Python otherwise and on Python-registered games.
"""

from __future__ import annotations

import math

import numpy as np
import pyspiel

from infosets.games.determinizers import sampler_for
from infosets.search.state_protocol import (
    RewardScale,
    argmax_random,
    is_python_game,
    python_random,
    sample_chance,
)

ENGINES = ("python", "cpp", "auto")
NEG_INF = float("-inf")
# engine="auto" runs a per-world tree in C++ only when its budget is at least this many times
# the number of legal actions. C++ MCTSBot spends a tree's first iteration expanding the root
# (no child visit), which at a few iterations per tree (large D) removes a large share of the
# budget (D = 100 at B = 200: half). Our Python UCT gives every iteration to a child.
AUTO_CPP_MIN_RATIO = 10
FINALS = ("mean", "visits")
CHANCE = int(pyspiel.PlayerId.CHANCE)
TERMINAL = int(pyspiel.PlayerId.TERMINAL)



class RootStats(dict):
    """Root statistics of one tree: {action: (visits, summed reward of the root player)}.

    ``outcomes`` maps a root action whose child is terminal and whose outcome the engine
    recorded (the C++ engine does) to the root player's raw return there. The visit-count
    finals rank a known outcome first, unknown counting as 0, as C++ ``MCTSBot`` does.
    """

    outcomes: dict = {}


def uct_search(world, iterations: int, uct_c: float, rnd, scale: RewardScale,
               rollout_policy=None) -> RootStats:
    """Open-loop UCT from ``world`` (a decision node); returns the root children's statistics.

    Each node stores [visits, reward sum of the player who chose it, children, that player,
    cached view]. Selection is UCB1 with the parent's visits, an untried legal action is
    expanded at random, then a rollout plays to the end.

    Before the first chance node of an iteration the state at a node is a fixed function of
    its action path, so the node caches (current player, legal actions, returns if
    terminal) and the world is cloned and replayed only when a state is really needed
    (chance, an uncached node, the rollout). Results and random draws are unchanged.
    """
    log, sqrt, randrange, rand = math.log, math.sqrt, rnd.randrange, rnd.random
    normalize, low, span = scale.normalize, scale.low, scale.span
    clone = world.clone
    root = [0, 0.0, {}, -1, None]
    for _ in range(iterations):
        node = root
        path = []
        state = None  # materialised lazily: clone of world + the actions so far
        actions = []
        deterministic = True  # no chance node drawn yet in this iteration
        expanded = False
        while True:
            view = node[4] if deterministic else None
            if view is None:
                if state is None:
                    state = clone()
                    for a in actions:
                        state.apply_action(a)
                mover = state.current_player()
                if mover == TERMINAL:
                    returns = state.returns()
                    if deterministic:
                        node[4] = (TERMINAL, None, returns)
                    break
                if mover == CHANCE:
                    state.apply_action(sample_chance(state, rnd))
                    deterministic = False
                    continue
                legal = state.legal_actions()
                if deterministic:
                    node[4] = (mover, legal, None)
            else:
                mover, legal, returns = view
                if mover == TERMINAL:
                    break
            children = node[2]
            # One pass: collect untried actions and, while there are none, score the
            # children by UCB1 (in legal order, first max wins). Children imply visits.
            log_parent = log(node[0]) if children else 0.0
            untried = None
            best, best_child = NEG_INF, node  # raw rewards can be below -1
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
            if untried is not None:
                action = untried[randrange(len(untried))]
                child = children[action] = [0, 0.0, {}, mover, None]
                path.append(child)
                expanded = True
            else:
                if best_child is node:
                    # No score beat -1 (raw rewards): the stale action is replayed on the
                    # real state, as before this cache existed; stop trusting the cache.
                    deterministic = False
                node = best_child
                path.append(node)
            if state is None:
                actions.append(action)
            else:
                state.apply_action(action)
            if expanded:
                break
        if expanded:
            if state is None:
                state = clone()
                for a in actions:
                    state.apply_action(a)
            # Rollout (as random_rollout, inlined).
            current_player, apply_action = state.current_player, state.apply_action
            mover = current_player()
            while mover != TERMINAL:
                if mover == CHANCE:
                    apply_action(sample_chance(state, rnd))
                elif rollout_policy is None:
                    legal = state.legal_actions()
                    apply_action(legal[int(rand() * len(legal))])
                else:
                    apply_action(rollout_policy(state, rnd))
                mover = current_player()
            returns = state.returns()
        root[0] += 1
        if normalize:
            for nd in path:
                nd[0] += 1
                nd[1] += (returns[nd[3]] - low) / span
        else:
            for nd in path:
                nd[0] += 1
                nd[1] += returns[nd[3]]
    return {a: (ch[0], ch[1]) for a, ch in root[2].items()}


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


def search_world(world, iterations, uct_c, rng, scale, rollout_policy, engine,
                 runners: dict | None = None) -> RootStats:
    """One per-world tree with either engine; consumes ``rng`` identically for both.

    ``runners`` caches one C++ runner per budget (seeded from the first call's stream).
    """
    if engine == "auto":
        engine = "cpp" if (not is_python_game(world.get_game()) and
                           iterations >= AUTO_CPP_MIN_RATIO * len(world.legal_actions())) else "python"
    if engine == "cpp":
        runner = runners.get(iterations) if runners is not None else None
        if runner is not None:
            rng.integers(0, 2**63 - 1)  # the draw python_random would make: same stream, no Random
            return runner.search(world)
        seed = python_random(rng).randrange(2**31 - 1)
        if runners is None:
            return cpp_uct_search(world, iterations, uct_c, seed, scale)
        runner = runners[iterations] = CppTreeRunner(world.get_game(), iterations, uct_c, seed, scale)
        return runner.search(world)
    return uct_search(world, iterations, uct_c, python_random(rng), scale, rollout_policy)


def validate_common(game, player, iterations, uct_c, final, engine):
    if not 0 <= player < game.num_players():
        raise ValueError(f"player: must be in [0, {game.num_players() - 1}], got {player}")
    if not isinstance(iterations, (int, np.integer)) or iterations < 1:
        raise ValueError(f"iterations: must be an int >= 1, got {iterations!r}")
    if not uct_c >= 0:
        raise ValueError(f"uct_c: must be >= 0, got {uct_c!r}")
    if final not in FINALS:
        raise ValueError(f"final: must be one of {FINALS}, got {final!r}")
    check_engine(game, engine)


def choose_final(stats: RootStats, final: str, legal, rnd):
    """Highest mean (final="mean") or most visits among visited legal actions; random ties.

    With final="visits", a known terminal outcome (``stats.outcomes``) ranks first.
    """
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
      game, player: the game and this bot's seat.
      iterations: budget per move (>= 1).
      uct_c: exploration constant (on [0,1] rewards when normalize_rewards).
      rng: numpy Generator / SeedSequence / int (required).
      sampler: ``sampler(state, player, rng)``; defaults to ``sampler_for(game)``.
      normalize_rewards: map returns to [0, 1] with the game's utility bounds.
      final: "mean" or "visits".
      rollout_policy: ``policy(state, rnd) -> action`` or None (uniform random).
      engine: "python" or "cpp" (C++ MCTSBot per world; C++ games only).
    """

    def __init__(self, game, player, *, iterations=4000, uct_c=1.0, rng, sampler=None,
                 normalize_rewards=True, final="mean", rollout_policy=None, engine="python"):
        from infosets.search.ismcts import as_generator
        validate_common(game, player, iterations, uct_c, final, engine)
        self._rng = as_generator(rng)
        pyspiel.Bot.__init__(self)
        self.game, self.player = game, player
        self.iterations, self.uct_c, self.final, self.engine = int(iterations), float(uct_c), final, engine
        self.sampler = sampler if sampler is not None else sampler_for(game)
        self.scale = RewardScale(game, normalize_rewards)
        self.rollout_policy = rollout_policy
        self._runners: dict = {}

    def search(self, state) -> RootStats:
        """{action: (visits, summed reward)} of the root of one tree on one sampled world."""
        world = self.sampler(state, self.player, self._rng)
        return search_world(world, self.iterations, self.uct_c, self._rng, self.scale,
                            self.rollout_policy, self.engine, self._runners)

    def step_with_policy(self, state):
        stats = self.search(state)
        action = choose_final(stats, self.final, state.legal_actions(), python_random(self._rng))
        total = sum(n for n, _ in stats.values()) or 1
        return [(a, n / total) for a, (n, _) in stats.items()], action

    def step(self, state):
        return self.step_with_policy(state)[1]

    def provides_policy(self):
        return True

    def restart_at(self, state):
        pass

    def inform_action(self, state, player_id, action):
        pass
