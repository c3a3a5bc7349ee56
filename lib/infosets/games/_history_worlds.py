"""Ports whose sampled worlds rebuild from their history, with observation tensors.

Plumbing shared by the TAG ports ``poker_tag``, ``seven_wonders``, ``colt_express`` and
``monopoly_deal`` of the PI-MCTS study (Ravichandran, Goodman and Lucas,
docs/papers/pimcts_aggregation.md). It extends the kernel/adapter split of ``_tabletop`` in
two ways:

* **Worlds are histories.** A kernel records every action applied to it (chance outcomes
  included) in ``kernel.history``. ``kernel.world_history(player, rng)`` returns another
  action sequence that is legal from the initial state and gives ``player`` the same
  information state, drawn uniformly over such sequences (each port states what it
  redraws). ``kernel.resample`` replays that sequence on a fresh kernel, and the pyspiel
  state's ``resample_from_infostate`` replays it on a fresh pyspiel state, so a sampled
  world's ``history()`` rebuilds it exactly (unlike ``_tabletop``'s count-vector worlds).
  A game whose ``world_history`` is built move by move on a real kernel (poker_tag,
  seven_wonders) replays it unchecked; one whose sampler rewrites the real history
  (colt_express, monopoly_deal) sets ``HistoryGame.check_replay`` so that the engine checks
  every move of the replay.
* **Tensors.** The kernel declares its tensor pieces (``tensor_pieces(perfect_recall)``:
  ``(name, shape)`` pairs, fixed per game parameters) and fills them
  (``fill_tensor(player, perfect_recall, views)``); ``TensorObserver`` lays the pieces out
  one after the other in a float32 vector, so ``observation_tensor`` (perfect_recall False)
  and ``information_state_tensor`` (True) work for every OpenSpiel algorithm.
"""

from __future__ import annotations

import numpy as np
import pyspiel

from infosets.games import _tabletop as tt


def make_game_type(short_name: str, long_name: str, min_players: int, max_players: int,
                   parameter_specification: dict) -> pyspiel.GameType:
    """A sequential, explicit-chance, constant-sum (win shares) game type with tensors."""
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
    """OpenSpiel PyObserver over a kernel's tensor pieces (single-player private view).

    ``perfect_recall`` True gives the information-state tensor and string, False the
    observation tensor and string.
    """

    def __init__(self, game, iig_obs_type, params):
        if params:
            raise ValueError(f"observer params: must be empty, got {params}")
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        if (iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
                or not iig_obs_type.public_info):
            raise ValueError("iig_obs_type: only the single-player view (public info plus the "
                             "player's private info) is provided")
        self._perfect_recall = bool(iig_obs_type.perfect_recall)
        pieces = game.new_kernel().tensor_pieces(self._perfect_recall)
        sizes = [int(np.prod(shape)) for _, shape in pieces]
        self.tensor = np.zeros(sum(sizes), np.float32)
        self.dict = {}
        start = 0
        for (name, shape), size in zip(pieces, sizes):
            self.dict[name] = self.tensor[start:start + size].reshape(shape)
            start += size

    def set_from(self, state, player):
        self.tensor.fill(0.0)
        state.kernel.fill_tensor(int(player), self._perfect_recall, self.dict)

    def string_from(self, state, player):
        if self._perfect_recall:
            return state.kernel.information_state_string(int(player))
        return state.kernel.observation_string(int(player))


class HistoryState(tt.TabletopState):
    """pyspiel state whose sampled worlds are replayed histories (see module docstring)."""

    def resample_from_infostate(self, player_id, probability_sampler):
        """A world consistent with ``player_id``'s information state, rebuilt from its history.

        Drawn uniformly over the consistent worlds with ``probability_sampler()`` (floats in
        [0, 1), e.g. ``pyspiel.UniformProbabilitySampler(seed, 0., 1.)``).
        """
        tt._check_player(player_id, self.get_game().num_players())
        history = self.kernel.world_history(int(player_id), tt.SamplerRng(probability_sampler))
        return self.get_game().state_from_history(history)


class HistoryGame(tt.TabletopGame):
    """Tabletop game with history-replayed worlds and tensor observers."""

    check_replay = False  # True: a world's replay checks the legality of every move

    def new_initial_state(self):
        return HistoryState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return TensorObserver(self, iig_obs_type, params)

    def state_from_history(self, actions) -> HistoryState:
        """A fresh state after ``actions``, produced by a kernel of this game (checked move by
        move only where ``check_replay`` is set)."""
        state = HistoryState(self)
        state._checked = self.check_replay
        for action in actions:
            state.apply_action(int(action))
        state._checked = True
        return state


def sample_world(state: HistoryState, player: int, rng) -> HistoryState:
    """A world drawn uniformly over those consistent with ``player``'s information state.

    Args:
      state: a state of a ``HistoryGame`` (poker_tag, seven_wonders, colt_express,
        monopoly_deal).
      player: whose information state must be kept.
      rng: numpy Generator (or any object with ``random()``).
    Returns:
      a new pyspiel state, rebuilt from its own ``history()``.
    """
    tt._check_player(player, state.get_game().num_players())
    tt.check_rng(rng)
    return state.get_game().state_from_history(state.kernel.world_history(int(player), rng))


def register(game_type: pyspiel.GameType, game_class) -> None:
    """Register a game with pyspiel (once) and its history sampler with the determinizers."""
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
