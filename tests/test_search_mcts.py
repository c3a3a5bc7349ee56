"""OL-MCTS: tactics on the perfect-information control, both engines, bad input."""

import random

import pyspiel
import pytest

import infosets.games  # noqa: F401
from infosets.search.mcts import OLMCTSBot, choose_final, uct_search
from infosets.search.state_protocol import RewardScale


def ttt(moves):
    state = pyspiel.load_game("tic_tac_toe").new_initial_state()
    for move in moves:
        state.apply_action(move)
    return state


@pytest.mark.parametrize("engine", ["python", "cpp"])
def test_takes_the_win_and_blocks(engine):
    game = pyspiel.load_game("tic_tac_toe")
    win = ttt([0, 3, 1, 4])          # x: 0 1, o: 3 4 -> x wins at 2
    block = ttt([0, 4, 8, 2])        # x: 0 8, o: 4 2 -> x must block 6
    assert OLMCTSBot(game, 0, iterations=1000, rng=0, engine=engine).step(win) == 2
    assert OLMCTSBot(game, 0, iterations=2000, rng=0, engine=engine).step(block) == 6


def test_python_and_cpp_trees_agree_on_values():
    game = pyspiel.load_game("tic_tac_toe")
    state = ttt([0, 3, 1, 4])
    scale = RewardScale(game, True)
    ours = uct_search(state, 3000, 1.0, random.Random(0), scale)
    from infosets.search.mcts import cpp_uct_search
    theirs = cpp_uct_search(state, 3000, 1.0, 0, scale)
    assert ours[2][1] / ours[2][0] == pytest.approx(1.0)
    assert theirs[2][1] / theirs[2][0] == pytest.approx(1.0)
    assert sum(n for n, _ in ours.values()) == 3000


def test_open_loop_chance_after_root_is_redrawn():
    # Leduc: the public card is still to come; a single world keeps it random (open loop).
    game = pyspiel.load_game("leduc_poker")
    state = game.new_initial_state()
    for action in (0, 3, 2, 2):  # deal, check... player 0 and 1 call -> public card chance
        if state.is_chance_node() or action in state.legal_actions():
            state.apply_action(action)
    bot = OLMCTSBot(game, state.current_player(), iterations=300, rng=1)
    stats = bot.search(state)
    assert sum(n for n, _ in stats.values()) == 300
    assert all(0 <= w / n <= 1 for n, w in stats.values())


def test_final_rules_and_random_ties():
    stats = {0: (10, 9.0), 1: (30, 15.0), 2: (10, 9.0)}
    assert choose_final(stats, "visits", [0, 1, 2], random.Random(0)) == 1
    picks = {choose_final(stats, "mean", [0, 1, 2], random.Random(s)) for s in range(20)}
    assert picks == {0, 2}
    assert choose_final(stats, "mean", [1], random.Random(0)) == 1  # only legal actions


def test_bad_input():
    game = pyspiel.load_game("tic_tac_toe")
    with pytest.raises(ValueError, match="^iterations:"):
        OLMCTSBot(game, 0, iterations=0, rng=0)
    with pytest.raises(ValueError, match="^engine:"):
        OLMCTSBot(game, 0, rng=0, engine="java")
    with pytest.raises(ValueError, match="^engine: 'cpp' needs a C\\+\\+ game"):
        OLMCTSBot(pyspiel.load_game("trick_game"), 0, rng=0, engine="cpp")
    with pytest.raises(ValueError, match="^rng:"):
        OLMCTSBot(game, 0, rng=None)
