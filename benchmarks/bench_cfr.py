"""Time per CFR iteration on Leduc: our array CFR vs OpenSpiel's Python and C++ CFRSolver.

Supports the progressive_hiding notebook (Heymann & Lanctot 2025), whose learners are all
array passes over the flattened tree (`infosets.learning.cfr`). All three solvers run
alternating-update CFR with regret matching from the uniform policy, so the iterates agree
(tests/learning/test_cfr.py checks it to 1e-9).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pyspiel
from open_spiel.python.algorithms import cfr as os_cfr

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _harness import report, row, timeit  # noqa: E402
from infosets.learning.cfr import CFRSolver  # noqa: E402
from infosets.learning.tree import build_tree  # noqa: E402


def main() -> None:
    game = pyspiel.load_game("leduc_poker")
    tree = build_tree(game)
    ours = CFRSolver(tree)
    python_solver = os_cfr.CFRSolver(game)
    cpp_solver = pyspiel.CFRSolver(game)
    for solver in (ours.step, python_solver.evaluate_and_update_policy,
                   cpp_solver.evaluate_and_update_policy):
        solver()  # warm up
    t_ours = timeit(ours.step, repeat=7, number=5)
    t_python = timeit(python_solver.evaluate_and_update_policy, repeat=3, number=2)
    t_cpp = timeit(cpp_solver.evaluate_and_update_policy, repeat=7, number=5)
    t_batch = timeit(CFRSolver(tree, num_runs=16).step, repeat=5, number=2) / 16
    ms = 1e3
    report("cfr", [
        row("leduc CFR iteration vs OpenSpiel Python cfr.CFRSolver", t_ours * ms,
            t_python * ms, "ms", goal=">= 2x faster", higher_is_better=False),
        row("leduc CFR iteration vs OpenSpiel C++ pyspiel.CFRSolver", t_ours * ms,
            t_cpp * ms, "ms", goal="report", higher_is_better=False),
        row("leduc CFR iteration per run, 16 runs batched, vs C++", t_batch * ms,
            t_cpp * ms, "ms", goal="report", higher_is_better=False),
    ])


if __name__ == "__main__":
    main()
