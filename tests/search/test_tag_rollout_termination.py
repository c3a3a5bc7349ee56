"""TAG's rollout termination END_TURN / END_ROUND (``MCTSSettings.rollout_termination``; issue 56,
docs/tag_agents.md section 3, from GAIGResearch/TabletopGames ``players/mcts/SingleTreeNode.rollout``
/ ``finishRollout`` / ``advanceState`` at c4d7687cd): game T's hand-worked table in both engines,
the kernel counters the rules read (``infosets.games.kernels.rollout_counter``), the one-line
refusals, and the bots' END_TURN searches equal in the Python reference and the compiled engine."""

from __future__ import annotations

import types

import numba as nb
import numpy as np
import pyspiel
import pytest

import infosets.games  # noqa: F401  (registers our games)
from infosets.core.pcg32 import PCG32
from infosets.games import kernels
from infosets.games.hearts import kernel as hearts_kernel
from infosets.papers.pimcts_tag_agents import missing_settings, tag_agent_row
from infosets.search import compiled
from infosets.search import tag_rules as tr
from infosets.search.common import random_rollout
from infosets.search.ismcts import ISMCTSBot
from infosets.search.mcts import OLMCTSBot
from infosets.search.pimcts import PIMCTSBot
from infosets.search.settings import MCTSSettings
from kernel_checks import _both, decision_states

# --- game T (docs/tag_agents.md section 3) ---------------------------------------------------
# P0 and P1; a turn is two actions of its owner; a round is P0's turn then P1's; TAG's counters:
# the turn counter counts the turns of the round (reset to 0 when the round ends), the round
# counter the rounds ended. ``draws``: a chance step (two outcomes) opens every turn, as a
# Monopoly Deal turn opens with its draw. The game ends after ``T_LENGTH`` player actions.
T_LENGTH = 12
T_ACTIONS, T_DRAWS, T_DRAWN = 0, 1, 2  # state array slots: player actions done, draws on, drawn


def _t_mover(done, draws, drawn):
    if done >= T_LENGTH:
        return -4
    if draws and done % 2 == 0 and not drawn:
        return -1
    return (done // 2) % 2


class GameT:
    """Game T as a Python search state (what ``common.random_rollout`` calls)."""

    def __init__(self, done: int, draws: bool = False):
        self.done, self.draws, self.drawn = done, draws, False

    def current_player(self):
        return _t_mover(self.done, self.draws, self.drawn)

    def legal_actions(self):
        return [0, 1]

    def chance_outcomes(self):
        return [(0, 0.5), (1, 0.5)]

    def apply_action(self, action):
        if self.current_player() == -1:
            self.drawn = True
        else:
            self.done += 1
            self.drawn = False

    def turn(self):
        return (self.done // 2) % 2

    def round(self):
        return self.done // 4


_t_mover_nb = nb.njit(_t_mover)


@nb.njit
def _t_current_player(s):
    return _t_mover_nb(s[T_ACTIONS], s[T_DRAWS], s[T_DRAWN])


@nb.njit
def _t_legal(s, buf):
    buf[0], buf[1] = 0, 1
    return 2


@nb.njit
def _t_chance(s, actions, probs):
    actions[0], actions[1] = 0, 1
    probs[0] = probs[1] = 0.5
    return 2


@nb.njit
def _t_apply(s, action):
    if _t_current_player(s) == -1:
        s[T_DRAWN] = 1
    else:
        s[T_ACTIONS] += 1
        s[T_DRAWN] = 0


@nb.njit
def _t_returns(s, out):
    out[:] = 0.0


@nb.njit
def _t_key(s, player):
    return s[T_ACTIONS]


@nb.njit
def _t_determinize(s, player, rng):
    pass


@nb.njit
def _t_turn(s):
    return (s[T_ACTIONS] // 2) % 2


@nb.njit
def _t_round(s):
    return s[T_ACTIONS] // 4


def _game_t_rules():
    rules = types.ModuleType("game_t.kernel")
    rules.__file__ = __file__
    rules.nb_current_player, rules.nb_legal_actions, rules.nb_chance_outcomes = (
        _t_current_player,
        _t_legal,
        _t_chance,
    )
    rules.nb_apply_action, rules.nb_returns, rules.nb_heuristic = _t_apply, _t_returns, _t_returns
    rules.nb_infostate_key, rules.nb_determinize = _t_key, _t_determinize
    rules.nb_turn, rules.nb_round = _t_turn, _t_round
    return rules


def _python_played(length, termination, draws, seed=0):
    state = GameT(1, draws)  # the leaf: P0 to play the second action of its turn
    counter = {"END_TURN": GameT.turn, "END_ROUND": GameT.round}.get(termination)
    random_rollout(
        state, PCG32(seed), None, length, count_chance=False, termination=termination, counter=counter
    )
    return state.done - 1


def _compiled_played(length, termination, draws, seed=0):
    engine = compiled.engine_for(_game_t_rules())
    st = np.array([1, int(draws), 0], np.int64)
    roll = compiled.TagRollout(
        False,
        0.1,
        np.zeros((1, 1), np.int64),
        np.zeros((1, 1)),
        np.zeros(2),
        np.zeros(2),
        True,
        tr.TERMINATIONS[termination],
        -1,  # mast_player: MAST (off here) would move every player
    )
    rng = PCG32(seed).to_array()
    buf, probs, returns = np.zeros(2, np.int64), np.zeros(2), np.zeros(2)
    engine._rollout(st, rng, length, buf, probs, returns, roll, np.empty(0, np.int64), np.empty(0, np.int64))
    return int(st[T_ACTIONS]) - 1


# docs/tag_agents.md section 3: rollout actions played from game T's leaf.
GAME_T_TABLE = {
    0: {"EXACT": 0, "END_TURN": 1, "END_ROUND": 3},
    2: {"EXACT": 2, "END_TURN": 3, "END_ROUND": 3},
}


# on one of ``make test``'s workers: split over both, the cases compiled game T's engine twice
# at once (its rollout, 2.6 CPU-s)
@pytest.mark.xdist_group("game_t")
@pytest.mark.parametrize("draws", [False, True])
@pytest.mark.parametrize("length", sorted(GAME_T_TABLE))
def test_game_t_table_in_both_engines(length, draws):
    """Length 2, END_TURN: after P0's second and P1's first action the last action did not end a
    turn, so P1's second is played, ending the round (TAG's turn counter 1 -> 0). With a draw
    opening every turn the same player actions are played (chance is inside TAG's actions)."""
    for termination, expected in GAME_T_TABLE[length].items():
        for seed in range(3):
            assert _python_played(length, termination, draws, seed) == expected, (termination, seed)
            assert _compiled_played(length, termination, draws, seed) == expected, (termination, seed)


def test_the_rollout_goes_on_to_the_next_turn_end_and_stops_at_the_game_end():
    """From the leaf with length 4, END_TURN: 4 actions end at P1's first action of round 2 (t=5),
    so one more ends that turn; END_ROUND plays to the round's end (t=8). Near the end of game T
    the end of the game stops the rollout first."""
    for played in (_python_played, _compiled_played):
        assert played(4, "END_TURN", False) == 5
        assert played(4, "END_ROUND", False) == 7
        assert played(10, "END_ROUND", True) == T_LENGTH - 1


def test_the_rule_is_tags_finish_rollout():
    """Each stop above is ``tag_rules.rollout_finished`` at the first player decision past the
    length where the last player action changed the counter."""
    assert not tr.rollout_finished(False, 2, 2, tr.END_TURN, turn_changed=False)
    assert tr.rollout_finished(False, 3, 2, tr.END_TURN, turn_changed=True)
    assert not tr.rollout_finished(False, 1, 0, tr.END_ROUND, round_changed=False)


# --- settings and refusals ---------------------------------------------------------------------


def test_rollout_termination_is_a_tag_setting_and_others_are_refused_in_one_line():
    assert MCTSSettings().rollout_termination == "EXACT" and MCTSSettings().tag_default
    assert not MCTSSettings(rollout_termination="END_TURN").tag_default
    for name in ("END_ACTION", "START_ACTION", "end_turn"):
        with pytest.raises(ValueError, match=r"^rollout_termination: must be one of") as err:
            MCTSSettings(rollout_termination=name)
        assert "\n" not in str(err.value)


@pytest.mark.parametrize("engine", ["python", "compiled"])
@pytest.mark.parametrize("bot_class", [OLMCTSBot, PIMCTSBot, ISMCTSBot])
def test_a_game_without_the_counter_is_refused_before_any_search(bot_class, engine):
    game = pyspiel.load_game("leduc_poker")
    with pytest.raises(
        ValueError, match=r"^rollout_termination: END_ROUND needs the game's round_counter"
    ) as err:
        bot_class(
            game, 0, iterations=10, rng=0, engine=engine, rollout_length=1, rollout_termination="END_ROUND"
        )
    assert "\n" not in str(err.value)


def test_a_kernel_without_the_counter_is_refused_for_the_compiled_engine(monkeypatch):
    game = pyspiel.load_game("monopoly_deal")
    assert kernels.rollout_counter(game, "END_TURN", compiled=True) is not None
    with pytest.raises(ValueError, match=r"^rollout_termination: END_ROUND needs the game's round_counter"):
        kernels.rollout_counter(game, "END_ROUND")  # its TAG row uses END_TURN only
    monkeypatch.delattr(kernels.kernel_for(game).rules, "nb_turn")
    with pytest.raises(ValueError, match=r"^rollout_termination: END_TURN needs nb_turn in ") as err:
        kernels.rollout_counter(game, "END_TURN", compiled=True)
    assert "\n" not in str(err.value)
    assert kernels.rollout_counter(game, "END_TURN") is not None  # the Python engine has its own


def test_missing_settings_no_longer_lists_the_termination_for_hearts_and_monopoly_deal():
    for name, players in (("hearts", 4), ("monopoly_deal", 3)):
        assert not [
            m for m in missing_settings(tag_agent_row(name, players)) if m.startswith("rollout_termination")
        ]


# --- Hearts: END_ROUND is the end of the hand, which is the end of OpenSpiel's game ---------------


def test_hearts_round_counter_is_the_hands_finished_in_both_twins():
    game = pyspiel.load_game("hearts")
    state = game.new_initial_state()
    rnd = np.random.default_rng(3)
    while True:
        expected = int(state.is_terminal())
        assert hearts_kernel.round_counter(state) == expected
        assert hearts_kernel.nb_round(hearts_kernel.array_from_history(state.history())) == expected
        if state.is_terminal():
            break
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rnd.choice(actions, p=probs)))
        else:
            state.apply_action(int(rnd.choice(state.legal_actions())))
    assert kernels.rollout_counter(game, "END_ROUND") is hearts_kernel.round_counter


@pytest.mark.parametrize("seed", range(3))
def test_hearts_end_round_with_length_zero_plays_to_the_end_of_the_hand(seed):
    """TAG's Hearts row (rolloutLength 0, END_ROUND; docs/tag_agents.md section 9): the rollout plays
    to the end of the game and is scored by its returns, where EXACT scores the leaf at once."""
    game = pyspiel.load_game("hearts")
    state = decision_states(game, 1, seed=seed, stop=0.2)[0]
    rolled = state.clone()
    random_rollout(
        rolled,
        PCG32(seed),
        None,
        0,
        count_chance=False,
        termination="END_ROUND",
        counter=hearts_kernel.round_counter,
    )
    assert rolled.is_terminal()
    cut = state.clone()
    random_rollout(cut, PCG32(seed), None, 0, count_chance=False)
    assert cut.history() == state.history()


def test_hearts_bots_run_end_round_on_the_python_engine():
    game = pyspiel.load_game("hearts")
    state = decision_states(game, 1, seed=4, stop=0.1, min_legal=2)[0]

    def never(state):
        raise AssertionError("END_ROUND plays Hearts to its end: no cut-off is scored")

    bot = ISMCTSBot(
        game,
        state.current_player(),
        iterations=20,
        rng=0,
        rollout_length=0,
        heuristic=never,
        rollout_termination="END_ROUND",
        rollout_count="moves",
    )
    assert bot.step(state) in state.legal_actions()


# --- the bots pass the termination to both engines (Leduc) ------------------------------------
# Monopoly Deal is the kernel game with a turn counter, but its TAG engine is its own compile
# (46 CPU-s for OL-MCTS's search alone, IS-MCTS's as much again): the bots' path is checked on
# Leduc instead, whose TAG engine tests/precompile.py compiles, with a turn counter that never
# changes (the engine binds ``compiled._no_counter`` for a kernel without ``nb_turn``). The
# counter's changes are game T's above, Monopoly Deal's counter its own test
# (tests/games/monopoly_deal/test_monopoly_deal_turn_counter.py).


def turn_counter(state):
    """Leduc's stand-in turn counter for the Python engine (``kernels.COUNTER_MODULES``): never
    changes, as the compiled engine's ``_no_counter``."""
    return 0


def test_the_bots_end_turn_rollouts_equal_in_both_engines(monkeypatch):
    """OL-MCTS, PI-MCTS and IS-MCTS under END_TURN: past the rollout length no action changes
    the counter, so both engines play each rollout to the end of the game, with the same moves,
    root statistics and search info; EXACT (cut after the length) searches otherwise."""
    game = pyspiel.load_game("leduc_poker")
    monkeypatch.setitem(kernels.COUNTER_MODULES, "leduc_poker", __name__)
    monkeypatch.setattr(kernels.kernel_for(game).rules, "nb_turn", compiled._no_counter, raising=False)
    states = decision_states(game, 3, seed=2, stop=0.4, uniform_chance=True, min_legal=2)
    options = [
        dict(rollout_count="moves", rollout_length=1),
        dict(
            rollout_count="moves",
            rollout_length=0,
            opponent_tree="SelfOnly",
            rollout="MAST",
            tree_policy="NoAveragingRM",
            explore_epsilon=0.3,
        ),
        dict(rollout_length=2),
    ]
    changed = 0
    for i, state in enumerate(states):
        option = {"rollout_termination": "END_TURN", **options[i % len(options)]}
        for bot_class, extra in ((OLMCTSBot, {}), (PIMCTSBot, {"determinizations": 2}), (ISMCTSBot, {})):
            python, compiled_ = _both(bot_class, game, state, 30, rng=i, **option, **extra)
            assert python == compiled_, (i, bot_class.__name__, option)
            exact = {**option, "rollout_termination": "EXACT"}
            changed += _both(bot_class, game, state, 30, rng=i, **exact, **extra)[1] != compiled_
    assert changed > 0  # the setting acts


def test_multitree_runs_end_turn_with_the_games_counter():
    """MultiTree stops by END_TURN / END_ROUND too (tests/search/test_multitree_tag.py): the
    Python reference needs the game's counter, the compiled front reads the kernel's."""
    from infosets.search.multitree import MultiTree
    from infosets.search.multitree_nb import CompiledMultiTree

    settings = MCTSSettings(rollout_termination="END_TURN")
    with pytest.raises(ValueError, match=r"^counter: END_TURN needs the game's turn/round counter"):
        MultiTree(0, 2, settings, 1.0, None, None)
    assert MultiTree(0, 2, settings, 1.0, None, None, turn_counter).counter is turn_counter
    kernel = kernels.kernel_for(pyspiel.load_game("leduc_poker"))
    assert CompiledMultiTree(kernel, 1.0, None, settings).settings is settings
