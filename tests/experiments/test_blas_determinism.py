"""Published exact values carry no BLAS noise (history_filtering's ExplicitRange.value).

OpenBLAS changes the reduction order of a dot product with its thread count, so ``probs @ vals``
gave different last digits under 1 and 2 threads for this very range; ``math.fsum`` does not.
The runner also runs every task with BLAS on one thread.
"""

import struct

import numpy as np
from threadpoolctl import threadpool_info, threadpool_limits

from infosets.experiments import config, runner
from infosets.experiments.runner import Task
from infosets.filtering.enumerate import ExplicitRange
from infosets.filtering.public_state import OhHellPublicState


def _log_reach(hands):
    return -((hash(tuple(hands)) % 1000) / 300.0)


def _value(hands):
    return ((sum(hands) * 2654435761) % 10007) / 1000.0 + (hands[0] % 7) / 3.0


def test_exact_value_has_the_same_bytes_under_1_and_2_blas_threads():
    c = OhHellPublicState(3, 4, 3, 3, 0, 11, (), ()).constraints()  # 92,400 histories
    values = []
    for threads in (1, 2):
        with threadpool_limits(limits=threads, user_api="blas"):
            values.append(struct.pack("<d", ExplicitRange(c, _log_reach, _value).value))
    assert values[0] == values[1]


def _blas_threads(cfg, params, seed):
    return {"blas_threads": max((i["num_threads"] for i in threadpool_info()
                                 if i["user_api"] == "blas"), default=1)}


def test_tasks_run_with_one_blas_thread():
    np.ones(2) @ np.ones(2)  # BLAS loaded
    cfg = config.load("quickstart", "smoke", seed=0)
    with threadpool_limits(limits=2, user_api="blas"):
        frame = runner.run([Task(_blas_threads, {"i": 0})], cfg, workers=1, progress=False)
    assert frame["blas_threads"].tolist() == [1]
