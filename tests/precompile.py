"""Compile every kernel game before ``make test``'s parallel run, as one queue over the cores.

One job per kernel game, in the tests' numba build (bounds-checked, in the tests' own cache:
``tests/numba_env.py``): its engine (``warm_cache.warm_game``), for the games the TAG tests
search under TAG's settings (``TAG_GAMES``) the engine's TAG version (``warm_tag``: a search
given TAG's arguments is its own compile, tens of seconds), then its bounds check
(``test_kernels_boundscheck.check``: random games and searches, indices checked), which loads
what the job compiled and adds what the check alone calls. The queue starts the slowest jobs
first and keeps every core busy until the last job. Without it, the pytest workers would
compile the same game into the same cache at the same time (the TAG versions were compiled by
both workers at once: 40-60 CPU-s lost).

Each core runs its jobs in a long-lived worker process (``--worker``), so the interpreter start
and the imports (numba, pyspiel, every game: about 2 CPU-s) are paid once per core, not once per
job.

``python tests/precompile.py [--jobs N]`` exits non-zero if any job failed, after printing
each job's wall and CPU time and the workers' total CPU (the figures behind the 10-minute
``make test`` goal, issue 55).
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import queue
import resource
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TESTS = ROOT / "tests"

# Every game's job, slowest first (longest-processing-time order: the last jobs to start are
# the short ones, so neither core idles long at the end), by the jobs' CPU seconds on a fresh
# clone of this 2-core machine: sushi_go 113 and leduc_poker 98 (their TAG versions, and the
# engine searches their checks run), seven_wonders 57, ... liars_dice 9. A game not listed goes
# last.
SLOWEST_FIRST = (
    "sushi_go",
    "leduc_poker",
    "seven_wonders",
    "monopoly_deal",
    "love_letter",
    "colt_express",
    "poker_tag",
    "exploding_kittens",
    "virus",
    "hearts",
    "dominion",
    "belote2p",
    "stratego",
    "trick_game",
    "liars_dice",
)

# The games of the TAG twin tests (tests/search/test_tag_*.py, tests/papers/test_pimcts_tag_agents.py):
# a game string each, its kernel's engine compiled with TAG's arguments by ``warm_tag``.
TAG_GAMES = {"leduc_poker": "leduc_poker", "sushi_go": "sushi_go(players=3)"}


def kernel_games() -> list[str]:
    """Every kernel game, as the bounds check lists them (its test keeps the list equal to
    ``games.kernels.kernel_games()``), read without importing the games: that import compiles
    (belote2p's deal table, about 9 CPU-s on a fresh clone), which in this process would hold
    both cores' workers back; the first worker compiles it instead, as it must anyway."""
    sys.path.insert(0, str(TESTS / "games"))
    from test_kernels_boundscheck import GAMES

    return sorted(GAMES)


def jobs(games: list[str]) -> list[tuple[str, str, tuple]]:
    """(label, "module:function", arguments) per game, slowest first (``SLOWEST_FIRST``)."""
    rank = {label: i for i, label in enumerate(SLOWEST_FIRST)}
    todo = [(g, "precompile:build_game", (g,)) for g in games]
    return sorted(todo, key=lambda job: (rank.get(job[0], len(rank)), job[0]))


def build_game(name: str) -> None:
    """Compile ``name``'s engine (and TAG version), then run its bounds check on that build."""
    from test_kernels_boundscheck import check

    from infosets.search.warm_cache import warm_game

    warm_game(name)
    if name in TAG_GAMES:
        warm_tag(name)
    check([name])


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


def environment() -> dict:
    """The environment of a worker: the tests' numba settings (``numba_env.checked_env``)."""
    from numba_env import checked_env

    return checked_env()


def serve(requests, replies) -> None:
    """A worker's loop: each request line (JSON: "module:function" and its arguments) is called
    in this process; one reply line (JSON: status, wall and CPU seconds, traceback) per request."""
    sys.path[:0] = [str(TESTS), str(TESTS / "games")]
    for line in requests:
        target, args = json.loads(line)
        t0, c0 = time.perf_counter(), time.process_time()
        try:
            module, function = target.split(":")
            getattr(importlib.import_module(module), function)(*args)
            status, error = 0, ""
        except BaseException as exc:  # a job's failure (SystemExit included) ends that job only
            if isinstance(exc, KeyboardInterrupt):
                raise
            status, error = 1, traceback.format_exc()[-3000:]
        cpu = time.process_time() - c0
        replies.write(json.dumps([status, time.perf_counter() - t0, cpu, error]) + "\n")
        replies.flush()


class Worker:
    """A long-lived ``--worker`` process in the tests' environment; ``call`` runs one job in it."""

    def __init__(self):
        self.err = tempfile.TemporaryFile()
        self.process = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), "--worker"],
            cwd=ROOT,
            env=environment(),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.err,
            text=True,
        )

    def call(self, target: str, args) -> tuple[int, float, float, str]:
        """(status, wall seconds, CPU seconds, error text) of ``target(*args)`` in the worker; a
        worker that dies fails its job (its stderr's end is the error) and takes no other."""
        t0 = time.perf_counter()
        try:
            self.process.stdin.write(json.dumps([target, list(args)]) + "\n")
            self.process.stdin.flush()
            reply = self.process.stdout.readline()
        except BrokenPipeError:
            reply = ""
        if reply:
            return tuple(json.loads(reply))
        self.process.wait()
        self.err.seek(0)
        error = self.err.read().decode(errors="replace")[-3000:]
        return self.process.returncode or 1, time.perf_counter() - t0, 0.0, error

    def alive(self) -> bool:
        return self.process.poll() is None

    def close(self) -> float:
        """End the worker; its CPU seconds over all its jobs, start and imports included."""
        self.process.stdin.close()
        _, _, usage = os.wait4(self.process.pid, 0)
        self.process.returncode = 0
        self.err.close()
        return usage.ru_utime + usage.ru_stime


def run_queue(todo: list, cores: int, report) -> float:
    """Run ``todo`` (``jobs``' rows) in order over ``cores`` threads, each with its own worker
    (started on its first job, again after one dies); ``report(label, status, wall, cpu, error)``
    after each job. Returns the workers' total CPU seconds."""
    pending, lock, totals = queue.SimpleQueue(), threading.Lock(), []
    for job in todo:
        pending.put(job)

    def core():
        worker = None
        while True:
            try:
                label, target, args = pending.get_nowait()
            except queue.Empty:
                break
            if worker is None or not worker.alive():
                worker = Worker()
            result = worker.call(target, args)
            with lock:
                report(label, *result)
        with lock:
            totals.append(worker.close() if worker is not None and worker.alive() else 0.0)

    threads = [threading.Thread(target=core) for _ in range(cores)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sum(totals)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2, help="processes at once (default 2, one per core)")
    parser.add_argument("--worker", action="store_true", help="serve jobs from stdin (see ``serve``)")
    args = parser.parse_args(argv)
    if args.worker:
        replies = os.fdopen(os.dup(1), "w")
        os.dup2(2, 1)  # what a job prints goes to stderr, not into the replies
        sys.stdout = sys.stderr
        serve(sys.stdin, replies)
        return 0
    if args.jobs < 1:
        parser.error(f"--jobs: must be >= 1, got {args.jobs}")
    t0, failed = time.perf_counter(), []

    def report(label, status, seconds, cpu, error):
        print(f"  {label}: {seconds:.0f} s ({cpu:.0f} CPU-s){'' if status == 0 else '  FAILED'}", flush=True)
        if status:
            failed.append(label)
            print(error, file=sys.stderr, flush=True)

    cpu_total = run_queue(jobs(kernel_games()), args.jobs, report)
    print(
        f"compiled {'with failures: ' + ', '.join(failed) if failed else 'every kernel game'} "
        f"in {time.perf_counter() - t0:.0f} s ({cpu_total:.0f} CPU-s in the workers, "
        f"{resource.getrusage(resource.RUSAGE_SELF).ru_utime:.0f} in the queue)",
        flush=True,
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
