"""Plumbing for tabletop ports whose worlds are rebuilt by replaying a sampled history.

Used by ``colt_express`` and ``monopoly_deal`` (Ravichandran, Goodman and Lucas,
docs/papers/pimcts_aggregation.md). It extends ``_tabletop`` in two ways:

* **Replayed worlds.** The kernel gives ``sampled_history(player, rng)``: the real action
  history with every outcome hidden from ``player`` (an opponent's private draws, an
  opponent's face-down choices) redrawn. The world is that history applied to a fresh state,
  so its ``history()`` rebuilds it exactly and the game engine checks every move on the way.
* **Tensors.** The kernel describes its observation and information-state tensors as named
  pieces (``tensor_pieces(perfect_recall)`` -> list of (name, shape)) and fills them
  (``fill_tensor(dict_of_views, player, perfect_recall)``). ``TensorObserver`` lays the pieces
  out in order in one flat float32 vector; the game type sets ``provides_*_tensor``.
"""

from __future__ import annotations

import numpy as np
import pyspiel

from infosets.games import _tabletop as tt


def make_game_type(short_name: str, long_name: str, min_players: int, max_players: int,
                   parameter_specification: dict) -> pyspiel.GameType:
    """The tabletop game type with observation and information-state tensors provided."""
    return pyspiel.GameType(
        short_name=short_name,
        long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max_players,
        min_num_players=min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameter_specification,
    )


class TensorObserver:
    """OpenSpiel PyObserver over a kernel's named tensor pieces (see the module docstring)."""

    def __init__(self, kernel_factory, iig_obs_type, params):
        if params:
            raise ValueError(f"params: observer parameters must be empty, got {params}")
        self.perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        pieces = kernel_factory().tensor_pieces(self.perfect_recall)
        sizes = [int(np.prod(shape)) for _, shape in pieces]
        self.tensor = np.zeros(sum(sizes), np.float32)
        self.dict = {}
        index = 0
        for (name, shape), size in zip(pieces, sizes):
            self.dict[name] = self.tensor[index:index + size].reshape(shape)
            index += size

    def set_from(self, state, player):
        self.tensor.fill(0)
        state.kernel.fill_tensor(self.dict, int(player), self.perfect_recall)

    def string_from(self, state, player):
        if self.perfect_recall:
            return state.kernel.information_state_string(player)
        return state.kernel.observation_string(player)


class ReplayGame(tt.TabletopGame):
    """A tabletop game whose states resample by replay and whose observers give tensors."""

    def new_initial_state(self):
        return ReplayState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return TensorObserver(self.new_kernel, iig_obs_type, params)


class ReplayState(tt.TabletopState):
    """pyspiel state whose ``resample_from_infostate`` replays a sampled history."""

    def resample_from_infostate(self, player_id, probability_sampler):
        """A world consistent with ``player_id``'s information state, rebuilt from its history.

        The hidden outcomes are redrawn by ``kernel.sampled_history`` (seeded by
        ``probability_sampler``); the returned state is a fresh state with that history applied
        (so ``world.history()`` replays to ``world``).
        """
        tt._check_player(player_id, self.get_game().num_players())
        return replay(self.get_game(),
                      self.kernel.sampled_history(player_id, tt.SamplerRng(probability_sampler)))


def replay(game: pyspiel.Game, actions: list[int]) -> pyspiel.State:
    """A fresh state of ``game`` with ``actions`` applied (each checked for legality)."""
    state = game.new_initial_state()
    for action in actions:
        state.apply_action(action)
    return state


def sample_world(state: ReplayState, player: int, rng) -> ReplayState:
    """A world drawn for ``player`` (``rng``: numpy Generator or anything with ``random()``).

    Returns a new pyspiel state, rebuilt from its sampled history, with the same
    information state for ``player``.
    """
    tt._check_player(player, state.get_game().num_players())
    tt.check_rng(rng)
    return replay(state.get_game(), state.kernel.sampled_history(player, rng))


def register(game_type: pyspiel.GameType, game_class) -> None:
    """Register with pyspiel (once) and give infosets' determinizers the replay sampler."""
    if game_type.short_name not in pyspiel.registered_names():
        pyspiel.register_game(game_type, game_class)
    from infosets.games import determinizers  # local: avoid import-order coupling
    determinizers.register_determinizer(game_type.short_name, lambda game: sample_world)


def leader_heuristic(scores: list[float], scale: float) -> list[float]:
    """TAG's ``LeaderHeuristic`` (own score minus the best other score) mapped into [0, 1].

    Player p gets ``0.5 + 0.5 * clip((s_p - max_{q != p} s_q) / scale, -1, 1)``: 0.5 for a tie
    with the leader, above 0.5 when leading, below when behind (same range as the win-share
    returns, so a rollout cut off at a non-terminal state backs up comparable values).
    """
    out = []
    for p, s in enumerate(scores):
        best_other = max(scores[q] for q in range(len(scores)) if q != p)
        margin = max(-1.0, min(1.0, (s - best_other) / scale))
        out.append(0.5 + 0.5 * margin)
    return out
