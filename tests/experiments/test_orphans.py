"""kill -9 of a run mid-sweep leaves no process of ours (experiments.lifeline; all papers):
the pool workers, the forkserver and the resource tracker all go within 10 s."""

import os
import signal
import subprocess
import sys
import textwrap
import time

import psutil
import pytest

pytestmark = pytest.mark.xdist_group("runner")

SCRIPT = textwrap.dedent("""
    from infosets.experiments import config, runner
    from infosets.papers import quickstart
    cfg = config.load("quickstart", "smoke", seed=5, overrides={
        "games": ["leduc_poker"], "solvers": ["cfr"], "iterations": list(range(30, 60)),
        "eval_games": 5})
    runner.run(quickstart.tasks(cfg), cfg, workers=2, progress=False)
""")


def test_kill_9_of_the_run_mid_sweep_leaves_no_process(tmp_path):
    """Only the run itself is killed (as when `make figures` or papermill is): its
    descendants, in the run's own process group, must follow it."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path),
           "INFOSETS_DATA_DIR": str(tmp_path / "data")}
    proc = subprocess.Popen([sys.executable, "-c", SCRIPT], env=env, start_new_session=True)
    leader = psutil.Process(proc.pid)
    try:
        deadline = time.monotonic() + 60
        ours = []
        while time.monotonic() < deadline and proc.poll() is None:
            ours = leader.children(recursive=True)
            if len(ours) >= 4:  # tracker, forkserver and 2 workers: tasks were submitted
                break
            time.sleep(0.05)  # polling for the sweep to be under way
        time.sleep(1.0)  # the workers are computing
        ours = leader.children(recursive=True)
        assert proc.poll() is None and len(ours) >= 4, "the sweep was not under way"
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        ours = [p for p in ours if p.is_running()]
        gone, alive = psutil.wait_procs(ours, timeout=10)
        assert alive == [], [p.cmdline() for p in alive]
    finally:
        for p in [leader, *ours]:
            try:
                p.kill()
            except psutil.Error:
                pass
