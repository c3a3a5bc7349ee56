"""Speed and memory of MCMC history filtering against enumeration on Oh Hell public states.

Solinas, Rebstock, Sturtevant, Buro (arXiv 2311.14651; docs/papers/history_filtering.md).
Measures, in one run (ratios are what matter on a shared machine):
- Metropolis-Hastings transitions per second on the largest default public state, against
  OpenSpiel replays per second of the same histories (what a transition costs if the reach
  of each proposal is evaluated by replaying it through pyspiel); goal >= 20k/s;
- time for the chain (burn-in 20) to reach True sampling's RMS error at 400 samples, against
  the time to enumerate the public state (reach and V(h) of every history); goal >= 50x;
- peak memory (tracemalloc) of both.
Run: ``nice -n 10 .venv/bin/python benchmarks/bench_filtering.py [--state P-S-C-T-K-seed]``.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
import tracemalloc

import numpy as np

from infosets.core.rng import as_random
from infosets.experiments.config import load
from infosets.filtering.baselines import mcmc_estimates
from infosets.filtering.enumerate import ExplicitRange
from infosets.filtering.mcmc import AssignmentTable, RingSwapChain
from infosets.filtering.policies import OhHellRange
from infosets.papers import history_filtering as hf

sys.path.insert(0, os.path.dirname(__file__))
from _harness import (
    report,  # noqa: E402
    row,  # noqa: E402
)

TOPIC = "filtering"


def pyspiel_log_reach(ps, hands, table) -> float:
    """Reach of one history the OpenSpiel way: replay it, and at each decision look the
    policy up by information-state string (what a transition costs without our kernel)."""
    game = ps.load_game()
    state = game.new_initial_state()
    target = ps.to_state(hands, check=False).history()
    total = 0.0
    for action in target:
        if not state.is_chance_node():
            key = state.information_state_string()
            legal = state.legal_actions()
            probs = table.get(key)
            if probs is None:
                probs = table[key] = {a: 1.0 / len(legal) for a in legal}
            total += math.log(probs[action])
        state.apply_action(action)
    return total


def main(argv=None) -> int:
    cfg = load(hf.SLUG, "default").values
    parser = argparse.ArgumentParser()
    parser.add_argument("--state", default=None, help="P-S-C-T-K-seed (default: largest default)")
    parser.add_argument("--runs", type=int, default=60, help="chain runs for the RMS error")
    parser.add_argument("--transitions", type=int, default=50_000)
    args = parser.parse_args(argv)
    rows = []

    # 1. transitions per second on the largest default public state
    sizes = {s: AssignmentTable(hf.build_state(cfg, s)[1]).size for s in cfg["states"]}
    largest = max(sizes, key=sizes.get)
    ps, c, rng_range, value, _ = hf.build_state(cfg, largest)
    chain = RingSwapChain(c, rng_range.log_reach, rng=0)
    chain.run(5000)  # warm the neighbourhood and reach caches
    t0 = time.perf_counter()
    chain.run(args.transitions)
    rate = args.transitions / (time.perf_counter() - t0)
    deals = chain.sample(200, 0, 7)
    table = {}  # a tabular policy keyed by information-state strings (uniform values)
    t0 = time.perf_counter()
    for hands in deals:
        pyspiel_log_reach(ps, hands, table)
    replay_rate = len(deals) / (time.perf_counter() - t0)
    rows.append(row(f"MH transitions/s ({largest}, |H_S|={sizes[largest]:,})", rate,
                    replay_rate, "1/s",
                    goal=">= 20k/s; reference: reach evaluations/s by pyspiel replay with "
                         "information-state-string lookups",
                    acceptance=chain.accepted / chain.transitions))

    # 2. time to True sampling's error at 400 samples vs time to enumerate (~1e5-1e6)
    big = args.state or "3-4-6-4-6-1"  # 638,820 histories (the paper: 544,320)
    ps, c, rng_range, value, _ = hf.build_state(cfg, big)
    def enumerate_range():  # cold reach and value caches
        return ExplicitRange(c, OhHellRange(ps, rng_range.policy).log_reach, value.fresh().value)

    t0 = time.perf_counter()
    explicit = enumerate_range()
    enum_seconds = time.perf_counter() - t0
    tracemalloc.start()
    enumerate_range()
    _, enum_peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    sd = float(np.sqrt(explicit.probs @ (explicit.values - explicit.value) ** 2))
    n_true, burn_in = 400, 20
    target = sd / math.sqrt(n_true)  # RMS error of True sampling with 400 samples
    table = AssignmentTable(c)
    seeds = np.random.SeedSequence(1).spawn(args.runs)
    grid = [50, 100, 200, 300, 400, 500, 600, 800, 1000, 1200, 1600, 2400, 3200]
    sq_err = np.zeros(len(grid))
    for s in seeds:  # running estimates of long chains give the RMS error at every n
        s_start, s_chain = s.spawn(2)
        ch = RingSwapChain(c, OhHellRange(ps, rng_range.policy).log_reach, s_chain,
                           initial=table.sample(as_random(s_start)))
        est = mcmc_estimates(ch, value.value, grid[-1], burn_in)
        sq_err += (est[np.array(grid) - 1] - explicit.value) ** 2
    rms_by_n = np.sqrt(sq_err / len(seeds))
    reached = np.nonzero(rms_by_n <= target)[0]
    n = grid[int(reached[0])] if len(reached) else grid[-1]
    rms = float(rms_by_n[grid.index(n)])
    secs = []
    for s in seeds[:5]:  # time a run of n samples from cold caches
        s_start, s_chain = s.spawn(2)
        t0 = time.perf_counter()
        ch = RingSwapChain(c, OhHellRange(ps, rng_range.policy).log_reach, s_chain,
                           initial=table.sample(as_random(s_start)))
        mcmc_estimates(ch, value.fresh().value, n, burn_in)
        secs.append(time.perf_counter() - t0)
    mcmc_seconds = float(np.median(secs))
    tracemalloc.start()
    fresh = OhHellRange(ps, rng_range.policy)
    ch = RingSwapChain(c, fresh.log_reach, seeds[0], initial=table.sample(as_random(0)))
    mcmc_estimates(ch, value.fresh().value, n, burn_in)
    _, mcmc_peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    rows.append(row(f"time to True's error at {n_true} samples ({big}, "
                    f"|H_S|={explicit.num_histories:,}): MCMC b={burn_in} x {n} samples vs "
                    "enumeration", mcmc_seconds, enum_seconds, "s", higher_is_better=False,
                    goal=">= 50x less", mcmc_rms=rms, true_rms=target,
                    reached=bool(rms <= target), runs=len(seeds),
                    rms_by_samples=dict(zip(grid, map(float, rms_by_n)))))
    rows.append(row(f"peak memory ({big}): MCMC vs enumeration (tracemalloc)",
                    mcmc_peak / 2**20, enum_peak / 2**20, "MiB", higher_is_better=False))
    report(TOPIC, rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
