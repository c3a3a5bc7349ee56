"""What decides a task's rows (all papers): the task and its key, its seed, how it is run
and how its rows become a table.

This is the part of the run machinery that a results key hashes (``store.import_closure``
follows a paper's imports, and a paper imports ``Task`` from here). The rest (``runner``,
``store``, ``committed``, ``executors``, ``lifeline``) decides where rows are kept and when,
not what they hold, so a fix there restarts no paper.

A ``Task`` is a module-level function and its parameters (JSON primitives, the task key).
Its seed is ``SeedSequence(entropy=notebook seed, spawn_key=hash(key))``, so a task's result
depends on nothing but the config, its own key and the code. Each task runs with BLAS limited
to one thread (threadpoolctl): OpenBLAS changes its reduction order with its thread count, so
this keeps the last digits of a result independent of the machine.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import pandas as pd


@dataclass(frozen=True)
class Task:
    """``fn(cfg_values, params, seed) -> rows``; ``params`` is the task's key."""

    fn: Callable
    params: dict = field(default_factory=dict)

    @property
    def key(self) -> str:
        name = f"{self.fn.__module__}.{self.fn.__qualname__}"
        try:
            return json.dumps({"fn": name, "params": self.params}, sort_keys=True)
        except TypeError as exc:
            raise ValueError(f"task params: must be JSON primitives ({exc}): {self.params!r}") \
                from None

    @property
    def task_id(self) -> str:
        return hashlib.sha256(self.key.encode()).hexdigest()[:24]


def task_seed(root_seed: int, key: str) -> np.random.SeedSequence:
    """The task's SeedSequence: a function of the notebook seed and the task key only."""
    words = np.frombuffer(hashlib.sha256(key.encode()).digest()[:16], dtype="<u4")
    return np.random.SeedSequence(entropy=root_seed, spawn_key=tuple(int(w) for w in words))


def execute(fn: Callable, values: dict, params: dict, seed: np.random.SeedSequence) -> list[dict]:
    """Run one task and normalise its output to tidy rows that carry the task params."""
    out = fn(values, dict(params), seed)
    if isinstance(out, pd.DataFrame):
        rows = out.to_dict("records")
    elif isinstance(out, dict):
        rows = [out]
    elif isinstance(out, (list, tuple)):
        rows = list(out)
    else:
        raise TypeError(f"task {fn.__qualname__} returned {type(out).__name__}; "
                        "expected rows (list of dicts), a dict or a DataFrame")
    return [{**params, **row} for row in rows]


def execute_timed(fn: Callable, values: dict, params: dict,
                  seed: np.random.SeedSequence) -> tuple[list[dict], float]:
    """``execute`` with BLAS on one thread; returns (rows, CPU seconds of this process)."""
    from threadpoolctl import threadpool_limits

    start = time.process_time()
    with threadpool_limits(limits=1, user_api="blas"):
        rows = execute(fn, values, params, seed)
    return rows, time.process_time() - start


def tidy_frame(rows: list[dict]) -> pd.DataFrame:
    """The table of ``rows``; a missing value is NaN in every column (never None), so that
    rows read back from a committed parquet table give the same frame as fresh ones."""
    frame = pd.DataFrame(rows)
    for column in [c for c in frame.columns if pd.api.types.is_object_dtype(frame[c])]:
        missing = frame[column].isna()
        if missing.any():
            frame[column] = frame[column].astype(object).where(~missing, np.nan)
    return frame
