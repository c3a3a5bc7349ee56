"""Committed result tables: ``results/<slug>/<preset>/`` travels with git (all papers).

The published presets' sweeps keep their tidy per-task rows here as parquet (plain data, never
a pickle), one file per sweep name, with a ``task_id`` column that ties each row to its task.
``RUN.json`` holds the run key (config, code hash of the modules the paper imports, dependency
versions) and is byte-identical for an unchanged key; ``PROVENANCE.json`` adds the commit,
the dirty flag and the CPU time the rows cost.

The runner reads these tables as a cache source when the recorded run_id equals the current
one: a fresh clone replots without recomputing, and a long run stopped on one machine resumes
on another from the committed partial tables. Anything else (another key, a malformed file)
is ignored, and the sweep recomputes.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd

from infosets.experiments.config import Config, repo_root
from infosets.experiments.store import (
    atomic_write_with,
    dependency_versions,
    run_id,
    run_key,
    write_if_changed,
)

TASK_COLUMN = "task_id"
# What a result can depend on: ``dirty`` looks at these paths only (not at figures/, results/,
# reports/, README.md or docs/results.md, which ``make figures`` itself rewrites as it goes).
RESULT_INPUTS = ("lib", "notebooks", "pyproject.toml", "environment.yml")


def results_root() -> Path:
    env = os.environ.get("INFOSETS_RESULTS_DIR")
    return Path(env) if env else repo_root() / "results"


def git_state(root: Path | None = None) -> dict:
    """``{"commit", "dirty"}`` of the checkout; dirty: uncommitted edits to ``RESULT_INPUTS``."""
    root = root or repo_root()

    def git(*args):
        return subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True,
                              timeout=30)

    try:
        head = git("rev-parse", "HEAD")
        if head.returncode != 0:
            return {"commit": None, "dirty": None}
        status = git("status", "--porcelain", "--untracked-files=no", "--", *RESULT_INPUTS)
    except (OSError, subprocess.SubprocessError):
        return {"commit": None, "dirty": None}
    return {"commit": head.stdout.strip(), "dirty": bool(status.stdout.strip())}


def json_bytes(obj) -> bytes:
    return (json.dumps(obj, indent=2, sort_keys=True, default=str) + "\n").encode()


def _native(value):
    """Undo parquet's list -> ndarray and missing -> None so rows match what the task gave."""
    if isinstance(value, np.ndarray):
        return [_native(v) for v in value.tolist()]
    if isinstance(value, np.generic):
        return value.item()
    return value


class CommittedResults:
    """``results/<slug>/<preset>/`` of one published run."""

    def __init__(self, cfg: Config, root: Path | None = None):
        self.cfg = cfg
        self.run_id = run_id(cfg)
        self.path = (root or results_root()) / cfg.slug / cfg.preset
        self._loaded: dict[str, dict] = {}

    # -- reading --------------------------------------------------------------------------
    def recorded_run_id(self) -> str | None:
        try:
            return json.loads((self.path / "RUN.json").read_text()).get("run_id")
        except (OSError, ValueError, AttributeError):
            return None

    def valid(self) -> bool:
        """True if the committed tables were computed with this run's key."""
        return self.recorded_run_id() == self.run_id

    def provenance(self) -> dict:
        try:
            data = json.loads((self.path / "PROVENANCE.json").read_text())
            return data if isinstance(data, dict) else {}
        except (OSError, ValueError):
            return {}

    def table_file(self, name: str) -> Path:
        return self.path / f"{name}.parquet"

    def load(self, name: str) -> dict[str, list[dict]]:
        """``{task_id: rows}`` of the committed table ``name`` (empty unless valid)."""
        if name in self._loaded:
            return self._loaded[name]
        found: dict[str, list[dict]] = {}
        if self.valid() and self.table_file(name).is_file():
            try:
                frame = pd.read_parquet(self.table_file(name))
            except Exception:  # a damaged file is not a result: recompute
                frame = None
            if frame is not None and TASK_COLUMN in frame.columns:
                columns = [c for c in frame.columns if c != TASK_COLUMN]
                for task_id, values in zip(frame[TASK_COLUMN],
                                           frame[columns].itertuples(index=False, name=None)):
                    row = {c: _native(v) for c, v in zip(columns, values)}
                    found.setdefault(str(task_id), []).append(row)
        self._loaded[name] = found
        return found

    def cpu_seconds(self, name: str) -> float:
        """CPU seconds recorded for the committed rows of ``name`` (0 if unknown)."""
        table = self.provenance().get("tables", {}).get(name, {})
        try:
            return float(table.get("cpu_seconds", 0.0))
        except (TypeError, ValueError):
            return 0.0

    # -- writing --------------------------------------------------------------------------
    def save(self, name: str, rows_by_task: list[tuple[str, list[dict]]], total_tasks: int,
             cpu_seconds: float) -> None:
        """Write the rows of the finished tasks (in task order) and the run's stamp files."""
        if not self.valid():  # another key's tables must not pass for this run's
            for stale in [*self.path.glob("*.parquet"), self.path / "PROVENANCE.json"]:
                stale.unlink(missing_ok=True)
            self._loaded.clear()
        prov = self.provenance()
        records = [{**row, TASK_COLUMN: task_id} for task_id, rows in rows_by_task for row in rows]
        frame = pd.DataFrame(records)
        if TASK_COLUMN not in frame.columns:  # no rows at all
            frame[TASK_COLUMN] = pd.Series(dtype=str)
        atomic_write_with(self.table_file(name), lambda tmp: frame.to_parquet(tmp, index=False))
        key = {**run_key(self.cfg), "preset": self.cfg.preset, "run_id": self.run_id}
        write_if_changed(self.path / "RUN.json", json_bytes(key))
        tables = dict(prov.get("tables", {}))
        tables[name] = {"tasks_done": len(rows_by_task), "tasks_total": total_tasks,
                        "cpu_seconds": round(cpu_seconds, 3)}
        prov = {**git_state(), "preset": self.cfg.preset, "seed": self.cfg.seed,
                "run_id": self.run_id, "versions": dependency_versions(), "tables": tables,
                "cpu_seconds": round(math.fsum(t["cpu_seconds"] for t in tables.values()), 3)}
        write_if_changed(self.path / "PROVENANCE.json", json_bytes(prov))
