"""Benchmark of the compiled search engine of pimcts_aggregation (Ravichandran, Goodman and
Lucas): every number is a ratio of two measurements taken in this run.

* IS-MCTS on leduc and hearts, compiled vs OpenSpiel's C++ ``ISMCTSBot``, equal iterations
  (goal >= 1x).
* OL-MCTS on leduc and hearts, compiled (one sampled world + one tree) vs OpenSpiel's C++
  ``MCTSBot`` on one world (goal >= 1x).
* PI-MCTS (D = 10) and IS-MCTS, compiled vs the Python reference engine, on the same
  positions of each kernel game (goal >= 20x). The Python reference draws from the PCG32 now
  (pure Python), so it is somewhat slower than the engine before the compiled one existed.
* poker_tag with TAG's Poker settings (rollout length 0, LeaderHeuristic): the paper's Poker
  move (B = 10,000, D = 100 / 500, IS-MCTS) in seconds.
* The paper games with a kernel (the ten tabletop ports at the paper's player counts, and
  hearts): PI-MCTS (D = 10) and IS-MCTS compiled vs the Python reference engine, same
  positions and iterations (goal >= 20x), with the per-game agents pimcts_aggregation plays:
  the paper preset's settings (K, rollout length and heuristic, depth limit, FPU, epsilon) and
  TAG's agents (``--agents paper|tag|both``); ``--tabletop-only [PORT ...]`` runs just these
  rows and their compile times (``--skip-compile``: not those).
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
[--strength-game leduc] [--agents both] [--vs-cpp-only [leduc hearts]]
[--tabletop-only [PORT ...] [--skip-compile]]``.
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
from infosets.core.allocator import keep_freed_memory
from infosets.games.determinizers import sampler_for
from infosets.papers.pimcts_aggregation import tuned_kwargs
from infosets.search.common import RewardScale
from infosets.search.ismcts import ISMCTSBot, make_cpp_ismcts_bot
from infosets.search.mcts import CppTreeRunner, OLMCTSBot
from infosets.search.pimcts import PIMCTSBot

GAMES = {"leduc": "leduc_poker", "liars_dice": "liars_dice(dice_sides=6)", "trick_game": "trick_game",
         "poker_tag": "poker_tag"}
# TAG's Poker settings (json/players/gameSpecific/Poker/Poker_3+P.json): rollouts cut at once,
# the leaf scored by the LeaderHeuristic.
POKER_TAG_SETTINGS = {"rollout_length": 0}
# Tabletop ports with a kernel (the paper's player counts).
GAMES.update({"sushi_go(3p)": "sushi_go(players=3)", "sushi_go(5p)": "sushi_go(players=5)",
              "love_letter": "love_letter", "virus": "virus"})
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
    for label, game_string in GAMES.items():
        game = pyspiel.load_game(game_string)
        states = [decision_state(game, seed=s) for s in range(3)]
        for algo, bot_class, kwargs in (("PI-MCTS(D=10)", PIMCTSBot, {"determinizations": 10}),
                                        ("IS-MCTS", ISMCTSBot, {})):
            speeds = {engine: fresh_bot_speed(game, states, bot_class, engine, kwargs, iterations,
                                              repeat=5 if engine == "compiled" else 1)
                      for engine in ("compiled", "python")}
            rows.append(row(f"{label} {algo} compiled vs Python reference engine (same positions)",
                            speeds["compiled"], speeds["python"], "it/s", goal=">= 20x"))


def fresh_bot_speed(game, states, bot_class, engine, kwargs, iterations, repeat) -> float:
    """Iterations per second of one move at each of ``states``, each timed round by bots built
    for it beforehand (a bot that reuses its tree would find a timed position already
    searched; building is not timed). The compiled engine scores rollout cut-offs with its
    kernel's heuristic, so a Python ``heuristic`` in ``kwargs`` is dropped for it, as
    ``engine="auto"`` does in the paper runs (``search.mcts.game_settings``)."""
    if engine == "compiled":
        kwargs = {k: v for k, v in kwargs.items() if k != "heuristic"}
    rounds = [[bot_class(game, s.current_player(), iterations=iterations, rng=0, engine=engine,
                         **kwargs) for s in states]
              for _ in range(repeat + (engine == "compiled"))]  # + a warm-up round (compile)

    def run():
        for bot, s in zip(rounds.pop(), states):
            bot.step(s)

    if engine == "compiled":
        run()  # warm: compile or load the cache
    return len(states) * iterations / timeit(run, repeat=repeat)


# -- tabletop ports and Hearts: the paper games with a kernel, searched with the per-game agents
# of pimcts_aggregation (``tuned_kwargs``, read from ``papers/pimcts_settings.csv``): the paper
# preset's (K, rollout length and heuristic, depth limit, FPU, epsilon, from TAG's tuned files)
# or, with ``--agents tag``, TAG's own agents (MultiTree, UCB-Tuned, regret matching, MAST, MaxMC,
# rollout termination, tree reuse: docs/tag_agents.md). Python searches these slowly, so fewer
# iterations. Label: the paper's game string.
TABLETOP = {"stratego": "stratego", "exploding_kittens": "exploding_kittens(players=3)",
            "dominion": "dominion(players=3)", "colt_express": "colt_express(players=3)",
            "monopoly_deal": "monopoly_deal(players=3)", "seven_wonders": "seven_wonders(players=3)",
            "sushi_go": "sushi_go(players=3)", "love_letter": "love_letter(players=3)",
            "virus": "virus(players=3)", "poker_tag": "poker_tag(players=3)", "hearts": "hearts"}
TABLETOP_ITERATIONS = 200
AGENTS = {"paper": "the paper preset's per-game settings", "tag": "TAG's agents"}


def agent_settings(bot_class, game_string: str, agents: str) -> dict:
    """The keywords pimcts_aggregation gives ``bot_class`` on this game under ``agents``."""
    return tuned_kwargs(bot_class, game_string, {"tuned_settings": True, "tag_agents": agents == "tag"})


def bench_tabletop_vs_python(rows, only=None, agents="paper"):
    """PI-MCTS (D = 10) and IS-MCTS on the paper games with a kernel, with the per-game agents
    ``agents``, compiled vs the Python reference engine, same positions and iterations."""
    iterations = TABLETOP_ITERATIONS
    for label, game_string in TABLETOP.items():
        if only and label not in only:
            continue
        game = pyspiel.load_game(game_string)
        states = [decision_state(game, seed=s, skip=10) for s in range(2)]
        for algo, bot_class, kwargs in (("PI-MCTS(D=10)", PIMCTSBot, {"determinizations": 10}),
                                        ("IS-MCTS", ISMCTSBot, {})):
            settings = agent_settings(bot_class, game_string, agents)
            speeds = {engine: fresh_bot_speed(game, states, bot_class, engine, {**kwargs, **settings},
                                              iterations, repeat=3 if engine == "compiled" else 1)
                      for engine in ("compiled", "python")}
            shown = {k: getattr(v, "__name__", v) for k, v in settings.items()}
            rows.append(row(f"{label} {algo} compiled vs Python reference engine ({AGENTS[agents]}, "
                            f"same positions)", speeds["compiled"], speeds["python"], "it/s",
                            goal=">= 20x", iterations=iterations, settings=str(shown)))
# -- end tabletop ports --


COMPILE_SCRIPT = r"""
import sys, time
t0 = time.perf_counter()
import pyspiel
import infosets.games
from infosets.search.ismcts import ISMCTSBot
from infosets.search.pimcts import PIMCTSBot
game = pyspiel.load_game(sys.argv[1])
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


def bench_poker_tag(rows):
    """The paper's Poker move (B = 10,000; D = 100 and 500; IS-MCTS) compiled, with TAG's
    Poker settings, in seconds per move."""
    game = pyspiel.load_game("poker_tag")
    states = [decision_state(game, seed=s) for s in range(3)]
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
    for label, game_string in (GAMES if games is None else games).items():
        with tempfile.TemporaryDirectory() as cache:
            env["NUMBA_CACHE_DIR"] = cache
            times = []
            for _ in range(2):  # fresh cache, then cached
                command = [sys.executable, "-c", COMPILE_SCRIPT, game_string]
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
    parser.add_argument("--agents", choices=(*AGENTS, "both"), default="both",
                        help="the per-game agents of the tabletop rows: the paper preset's, TAG's, or both")
    parser.add_argument("--skip-compile", action="store_true",
                        help="with --tabletop-only: leave out the fresh-cache compile rows")
    parser.add_argument("--vs-cpp-only", nargs="*", default=None, choices=tuple(CPP_GAMES),
                        help="run only the rows against OpenSpiel's C++ bots (of these games; "
                             "none named: all), and the strength check if asked")
    parser.add_argument("--vs-python-only", action="store_true",
                        help="run only the kernel games' rows against our Python reference "
                             "(Leduc, Liar's Dice, the trick game)")
    args = parser.parse_args()
    keep_freed_memory()  # as `make` and the paper runs do (benchmarks/bench_allocator.py: without it)
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
    if args.vs_python_only:
        bench_vs_python(args.iterations, rows)
        report("engine_vs_python", rows)
        print(f"total {time.perf_counter() - t0:.0f} s")
        return
    agents = list(AGENTS) if args.agents == "both" else [args.agents]
    if args.tabletop_only is not None:
        only = args.tabletop_only or list(TABLETOP)
        if not args.skip_compile:
            bench_compile(rows, {label: TABLETOP[label] for label in only})
        for kind in agents:
            bench_tabletop_vs_python(rows, only, kind)
        report("engine_tabletop", rows)
        print(f"total {time.perf_counter() - t0:.0f} s")
        return
    bench_compile(rows)
    bench_compile(rows, TABLETOP)
    for label in CPP_GAMES:
        bench_vs_cpp(args.iterations, rows, label)
    bench_vs_python(args.iterations, rows)
    bench_poker_tag(rows)
    for kind in agents:
        bench_tabletop_vs_python(rows, agents=kind)
    if args.strength:
        strength(args, rows)
    report("engine", rows)
    print(f"total {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
