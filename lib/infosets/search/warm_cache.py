"""Compile the numba engine for the games a run plays, in one process, before it fans out.

The compiled engine (``infosets.search.compiled``; Ravichandran, Goodman and Lucas,
docs/papers/pimcts_aggregation.md) is compiled per game (``compiled.engine_for``) on that
game's first use and cached on disk. Without a warm-up, each of ``make test``'s workers or a
sweep's processes would compile the same game into numba's cache at the same time. A
notebook's ``Session`` calls ``warm`` with the games of its config before its first computed
task (a replot compiles nothing); ``python -m infosets.search.warm_cache [GAME ...]`` warms
from the command line (leduc_poker by default, ``--all`` every kernel game). A game compiles
in tens of seconds on a fresh machine, so a bar shows the games; a cached game loads in
about a second.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np
import pyspiel
from tqdm.auto import tqdm

LOAD_SECONDS = 6.0  # the progress bar's delay: longer than loading cached engines

# a game string whose kernel covers it, for each kernel game (its default parameters where
# those are covered)
WARM_GAMES = {"liars_dice": "liars_dice(numdice=1)", "trick_game": "trick_game(num_cards=6,hand_size=3)"}


def warm_game(name: str) -> None:
    """Compile (or load) one game's kernel and engine: an OL-MCTS, PI-MCTS and IS-MCTS search
    (both node keys) from its initial state, with the argument types the bots pass."""
    import infosets.games  # noqa: F401  (registers our games)
    from infosets.core.pcg32 import PCG32
    from infosets.games.kernels import kernel_for
    from infosets.search.compiled import AVAIL_LEGAL, engine_for

    game = pyspiel.load_game(WARM_GAMES.get(name, name))
    kernel = kernel_for(game)
    if kernel is None:
        raise ValueError(f"game: {name!r} has no kernel for {game}")
    engine, state = engine_for(kernel.rules), kernel.from_history([])
    a, n = kernel.num_actions, kernel.num_players
    rng, depths = PCG32(1).to_array(), np.zeros(2, np.int64)
    for player in range(1):
        engine.pimcts_trees(state, player, 1, 4, 1.0, True, 0.0, 1.0, -1, -1, False, 0.0, 0.0, rng,
                            a, n, np.zeros((1, a), np.int64), np.zeros((1, a)), depths)
        for by_moves in (False, True):
            engine.ismcts_tree_with(state, player, 4, 1.0, AVAIL_LEGAL, by_moves, False, True, 0.0, 1.0,
                                    -1, -1, False, 0.0, 0.0, rng, a, n, np.zeros(a, np.int64), np.zeros(a),
                                    np.zeros(a, np.bool_), np.zeros(a, np.int64), depths)


def warm(games=("leduc_poker",), progress: bool = True) -> float:
    """Compile (or load) the engine for each of ``games``; returns the seconds spent."""
    t0 = time.perf_counter()
    bar = tqdm(list(games), desc="compiling the numba engine (first use of a game only)", unit="game",
               disable=not progress, delay=LOAD_SECONDS, file=sys.stderr, dynamic_ncols=True)
    started = time.perf_counter()
    for name in bar:
        bar.set_postfix_str(name, refresh=time.perf_counter() - started > LOAD_SECONDS)
        warm_game(name)
    bar.close()
    return time.perf_counter() - t0


def main(argv=None) -> int:
    from infosets.games.kernels import kernel_games

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", help="kernel games (default: leduc_poker)")
    parser.add_argument("--all", action="store_true", help="every game with a kernel")
    parser.add_argument("--shard", default="0/1", metavar="K/N",
                        help="warm only every N-th of the games from the K-th (one process per core)")
    args = parser.parse_args(argv)
    try:
        k, n = (int(x) for x in args.shard.split("/"))
        if not 0 <= k < n:
            raise ValueError
    except ValueError:
        parser.error(f"--shard: expected K/N with 0 <= K < N, got {args.shard!r}")
    games = list(kernel_games() if args.all else (args.games or ["leduc_poker"]))[k::n]
    unknown = sorted(set(games) - set(kernel_games()))
    if unknown:
        parser.error(f"games: no kernel for {', '.join(unknown)} (kernels: {', '.join(kernel_games())})")
    seconds = warm(games)
    print(f"numba engine ready for {', '.join(games)} ({seconds:.0f} s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
