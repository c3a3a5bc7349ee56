"""MultiTree in the bots: one front over both engines of TAG's multi-tree search.

The PI-MCTS paper (Ravichandran, Goodman and Lucas, "PIMCTS evaluation in tabletop games",
docs/papers/pimcts_aggregation.md) runs TAG's agent with ``opponentTreePolicy = MultiTree`` for
Stratego, Dominion, Poker and Colt Express (docs/tag_agents.md, sections 1 and 7). TAG builds a
``MultiTreeNode`` (GAIGResearch/TabletopGames c4d7687cd6162405806a0dd1e1b31804f8a81b93,
``src/main/java/players/mcts/MCTSPlayer.java``, ``createRootNode``) whatever its information
setting, so:

* ``ISMCTSBot`` (TAG's ``Information_Set``): every iteration on a fresh world drawn from the
  root player's information state (``fresh=True``);
* ``OLMCTSBot``: every iteration on one world sampled before the search (``fresh=False``),
  chance after it fresh, as its OneTree search does;
* ``PIMCTSBot`` runs OneTree instead, at every D (``pimcts.PIMCTSBot``), as the paper code's
  PI agent (``Perfect_Information``, switched to OneTree in ``MCTSParams._reset``).

``MultiTreeRunner`` runs the Python reference (``search.multitree``) or the compiled twin
(``search.multitree_nb``), draw for draw alike, and hands back the root player's root
statistics as sums, the root player's reward bounds (EXP3's final choice) and the tree sizes.
"""

from __future__ import annotations

import math

import numpy as np

from infosets.games.kernels import rollout_counter
from infosets.search.multitree import VALID, N, W, check_settings, multitree_search
from infosets.search.multitree_nb import CompiledMultiTree


class MultiTreeRunner:
    """MultiTree searches for one bot: ``engine`` "python" or "compiled" (``kernel`` the game's,
    needed by "compiled"), the bot's ``uct_c``, reward ``scale`` and ``settings``. The MAST
    table (``settings.rollout`` MAST) lives here, across the bot's decisions, decayed at each.

    After ``search``: ``last_bounds`` (the root player's tree's reward bounds),
    ``last_availability`` {action: availability at the root}, ``last_sizes`` (nodes per
    player's tree), ``last_info`` (the bots' ``last_search_info``: tree depths are not
    tracked by this search, so NaN and -1, with the tree sizes) and, under RegretMatching,
    ``last_rm_average`` (the root's legal actions and summed distributions, ``common.rm_final``).
    """

    def __init__(self, game, kernel, engine: str, uct_c: float, scale, settings, rollout_policy=None):
        check_settings(settings, uct_c)
        if rollout_policy is not None:
            raise ValueError(
                "rollout_policy: MultiTree rolls out by its settings' rollout (random or MAST); pass none"
            )
        if engine not in ("python", "compiled"):
            raise ValueError(f"engine: MultiTree runs on 'python' or 'compiled', got {engine!r}")
        self.engine, self.uct_c, self.scale, self.settings = engine, float(uct_c), scale, settings
        self.num_players = game.num_players()
        self._counter = rollout_counter(game, settings.rollout_termination, engine == "compiled")  # END_*
        self._front = CompiledMultiTree(kernel, self.uct_c, scale, settings) if engine == "compiled" else None
        shape = (self.num_players, game.num_distinct_actions()) if settings.rollout == "MAST" else (1, 1)
        self.mast = (np.zeros(shape, np.int64), np.zeros(shape, np.float64))
        self.last_bounds = (math.inf, -math.inf)
        self.last_availability: dict[int, int] = {}
        self.last_sizes: list[int] = []
        self.last_info: dict | None = None
        self.last_rm_average = None

    def search(self, state, player: int, iterations: int, rnd, *, fresh: bool, sampler, world_rng):
        """{action: (visits, reward sum)} at ``player``'s root, over the actions legal there at
        some visit, in action order, after ``iterations`` iterations from ``state``. ``rnd``: the
        move's PCG32; ``fresh``: a world per iteration (else one for all); ``sampler(state,
        player, world_rng)`` draws the Python engine's worlds (the compiled engine draws the
        kernel's from ``rnd``)."""
        if self._front is not None:
            self._front.search(state, player, iterations, rnd, fresh=fresh)
            rows, bounds = self._front.last_rows[player], self._front.last_bounds[player]
            stats = {
                int(a): (int(rows[a, N]), float(rows[a, W]), int(rows[a, VALID]))
                for a in np.flatnonzero(rows[:, VALID])
            }
            sizes = self._front.last_sizes
            self.last_rm_average = self._front.last_rm_average
        else:
            trees = self._python(state, player, iterations, rnd, fresh, sampler, world_rng)
            root = trees.roots[player]
            stats = {a: (r[N], r[W], r[VALID]) for a, r in sorted(root.stats.items())}
            bounds, sizes = trees.bounds[player], trees.sizes()
            self.last_rm_average = trees.rm_average
        self.last_bounds = (float(bounds[0]), float(bounds[1]))
        self.last_availability = {a: s[2] for a, s in stats.items()}
        self.last_sizes = list(sizes)
        self.last_info = {"mean_depth": math.nan, "max_depth": -1, "tree_sizes": self.last_sizes}
        return {a: (s[0], s[1]) for a, s in stats.items()}

    def _python(self, state, player, iterations, rnd, fresh, sampler, world_rng):
        """The Python reference's trees: on fresh worlds, or on one world sampled first."""
        mast = self.mast if self.settings.rollout == "MAST" else None
        if not fresh:
            state = sampler(state, player, world_rng)
            sampler = _copy_of
        return multitree_search(
            state,
            player,
            iterations,
            rnd,
            num_players=self.num_players,
            sampler=sampler,
            settings=self.settings,
            uct_c=self.uct_c,
            scale=self.scale,
            mast=mast,
            world_rng=world_rng,
            counter=self._counter,
        )


def _copy_of(world, player, rng):
    """The one world of an OL-MCTS search, copied for an iteration (no draw)."""
    return world.clone()
