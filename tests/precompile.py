"""Compile every kernel game before ``make test``'s parallel run, as one queue over the cores.

Two jobs per kernel game: its engine for the shared numba cache (``python -m
infosets.search.warm_cache GAME``) and its bounds-checked kernel build
(``tests/games/test_kernels_boundscheck.py GAME``, its own cache); and for the games the TAG
tests search under TAG's settings (``TAG_GAMES``), the engine's TAG version (``python
tests/precompile.py --tag GAME``: a search given TAG's arguments is its own compile, tens of
seconds). The queue starts the slowest jobs first and keeps every core busy until the last
job. Without it, the pytest workers would compile the same game into the same cache at the
same time (the TAG versions were compiled by both workers at once: 40-60 CPU-s lost).

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
# short ones, so neither core idles long at the end), by the jobs' CPU seconds on a fresh clone
# of this 2-core machine: the bounds-checked sushi_go (the engine's searches, TAG's included,
# bounds-checked) ~48, seven_wonders' engine ~42, Leduc's TAG searches ~34, ... liars_dice's
# bounds-checked build ~3. A job not listed goes last.
SLOWEST_FIRST = (
    "bounds-checked sushi_go",
    "engine seven_wonders",
    "TAG searches leduc_poker",
    "engine monopoly_deal",
    "engine poker_tag",
    "engine love_letter",
    "bounds-checked seven_wonders",
    "engine colt_express",
    "engine exploding_kittens",
    "engine virus",
    "TAG searches sushi_go",
    "engine dominion",
    "engine sushi_go",
    "engine belote2p",
    "bounds-checked love_letter",
    "bounds-checked exploding_kittens",
    "bounds-checked monopoly_deal",
    "bounds-checked leduc_poker",
    "engine stratego",
    "bounds-checked poker_tag",
    "bounds-checked colt_express",
    "engine liars_dice",
    "bounds-checked dominion",
    "bounds-checked belote2p",
    "engine leduc_poker",
    "engine trick_game",
    "bounds-checked virus",
    "bounds-checked stratego",
    "bounds-checked trick_game",
    "bounds-checked liars_dice",
)

# The games of the TAG twin tests (tests/search/test_tag_*.py, tests/papers/test_pimcts_tag_agents.py):
# a game string each, its kernel's engine compiled with TAG's arguments by ``warm_tag``.
TAG_GAMES = {"leduc_poker": "leduc_poker", "sushi_go": "sushi_go(players=3)"}


def kernel_games() -> list[str]:
    from infosets.games.kernels import kernel_games as games

    return sorted(games())


def jobs(games: list[str]) -> list[tuple[str, list[str]]]:
    """(label, command) per job, slowest first (``SLOWEST_FIRST``): every game's engine and its
    bounds-checked build."""
    warm = [(f"engine {g}", [sys.executable, "-m", "infosets.search.warm_cache", g]) for g in games]
    bounds = [(f"bounds-checked {g}", [sys.executable, str(BOUNDS), g]) for g in games]
    tag = [
        (f"TAG searches {g}", [sys.executable, str(Path(__file__).resolve()), "--tag", g])
        for g in games
        if g in TAG_GAMES
    ]
    rank = {label: i for i, label in enumerate(SLOWEST_FIRST)}
    return sorted(warm + bounds + tag, key=lambda job: (rank.get(job[0], len(rank)), job[0]))


def warm_tag(name: str) -> None:
    """Compile (or load) ``name``'s engine with TAG's arguments (``compiled.CompiledSearch``
    given settings other than TAG's defaults): an OL-MCTS (``pimcts_trees``) and an IS-MCTS
    (``ismcts_tree_with``) search of the first decision, with the argument types the bots pass."""
    import pyspiel

    import infosets.games  # noqa: F401  (registers our games)
    from infosets.search.ismcts import ISMCTSBot
    from infosets.search.mcts import OLMCTSBot

    game = pyspiel.load_game(TAG_GAMES[name])
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    for bot_class in (OLMCTSBot, ISMCTSBot):
        bot = bot_class(
            game, state.current_player(), iterations=2, rng=0, engine="compiled", tree_policy="EXP3"
        )
        bot.step(state)
        assert bot.engine_used == "compiled", (name, bot_class.__name__)


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
    parser.add_argument(
        "--tag",
        metavar="GAME",
        choices=sorted(TAG_GAMES),
        help="only compile GAME's engine with TAG's arguments (one job of the queue)",
    )
    args = parser.parse_args(argv)
    if args.tag:
        warm_tag(args.tag)
        return 0
    if args.jobs < 1:
        parser.error(f"--jobs: must be >= 1, got {args.jobs}")
    t0 = time.perf_counter()
    failed, cpu_total = [], 0.0
    with ThreadPoolExecutor(args.jobs) as pool:
        futures = [pool.submit(run, *job) for job in jobs(kernel_games())]  # started in this order
        for future in as_completed(futures):
            label, rc, seconds, cpu, err = future.result()
            cpu_total += cpu
            print(
                f"  {label}: {seconds:.0f} s ({cpu:.0f} CPU-s){'' if rc == 0 else f'  FAILED (exit {rc})'}",
                flush=True,
            )
            if rc:
                failed.append(label)
                print(err, file=sys.stderr)
    print(
        f"compiled {'with failures: ' + ', '.join(failed) if failed else 'every kernel game'} "
        f"in {time.perf_counter() - t0:.0f} s ({cpu_total:.0f} CPU-s)",
        flush=True,
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
