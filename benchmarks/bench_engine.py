"""Benchmark of the compiled search engine of pimcts_aggregation (Ravichandran, Goodman and
Lucas): every number is a ratio of two measurements taken in this run.

* IS-MCTS on leduc and hearts, compiled vs OpenSpiel's C++ ``ISMCTSBot``, equal iterations
  (goal >= 1x).
* OL-MCTS on leduc and hearts, compiled (one sampled world + one tree) vs OpenSpiel's C++
  ``MCTSBot`` on one world (goal >= 1x).
* PI-MCTS (D = 10) and IS-MCTS, compiled vs the Python reference engine, on the same
  positions of each kernel game (goal >= 20x). The Python reference draws from the PCG32 now
  (pure Python), so it is somewhat slower than the engine before the compiled one existed.
* poker_tag with TAG's Poker settings (rollout length 0, LeaderHeuristic): compiled vs
  Python, and the paper's Poker move (B = 10,000, D = 100 / 500, IS-MCTS) in seconds.
* Tabletop ports with a kernel (stratego, exploding_kittens, dominion, colt_express, monopoly_deal):
  PI-MCTS (D = 10) and
  IS-MCTS compiled vs the Python reference engine with TAG's per-game settings (K, rollout
  cut-off, epsilon), same positions and iterations (goal >= 20x); ``--tabletop-only [PORT ...]``
  runs just these rows and their compile times.
* First-call compile time (fresh numba cache, in a subprocess) and cached load time.
* ``--strength N``: N games of compiled IS-MCTS against C++ ``ISMCTSBot`` at equal
  iterations, ours in one seat (rotating) and C++ in the others; ours minus the mean of the
  other seats' returns, with its 95% interval (goal: contains 0; on leduc, zero-sum, it is
  twice our mean return). Twice: C++ with c = 1 on its raw returns, and with c = 1 x the
  utility span (the exploration our c = 1 on [0, 1] rewards amounts to).
  ``--strength-game hearts`` plays OpenSpiel's hearts instead of leduc, every seat's passes
  at random (the C++ bot crashes in the passing phase).
* ``--vs-cpp-only [GAME ...]``: only the rows against OpenSpiel's C++ bots (of leduc and
  hearts, or the games named).

Usage: ``python benchmarks/bench_engine.py [--iterations 1000] [--strength 0]
[--strength-game leduc] [--vs-cpp-only [leduc hearts]]``.
"""

from __future__ import annotations

import argparse
import math
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pyspiel

import infosets.games  # noqa: F401  (registers trick_game)
from _harness import report, row, timeit
from infosets.games.determinizers import sampler_for
from infosets.search.common import RewardScale
from infosets.search.ismcts import ISMCTSBot, make_cpp_ismcts_bot
from infosets.search.mcts import CppTreeRunner, OLMCTSBot
from infosets.search.pimcts import PIMCTSBot

GAMES = {"leduc": ("leduc_poker", {}), "liars_dice": ("liars_dice", {"dice_sides": 6}),
         "trick_game": ("trick_game", {}), "poker_tag": ("poker_tag", {})}
# TAG's Poker settings (json/players/gameSpecific/Poker/Poker_3+P.json): rollouts cut at once,
# the leaf scored by the LeaderHeuristic.
POKER_TAG_SETTINGS = {"rollout_length": 0}
# Tabletop ports with a kernel (the paper's player counts).
GAMES.update({"sushi_go(3p)": ("sushi_go", {"players": 3}), "sushi_go(5p)": ("sushi_go", {"players": 5}),
              "love_letter": ("love_letter", {}), "virus": ("virus", {})})
LIB = Path(__file__).resolve().parents[1] / "lib"


def decision_state(game, seed=3, skip=2):
    """A decision after ``skip`` random player actions, with at least two legal actions."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    made = 0
    while state.is_chance_node() or made < skip or len(state.legal_actions()) < 2:
        if state.is_terminal():
            state, made = game.new_initial_state(), 0
            continue
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.integers(len(outcomes))][0])
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.integers(len(legal))])
            made += 1
    return state


# Games OpenSpiel's C++ bots play: name, the random player actions before the position of the
# speed rows, and the random player actions that open each game of the strength check. Hearts
# opens with its 12 passes at random for every seat, since the C++ ISMCTSBot crashes the process
# in the passing phase (docs/openspiel.md).
CPP_GAMES = {"leduc": ("leduc_poker", 2, 0), "hearts": ("hearts", 20, 12)}


def bench_vs_cpp(iterations, rows, label="leduc"):
    name, skip, _ = CPP_GAMES[label]
    game = pyspiel.load_game(name)
    state = decision_state(game, skip=skip)
    player = state.current_player()
    ours = OLMCTSBot(game, player, iterations=iterations, rng=0, engine="compiled")
    ours.step(state)  # warm (compile or load the cache)
    ol = iterations / timeit(lambda: ours.step(state), repeat=7, number=5)
    world = sampler_for(game)(state, player, np.random.default_rng(0))
    runner = CppTreeRunner(game, iterations, 1.0, 1, RewardScale(game, True))
    cpp = iterations / timeit(lambda: runner.search(world), repeat=7, number=5)
    rows.append(row(f"{label} OL-MCTS compiled (incl. sampling) vs C++ MCTSBot (one world)", ol, cpp,
                    "it/s", goal=">= 1.0x"))
    ism = ISMCTSBot(game, player, iterations=iterations, rng=0, engine="compiled")
    ism.step(state)
    ours_is = iterations / timeit(lambda: ism.step(state), repeat=7, number=5)
    cpp_bot = make_cpp_ismcts_bot(game, iterations=iterations, seed=0)
    cpp_is = iterations / timeit(lambda: cpp_bot.step(state), repeat=7, number=5)
    rows.append(row(f"{label} IS-MCTS compiled vs C++ ISMCTSBot (equal iterations)", ours_is, cpp_is,
                    "it/s", goal=">= 1.0x"))


def bench_vs_python(iterations, rows):
    for label, (name, params) in GAMES.items():
        game = pyspiel.load_game(name, params)
        states = [decision_state(game, seed=s) for s in range(3)]
        for algo, bot_class, kwargs in (("PI-MCTS(D=10)", PIMCTSBot, {"determinizations": 10}),
                                        ("IS-MCTS", ISMCTSBot, {})):
            speeds = {}
            for engine in ("compiled", "python"):
                bots = [bot_class(game, s.current_player(), iterations=iterations, rng=0, engine=engine,
                                  **kwargs) for s in states]
                for bot, s in zip(bots, states):
                    bot.step(s)  # warm

                def run(bots=bots, states=states):
                    for bot, s in zip(bots, states):
                        bot.step(s)

                repeat = 5 if engine == "compiled" else 1
                speeds[engine] = len(states) * iterations / timeit(run, repeat=repeat)
            rows.append(row(f"{label} {algo} compiled vs Python reference engine (same positions)",
                            speeds["compiled"], speeds["python"], "it/s", goal=">= 20x"))


# -- tabletop ports: TAG's per-game MCTS settings (json/players/gameSpecific/<Game>.json) --
# name: (game, params, bot settings). Python searches these ports slowly, so fewer iterations.
TABLETOP = {
    "stratego": ("stratego", {}, dict(uct_c=0.01, rollout_length=0, explore_epsilon=0.3)),
    "exploding_kittens": ("exploding_kittens", {}, dict(uct_c=1.0, rollout_length=10, explore_epsilon=0.1)),
    "dominion": ("dominion", {}, dict(uct_c=1.0, rollout_length=30, explore_epsilon=0.3)),
}
# -- colt_express / monopoly_deal (TAG's ColtExpress_3P.json: K = 1, rollouts of 30, epsilon 0.1) --
TABLETOP.update({"colt_express": ("colt_express", {},
                                  dict(uct_c=1.0, rollout_length=30, explore_epsilon=0.1))})
# MonopolyDeal_HiBudget.json: K = sqrt 2, rollouts of 30 per player (90 at 3 players) cut by the
# LeaderHeuristic, FPU 0.5, epsilon 0.3
TABLETOP.update({"monopoly_deal": ("monopoly_deal", {},
                                   dict(uct_c=2 ** 0.5, rollout_length=90, fpu=0.5, explore_epsilon=0.3))})
# -- end colt_express / monopoly_deal --
TABLETOP_ITERATIONS = 200
# -- seven_wonders (TAG's Wonders7_3P.json: K 1, rollout 100 cut by PureScoreHeuristic, epsilon 0.1) --
TABLETOP["seven_wonders"] = ("seven_wonders", {}, dict(uct_c=1.0, rollout_length=100, explore_epsilon=0.1))
# -- end seven_wonders --
# -- sushi_go / love_letter / virus (TAG's SushiGo.json, LoveLetter.json, Virus.json at 3 players, as
# pimcts_aggregation's settings table: K 1, epsilon 0.1; rollouts of 30, 1 per player (FPU 100), 3) --
TABLETOP["sushi_go"] = ("sushi_go", {"players": 3}, dict(uct_c=1.0, rollout_length=30, explore_epsilon=0.1))
TABLETOP["love_letter"] = ("love_letter", {"players": 3},
                           dict(uct_c=1.0, rollout_length=3, fpu=100.0, explore_epsilon=0.1))
TABLETOP["virus"] = ("virus", {"players": 3}, dict(uct_c=1.0, rollout_length=3, explore_epsilon=0.1))
# -- end sushi_go / love_letter / virus --


def bench_tabletop_vs_python(rows, only=None):
    """PI-MCTS (D = 10) and IS-MCTS on the tabletop ports with TAG's settings, compiled vs
    the Python reference engine, same positions and iterations."""
    iterations = TABLETOP_ITERATIONS
    for label, (name, params, settings) in TABLETOP.items():
        if only and label not in only:
            continue
        game = pyspiel.load_game(name, params)
        states = [decision_state(game, seed=s, skip=10) for s in range(2)]
        for algo, bot_class, kwargs in (("PI-MCTS(D=10)", PIMCTSBot, {"determinizations": 10}),
                                        ("IS-MCTS", ISMCTSBot, {})):
            speeds = {}
            for engine in ("compiled", "python"):
                bots = [bot_class(game, s.current_player(), iterations=iterations, rng=0, engine=engine,
                                  **kwargs, **settings) for s in states]
                if engine == "compiled":
                    for bot, s in zip(bots, states):
                        bot.step(s)  # warm

                def run(bots=bots, states=states):
                    for bot, s in zip(bots, states):
                        bot.step(s)

                repeat = 3 if engine == "compiled" else 1
                speeds[engine] = len(states) * iterations / timeit(run, repeat=repeat)
            rows.append(row(f"{label} {algo} compiled vs Python reference engine (TAG settings, same "
                            f"positions)", speeds["compiled"], speeds["python"], "it/s", goal=">= 20x",
                            iterations=iterations, settings=str(settings)))
# -- end tabletop ports --


COMPILE_SCRIPT = r"""
import sys, time
t0 = time.perf_counter()
import pyspiel
import infosets.games
from infosets.search.ismcts import ISMCTSBot
from infosets.search.pimcts import PIMCTSBot
name, sides = sys.argv[1], int(sys.argv[2])
game = pyspiel.load_game(name, {"dice_sides": sides} if name == "liars_dice" else {})
state = game.new_initial_state()
while state.is_chance_node():
    state.apply_action(state.legal_actions()[0])
t1 = time.perf_counter()
PIMCTSBot(game, 0, iterations=20, determinizations=2, rng=0, engine="compiled").step(state)
t2 = time.perf_counter()
ISMCTSBot(game, 0, iterations=20, rng=0, engine="compiled").step(state)
t3 = time.perf_counter()
print(t1 - t0, t2 - t1, t3 - t2)
"""


def bench_poker_tag(iterations, rows):
    """poker_tag with TAG's settings: compiled vs Python at ``iterations``, and the paper's
    Poker move (B = 10,000; D = 100 and 500; IS-MCTS) compiled, in seconds per move."""
    game = pyspiel.load_game("poker_tag")
    states = [decision_state(game, seed=s) for s in range(3)]
    for algo, bot_class, kwargs in (("PI-MCTS(D=10)", PIMCTSBot, {"determinizations": 10}),
                                    ("IS-MCTS", ISMCTSBot, {})):
        speeds = {}
        for engine in ("compiled", "python"):
            bots = [bot_class(game, s.current_player(), iterations=iterations, rng=0, engine=engine,
                              **kwargs, **POKER_TAG_SETTINGS) for s in states]
            for bot, s in zip(bots, states):
                bot.step(s)  # warm

            def run(bots=bots, states=states):
                for bot, s in zip(bots, states):
                    bot.step(s)

            speeds[engine] = len(states) * iterations / timeit(run, repeat=5 if engine == "compiled" else 1)
        rows.append(row(f"poker_tag {algo} with TAG settings (rollout length 0) compiled vs Python reference",
                        speeds["compiled"], speeds["python"], "it/s", goal=">= 20x"))
    for algo, bot_class, kwargs in (("PI-MCTS(D=100)", PIMCTSBot, {"determinizations": 100}),
                                    ("PI-MCTS(D=500)", PIMCTSBot, {"determinizations": 500}),
                                    ("IS-MCTS", ISMCTSBot, {})):
        bots = [bot_class(game, s.current_player(), iterations=10_000, rng=0, engine="compiled", **kwargs,
                          **POKER_TAG_SETTINGS) for s in states]
        bots[0].step(states[0])

        def move(bots=bots):
            for bot, s in zip(bots, states):
                bot.step(s)

        seconds = timeit(move, repeat=3) / len(states)
        rows.append(row(f"poker_tag paper move {algo}, B = 10,000, TAG settings, compiled", seconds, None,
                        "s/move", higher_is_better=False))


def bench_compile(rows, games=None):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(LIB), os.environ.get("PYTHONPATH", "")])}
    for label, (name, params, *_) in (GAMES if games is None else games).items():
        with tempfile.TemporaryDirectory() as cache:
            env["NUMBA_CACHE_DIR"] = cache
            times = []
            for _ in range(2):  # fresh cache, then cached
                command = [sys.executable, "-c", COMPILE_SCRIPT, name, str(params.get("dice_sides", 0))]
                done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
                out = done.stdout.split()
                times.append([float(x) for x in out])
        fresh, cached = times
        rows.append(row(f"{label} first-call compile (OL/PI trees + IS-MCTS, fresh cache) vs cached load",
                        fresh[1] + fresh[2], cached[1] + cached[2], "s", higher_is_better=False,
                        import_s=fresh[0], trees_s=fresh[1], ismcts_s=fresh[2]))


def bench_strength(games, iterations, rows, cpp_c, label, game_label="leduc"):
    """``games`` games of compiled IS-MCTS in one seat (seat = game index mod players) against
    C++ ``ISMCTSBot`` in every other seat, after the game's random opening actions; per game,
    ours minus the others' mean return."""
    name, _, opening = CPP_GAMES[game_label]
    game = pyspiel.load_game(name)
    players = game.num_players()
    rng = np.random.default_rng(2026)
    margins = []
    for g in range(games):
        seat = g % players
        bots = [make_cpp_ismcts_bot(game, iterations=iterations, uct_c=cpp_c,
                                    seed=int(rng.integers(2**31 - 1))) for _ in range(players)]
        bots[seat] = ISMCTSBot(game, seat, iterations=iterations, rng=rng, engine="compiled")
        state, made = game.new_initial_state(), 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.integers(len(outcomes))][0])
            elif made < opening:
                legal = state.legal_actions()
                state.apply_action(legal[rng.integers(len(legal))])
                made += 1
            else:
                state.apply_action(bots[state.current_player()].step(state))
        returns = state.returns()
        margins.append(returns[seat] - (sum(returns) - returns[seat]) / (players - 1))
    mean = float(np.mean(margins))
    half = 1.96 * float(np.std(margins, ddof=1)) / math.sqrt(len(margins))
    unit = "chips" if game_label == "leduc" else "points"
    name = (f"{game_label} strength: compiled IS-MCTS vs C++ ISMCTSBot ({label}), ours minus the "
            f"other seats' mean return, {games} games")
    rows.append(row(name, mean, None, unit, goal="95% CI contains 0", ci_low=mean - half,
                    ci_high=mean + half, games=games, iterations=iterations))


def strength(args, rows):
    """The strength check twice. Ours normalises returns to [0, 1] with c = 1; C++ searches on
    raw returns (leduc: span 26, hearts: 36)."""
    game = pyspiel.load_game(CPP_GAMES[args.strength_game][0])
    span = game.max_utility() - game.min_utility()
    for c, label in ((1.0, "C++ c = 1 on raw returns"), (span, f"C++ c = {span:g}: same exploration")):
        bench_strength(args.strength, args.iterations, rows, c, label, args.strength_game)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=1000)
    parser.add_argument("--strength", type=int, default=0, help="games of the strength check (0: skip)")
    parser.add_argument("--strength-game", choices=tuple(CPP_GAMES), default="leduc",
                        help="the game of the strength check")
    parser.add_argument("--tabletop-only", nargs="*", default=None,
                        help="run only the tabletop-port rows (of these ports; none named: all)")
    parser.add_argument("--vs-cpp-only", nargs="*", default=None, choices=tuple(CPP_GAMES),
                        help="run only the rows against OpenSpiel's C++ bots (of these games; "
                             "none named: all), and the strength check if asked")
    args = parser.parse_args()
    rows = []
    t0 = time.perf_counter()
    if args.vs_cpp_only is not None:
        for label in args.vs_cpp_only or list(CPP_GAMES):
            bench_vs_cpp(args.iterations, rows, label)
        if args.strength:
            strength(args, rows)
        report("engine_vs_cpp", rows)
        print(f"total {time.perf_counter() - t0:.0f} s")
        return
    if args.tabletop_only is not None:
        only = args.tabletop_only or list(TABLETOP)
        bench_compile(rows, {label: TABLETOP[label] for label in only})
        bench_tabletop_vs_python(rows, only)
        report("engine_tabletop", rows)
        return
    bench_compile(rows)
    bench_compile(rows, TABLETOP)
    for label in CPP_GAMES:
        bench_vs_cpp(args.iterations, rows, label)
    bench_vs_python(args.iterations, rows)
    bench_poker_tag(args.iterations, rows)
    bench_tabletop_vs_python(rows)
    if args.strength:
        strength(args, rows)
    report("engine", rows)
    print(f"total {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
