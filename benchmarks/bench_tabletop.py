"""Random-playout speed of the tabletop ports against OpenSpiel's C++ hearts, in one run.

The ports are the TAG games of Ravichandran, Goodman and Lucas
(docs/papers/pimcts_aggregation.md): sushi_go, love_letter, exploding_kittens, virus,
stratego, dominion, poker_tag, seven_wonders, colt_express and monopoly_deal. For each port:
- random playouts (deal included) per second through the pyspiel interface, next to
  OpenSpiel's hearts driven by the very same loop (reference);
- the same playouts on the bare kernel (``state.kernel``; what a search can use);
- the game's ``sample_world`` (``determinizers.sampler_for``) calls per second next to
  hearts' ``resample_from_infostate``.
Games differ in length, so decision moves per game are printed too. Ports with a numba kernel
(``infosets.games.kernels``) also get their compiled random playouts (the compiled engine's
rollout) against the Python kernel's (goal >= 20x; >= 2x where the rules are written once and
the Python kernel is an ``ArrayKernel`` stepping the same numba rules). ``--ports`` picks ports.
Run: ``nice -n 10 .venv/bin/python benchmarks/bench_tabletop.py [--seconds S]``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np
import pyspiel

import infosets.games  # noqa: F401  (registers the ports)
from infosets.core.pcg32 import PCG32
from infosets.games import _tabletop as tt
from infosets.games import determinizers
from infosets.games.array_kernel import ArrayKernel
from infosets.games.kernels import kernel_for
from infosets.search.compiled import engine_for

sys.path.insert(0, os.path.dirname(__file__))
from _harness import (
    report,  # noqa: E402
    row,  # noqa: E402
)

TOPIC = "tabletop"
PORTS = ("sushi_go", "sushi_go(players=5)", "love_letter", "exploding_kittens", "virus", "stratego",
         "dominion", "poker_tag", "seven_wonders")
# -- colt_express / monopoly_deal ports --
PORTS += ("colt_express", "monopoly_deal")
# -- end colt_express / monopoly_deal ports --


def timed(loop, seconds: float) -> tuple[int, int, float]:
    """Calls loop() until ``seconds`` pass; returns (calls, total count returned, elapsed)."""
    calls, count = 0, 0
    start = time.perf_counter()
    while True:
        count += loop()
        calls += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return calls, count, elapsed


def pick_chance(outcomes, rng) -> int:
    """An outcome drawn from a pyspiel chance distribution."""
    r, acc = rng.random(), 0.0
    for outcome, p in outcomes:
        acc += p
        if r < acc:
            return outcome
    return outcomes[-1][0]


def pyspiel_playout(game, rng):
    def loop():
        state = game.new_initial_state()
        moves = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(pick_chance(state.chance_outcomes(), rng))
            else:
                legal = state.legal_actions()
                state.apply_action(legal[int(rng.random() * len(legal))])
                moves += 1
        return moves
    return loop


def kernel_playout(game, rng):
    def loop():
        kernel = game.new_kernel()
        moves = 0
        while not kernel.is_terminal():
            if kernel.current_player() == tt.CHANCE:
                kernel.apply(tt.sample_chance(kernel, rng))
            else:
                legal = kernel.legal_actions()
                kernel.apply(legal[int(rng.random() * len(legal))])
                moves += 1
        return moves
    return loop


def compiled_playout(game, seed: int):
    """Random playouts of the game's numba kernel (the compiled engine's rollout), from the
    start; one call per game, so the Python call overhead is counted."""
    kernel = kernel_for(game)
    start = kernel.from_history([])
    buf, probs = np.zeros(kernel.num_actions, np.int64), np.zeros(kernel.num_actions)
    returns, stream = np.zeros(kernel.num_players), PCG32(seed).to_array()
    state, rollout = start.copy(), engine_for(kernel.rules)._rollout
    rollout(state, stream, -1, buf, probs, returns, None, None, None)  # compiles or loads: not timed

    def loop():
        state[:] = start
        rollout(state, stream, -1, buf, probs, returns, None, None, None)  # today's: no TAG, no record
        return 0
    return loop


def decision_states(game, rng, count: int) -> list:
    """Decision states from random games (every fifth decision), for resampling."""
    states = []
    while len(states) < count:
        state = game.new_initial_state()
        moves = 0
        while not state.is_terminal() and len(states) < count:
            if state.is_chance_node():
                state.apply_action(pick_chance(state.chance_outcomes(), rng))
                continue
            if moves % 5 == 0:
                states.append(state.clone())
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.random() * len(legal))])
            moves += 1
    return states


def resampler(states: list, rng):
    """A loop calling the game's ``sample_world`` (``sampler_for``) on the states in turn."""
    calls = [0]
    sample_world = determinizers.sampler_for(states[0].get_game())

    def loop():
        state = states[calls[0] % len(states)]
        calls[0] += 1
        sample_world(state, state.current_player(), rng)
        return 1
    return loop


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    parser.add_argument("--ports", nargs="*", default=None, help="only these ports (default: all)")
    args = parser.parse_args(argv)
    if not 0.1 <= args.seconds <= 60:
        raise ValueError(f"seconds: must be in [0.1, 60], got {args.seconds}")
    rng = np.random.default_rng(0)
    hearts = pyspiel.load_game("hearts")
    calls, moves, elapsed = timed(pyspiel_playout(hearts, rng), args.seconds)
    hearts_rate = calls / elapsed
    print(f"hearts: {hearts_rate:.1f} games/s, {moves / calls:.1f} decision moves/game")
    hearts_states = decision_states(hearts, rng, 50)
    sampler = pyspiel.UniformProbabilitySampler(1, 0.0, 1.0)
    i = [0]

    def hearts_resample():
        state = hearts_states[i[0] % len(hearts_states)]
        i[0] += 1
        state.resample_from_infostate(state.current_player(), sampler)
        return 1

    n, _, elapsed = timed(hearts_resample, args.seconds)
    hearts_resample_rate = n / elapsed
    rows = []
    for name in PORTS if args.ports is None else args.ports:
        game = pyspiel.load_game(name)
        pyspiel_playout(game, rng)()  # warm-up, not timed: a port's numba rules compile or load here
        calls, moves, elapsed = timed(pyspiel_playout(game, rng), args.seconds)
        rate = calls / elapsed
        print(f"{name}: {moves / calls:.1f} decision moves/game", flush=True)
        rows.append(row(f"{name} random playouts via pyspiel", rate, hearts_rate, "games/s",
                        goal="reference = hearts (C++) through the same loop",
                        moves_per_game=moves / calls))
        calls, moves, elapsed = timed(kernel_playout(game, rng), args.seconds)
        kernel_rate = calls / elapsed
        rows.append(row(f"{name} random playouts on the kernel", kernel_rate, hearts_rate,
                        "games/s", goal="reference = hearts (C++) through pyspiel",
                        moves_per_game=moves / calls))
        if kernel_for(game) is not None:
            kernel_calls, _, kernel_elapsed = timed(compiled_playout(game, 0), args.seconds)
            # A port whose rules are written once has no Python rules left: its Python kernel
            # (ArrayKernel) calls the same numba rules one step at a time, so this row then
            # measures the compiled rollout against that per-step loop (its own goal).
            once = isinstance(game.new_kernel(), ArrayKernel)
            rows.append(row(f"{name} random playouts, compiled rollout vs "
                            f"{'the per-step ArrayKernel loop' if once else 'the Python kernel'}",
                            kernel_calls / kernel_elapsed, calls / elapsed, "games/s",
                            goal=">= 2x" if once else ">= 20x"))
        n, _, elapsed = timed(resampler(decision_states(game, rng, 50), rng), args.seconds)
        rows.append(row(f"{name} sample_world", n / elapsed, hearts_resample_rate, "calls/s",
                        goal="reference = hearts resample_from_infostate (C++)"))
    report(TOPIC, rows)


if __name__ == "__main__":
    main()
