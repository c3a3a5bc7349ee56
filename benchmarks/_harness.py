"""Benchmark harness: print `name: ours X unit, reference Y unit, ratio Z` and write JSON.

Every ratio compares two measurements taken in the same run on the same machine, so the
numbers stay meaningful on a loaded or different machine. Results go to
benchmarks/results/, one ``<topic>.json`` per benchmark (git-ignored).
"""

from __future__ import annotations

import json
import platform
import statistics
import time
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results"


def timeit(fn: Callable[[], object], repeat: int = 5, number: int = 1) -> float:
    """Median seconds per call of ``fn`` over ``repeat`` rounds of ``number`` calls."""
    samples = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(number):
            fn()
        samples.append((time.perf_counter() - t0) / number)
    return statistics.median(samples)


def row(name: str, ours: float, reference: float | None, unit: str, goal: str = "",
        higher_is_better: bool = True, **extra) -> dict:
    """One comparison; ratio = ours / reference if higher is better, else reference / ours."""
    ratio = None
    if reference:
        ratio = ours / reference if higher_is_better else reference / ours
    return {"name": name, "ours": ours, "reference": reference, "unit": unit, "ratio": ratio,
            "goal": goal, **extra}


def report(topic: str, rows: list[dict]) -> Path:
    """Print every row and write ``<topic>.json`` in benchmarks/results/."""
    for r in rows:
        ref = "n/a" if r["reference"] is None else f"{r['reference']:.4g} {r['unit']}"
        ratio = "n/a" if r["ratio"] is None else f"{r['ratio']:.2f}"
        goal = f"  (goal: {r['goal']})" if r.get("goal") else ""
        print(f"{r['name']}: ours {r['ours']:.4g} {r['unit']}, reference {ref}, ratio {ratio}{goal}",
              flush=True)
    RESULTS.mkdir(parents=True, exist_ok=True)
    path = RESULTS / f"{topic}.json"
    meta = {"topic": topic, "when": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "python": platform.python_version(), "machine": platform.machine(), "rows": rows}
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(meta, indent=2))
    tmp.replace(path)
    return path
