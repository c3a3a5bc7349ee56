"""Result store: ``data/<slug>/<run_id>/`` with atomic, checksummed task files (all papers).

run_id hashes the validated config and the library sources, so a code change or a config
change starts a new run while an interrupted run resumes where it stopped. Each finished
task is one file ``<name>/<task_id>.pkl`` written to a temporary file and renamed, and it
starts with the SHA-256 of its payload: a truncated or corrupt file is detected, deleted and
recomputed, never read.
"""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import tempfile
from functools import lru_cache
from pathlib import Path

import pandas as pd

from infosets.experiments.config import Config, repo_root

_MAGIC = b"INFOSETS1"


@lru_cache(maxsize=1)
def code_hash() -> str:
    """SHA-256 over every .py file of the ``infosets`` package (path and content)."""
    pkg = Path(__file__).resolve().parents[1]
    digest = hashlib.sha256()
    for path in sorted(pkg.rglob("*.py")):
        digest.update(str(path.relative_to(pkg)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def run_id(cfg: Config) -> str:
    return hashlib.sha256((cfg.digest() + code_hash()).encode()).hexdigest()[:12]


def data_root() -> Path:
    env = os.environ.get("INFOSETS_DATA_DIR")
    return Path(env) if env else repo_root() / "data"


def atomic_write_bytes(path: Path, payload: bytes) -> None:
    """Write ``payload`` to ``path`` so that readers see the old file or the whole new one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(payload)  # no fsync: rename is atomic against a killed process
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def atomic_write_text(path: Path, text: str) -> None:
    atomic_write_bytes(path, text.encode())


class Store:
    """The folder of one run: config.json, per-task files, and the tidy tables."""

    def __init__(self, cfg: Config, root: Path | None = None):
        self.cfg = cfg
        self.run_id = run_id(cfg)
        self.path = (root or data_root()) / cfg.slug / self.run_id
        self.path.mkdir(parents=True, exist_ok=True)
        config_file = self.path / "config.json"
        if not config_file.exists():
            meta = {**cfg.to_json(), "run_id": self.run_id, "code_hash": code_hash()}
            atomic_write_text(config_file, json.dumps(meta, indent=2, sort_keys=True, default=str))

    def task_file(self, name: str, task_id: str) -> Path:
        return self.path / name / f"{task_id}.pkl"

    def save_task(self, name: str, task_id: str, rows: list[dict]) -> None:
        payload = pickle.dumps(rows, protocol=pickle.HIGHEST_PROTOCOL)
        header = _MAGIC + hashlib.sha256(payload).digest()
        atomic_write_bytes(self.task_file(name, task_id), header + payload)

    def load_task(self, name: str, task_id: str) -> list[dict] | None:
        """The task's rows, or None if absent. A corrupt file is deleted and None returned."""
        path = self.task_file(name, task_id)
        try:
            blob = path.read_bytes()
        except FileNotFoundError:
            return None
        head, digest, payload = blob[: len(_MAGIC)], blob[len(_MAGIC): len(_MAGIC) + 32], \
            blob[len(_MAGIC) + 32:]
        if head != _MAGIC or hashlib.sha256(payload).digest() != digest:
            path.unlink(missing_ok=True)
            return None
        return pickle.loads(payload)

    def table_file(self, name: str) -> Path:
        return self.path / f"{name}.parquet"

    def save_table(self, name: str, frame: pd.DataFrame) -> Path:
        path = self.table_file(name)
        fd, tmp = tempfile.mkstemp(dir=self.path, prefix=f".{path.name}.", suffix=".tmp")
        os.close(fd)
        try:
            frame.to_parquet(tmp, index=False)
            os.replace(tmp, path)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
        return path
