"""PI-MCTS: D open-loop UCT trees on D sampled worlds, joined by an aggregation rule.

Reproduces the agent of Ravichandran, Goodman and Lucas, "PIMCTS evaluation in tabletop
games" (docs/papers/pimcts_aggregation.md), as in the authors' TAG code: D independent
trees, each on its own world sampled from the decision player's information set, each with
budget floor(B / D). Aggregation:

* ``TotalVisits``: argmax of the summed visits (after the summed known terminal outcome,
  which only the C++ trees record: C++ ``MCTSBot`` ranks it first);
* ``AverageValue``: argmax of summed reward / summed visits (the framework default);
* ``SingleVote``: each tree votes for its highest-mean action; most votes wins.

Ties are broken at random; an action legal in only some worlds is aggregated over those
trees only. With D = 1 the bot is OL-MCTS (``infosets.search.mcts.OLMCTSBot``) move for move
given the same seed (TotalVisits then matches OL-MCTS with final="visits"), except under
``opponent_tree`` "MultiTree", which this bot runs as OneTree (``PIMCTSBot``).
"""

from __future__ import annotations

import dataclasses

import pyspiel

from infosets.core.checks import check_int
from infosets.core.rng import as_generator
from infosets.search.common import (
    RewardScale,
    argmax_random,
    check_decision_state,
    python_random,
)
from infosets.search.mcts import OpenLoopPlanner, game_settings, validate_common

AGGREGATIONS = ("TotalVisits", "AverageValue", "SingleVote")


def aggregate(trees: list[dict], aggregation: str, legal, rnd):
    """Choose an action from per-tree root statistics {action: (visits, reward sum)}.

    Args:
      trees: one dict per world.
      aggregation: one of AGGREGATIONS.
      legal: the legal actions in the real state (the only candidates).
      rnd: random.Random for tie-breaks.
    Returns:
      (action, table) with table {action: score used}.
    """
    if aggregation not in AGGREGATIONS:
        raise ValueError(f"aggregation: must be one of {AGGREGATIONS}, got {aggregation!r}")
    legal = list(legal)
    legal_set = set(legal)
    visits, rewards, votes, outcomes = {}, {}, {}, {}
    for tree in trees:
        known = getattr(tree, "outcomes", {})
        for a, (n, w) in tree.items():
            if a in legal_set and n > 0:
                visits[a] = visits.get(a, 0) + n
                rewards[a] = rewards.get(a, 0.0) + w
                if a in known:
                    outcomes[a] = outcomes.get(a, 0.0) + known[a]
        if aggregation == "SingleVote":
            means = {a: w / n for a, (n, w) in tree.items() if a in legal_set and n > 0}
            if means:
                vote = argmax_random(means, rnd)
                votes[vote] = votes.get(vote, 0) + 1
    if not visits:
        action = legal[rnd.randrange(len(legal))]
        return action, {}
    if aggregation == "TotalVisits":
        # A terminal outcome the engine knows (C++ records it) ranks first, as in C++ MCTSBot.
        table = {a: (outcomes.get(a, 0.0), n) for a, n in visits.items()} if outcomes else visits
    elif aggregation == "AverageValue":
        table = {a: rewards[a] / visits[a] for a in visits}
    else:
        table = votes
    return argmax_random(table, rnd), table


class PIMCTSBot(pyspiel.Bot):
    """PI-MCTS(D, aggregation) as a pyspiel.Bot.

    Args:
      game, player: the game and this bot's seat.
      iterations: total budget B per move (an int >= 1); each tree gets floor(B / D).
      determinizations: D, an int with 1 <= D <= iterations (a bool is not a count).
      aggregation: "TotalVisits", "AverageValue" or "SingleVote".
      game, player, uct_c, rng, sampler, normalize_rewards, rollout_policy, engine,
      rollout_length, heuristic, max_depth, fpu, explore_epsilon: as ``OLMCTSBot`` (one game's
      settings serve OL-MCTS, PI-MCTS and IS-MCTS alike). engine="auto" applies the budget
      rule to each tree's budget floor(B / D). ``engine_used`` (from construction: the
      planned engine, logged once at INFO with its reason) and ``last_search_info`` (tree
      depths over the D trees) describe the last search. TAG's settings (``tree_policy``,
      ``backup``, ``max_backup_threshold``, ``rollout``, ``mast_gamma``, ``mast_boltzmann``)
      as ``OLMCTSBot``; the D trees of a move share the bot's MAST table, one after the other.
      ``opponent_tree`` "MultiTree" runs as "OneTree" (``settings`` says so), at every D: the
      paper code's PI agent ran with ``Perfect_Information``, which ``MCTSParams._reset``
      switches to OneTree (docs/tag_agents.md, section 1); so at D = 1 on a MultiTree row this
      bot is OL-MCTS under OneTree, not the MultiTree OL-MCTS baseline.
    Raises:
      ValueError: a bad argument (one line naming it), before any compute; and from
        ``search``/``step`` a ``state`` that is not this bot's decision (chance, terminal or
        another player to move).
    """

    def __init__(self, game, player, *, iterations=4000, determinizations=1,
                 aggregation="AverageValue", uct_c=1.0, rng, sampler=None,
                 normalize_rewards=True, rollout_policy=None, engine="python",
                 rollout_length=None, heuristic=None, max_depth=None, fpu=None, explore_epsilon=0.0,
                 **tag):
        validate_common(game, player, iterations, uct_c, "mean", engine, sampler, rollout_policy)
        try:
            determinizations = check_int(determinizations, "determinizations", lo=1)
        except ValueError:  # the message the tests pin
            raise ValueError(f"determinizations: must be an int >= 1, got {determinizations!r}") from None
        if determinizations > iterations:
            raise ValueError(
                f"determinizations: must be <= iterations ({iterations}), got {determinizations}")
        if aggregation not in AGGREGATIONS:
            raise ValueError(f"aggregation: must be one of {AGGREGATIONS}, got {aggregation!r}")
        settings = game_settings(game, engine, rollout_length, heuristic, max_depth, fpu, explore_epsilon,
                                 **tag)
        if settings.opponent_tree == "MultiTree":  # the paper code's PI agent runs OneTree at every D
            settings = dataclasses.replace(settings, opponent_tree="OneTree")
        self._rng = as_generator(rng)
        pyspiel.Bot.__init__(self)
        self.game, self.player = game, player
        self.iterations, self.determinizations = int(iterations), determinizations
        self.aggregation, self.uct_c = aggregation, float(uct_c)
        self.scale = RewardScale(game, normalize_rewards)
        self.rollout_policy = rollout_policy
        self._planner = OpenLoopPlanner(game, player, self.uct_c, self.scale, sampler, rollout_policy,
                                        engine, settings, budget=self.iterations // determinizations,
                                        bot="PIMCTSBot")
        self.engine, self.sampler, self.settings = self._planner.engine, self._planner.sampler, settings
        self.last_search_info = None

    @property
    def engine_used(self) -> str:
        """The engine that ran the last search, or planned before it (see
        ``OLMCTSBot.engine_used``)."""
        return self._planner.engine_used

    def search(self, state, rnd=None) -> list[dict]:
        """Per-world root statistics, one dict per determinization. ``state`` must be a
        decision of this bot's player (``ValueError`` naming it else)."""
        check_decision_state(state, self.player)
        rnd = python_random(self._rng) if rnd is None else rnd
        budget = self.iterations // self.determinizations
        trees = self._planner.trees(state, self.determinizations, budget, self._rng, rnd)
        self.last_search_info = self._planner.last_search_info
        return trees

    def step_with_policy(self, state):
        check_decision_state(state, self.player)  # before the move's seed is drawn
        rnd = python_random(self._rng)
        trees = self.search(state, rnd)
        action, _ = aggregate(trees, self.aggregation, state.legal_actions(), rnd)
        visits = {}
        for tree in trees:
            for a, (n, _) in tree.items():
                visits[a] = visits.get(a, 0) + n
        total = sum(visits.values()) or 1
        return [(a, n / total) for a, n in visits.items()], action

    def step(self, state):
        return self.step_with_policy(state)[1]

    def provides_policy(self):
        return True

    def restart_at(self, state):
        pass

    def inform_action(self, state, player_id, action):
        pass
