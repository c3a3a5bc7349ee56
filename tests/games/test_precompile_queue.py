"""``tests/precompile.py``: the compile queue ``make test`` runs before pytest (issue 55).

Every kernel game's engine and bounds-checked build are queued slowest first, and each job's
wall and CPU time are reported (the figures behind the 10-minute ``make test`` goal).
"""

import sys

import precompile


def test_every_job_has_its_place_in_the_queue():
    """A new game's jobs must be placed by their cost, not fall to the end of the queue (where
    a slow one would leave a core idle), and no place names a job that no longer exists."""
    labels = [label for label, _ in precompile.jobs(precompile.kernel_games())]
    assert sorted(labels) == sorted(precompile.SLOWEST_FIRST)
    assert labels == list(precompile.SLOWEST_FIRST)


def test_a_job_reports_its_cpu_time_and_failure():
    busy = "import time\nt = time.process_time()\nwhile time.process_time() - t < 0.3: pass"
    label, rc, wall, cpu, err = precompile.run("busy", [sys.executable, "-c", busy])
    assert (label, rc, err) == ("busy", 0, "")
    assert 0.3 <= cpu <= wall + 0.5
    label, rc, wall, cpu, err = precompile.run("fails", [sys.executable, "-c", "raise SystemExit('no')"])
    assert rc == 1 and err.strip() == "no"
