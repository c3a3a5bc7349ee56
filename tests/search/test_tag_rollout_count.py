"""TAG's rollout counting (``MCTSSettings.rollout_count``; issue 56, docs/tag_agents.md section 7
"Rollout counting", from GAIGResearch/TabletopGames ``players/mcts/SingleTreeNode.rollout`` /
``finishRollout`` at c4d7687cd: the rollout's length counts the players' actions, chance being
inside TAG's forward model): "moves" cuts after that many player actions, "steps" (today's)
after that many actions of any kind; the Python reference equal to the compiled engine."""

from __future__ import annotations

import pyspiel
import pytest

import infosets.games  # noqa: F401  (registers our games)
from infosets.core.pcg32 import PCG32
from infosets.search.common import random_rollout
from infosets.search.ismcts import ISMCTSBot
from infosets.search.mcts import OLMCTSBot
from infosets.search.pimcts import PIMCTSBot
from infosets.search.settings import MCTSSettings
from kernel_checks import _both, decision_states


def test_rollout_count_is_refused_in_one_line():
    with pytest.raises(ValueError, match=r"^rollout_count: must be one of") as err:
        MCTSSettings(rollout_count="ticks")
    assert "\n" not in str(err.value)
    assert not MCTSSettings(rollout_count="moves").tag_default


@pytest.mark.parametrize("seed", range(4))
def test_moves_count_the_players_actions_only(seed):
    """Leduc from its start: the two deals are chance. A limit of 2 steps plays the deals only; a
    limit of 2 moves plays the deals and two bets."""
    game = pyspiel.load_game("leduc_poker")
    steps = game.new_initial_state()
    random_rollout(steps, PCG32(seed), None, 2)
    assert len(steps.history()) == 2 and not steps.is_chance_node()
    moves = game.new_initial_state()
    random_rollout(moves, PCG32(seed), None, 2, count_chance=False)
    assert len(moves.history()) == 4


@pytest.mark.parametrize("name", ["leduc_poker", "sushi_go(players=3)"])
def test_compiled_equals_python_reference(name):
    game = pyspiel.load_game(name)
    states = decision_states(game, 3, seed=6, stop=0.4, uniform_chance=True)
    for i, state in enumerate(states):
        option = [dict(rollout_count="moves", rollout_length=2),
                  dict(rollout_count="moves", rollout_length=1, rollout="MAST", tree_policy="UCB_Tuned"),
                  dict(rollout_count="moves", rollout_length=3, opponent_tree="SelfOnly")][i % 3]
        for bot_class, extra in ((OLMCTSBot, {}), (PIMCTSBot, {"determinizations": 2}), (ISMCTSBot, {})):
            python, compiled_ = _both(bot_class, game, state, 40, rng=i, **option, **extra)
            assert python == compiled_, (name, i, bot_class.__name__, option)
    length = 1 if name == "leduc_poker" else 40  # (sushi_go deals after a round: 27 picks)
    steps = [_both(ISMCTSBot, game, state, 40, rng=0, rollout_length=length)[0] for state in states]
    moves = [_both(ISMCTSBot, game, state, 40, rng=0, rollout_length=length, rollout_count="moves")[0]
             for state in states]
    assert steps != moves  # the setting acts
