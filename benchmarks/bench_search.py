"""Benchmark for the search kernels of pimcts_aggregation (Ravichandran, Goodman and Lucas):
iterations per second of OL-MCTS / PI-MCTS against OpenSpiel's C++ MCTSBot on one world
(leduc, hearts, oh_hell), of our IS-MCTS against OpenSpiel's C++ ISMCTSBot (leduc, hearts),
and of both against OpenSpiel's Python mcts.MCTSBot / ismcts.ISMCTSBot. Each search runs
from the same decision state with 1000 iterations and one random rollout per iteration.
Goals (issue 4): OL/PI-MCTS >= 0.8x C++ MCTSBot; IS-MCTS >= 0.25x C++ ISMCTSBot and >= 3x
OpenSpiel's Python bots.
"""
from __future__ import annotations

import random

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts as os_ismcts
from open_spiel.python.algorithms import mcts as os_mcts

from _harness import report, row, timeit
from infosets.games.determinizers import sampler_for
from infosets.games.leduc_poker.kernel import leduc_kernel_sampler
from infosets.search.common import RewardScale
from infosets.search.ismcts import ISMCTSBot, make_cpp_ismcts_bot
from infosets.search.mcts import OLMCTSBot, cpp_uct_search, uct_search
from infosets.search.pimcts import PIMCTSBot

ITERATIONS = 1000
GAMES = {"leduc": "leduc_poker", "hearts": "hearts", "oh_hell": "oh_hell(players=3)"}


def decision_state(game, seed=3, skip=6):
    """A mid-game decision with at least two legal actions (hearts: past the passing)."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    made = 0
    while state.is_chance_node() or made < skip or len(state.legal_actions()) < 2:
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.integers(len(outcomes))][0])
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.integers(len(legal))])
            made += 1
    return state


def per_second(seconds, iterations=ITERATIONS):
    return iterations / seconds


def bench_one_world(label, rows):
    game = pyspiel.load_game(GAMES[label])
    state = decision_state(game, skip=20 if label == "hearts" else 2)
    player = state.current_player()
    world = sampler_for(game)(state, player, np.random.default_rng(0))
    scale = RewardScale(game, True)
    rnd = random.Random(0)
    ours = per_second(timeit(lambda: uct_search(world, ITERATIONS, 1.0, rnd, scale), repeat=3))
    cpp = per_second(timeit(lambda: cpp_uct_search(world, ITERATIONS, 1.0, 1, scale), repeat=5, number=5))
    evaluator = os_mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    os_bot = os_mcts.MCTSBot(game, 1.0, ITERATIONS, evaluator, solve=False,  # as our C++ reference
                             random_state=np.random.RandomState(0))
    os_py = per_second(timeit(lambda: os_bot.mcts_search(world), repeat=3))
    rows.append(row(f"{label} OL-MCTS python engine vs C++ MCTSBot (one world)", ours, cpp, "it/s",
                    goal=">= 0.8x"))
    rows.append(row(f"{label} OL-MCTS python engine vs OpenSpiel Python mcts.MCTSBot", ours, os_py,
                    "it/s", goal=">= 3x"))
    ol = OLMCTSBot(game, player, iterations=ITERATIONS, rng=0, engine="cpp")
    ol_cpp = per_second(timeit(lambda: ol.step(state), repeat=3))
    rows.append(row(f"{label} OL-MCTS(engine=cpp, incl. sampling) vs C++ MCTSBot", ol_cpp, cpp, "it/s",
                    goal=">= 0.8x"))
    for engine in ("cpp", "python"):
        bot = PIMCTSBot(game, player, iterations=ITERATIONS, determinizations=10, rng=0, engine=engine)
        pi = per_second(timeit(lambda bot=bot: bot.step(state), repeat=3))
        rows.append(row(f"{label} PI-MCTS(D=10, engine={engine}, incl. sampling) vs C++ MCTSBot",
                        pi, cpp, "it/s", goal=">= 0.8x"))


def bench_ismcts(label, rows):
    game = pyspiel.load_game(GAMES[label])
    state = decision_state(game, skip=20 if label == "hearts" else 2)
    player = state.current_player()
    ours_bot = ISMCTSBot(game, player, iterations=ITERATIONS, rng=0)
    ours = per_second(timeit(lambda: ours_bot.search(state), repeat=3))
    cpp_bot = make_cpp_ismcts_bot(game, iterations=ITERATIONS, seed=0)
    cpp = per_second(timeit(lambda: cpp_bot.step(state), repeat=5, number=5))
    evaluator = os_mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    os_bot = os_ismcts.ISMCTSBot(game, evaluator, 1.0, ITERATIONS,
                                 random_state=np.random.RandomState(0))
    os_py = per_second(timeit(lambda: os_bot.step(state), repeat=3))
    rows.append(row(f"{label} IS-MCTS (ours, availability) vs C++ ISMCTSBot", ours, cpp, "it/s",
                    goal=">= 0.25x"))
    rows.append(row(f"{label} IS-MCTS (ours) vs OpenSpiel Python ismcts.ISMCTSBot", ours, os_py,
                    "it/s", goal=">= 3x"))


def bench_ismcts_leduc_kernel(rows):
    """IS-MCTS on leduc with the integer kernel's world sampler (references re-measured here)."""
    game = pyspiel.load_game(GAMES["leduc"])
    state = decision_state(game, skip=2)
    player = state.current_player()
    ours_bot = ISMCTSBot(game, player, iterations=ITERATIONS, rng=0, sampler=leduc_kernel_sampler)
    ours = per_second(timeit(lambda: ours_bot.search(state), repeat=7, number=3))
    cpp_bot = make_cpp_ismcts_bot(game, iterations=ITERATIONS, seed=0)
    cpp = per_second(timeit(lambda: cpp_bot.step(state), repeat=5, number=5))
    evaluator = os_mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    os_bot = os_ismcts.ISMCTSBot(game, evaluator, 1.0, ITERATIONS,
                                 random_state=np.random.RandomState(0))
    os_py = per_second(timeit(lambda: os_bot.step(state), repeat=3))
    rows.append(row("leduc IS-MCTS (ours, kernel sampler) vs C++ ISMCTSBot", ours, cpp, "it/s",
                    goal=">= 0.25x"))
    rows.append(row("leduc IS-MCTS (ours, kernel sampler) vs OpenSpiel Python ismcts.ISMCTSBot",
                    ours, os_py, "it/s", goal=">= 3x"))


def main():
    rows = []
    for label in GAMES:
        bench_one_world(label, rows)
    for label in ("leduc", "hearts"):
        bench_ismcts(label, rows)
    bench_ismcts_leduc_kernel(rows)
    report("search", rows)


if __name__ == "__main__":
    main()
