"""Compile the numba engine once, in one process, before a parallel test run or a sweep.

The compiled engine (``infosets.search.compiled``; Ravichandran, Goodman and Lucas,
docs/papers/pimcts_aggregation.md) dispatches on a kernel id at run time, so one search per
entry point compiles every kernel's branch. Without this, each of ``make test``'s workers
compiles the same code into numba's on-disk cache at the same time. ``make test`` runs
``python -m infosets.search.warm_cache`` first, and a notebook's ``Session`` calls ``warm``
before its first computed task (a replot compiles nothing); later processes load the cache
in seconds.

On a fresh machine the compile takes minutes (462 s on a 2-vCPU machine; the
breakdown is in docs/paper_scale.md), so it shows a progress bar over its stages: the eight
kernel dispatchers (``games.kernels.k_*``), then the OL-MCTS, PI-MCTS and IS-MCTS entry
points. A cached run (2 to 3 s) finishes before the bar would appear.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

import numpy as np
import pyspiel
from tqdm.auto import tqdm

LOAD_SECONDS = 6.0  # the progress bar's delay: longer than loading a cached engine

DISPATCHERS = ("k_current_player", "k_legal_actions", "k_chance_outcomes", "k_apply_action",
               "k_returns", "k_heuristic", "k_infostate_key", "k_determinize")


def stages() -> list[tuple[str, Callable[[], object]]]:
    """(name, call) of each compile stage, on leduc_poker after its two deals.

    The dispatchers are called with the argument types the engine passes them (kernel id
    int64; C-contiguous int64 state, action and float64 buffers; a PCG32 uint64[2] state), so
    the entry points reuse their compiled code."""
    import infosets.games  # noqa: F401  (registers our games)
    from infosets.core.pcg32 import PCG32
    from infosets.games import kernels as K
    from infosets.search.ismcts import ISMCTSBot
    from infosets.search.mcts import OLMCTSBot
    from infosets.search.pimcts import PIMCTSBot

    game = pyspiel.load_game("leduc_poker")
    kernel = K.kernel_for(game)
    kid, deal, s = kernel.kid, kernel.from_history([]), kernel.from_history([0, 3])
    buf, probs = np.zeros(kernel.num_actions, np.int64), np.zeros(kernel.num_actions)
    out, rng = np.zeros(kernel.num_players), PCG32(1).to_array()
    calls = {"k_current_player": lambda: K.k_current_player(kid, s),
             "k_legal_actions": lambda: K.k_legal_actions(kid, s, buf),
             "k_chance_outcomes": lambda: K.k_chance_outcomes(kid, deal, buf, probs),
             "k_apply_action": lambda: K.k_apply_action(kid, s.copy(), np.int64(1)),  # call
             "k_returns": lambda: K.k_returns(kid, s, out),
             "k_heuristic": lambda: K.k_heuristic(kid, s, out),
             "k_infostate_key": lambda: K.k_infostate_key(kid, s, 0),
             "k_determinize": lambda: K.k_determinize(kid, s.copy(), 0, rng)}
    state = game.new_initial_state()
    state.apply_action(0)
    state.apply_action(3)
    gen = np.random.default_rng(0)
    bots = [("OL-MCTS", lambda: OLMCTSBot(game, 0, iterations=20, rng=gen, engine="compiled")),
            ("PI-MCTS", lambda: PIMCTSBot(game, 0, iterations=20, determinizations=2, rng=gen,
                                          engine="compiled")),
            ("IS-MCTS", lambda: ISMCTSBot(game, 0, iterations=20, rng=gen, engine="compiled"))]
    return ([(name, calls[name]) for name in DISPATCHERS]
            + [(name, lambda make=make: make().step(state)) for name, make in bots])


def warm(progress: bool = True) -> float:
    """Run every stage (``stages``); returns the seconds spent."""
    t0 = time.perf_counter()
    todo = stages()
    # A cached engine loads in 2 to 3 s on a busy 2-core machine: the bar waits longer, so
    # only a real compile (minutes) shows it.
    bar = tqdm(todo, desc="compiling the numba engine (first run only)", unit="stage",
               disable=not progress, delay=LOAD_SECONDS, file=sys.stderr, dynamic_ncols=True)
    started = time.perf_counter()
    for name, call in bar:
        # named at once on a slow (fresh) compile; a cached run stays silent
        bar.set_postfix_str(name, refresh=time.perf_counter() - started > LOAD_SECONDS)
        call()
    bar.close()
    return time.perf_counter() - t0


if __name__ == "__main__":
    seconds = warm()
    print(f"numba engine ready ({seconds:.0f} s)", file=sys.stderr)
