"""The frame of an exact world sampler: a plan per information state, then drawn histories
replayed with checks (pimcts_aggregation's Hearts worlds, docs/papers/pimcts_aggregation.md;
oh_hell's, used by the searches of every paper that plays it).

A game's sampler (``hearts_worlds.HeartsWorlds``, ``oh_hell_worlds.OhHellWorlds``,
``spades_worlds.SpadesWorlds``) says how to read an information state into a plan
(``new_plan``: the unseen cards, what the play reveals, exact counts) and from which action of
a drawn history on the plays start. The plan draws a full history (``draw_history(rng)``); this
frame replays it on a fresh state, checking every play's legality and the player's view at the
end (``view``: the information-state string, or the action-observation history of a game
without one), and draws again when either fails (each sampler's tests find no refusal;
``refused`` counts them). Plans are kept for the last ``cache_size`` information states, since
a search asks the same one many times.
"""

from __future__ import annotations

import abc
from collections import OrderedDict

import numpy as np
import pyspiel

from infosets.core.checks import check_game, check_sampler_call


class CheckedWorlds(abc.ABC):
    """``sampler(state, player, rng)``: exact worlds of one game, each replayed and checked."""

    GAME: str = ""  # the short name of the game served

    def __init__(self, game: pyspiel.Game, max_tries: int = 1000, cache_size: int = 16):
        check_game(game)
        name = game.get_type().short_name
        if name != self.GAME:
            raise ValueError(f"game: {type(self).__name__} serves '{self.GAME}', not '{name}'")
        self.game = game
        self._num_players = game.num_players()
        self.max_tries = max_tries
        self.refused = 0
        self._plans: OrderedDict = OrderedDict()
        self._cache_size = cache_size

    @abc.abstractmethod
    def new_plan(self, state: pyspiel.State, player: int):
        """What ``player``'s information state at ``state`` allows, with ``draw_history(rng)``
        (a full history of a consistent world)."""

    @abc.abstractmethod
    def first_play(self, plan, history: list[int]) -> int:
        """The index in ``history`` of its first play (the replay checks legality from there)."""

    def view(self, state: pyspiel.State, player: int) -> str:
        """What ``player`` knows at ``state``, compared between a world and the real state:
        the information-state string (a game without one overrides this)."""
        return state.information_state_string(player)

    def plan(self, state: pyspiel.State, player: int):
        key = (player, tuple(state.history()))
        plan = self._plans.get(key)
        if plan is None:
            plan = self.new_plan(state, player)
            self._plans[key] = plan
            if len(self._plans) > self._cache_size:
                self._plans.popitem(last=False)
        else:
            self._plans.move_to_end(key)
        return plan

    def __call__(self, state: pyspiel.State, player: int, rng: np.random.Generator) -> pyspiel.State:
        check_sampler_call(state, player, self._num_players)
        plan = self.plan(state, player)
        view = self.view(state, player)
        for _ in range(self.max_tries):
            history = plan.draw_history(rng)
            world = self._replay(history, self.first_play(plan, history))
            if world is not None and self.view(world, player) == view:
                return world
            self.refused += 1
        raise RuntimeError(f"{self.GAME} worlds: {self.max_tries} worlds in a row refused at a "
                           f"state of {len(state.history())} actions")

    def _replay(self, history, first_play: int):
        """The state ``history`` reaches, or None if a play from ``first_play`` on is illegal."""
        world = self.game.new_initial_state()
        for i, action in enumerate(history):
            if i >= first_play and action not in world.legal_actions():
                return None
            world.apply_action(action)
        return world
