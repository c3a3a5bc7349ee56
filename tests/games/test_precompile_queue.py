"""``tests/precompile.py``: the compile queue ``make test`` runs before pytest (issue 55).

One job per kernel game (its engine, TAG version and bounds check, in the tests' bounds-checked
build) is queued slowest first, run as calls in long-lived workers (one per core), and each
job's wall and CPU time are reported (the figures behind the 10-minute ``make test`` goal).
"""

import os
import time

import precompile


def test_every_job_has_its_place_in_the_queue():
    """A new game's jobs must be placed by their cost, not fall to the end of the queue (where
    a slow one would leave a core idle), and no place names a job that no longer exists."""
    labels = [label for label, *_ in precompile.jobs(precompile.kernel_games())]
    assert sorted(labels) == sorted(precompile.SLOWEST_FIRST)
    assert labels == list(precompile.SLOWEST_FIRST)


def test_workers_run_every_job_report_cpu_and_failures_and_outlive_them():
    """Four jobs on one core: a job's exception fails that job only (the next runs in the same
    worker), each job reports its own CPU time, and the worker runs in the tests' numba
    environment (bounds checking on, the tests' own cache)."""
    todo = [
        ("busy", "test_precompile_queue:busy", (0.3,)),
        ("fails", "math:sqrt", (-1,)),
        ("after", "test_precompile_queue:busy_ran_here", ()),
        ("bounds", "test_precompile_queue:bounds_checked", ()),
    ]
    seen = {}
    total = precompile.run_queue(todo, 1, lambda label, *result: seen.setdefault(label, result))
    assert list(seen) == ["busy", "fails", "after", "bounds"]
    status, wall, cpu, error = seen["busy"]
    assert status == 0 and error == "" and 0.3 <= cpu <= wall + 0.1
    status, _, _, error = seen["fails"]
    assert status == 1 and "ValueError: math domain error" in error
    assert seen["after"][0] == 0, seen["after"][3]  # the same worker, after the failure
    assert seen["after"][2] < 0.3  # its own CPU time, not the first job's
    assert seen["bounds"][0] == 0, seen["bounds"][3]
    assert total >= 0.3


CALLS = []


def busy(seconds: float) -> None:
    """Spend ``seconds`` of CPU time; remember the call in this process."""
    t = time.process_time()
    while time.process_time() - t < seconds:
        pass
    CALLS.append(seconds)


def busy_ran_here() -> None:
    assert CALLS, "busy ran in another process"


def bounds_checked() -> None:
    import numba

    import numba_env

    assert os.environ["NUMBA_BOUNDSCHECK"] == "1" and numba.config.BOUNDSCHECK
    assert os.environ["NUMBA_CACHE_DIR"] == str(numba_env.CACHE)
