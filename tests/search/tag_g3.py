"""Game G3 of docs/tag_agents.md section 1, the hand-worked game of the TAG search settings'
tests (SelfOnly, MultiTree, tree reuse; TAG's ``SingleTreeNode``/``MultiTreeNode`` at
GAIGResearch/TabletopGames c4d7687cd): P0 chooses a/b (actions 0/1), P1 c/d (2/3), P0 e/f
(4/5); P0 gets 1 iff its first move was a. Registered as ``python_tag_g3`` on import."""

from __future__ import annotations

import pyspiel

_G3_TYPE = pyspiel.GameType(
    short_name="python_tag_g3",
    long_name="TAG G3 (docs/tag_agents.md section 1)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.CONSTANT_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=False,
    provides_observation_tensor=False,
    parameter_specification={},
)
_G3_INFO = pyspiel.GameInfo(
    num_distinct_actions=6,
    max_chance_outcomes=0,
    num_players=2,
    min_utility=0.0,
    max_utility=1.0,
    utility_sum=1.0,
    max_game_length=3,
)


class G3State(pyspiel.State):
    def __init__(self, game):
        super().__init__(game)
        self.moves = []

    def current_player(self):
        return pyspiel.PlayerId.TERMINAL if len(self.moves) == 3 else len(self.moves) % 2

    def _legal_actions(self, player):
        return [2 * len(self.moves), 2 * len(self.moves) + 1]

    def _apply_action(self, action):
        self.moves.append(action)

    def _action_to_string(self, player, action):
        return "abcdef"[action]

    def is_terminal(self):
        return len(self.moves) == 3

    def returns(self):
        if not self.is_terminal():
            return [0.0, 0.0]
        first = 1.0 if self.moves[0] == 0 else 0.0
        return [first, 1.0 - first]

    def information_state_string(self, player=None):
        return str(self.moves)

    def __str__(self):
        return "".join("abcdef"[a] for a in self.moves)


class G3Game(pyspiel.Game):
    def __init__(self, params=None):
        super().__init__(_G3_TYPE, _G3_INFO, params or {})

    def new_initial_state(self):
        return G3State(self)


pyspiel.register_game(_G3_TYPE, G3Game)


def g3():
    """(G3, its initial state)."""
    game = pyspiel.load_game("python_tag_g3")
    return game, game.new_initial_state()
