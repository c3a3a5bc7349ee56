"""TAG's tree policies, MaxMC backup and MAST rollouts wired into both engines (issue 56, stage 2;
rules in ``infosets.search.tag_rules``, read from GAIGResearch/TabletopGames ``players/mcts/``):
the settings refused in one line, hand-worked selection/backup/rollout steps, the Python
reference and the compiled engine equal draw for draw for every option, the MAST table kept
across a bot's decisions, and today's defaults unchanged (pinned outputs)."""

from __future__ import annotations

import hashlib
import math
from types import SimpleNamespace

import numpy as np
import pyspiel
import pytest

import infosets.games  # noqa: F401  (registers our games)
from infosets.core.pcg32 import PCG32
from infosets.games.kernels import kernel_for
from infosets.search import compiled, mcts
from infosets.search import tag_rules as tr
from infosets.search.common import random_rollout, tag_choice
from infosets.search.ismcts import ISMCTSBot
from infosets.search.mcts import OLMCTSBot
from infosets.search.pimcts import AGGREGATIONS, PIMCTSBot
from infosets.search.settings import MCTSSettings, make_settings
from kernel_checks import _both, decision_states

# ----------------------------------------------------------------------- settings


@pytest.mark.parametrize("field,value", [
    ("tree_policy", "UCB1"), ("tree_policy", None), ("backup", "max"), ("max_backup_threshold", -1),
    ("max_backup_threshold", 2.5), ("max_backup_threshold", True), ("rollout", "mast"),
    ("mast_gamma", -0.1), ("mast_gamma", 1.5), ("mast_gamma", "0"), ("mast_boltzmann", 0.0),
    ("mast_boltzmann", math.inf)])
def test_each_setting_is_refused_in_one_line_naming_it(field, value):
    with pytest.raises(ValueError, match=rf"^{field}: ") as err:
        MCTSSettings(**{field: value})
    assert "\n" not in str(err.value)


def test_bots_take_the_settings_and_refuse_unknown_ones():
    game = pyspiel.load_game("leduc_poker")
    with pytest.raises(ValueError, match=r"^tree_polic: not a setting"):
        OLMCTSBot(game, 0, rng=0, tree_polic="EXP3")
    with pytest.raises(ValueError, match=r"^backup: "):
        ISMCTSBot(game, 0, rng=0, backup="Max")
    with pytest.raises(ValueError, match=r"^rollout: 'MAST' is the rollout policy"):
        PIMCTSBot(game, 0, rng=0, rollout="MAST", rollout_policy=lambda s, r: s.legal_actions()[0])
    with pytest.raises(ValueError, match=r"^rollout: 'MAST' is the rollout policy"):
        ISMCTSBot(game, 0, rng=0, rollout="MAST", rollout_policy=lambda s, r: s.legal_actions()[0])
    assert MCTSSettings().tag_default and make_settings().is_default
    assert not make_settings(tree_policy="EXP3").tag_default
    bot = OLMCTSBot(game, 0, rng=0, engine="compiled")
    assert bot._planner._compiled._tag is None  # today's searches: the entries warm_cache warms


# ------------------------------------------------------------- hand-worked steps


def test_ucb_tuned_selection_uses_the_node_visits_as_n():
    """Open loop, node visits N = 4, K = 0.2, FPU 0.61, rewards seen in [0, 1]. a0: n 2, w 1,
    q 1: 0.5 + 0.2 sqrt(ln 4 / 2 * 1/4) = 0.583255. a1 untried: max(0.61, 0.2 sqrt 4) = 0.61.
    a2: n 1, w 0.5, q 0.25 (variance 0): 0.5 + 0.2 sqrt(ln 4 * min(1/4, sqrt(2 ln 4)))
    = 0.617741, the maximum (with N = 3 it would be 0.604819, below a1's 0.61)."""
    settings = MCTSSettings(tree_policy="UCB_Tuned", fpu=0.61)
    a0 = [2, 1.0, {}, 0, None, 0, 1.0, 0, 0.0, None]
    a2 = [1, 0.5, {}, 0, None, 2, 0.25, 0, 0.0, None]
    node = [4, 0.0, {0: a0, 2: a2}, -1, None, -1, 0.0, 3, 0.0, None]
    rnd = PCG32(5)
    action, child, new = mcts._select_child_tag(node, [0, 1, 2], 0, rnd, 0.2, settings, [0.0, 1.0])
    assert (action, child, new) == (2, a2, False)
    assert rnd.to_array().tolist() == PCG32(5).to_array().tolist()  # a unique maximum: no draw
    # The compiled twin on the same node.
    children = np.full((3, 3), -1, np.int64)
    children[0, 0], children[0, 2] = 1, 2
    visits, wsum, qsum = np.array([4, 2, 1]), np.array([0.0, 1.0, 0.5]), np.array([0.0, 1.0, 0.25])
    tag = np.array([compiled.POLICY_UCB_TUNED, 0, 0, 0], np.int64)
    tg = compiled._tag_search(tag, 1.0, np.zeros((1, 1), np.int64), np.zeros((1, 1)), 3, 2, qsum,
                              np.zeros(3, np.int64), np.zeros(3), np.zeros((1, 2)), np.zeros(3, np.int64),
                              np.zeros(3, np.int64), children)
    tg.bounds[:] = [0.0, 1.0]
    got = compiled._uct_select(0, np.arange(3), 3, np.zeros(3, np.int64), children, visits, wsum,
                               np.array([2, 0, 0]), 0.2, True, 0.61, 0.0, PCG32(5).to_array(), tg)
    assert tuple(got) == (2, 2, False)


@pytest.mark.parametrize("seed", range(6))
def test_no_averaging_rm_samples_by_positive_regret(seed):
    """Node: 4 selections worth 2.0 (value 0.5); a0 mean 0.8: regret (0.8 - 0.5) 4 = 1.2; a1
    mean 0.2: max(0, -1.2) = 0; a2 untried: 0 - 2 + FPU 3 = 1. One epsilon draw (epsilon 0),
    then a0 when u <= 1.2 / 2.2, else a2; never a1."""
    rnd, check = PCG32(seed), PCG32(seed)
    check.random()
    expected = 0 if check.random() <= 1.2 / 2.2 else 2
    args = ([2, 2, 0], [1.6, 0.4, 0.0], [0.0, 0.0, 0.0], [4, 4, 4], 4, 2.0, 0.0, 1.0, 1.0, 3.0, 0.0)
    assert tag_choice("NoAveragingRM", *args, rnd) == expected
    f = np.array
    got = compiled._tag_choice(compiled.POLICY_RM, f([2.0, 2, 0]), f([1.6, 0.4, 0]), np.zeros(3),
                               f([4.0, 4, 4]), 3, 1.0, 3.0, 0.0, 4, 2.0, 0.0, 1.0, PCG32(seed).to_array(),
                               np.zeros(3))
    assert got == expected


@pytest.mark.parametrize("threshold,passed", [(0, 0.2), (3, 0.8), (4, 1.0)])
def test_max_mc_backup_passes_the_best_sibling_up(threshold, passed):
    """Root -> X (player 0 chose action 1) -> Y (player 1 chose action 0); X's other child Z
    (action 1): 2 visits, every player's sums [0.4, 1.6]. Raw returns [1, 0] backed up from Y:
    Y's sums become [1.9, 0.1] over 2 visits (player 1's mean 0.05), Z's mean for player 1 is
    0.8, so past the threshold X's value is (1 - m) [1, 0] + m [0.2, 0.8] with m = (4 - t) / 4
    (X's 4 visits): player 0's 0.2 at t = 0, 0.8 at t = 3, the plain 1.0 at t = 4."""
    y = [1, 0.1, {}, 1, None, 0, 0.01, 0, 0.0, [0.9, 0.1]]
    z = [2, 1.6, {}, 1, None, 1, 1.3, 0, 0.0, [0.4, 1.6]]
    x = [3, 0.0, {0: y, 1: z}, 0, None, 1, 0.0, 3, 0.0, None]
    root = [3, 0.0, {1: x}, -1, None, -1, 0.0, 3, 0.0, None]
    settings = MCTSSettings(backup="MaxMC", max_backup_threshold=threshold)
    bounds = [math.inf, -math.inf]
    mcts._backup_tag(root, [x, y], [1.0, 0.0], SimpleNamespace(normalize=False), settings, bounds)
    assert (root[0], x[0], y[0], z[0]) == (4, 4, 2, 2)
    assert y[1] == 0.1 and y[9] == [1.9, 0.1] and y[6] == 0.01
    assert x[1] == pytest.approx(passed) and x[6] == pytest.approx(passed ** 2)
    assert root[7] == 4 and root[8] == pytest.approx(passed) and x[7] == 4 and x[8] == 0.0
    assert bounds == [0.0, 1.0]


def test_mast_rollout_follows_the_table():
    """Kuhn poker after the deal: player 0's MAST means are pass 0 (unseen, the default) and
    bet 10; at temperature 0.1 pass has probability e^-100 / (1 + e^-100), so every rollout
    starts with a bet; at temperature 1000 both are played."""
    game = pyspiel.load_game("kuhn_poker")
    mast_n, mast_w = np.zeros((2, 2), np.int64), np.zeros((2, 2))
    mast_n[0, 1], mast_w[0, 1] = 1, 10.0
    firsts = {0.1: set(), 1000.0: set()}
    for temperature in firsts:
        for seed in range(40):
            state = game.new_initial_state()
            state.apply_action(0)
            state.apply_action(1)
            record = []
            assert random_rollout(state, PCG32(seed), None, None, (mast_n, mast_w, temperature), record) < 0
            assert state.is_terminal() and record[0][0] == 0 and record[1][0] == 1
            firsts[temperature].add(record[0])
    assert firsts == {0.1: {(0, 1)}, 1000.0: {(0, 0), (0, 1)}}


# -------------------------------------------------- the two engines, draw for draw

OPTIONS = [dict(tree_policy="UCB_Tuned"), dict(tree_policy="UCB_Tuned", fpu=0.7, uct_c=0.3),
           dict(tree_policy="NoAveragingRM", explore_epsilon=0.1), dict(tree_policy="EXP3"),
           dict(tree_policy="EXP3", fpu=0.0, explore_epsilon=0.2),
           dict(backup="MaxMC", max_backup_threshold=5), dict(rollout="MAST", mast_gamma=0.5),
           dict(rollout="MAST", mast_boltzmann=2.0, rollout_length=3),
           dict(tree_policy="UCB_Tuned", backup="MaxMC", max_backup_threshold=3, rollout="MAST",
                mast_gamma=1.0, max_depth=3)]
GAMES = [("leduc_poker", 6), ("sushi_go(players=3)", 2)]


@pytest.mark.parametrize("option", OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
@pytest.mark.parametrize("name,positions", GAMES)
def test_compiled_equals_python_reference(name, positions, option):
    game = pyspiel.load_game(name)
    for i, state in enumerate(decision_states(game, positions, seed=3, stop=0.4, uniform_chance=True)):
        ol = _both(OLMCTSBot, game, state, 40, rng=i, final=("mean", "visits")[i % 2], **option)
        pi = _both(PIMCTSBot, game, state, 40, rng=i, determinizations=1 + i % 3,
                   aggregation=AGGREGATIONS[i % 3], **option)
        ism = _both(ISMCTSBot, game, state, 40, rng=i, availability=(True, False, "expanded")[i % 3],
                    **option)
        for python, compiled_ in (ol, pi, ism):
            assert python == compiled_, (name, i, option)
    default = [_both(OLMCTSBot, game, state, 40, rng=0)[0] for state in
               decision_states(game, 2, seed=3, stop=0.4, uniform_chance=True)]
    changed = [_both(OLMCTSBot, game, state, 40, rng=0, **option)[0] for state in
               decision_states(game, 2, seed=3, stop=0.4, uniform_chance=True)]
    assert default != changed  # the option acts


@pytest.mark.parametrize("name", ["leduc_poker", "sushi_go(players=3)"])
def test_compiled_equals_python_with_the_other_bot_options(name):
    """TAG's settings with IS-MCTS's node keys by moves, heuristic rewards and raw rewards (and
    raw rewards in open loop)."""
    game = pyspiel.load_game(name)
    for i, state in enumerate(decision_states(game, 3, seed=5, stop=0.4, uniform_chance=True)):
        for kw in (dict(node_key="moves", tree_policy="EXP3", backup="MaxMC", max_backup_threshold=2),
                   dict(reward="heuristic", rollout="MAST", rollout_length=2, tree_policy="UCB_Tuned"),
                   dict(normalize_rewards=False, tree_policy="UCB_Tuned", backup="MaxMC",
                        max_backup_threshold=1)):
            python, compiled_ = _both(ISMCTSBot, game, state, 40, rng=i, **kw)
            assert python == compiled_, (i, kw)
        python, compiled_ = _both(PIMCTSBot, game, state, 40, rng=i, determinizations=2,
                                  normalize_rewards=False, tree_policy="NoAveragingRM", backup="MaxMC",
                                  max_backup_threshold=1)
        assert python == compiled_, i


@pytest.mark.parametrize("bot_class", [OLMCTSBot, PIMCTSBot, ISMCTSBot])
def test_mast_table_lives_with_the_bot_across_its_decisions(bot_class):
    """A Leduc game where player 0's bots (one per engine) make each of their decisions: the
    same moves and root statistics at every decision, and the same MAST table after it,
    decayed by gamma 0.5 in between (so later searches depend on earlier ones)."""
    game = pyspiel.load_game("leduc_poker")
    extra = {"determinizations": 2} if bot_class is PIMCTSBot else {}
    bots = [bot_class(game, 0, iterations=50, rng=7, engine=e, rollout="MAST", mast_gamma=0.5, **extra)
            for e in ("python", "compiled")]
    gen = np.random.default_rng(1)
    state, decisions = game.new_initial_state(), 0
    while not state.is_terminal():
        if state.current_player() == 0:
            steps = [bot.step_with_policy(state) for bot in bots]
            assert dict(steps[0][0]) == dict(steps[1][0]) and steps[0][1] == steps[1][1]
            python_n, python_w = bots[0].mast if bot_class is ISMCTSBot else bots[0]._planner.mast
            ours = bots[1]._compiled if bot_class is ISMCTSBot else bots[1]._planner._compiled
            width = python_n.shape[1]
            assert np.array_equal(python_n, ours.mast_n[:, :width]) and not ours.mast_n[:, width:].any()
            assert np.array_equal(python_w, ours.mast_w[:, :width])
            assert python_n.sum() > 0
            decisions += 1
            state.apply_action(steps[0][1])
        else:
            legal = state.legal_actions()  # chance too: Leduc's deal is uniform
            state.apply_action(legal[gen.integers(len(legal))])
    assert decisions >= 2


# ------------------------------------------------------------------ today's defaults

# sha256 of the outputs of ``_default_outputs`` at commit ebdd194 (before this wiring).
DEFAULT_OUTPUTS = "b8c9f66ff7520badb42f261f7e7852c4b57399da4ee2276377495dd5ce556768"


def _default_outputs():
    out = []
    for name in ("leduc_poker", "sushi_go(players=3)"):
        game = pyspiel.load_game(name)
        for i, st in enumerate(decision_states(game, 6, 11, stop=0.4, uniform_chance=True)):
            p = st.current_player()
            extra = [{}, dict(fpu=0.5, explore_epsilon=0.1, max_depth=3), dict(rollout_length=2)][i % 3]
            for e in ("python", "compiled"):
                for bot in (OLMCTSBot(game, p, iterations=60, rng=i, engine=e, **extra),
                            PIMCTSBot(game, p, iterations=60, determinizations=3, rng=i, engine=e, **extra),
                            ISMCTSBot(game, p, iterations=60, rng=i, engine=e,
                                      availability=[True, False, "expanded"][i % 3], **extra)):
                    pol, act = bot.step_with_policy(st)
                    out.append(repr((name, i, e, type(bot).__name__, sorted(pol), act, bot.last_search_info)))
    return out


def test_default_settings_are_unchanged_draw_for_draw():
    """Both engines' moves, policies and tree depths under today's settings (UCB, mean backup,
    random rollouts, with and without per-game settings) equal those before the wiring."""
    out = _default_outputs()
    assert len(out) == 72
    assert hashlib.sha256("\n".join(out).encode()).hexdigest() == DEFAULT_OUTPUTS
    assert tr.FPU_DEFAULT == compiled.FPU_TAG


def test_the_tag_version_at_todays_settings_equals_todays_version():
    """The compiled searches given TAG's arguments at today's settings (UCB, mean backup, random
    rollouts: the version compiled with TAG's branches) and without them (the version numba
    compiles with those branches pruned) give the same root statistics, depths and generator."""
    game = pyspiel.load_game("leduc_poker")
    kernel = kernel_for(game)
    engine, a, p = compiled.engine_for(kernel.rules), kernel.num_actions, kernel.num_players
    plain_tag = (np.array([compiled.POLICY_UCB, 0, 0, 0], np.int64), 1.0, np.zeros((1, 1), np.int64),
                 np.zeros((1, 1)))
    for i, st in enumerate(decision_states(game, 4, 11, stop=0.4, uniform_chance=True)):
        array, player = kernel.from_history(kernel.history_of(st)), st.current_player()
        results = []
        for tag in ((), plain_tag):
            rng, depths = PCG32(i).to_array(), np.zeros(2, np.int64)
            out_n, out_w = np.zeros((2, a), np.int64), np.zeros((2, a))
            engine.pimcts_trees(array, player, 2, 30, 1.0, True, -13.0, 26.0, -1, -1, False, 0.0, 0.1, rng,
                                a, p, out_n, out_w, depths, *tag)
            root = (np.zeros(a, np.int64), np.zeros(a), np.zeros(a, np.bool_), np.zeros(a, np.int64))
            engine.ismcts_tree_with(array, player, 30, 1.0, compiled.AVAIL_LEGAL, False, False, True, -13.0,
                                    26.0, -1, -1, False, 0.0, 0.1, rng, a, p, *root, depths, *tag)
            results.append([x.tolist() for x in (out_n, out_w, depths, rng, *root)])
        assert results[0] == results[1] and sum(results[0][0][0]) == 30
