"""Speed of the CG nC kernel against its pyspiel adapter and OpenSpiel's C++ hearts.

The trick game of Arjonilla, Saffidine and Cazenave (2024; docs/papers/belief_mixtures.md).
Measures, in one run (ratios are what matter on a shared machine):
- random playouts (deal included) per second: kernel vs the pyspiel adapter, and vs
  OpenSpiel's hearts driven through the same pyspiel loop (hearts is a longer game, so
  actions per second are printed too);
- exact-solver nodes per second and deals solved per second on CG 20C: the kernel search
  vs the generic pyspiel search of ``infosets.search.solvers`` on the same deals;
- deals solved per second on CG 20C with all cards dealt (hand 10): the compiled kernel
  search vs its Python reference (``compiled_kernel=False``), same values.
Run: ``nice -n 10 .venv/bin/python benchmarks/bench_trick_game.py [--seconds S]``.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

import numpy as np
import pyspiel

import infosets.games  # noqa: F401  (registers trick_game)
from infosets.games.trick_game import array_rules as K
from infosets.search import solvers

sys.path.insert(0, os.path.dirname(__file__))
from _harness import report  # noqa: E402
from _harness import row as harness_row  # noqa: E402

TOPIC = "trick_game"


def timed(loop, seconds: float) -> tuple[int, int, float]:
    """Calls loop() until `seconds` pass; returns (calls, total count returned, elapsed)."""
    calls, count = 0, 0
    start = time.perf_counter()
    while True:
        count += loop()
        calls += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return calls, count, elapsed


def kernel_playout(num_cards, hand_size, rng):
    def loop():
        state = K.TrickState(num_cards, hand_size)
        K.random_playout(state, rng)
        return 4 * hand_size  # actions: 2h deals + 2h plays
    return loop


def pyspiel_playout(game, rng):
    def loop():
        state = game.new_initial_state()
        actions = 0
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.random() * len(legal))])
            actions += 1
        return actions
    return loop


def solver_loop(solver, worlds):
    index = [0]

    def loop():
        state = worlds[index[0] % len(worlds)]
        index[0] += 1
        solver.clear()
        before = solver.nodes
        solver.action_values(state, state.current_player())
        return solver.nodes - before
    return loop


def random_deals(game, count, rng):
    deals = []
    for _ in range(count):
        state = game.new_initial_state()
        while state.is_chance_node():
            state.apply_action(int(rng.choice(state.legal_actions())))
        deals.append(state)
    return deals


def row(name, ours, reference, unit, ours_label, reference_label):
    """A harness row that also says what was measured on each side."""
    return harness_row(name, ours, reference, unit, ours_label=ours_label,
                       reference_label=reference_label)


def main(seconds: float) -> list[dict]:
    # One stdlib generator seeded from the root seed drives every playout (numpy's scalar
    # draws would dominate the loops); the solver deals use the numpy stream.
    rng = np.random.default_rng(0)
    fast_rng = random.Random(int(rng.integers(2**63)))
    rows = []
    hearts = pyspiel.load_game("hearts")
    hearts_calls, hearts_actions, hearts_time = timed(pyspiel_playout(hearts, fast_rng), seconds)
    for n in (10, 20):
        game = pyspiel.load_game(f"trick_game(num_cards={n})")
        h = game.hand_size
        k_calls, k_actions, k_time = timed(kernel_playout(n, h, fast_rng), seconds)
        a_calls, a_actions, a_time = timed(pyspiel_playout(game, fast_rng), seconds)
        rows.append(row(f"playouts_cg{n}c_kernel_vs_adapter", k_calls / k_time,
                        a_calls / a_time, "games/s", "kernel", "pyspiel adapter"))
        rows.append(row(f"playouts_cg{n}c_kernel_vs_hearts", k_calls / k_time,
                        hearts_calls / hearts_time, "games/s", f"kernel CG {n}C",
                        "OpenSpiel C++ hearts via pyspiel"))
        rows.append(row(f"actions_cg{n}c_kernel_vs_hearts", k_actions / k_time,
                        hearts_actions / hearts_time, "actions/s", f"kernel CG {n}C",
                        "OpenSpiel C++ hearts via pyspiel"))
        rows.append(row(f"actions_cg{n}c_adapter_vs_hearts", a_actions / a_time,
                        hearts_actions / hearts_time, "actions/s", f"adapter CG {n}C",
                        "OpenSpiel C++ hearts via pyspiel"))
    game = pyspiel.load_game("trick_game(num_cards=20)")
    deals = random_deals(game, 50, rng)
    fast, generic = solvers.PerfectInfoSolver(), solvers.PerfectInfoSolver(use_trick_kernel=False)
    f_calls, f_nodes, f_time = timed(solver_loop(fast, deals), seconds)
    g_calls, g_nodes, g_time = timed(solver_loop(generic, deals), seconds)
    rows.append(row("solver_cg20c_nodes", f_nodes / f_time, g_nodes / g_time, "nodes/s",
                    "kernel alpha-beta", "generic alpha-beta on pyspiel states"))
    rows.append(row("solver_cg20c_deals", f_calls / f_time, g_calls / g_time,
                    "deals/s", "kernel action_values at the first lead",
                    "generic action_values"))
    deals = random_deals(pyspiel.load_game("trick_game(num_cards=20,hand_size=10)"), 50, rng)
    compiled, python = solvers.PerfectInfoSolver(), solvers.PerfectInfoSolver(compiled_kernel=False)
    compiled.action_values(deals[0], 0)  # numba's compile (or cache load) outside the timing
    c_calls, _, c_time = timed(solver_loop(compiled, deals), seconds)
    p_calls, _, p_time = timed(solver_loop(python, deals), seconds)
    rows.append(row("solver_cg20c_hand10_compiled_vs_python", c_calls / c_time,
                    p_calls / p_time, "deals/s", "compiled kernel action_values (numba)",
                    "Python kernel action_values"))
    return rows


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0,
                        help="time budget of each measurement")
    report(TOPIC, main(parser.parse_args().seconds))
