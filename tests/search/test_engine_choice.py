"""engine="auto" says what it chose and why (issue 52 item 4; infosets.search.engine_choice):
one INFO line per bot, ``engine_used`` from construction equal to what the first move runs,
and each documented case (kernel covering the parameters, parameters outside it, the
budget rule of C++ trees, per-game settings, a custom sampler)."""

from __future__ import annotations

import logging

import pyspiel
import pytest

from infosets.games.kernels import kernel_for, kernel_gap
from infosets.search.engine_choice import AUTO_CPP_MIN_RATIO, PER_TREE
from infosets.search.ismcts import ISMCTSBot
from infosets.search.mcts import OLMCTSBot
from infosets.search.pimcts import PIMCTSBot

LOGGER = "infosets.search.engine_choice"


def _decision(game):
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    return state


def _lines(caplog):
    return [r.getMessage() for r in caplog.records if r.name == LOGGER and r.levelno == logging.INFO]


def _build(caplog, make):
    """The bot ``make()`` builds and the INFO lines it logged (exactly one)."""
    caplog.clear()
    with caplog.at_level(logging.INFO, logger=LOGGER):
        bot = make()
    lines = _lines(caplog)
    assert len(lines) == 1, lines
    return bot, lines[0]


def test_liars_dice_coverage_is_declared_and_named():
    two = pyspiel.load_game("liars_dice(numdice=2)")
    assert kernel_for(two) is None
    assert kernel_gap(two) == "liars_dice kernel covers numdice=1; got numdice=2"
    assert kernel_gap(pyspiel.load_game("liars_dice(dice_sides=30)")) == \
        "liars_dice kernel covers dice_sides=2..20; got dice_sides=30"
    assert kernel_gap(pyspiel.load_game("liars_dice")) is None
    assert kernel_for(pyspiel.load_game("liars_dice")) is not None
    assert kernel_gap(pyspiel.load_game("kuhn_poker")).startswith("no kernel for kuhn_poker")


@pytest.mark.parametrize("iterations, expected", [(8, "python"), (4000, "cpp")])
def test_uncovered_parameters_log_the_reason_and_plan_the_first_move(caplog, iterations, expected):
    game = pyspiel.load_game("liars_dice(numdice=2)")  # 25 distinct actions
    bot, line = _build(caplog, lambda: PIMCTSBot(game, 0, iterations=iterations, determinizations=1,
                                                 rng=0, engine="auto"))
    assert "PIMCTSBot" in line and f"engine {expected}" in line
    assert "liars_dice kernel covers numdice=1; got numdice=2" in line
    assert bot.engine_used == expected  # before the first move
    bot.step(_decision(game))
    assert bot.engine_used == expected


def test_kernel_covering_the_parameters_plans_compiled(caplog):
    # That a step then runs "compiled": tests/search/test_engine_settings.py (no compile here).
    game = pyspiel.load_game("leduc_poker")
    for make in (lambda: OLMCTSBot(game, 0, iterations=20, rng=0, engine="auto"),
                 lambda: ISMCTSBot(game, 0, iterations=20, rng=0, engine="auto")):
        bot, line = _build(caplog, make)
        assert "engine compiled" in line and "leduc_poker kernel covers these parameters" in line
        assert bot.engine_used == "compiled" and bot.engine == "compiled"


def test_budget_rule_of_cpp_trees(caplog):
    game = pyspiel.load_game("kuhn_poker")  # no kernel; 2 distinct actions, 2 legal at each decision
    state = _decision(game)
    cases = [(AUTO_CPP_MIN_RATIO * 2, "cpp", "cpp"), (AUTO_CPP_MIN_RATIO - 1, "python", "python"),
             (AUTO_CPP_MIN_RATIO * 2 - 1, PER_TREE, "python")]
    for iterations, planned, first in cases:
        bot, line = _build(caplog, lambda it=iterations: OLMCTSBot(game, 0, iterations=it, rng=0,
                                                                     engine="auto"))
        assert f"engine {planned}" in line and "no kernel for kuhn_poker" in line
        assert f"budget {iterations} per tree" in line or f"budget {iterations} >=" in line
        assert bot.engine_used == planned
        bot.step(state)
        assert bot.engine_used == first  # per tree: 19 < 10 x 2 legal actions


def test_settings_custom_sampler_and_requested_engine_are_reasons(caplog):
    kuhn, leduc = pyspiel.load_game("kuhn_poker"), pyspiel.load_game("leduc_poker")
    bot, line = _build(caplog, lambda: PIMCTSBot(kuhn, 0, iterations=1000, rng=0, engine="auto",
                                                 fpu=1.0))
    assert bot.engine_used == "python" and "per-game settings" in line

    def sampler(state, player, rng):
        return state.clone()

    bot, line = _build(caplog, lambda: ISMCTSBot(leduc, 0, iterations=10, rng=0, engine="auto",
                                                 sampler=sampler))
    assert bot.engine_used == "python" and "custom sampler" in line
    bot, line = _build(caplog, lambda: OLMCTSBot(kuhn, 0, iterations=10, rng=0, engine="python"))
    assert bot.engine_used == "python" and "engine='python' requested" in line
