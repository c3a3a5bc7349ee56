"""Dask executor on a real cluster (all papers): a `dask scheduler` and two `dask worker`
processes on 127.0.0.1; one worker is killed mid-sweep and the table still equals a serial
run's. An unreachable scheduler address fails fast, in one line naming it."""

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from infosets.experiments import config, runner
from infosets.experiments.config import ConfigError
from infosets.experiments.executors import make_executor
from infosets.experiments.runner import RunStats
from infosets.papers import quickstart

pytestmark = pytest.mark.xdist_group("runner")

DASK = Path(sys.executable).with_name("dask")
# 8 tasks of about 0.6 s (was 12): a worker is killed at the first result, with 7 left to run
SWEEP = {"games": ["leduc_poker"], "solvers": ["cfr"], "iterations": list(range(6, 14)),
         "eval_games": 5}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_unreachable_scheduler_fails_fast_naming_the_address():
    address = f"tcp://127.0.0.1:{_free_port()}"  # nothing listens there
    start = time.monotonic()
    with pytest.raises(ConfigError) as err:
        make_executor(2, address)
    assert time.monotonic() - start < 5
    message = str(err.value)
    assert message.startswith(f"scheduler: cannot reach the Dask scheduler at '{address}'")
    assert "\n" not in message


@pytest.fixture
def cluster(tmp_path):
    """A scheduler and two single-thread workers (no nanny: a killed worker stays dead)."""
    if not DASK.exists():
        pytest.skip("needs the dask command line")
    address = f"tcp://127.0.0.1:{_free_port()}"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    log = open(tmp_path / "cluster.log", "w")  # noqa: SIM115 (closed below)
    procs = []

    def spawn(*args):
        procs.append(subprocess.Popen([str(DASK), *args], env=env, stdout=log,
                                      stderr=subprocess.STDOUT, start_new_session=True))
        return procs[-1]

    try:
        spawn("scheduler", "--host", "127.0.0.1", "--port", address.rsplit(":", 1)[1],
              "--no-dashboard")
        deadline = time.monotonic() + 30
        while True:  # waiting for the scheduler to listen
            try:
                socket.create_connection(("127.0.0.1", int(address.rsplit(":", 1)[1])), 1).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        workers = [spawn("worker", address, "--name", f"w{i}", "--nthreads", "1", "--no-nanny",
                         "--host", "127.0.0.1", "--no-dashboard", "--memory-limit", "0")
                   for i in range(2)]
        yield address, workers
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
        for proc in procs:
            proc.wait(timeout=20)
        log.close()


class _KillWorkerMidSweep:
    """Wraps the Dask executor: after the first result, kill -9 a worker while it runs a task.

    The victim is whichever of ``procs`` (worker name -> process) the scheduler shows holding a
    task first, so a worker the loaded scheduler lists late cannot stop the test (a ``next()``
    over the listing raised StopIteration inside this generator when w0 was missing)."""

    name = "dask"

    def __init__(self, inner, procs):
        self.inner, self.procs, self.workers = inner, procs, inner.workers
        self.lost_tasks, self.victim = None, None

    def _busy_worker(self, client) -> tuple[str, int]:
        """(name, tasks held) of a worker processing a task, waiting up to 30 s for one."""
        deadline = time.monotonic() + 30
        while True:
            info = client.scheduler_info()["workers"]
            names = {address: w["name"] for address, w in info.items() if w["name"] in self.procs}
            held = client.processing(workers=list(names)) if names else {}
            busy = [(names[a], len(tasks)) for a, tasks in held.items() if tasks]
            if busy:
                return min(busy)
            assert time.monotonic() < deadline, f"no worker held a task; workers listed: {info}"
            time.sleep(0.01)

    def submit_all(self, calls):
        client = self.inner._client
        for k, item in enumerate(self.inner.submit_all(calls)):
            if k == 0:
                self.victim, self.lost_tasks = self._busy_worker(client)
                self.procs[self.victim].kill()
            yield item

    def close(self):
        self.inner.close()


def test_killed_worker_mid_sweep_loses_nothing(cluster, tmp_path, monkeypatch):
    address, workers = cluster
    cfg = config.load("quickstart", "smoke", seed=11, overrides=SWEEP)
    tasks = quickstart.tasks(cfg)
    monkeypatch.setenv("INFOSETS_DATA_DIR", str(tmp_path / "serial"))
    serial = runner.run(tasks, cfg, workers=1, progress=False)

    monkeypatch.setenv("INFOSETS_DATA_DIR", str(tmp_path / "dask"))
    inner = make_executor(2, address)
    inner._client.wait_for_workers(2, timeout=30)
    procs = {f"w{i}": proc for i, proc in enumerate(workers)}
    executor = _KillWorkerMidSweep(inner, procs)
    stats = RunStats()
    try:
        table = runner.run(tasks, cfg, executor=executor, progress=False, stats=stats)
        survivors = list(inner._client.scheduler_info()["workers"].values())
    finally:
        executor.close()
    assert executor.lost_tasks and executor.lost_tasks >= 1  # the victim died holding a task
    assert procs[executor.victim].poll() is not None
    assert [w["name"] for w in survivors] == sorted(set(procs) - {executor.victim})
    assert stats.computed == len(tasks) and len(table) == len(tasks)
    pd.testing.assert_frame_equal(table, serial)
