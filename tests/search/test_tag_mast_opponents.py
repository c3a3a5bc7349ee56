"""Random opponents in MAST rollouts (``MCTSSettings.mast_opponents``, issue 56; docs/tag_agents.md
sections 8-9): the authors' submission code (GAIGResearch/TabletopGames c6d074e66,
``players/mcts/MCTSParams.java`` ``oppModelType`` RANDOM; ``SingleTreeNode.rollout`` and
``advanceToTurnOfPlayer``) moves only the root player by MAST and the others uniformly at
random, recording every rollout move in the MAST table. A hand-worked rollout, the engines equal,
the default unchanged, and the paper's MAST rows asking for it."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest

import infosets.games  # noqa: F401  (registers our games)
from infosets.core.pcg32 import PCG32
from infosets.papers.pimcts_tag_agents import missing_settings, tag_agent_kwargs, tag_agent_row
from infosets.search.common import random_rollout
from infosets.search.ismcts import ISMCTSBot
from infosets.search.mcts import OLMCTSBot
from infosets.search.pimcts import PIMCTSBot
from infosets.search.settings import MCTSSettings
from kernel_checks import _both, decision_states


def _kuhn_after_deal():
    state = pyspiel.load_game("kuhn_poker").new_initial_state()
    state.apply_action(0)
    state.apply_action(1)
    return state


def test_hand_worked_rollout_moves_the_opponent_at_random_and_records_it():
    """Kuhn poker after the deal, a MAST table where both players' bet has mean 10 and pass is
    unseen (0), temperature 0.1: MAST bets with probability 1 / (1 + e^-100). Player 0 (the root)
    bets by MAST with the stream's first draw u0; player 1 then takes legal[int(u1 * 2)] with the
    second draw u1 (pass or bet at random), and both moves are recorded. With every player by MAST
    (the default) player 1 always bets."""
    mast_n, mast_w = np.zeros((2, 2), np.int64), np.zeros((2, 2))
    mast_n[:, 1], mast_w[:, 1] = 1, 10.0
    replies = {None: set(), 0: set()}
    for mast_player in replies:
        for seed in range(40):
            state, record = _kuhn_after_deal(), []
            random_rollout(
                state, PCG32(seed), None, None, (mast_n, mast_w, 0.1), record, mast_player=mast_player
            )
            assert state.is_terminal() and record[0] == (0, 1) and record[1][0] == 1
            if mast_player == 0:
                twin = PCG32(seed)
                twin.random()  # player 0's MAST draw
                assert record[1][1] == int(twin.random() * 2)
            replies[mast_player].add(record[1][1])
    assert replies == {None: {1}, 0: {0, 1}}


def test_setting_is_validated_in_one_line():
    assert MCTSSettings().mast_opponents == "MAST"
    assert MCTSSettings(rollout="MAST", mast_opponents="random").mast_opponents == "random"
    with pytest.raises(ValueError, match=r"^mast_opponents: ") as err:
        MCTSSettings(mast_opponents="RANDOM")
    assert "\n" not in str(err.value)


@pytest.mark.parametrize("bot_class", [OLMCTSBot, ISMCTSBot])
def test_the_opponents_random_moves_enter_the_mast_table(bot_class):
    """Leduc, player 0's search with random opponents: player 1's rollout moves are counted in
    the table all the same, and the search differs from the default's (every player by MAST)."""
    game = pyspiel.load_game("leduc_poker")
    state = decision_states(game, 1, seed=2, stop=0.4, uniform_chance=True)[0]
    player = state.current_player()
    roots = []
    for opponents in ("random", "MAST"):
        bot = bot_class(
            game,
            player,
            iterations=60,
            rng=1,
            engine="python",
            rollout="MAST",
            mast_opponents=opponents,
            mast_gamma=1.0,
        )
        roots.append(dict(bot.search(state)))
        table = bot.mast if bot_class is ISMCTSBot else bot._planner.mast
        assert table[0][1 - player].sum() > 0
    assert roots[0] != roots[1]


@pytest.mark.parametrize("name,positions", [("leduc_poker", 4), ("sushi_go(players=3)", 2)])
def test_compiled_equals_python_reference(name, positions):
    """Moves, root statistics and search info equal in OL-MCTS, PI-MCTS and IS-MCTS, with a cut
    rollout, SelfOnly (its opponents in the tree phase random too) and another tree policy."""
    game = pyspiel.load_game(name)
    options = [
        dict(),
        dict(rollout_length=3, rollout_count="moves"),
        dict(opponent_tree="SelfOnly"),
        dict(tree_policy="UCB_Tuned", mast_gamma=0.5),
    ]
    changed = 0
    for i, state in enumerate(decision_states(game, positions, seed=3, stop=0.4, uniform_chance=True)):
        option = {"rollout": "MAST", "mast_opponents": "random", **options[i % len(options)]}
        for bot_class, extra in (
            (OLMCTSBot, {}),
            (PIMCTSBot, {"determinizations": 2}),
            (ISMCTSBot, {"availability": (True, "expanded")[i % 2]}),
        ):
            python, compiled_ = _both(bot_class, game, state, 40, rng=i, **extra, **option)
            assert python == compiled_, (name, i, bot_class.__name__, option)
        as_default = _both(OLMCTSBot, game, state, 40, rng=i, **{**option, "mast_opponents": "MAST"})[0]
        changed += as_default != _both(OLMCTSBot, game, state, 40, rng=i, **option)[0]
    assert changed > 0  # the option acts


def test_mast_table_equal_across_a_bots_decisions():
    """A Leduc game where player 0's IS-MCTS bots (one per engine, gamma 0.5) make each decision:
    the same moves and the same MAST table after each."""
    game = pyspiel.load_game("leduc_poker")
    bots = [
        ISMCTSBot(
            game, 0, iterations=40, rng=7, engine=e, rollout="MAST", mast_gamma=0.5, mast_opponents="random"
        )
        for e in ("python", "compiled")
    ]
    gen = np.random.default_rng(1)
    state, decisions = game.new_initial_state(), 0
    while not state.is_terminal():
        if state.current_player() == 0:
            moves = [bot.step(state) for bot in bots]
            assert moves[0] == moves[1]
            width = bots[0].mast[0].shape[1]
            assert np.array_equal(bots[0].mast[0], bots[1]._compiled.mast_n[:, :width])
            assert np.array_equal(bots[0].mast[1], bots[1]._compiled.mast_w[:, :width])
            decisions += 1
            state.apply_action(moves[0])
        else:
            legal = state.legal_actions()
            state.apply_action(legal[gen.integers(len(legal))])
    assert decisions >= 1


def test_the_papers_mast_rows_ask_for_random_opponents():
    """Every MAST row (no tuned file sets oppModelType) runs with the submission code's RANDOM;
    the other rows pass nothing, and the setting is not reported missing."""
    rows = {
        ("exploding_kittens", 3): True,
        ("dominion", 3): True,
        ("colt_express", 3): True,
        ("monopoly_deal", 3): True,
        ("sushi_go", 3): False,
        ("seven_wonders", 3): False,
    }
    for (game, players), mast in rows.items():
        row = tag_agent_row(game, players)
        kw = tag_agent_kwargs(row, heuristic=None)
        assert kw.get("mast_opponents") == ("random" if mast else None), game
        assert "mast_opponents=random" not in missing_settings(row), game  # (MultiTree's pair aside)
    assert missing_settings(tag_agent_row("exploding_kittens", 3)) == []
