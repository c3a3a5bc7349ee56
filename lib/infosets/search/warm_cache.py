"""Compile the numba engine once, in one process, before a parallel test run or a sweep.

The compiled engine (``infosets.search.compiled``; Ravichandran, Goodman and Lucas,
docs/papers/pimcts_aggregation.md) dispatches on a kernel id at run time, so one search per
entry point compiles every kernel's branch. Without this, each of ``make test``'s workers
compiles the same code into numba's on-disk cache at the same time. ``make test`` runs
``python -m infosets.search.warm_cache`` first; later processes load the cache in seconds.
"""

from __future__ import annotations

import sys
import time

import numpy as np
import pyspiel


def warm() -> float:
    """One compiled OL-MCTS, PI-MCTS and IS-MCTS search on leduc; returns the seconds spent."""
    import infosets.games  # noqa: F401  (registers our games)
    from infosets.search.ismcts import ISMCTSBot
    from infosets.search.mcts import OLMCTSBot
    from infosets.search.pimcts import PIMCTSBot

    t0 = time.perf_counter()
    game = pyspiel.load_game("leduc_poker")
    state = game.new_initial_state()
    state.apply_action(0)
    state.apply_action(3)
    rng = np.random.default_rng(0)
    for bot in (OLMCTSBot(game, 0, iterations=20, rng=rng, engine="compiled"),
                PIMCTSBot(game, 0, iterations=20, determinizations=2, rng=rng, engine="compiled"),
                ISMCTSBot(game, 0, iterations=20, rng=rng, engine="compiled")):
        bot.step(state)
    return time.perf_counter() - t0


if __name__ == "__main__":
    seconds = warm()
    print(f"numba engine ready ({seconds:.0f} s)", file=sys.stderr)
