"""Compile every kernel game before ``make test``'s parallel run, as one queue over the cores.

Two jobs per kernel game: its engine for the shared numba cache (``python -m
infosets.search.warm_cache GAME``) and its bounds-checked kernel build
(``tests/games/test_kernels_boundscheck.py GAME``, its own cache). The queue starts the
slowest jobs first, engines and bounds-checked builds alike, and keeps every core busy until
the last job. Without it, the pytest workers would compile the same game into the same cache
at the same time.

``python tests/precompile.py [--jobs N]`` exits non-zero if any job failed, after printing
each job's wall and CPU time (the figures behind the 10-minute ``make test`` goal, issue 55).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BOUNDS = ROOT / "tests" / "games" / "test_kernels_boundscheck.py"

# Every job, slowest first (longest-processing-time order: the last jobs to start are the
# short ones, so neither core idles long at the end), by the jobs' times on a fresh clone of
# this 2-core machine under load: the bounds-checked sushi_go (the engine's searches, TAG's
# included, bounds-checked) ~270 s, seven_wonders' engine and bounds-checked build ~170 s each,
# ... liars_dice's bounds-checked build ~13 s. A job not listed goes last.
SLOWEST_FIRST = (
    "bounds-checked sushi_go", "engine seven_wonders", "bounds-checked seven_wonders",
    "engine colt_express", "engine poker_tag", "engine monopoly_deal", "engine exploding_kittens",
    "bounds-checked love_letter", "bounds-checked poker_tag", "bounds-checked colt_express",
    "bounds-checked exploding_kittens", "engine love_letter", "bounds-checked monopoly_deal",
    "bounds-checked leduc_poker", "bounds-checked dominion", "engine virus", "engine liars_dice",
    "bounds-checked virus", "engine dominion", "engine trick_game", "engine sushi_go",
    "engine belote2p", "bounds-checked belote2p", "engine leduc_poker", "engine stratego",
    "bounds-checked stratego", "bounds-checked trick_game", "bounds-checked liars_dice")


def kernel_games() -> list[str]:
    from infosets.games.kernels import kernel_games as games

    return sorted(games())


def jobs(games: list[str]) -> list[tuple[str, list[str]]]:
    """(label, command) per job, slowest first (``SLOWEST_FIRST``): every game's engine and its
    bounds-checked build."""
    warm = [(f"engine {g}", [sys.executable, "-m", "infosets.search.warm_cache", g]) for g in games]
    bounds = [(f"bounds-checked {g}", [sys.executable, str(BOUNDS), g]) for g in games]
    rank = {label: i for i, label in enumerate(SLOWEST_FIRST)}
    return sorted(warm + bounds, key=lambda job: (rank.get(job[0], len(rank)), job[0]))


def run(label: str, command: list[str]) -> tuple[str, int, float, float, str]:
    """(label, exit status, wall seconds, CPU seconds of the job's processes, end of stderr)."""
    t0 = time.perf_counter()
    with tempfile.TemporaryFile() as err:
        child = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=err)
        _, status, usage = os.wait4(child.pid, 0)  # the CPU time of the job and its children
        child.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        stderr = err.read().decode(errors="replace")
    cpu = usage.ru_utime + usage.ru_stime
    return label, child.returncode, time.perf_counter() - t0, cpu, stderr[-3000:]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2, help="processes at once (default 2, one per core)")
    args = parser.parse_args(argv)
    if args.jobs < 1:
        parser.error(f"--jobs: must be >= 1, got {args.jobs}")
    t0 = time.perf_counter()
    failed, cpu_total = [], 0.0
    with ThreadPoolExecutor(args.jobs) as pool:
        futures = [pool.submit(run, *job) for job in jobs(kernel_games())]  # started in this order
        for future in as_completed(futures):
            label, rc, seconds, cpu, err = future.result()
            cpu_total += cpu
            print(f"  {label}: {seconds:.0f} s ({cpu:.0f} CPU-s){'' if rc == 0 else f'  FAILED (exit {rc})'}",
                  flush=True)
            if rc:
                failed.append(label)
                print(err, file=sys.stderr)
    print(f"compiled {'with failures: ' + ', '.join(failed) if failed else 'every kernel game'} "
          f"in {time.perf_counter() - t0:.0f} s ({cpu_total:.0f} CPU-s)", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
