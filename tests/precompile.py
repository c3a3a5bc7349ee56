"""Compile every kernel game before ``make test``'s parallel run, as one queue over the cores.

Two jobs per kernel game: its engine for the shared numba cache (``python -m
infosets.search.warm_cache GAME``) and its bounds-checked kernel build
(``tests/games/test_kernels_boundscheck.py GAME``, its own cache). The queue starts the
slowest compiles first and keeps every core busy until the last job, where a fixed split of
the games left one core idle while the other finished the heavy ports. Without it, the
pytest workers would compile the same game into the same cache at the same time.

``python tests/precompile.py [--jobs N]`` exits non-zero if any job failed, after printing
each job's time (the figures behind the 10-minute ``make test`` goal, issue 55).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BOUNDS = ROOT / "tests" / "games" / "test_kernels_boundscheck.py"

# slowest engine compiles first, as measured on a fresh clone of this 2-core machine (belote2p
# 88-103 s, seven_wonders 35, poker_tag 23-33, ... liars_dice 11); a game not listed goes last
HEAVY_FIRST = ("belote2p", "seven_wonders", "poker_tag", "exploding_kittens", "colt_express",
               "monopoly_deal", "love_letter", "virus", "sushi_go", "dominion", "stratego",
               "leduc_poker", "trick_game", "liars_dice")


def kernel_games() -> list[str]:
    from infosets.games.kernels import kernel_games as games

    rank = {name: i for i, name in enumerate(HEAVY_FIRST)}
    return sorted(games(), key=lambda name: (rank.get(name, len(rank)), name))


def jobs(games: list[str]) -> list[tuple[str, list[str]]]:
    """(label, command) per job: every game's engine, then every game's bounds-checked build,
    each list slowest first (the engines first: the first tests need them)."""
    warm = [(f"engine {g}", [sys.executable, "-m", "infosets.search.warm_cache", g]) for g in games]
    bounds = [(f"bounds-checked {g}", [sys.executable, str(BOUNDS), g]) for g in games]
    return warm + bounds


def run(label: str, command: list[str]) -> tuple[str, int, float, str]:
    t0 = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    return label, done.returncode, time.perf_counter() - t0, done.stderr[-3000:]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2, help="processes at once (default 2, one per core)")
    args = parser.parse_args(argv)
    if args.jobs < 1:
        parser.error(f"--jobs: must be >= 1, got {args.jobs}")
    t0 = time.perf_counter()
    failed = []
    with ThreadPoolExecutor(args.jobs) as pool:
        futures = [pool.submit(run, *job) for job in jobs(kernel_games())]  # started in this order
        for future in as_completed(futures):
            label, rc, seconds, err = future.result()
            print(f"  {label}: {seconds:.0f} s{'' if rc == 0 else f'  FAILED (exit {rc})'}", flush=True)
            if rc:
                failed.append(label)
                print(err, file=sys.stderr)
    print(f"compiled {'with failures: ' + ', '.join(failed) if failed else 'every kernel game'} "
          f"in {time.perf_counter() - t0:.0f} s", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
