"""A task that spends some CPU and stops on demand, shared by the tests of resumed runs
(``tests/experiments/test_runner.py``, ``tests/experiments/test_outputs.py``)."""

import os

STOP_AT = "INFOSETS_TEST_STOP_AT"  # the task index at which the "machine" stops


def busy_rows(cfg, params, seed):
    """One row per task after some CPU time to count; raises at task ``$INFOSETS_TEST_STOP_AT``."""
    if os.environ.get(STOP_AT) == str(params["i"]):
        raise RuntimeError("machine stopped")
    total = sum(k * k for k in range(100_000 * (params["i"] + 1)))
    return [{"i": params["i"], "total": total}]
