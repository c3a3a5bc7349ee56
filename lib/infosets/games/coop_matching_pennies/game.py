"""Cooperative Matching Pennies as an OpenSpiel game, short name ``coop_matching_pennies``.

The signalling game of Heymann & Lanctot, "Learning in Games with Progressive Hiding"
(AAMAS 2025; docs/papers/progressive_hiding.md), Figure 2 (lost in extraction; rules from
the reading notes): Nature tosses a fair coin (0 = heads, 1 = tails); Alice (player 0) sees it and
plays heads or tails; Bob (player 1) sees only Alice's move and plays heads, tails or pass.
Both players get 1 when Bob names Nature's coin, 0 when he names the other side, and
``pass_payoff`` (a constant slightly above 1/2 by default) when he passes. Passing is the best
reply to an uninformative Alice, so independent learners tend to stall there, while the
signalling equilibrium pays 1.
"""

from __future__ import annotations

import numpy as np
import pyspiel

GAME_NAME = "coop_matching_pennies"
HEADS, TAILS, PASS = 0, 1, 2
_NAMES = ("heads", "tails", "pass")
DEFAULT_PASS_PAYOFF = 0.55

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Cooperative Matching Pennies",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.IDENTICAL,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"pass_payoff": DEFAULT_PASS_PAYOFF},
)


class CoopMatchingPenniesGame(pyspiel.Game):
    """The game; parameter ``pass_payoff`` in [0, 1]."""

    def __init__(self, params=None):
        params = params or {}
        self.pass_payoff = float(params.get("pass_payoff", DEFAULT_PASS_PAYOFF))
        if not 0.0 <= self.pass_payoff <= 1.0:
            raise ValueError(f"pass_payoff: must be in [0, 1], got {self.pass_payoff}")
        info = pyspiel.GameInfo(
            num_distinct_actions=3, max_chance_outcomes=2, num_players=2,
            min_utility=0.0, max_utility=1.0, utility_sum=None, max_game_length=2)
        super().__init__(_GAME_TYPE, info, params)

    def new_initial_state(self):
        return CoopMatchingPenniesState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return CoopMatchingPenniesObserver(iig_obs_type)


class CoopMatchingPenniesState(pyspiel.State):
    """History: [coin, alice's move, bob's move]."""

    def __init__(self, game):
        super().__init__(game)
        self._pass_payoff = game.pass_payoff
        self.moves = []

    def current_player(self):
        if len(self.moves) == 0:
            return pyspiel.PlayerId.CHANCE
        if len(self.moves) == 3:
            return pyspiel.PlayerId.TERMINAL
        return len(self.moves) - 1

    def _legal_actions(self, player):
        return [HEADS, TAILS] if player == 0 else [HEADS, TAILS, PASS]

    def chance_outcomes(self):
        return [(HEADS, 0.5), (TAILS, 0.5)]

    def _apply_action(self, action):
        self.moves.append(action)

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            return f"coin:{_NAMES[action]}"
        return _NAMES[action]

    def is_terminal(self):
        return len(self.moves) == 3

    def returns(self):
        if not self.is_terminal():
            return [0.0, 0.0]
        coin, _, bob = self.moves
        value = self._pass_payoff if bob == PASS else float(bob == coin)
        return [value, value]

    def __str__(self):
        return " ".join(_NAMES[m] for m in self.moves)


class CoopMatchingPenniesObserver:
    """Alice observes the coin; Bob observes Alice's move (perfect recall for each)."""

    def __init__(self, iig_obs_type=None):
        self.tensor = np.zeros(4, np.float32)  # one-hot coin seen, one-hot alice move seen
        self.dict = {"coin": self.tensor[:2], "alice": self.tensor[2:]}

    def set_from(self, state, player):
        self.tensor.fill(0)
        moves = state.moves
        if player == 0 and len(moves) >= 1:
            self.tensor[moves[0]] = 1
        if player == 1 and len(moves) >= 2:
            self.tensor[2 + moves[1]] = 1

    def string_from(self, state, player):
        moves = state.moves
        if player == 0:
            return f"coin:{_NAMES[moves[0]]}" if moves else "coin:?"
        return f"alice:{_NAMES[moves[1]]}" if len(moves) >= 2 else "alice:?"


pyspiel.register_game(_GAME_TYPE, CoopMatchingPenniesGame)
