"""Compile every kernel game before ``make test``'s parallel run, as one queue over the cores.

Two jobs per kernel game: its engine for the shared numba cache (``warm_cache.warm_game``) and
its bounds-checked kernel build (``test_kernels_boundscheck.check``, its own cache); and for the
games the TAG tests search under TAG's settings (``TAG_GAMES``), the engine's TAG version
(``warm_tag``: a search given TAG's arguments is its own compile, tens of seconds). The queue
starts the slowest jobs first and keeps every core busy until the last job. Without it, the
pytest workers would compile the same game into the same cache at the same time (the TAG
versions were compiled by both workers at once: 40-60 CPU-s lost).

Each core runs its jobs in long-lived worker processes (``--worker``), one per environment: the
shared cache's, and the bounds-checked builds' (NUMBA_BOUNDSCHECK=1 and their own cache, set
per process: ``test_kernels_boundscheck.bounds_env``). A job is a function call in a worker, so
the interpreter start and the imports (numba, pyspiel, every game: about 2 CPU-s, 3 to 4 with
the bounds-checked script's two processes) are paid once per worker, not once per job.

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
    "engine hearts",
    "engine sushi_go",
    "engine belote2p",
    "bounds-checked love_letter",
    "bounds-checked exploding_kittens",
    "bounds-checked monopoly_deal",
    "bounds-checked hearts",
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

SHARED, BOUNDS = "shared cache", "bounds-checked"  # the workers' environments


def kernel_games() -> list[str]:
    """Every kernel game, as the bounds check lists them (its test keeps the list equal to
    ``games.kernels.kernel_games()``), read without importing the games: that import compiles
    (belote2p's deal table, about 9 CPU-s on a fresh clone), which in this process would hold
    both cores' workers back; the first worker compiles it instead, as it must anyway."""
    sys.path.insert(0, str(TESTS / "games"))
    from test_kernels_boundscheck import GAMES

    return sorted(GAMES)


def jobs(games: list[str]) -> list[tuple[str, str, str, tuple]]:
    """(label, environment, "module:function", arguments) per job, slowest first
    (``SLOWEST_FIRST``): every game's engine and its bounds-checked build, and the TAG versions."""
    warm = [(f"engine {g}", SHARED, "infosets.search.warm_cache:warm_game", (g,)) for g in games]
    bounds = [(f"bounds-checked {g}", BOUNDS, "test_kernels_boundscheck:check", ([g],)) for g in games]
    tag = [(f"TAG searches {g}", SHARED, "precompile:warm_tag", (g,)) for g in games if g in TAG_GAMES]
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


def environment(kind: str) -> dict:
    """The environment of a worker of ``kind`` (``SHARED`` or ``BOUNDS``)."""
    if kind == BOUNDS:
        sys.path.insert(0, str(TESTS / "games"))
        from test_kernels_boundscheck import bounds_env

        return bounds_env()
    return dict(os.environ)


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
    """A long-lived ``--worker`` process with ``kind``'s environment; ``call`` runs one job in it."""

    def __init__(self, kind: str):
        self.err = tempfile.TemporaryFile()
        self.process = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), "--worker"],
            cwd=ROOT,
            env=environment(kind),
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
    """Run ``todo`` (``jobs``' rows) in order over ``cores`` threads, each with its own workers
    (one per environment, started on its first job); ``report(label, status, wall, cpu, error)``
    after each job. Returns the workers' total CPU seconds."""
    pending, lock, totals = queue.SimpleQueue(), threading.Lock(), []
    for job in todo:
        pending.put(job)

    def core():
        workers: dict[str, Worker] = {}
        while True:
            try:
                label, kind, target, args = pending.get_nowait()
            except queue.Empty:
                break
            if kind not in workers or not workers[kind].alive():
                workers[kind] = Worker(kind)
            result = workers[kind].call(target, args)
            with lock:
                report(label, *result)
        with lock:
            totals.extend(w.close() if w.alive() else 0.0 for w in workers.values())

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
