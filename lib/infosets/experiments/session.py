"""A paper run: config + executor + store + output folder, shared by notebooks and scripts.

``Session.create(slug, preset, seed=..., workers=..., scheduler=..., overrides=...)`` validates
everything before any compute. ``run`` executes task grids through the runner; ``save_figure``
and ``save_table`` write content-named outputs to ``figures/<slug>/`` (or
``$INFOSETS_FIGURES_DIR/<slug>``) and record them in ``outputs.csv``, the map from each file
to the paper's figure or table number.
"""

from __future__ import annotations

import atexit
import os
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

import infosets
from infosets import plots
from infosets.experiments import config as _config
from infosets.experiments.executors import make_executor
from infosets.experiments.runner import RunStats, Task, run
from infosets.experiments.store import Store, atomic_write_text


def figures_root() -> Path:
    env = os.environ.get("INFOSETS_FIGURES_DIR")
    return Path(env) if env else _config.repo_root() / "figures"


@dataclass
class Session:
    cfg: _config.Config
    workers: int | None = None
    scheduler: str | None = None
    outputs: list = field(default_factory=list)
    _executor: object = None

    @classmethod
    def create(cls, slug: str, preset: str = "default", *, seed: int = 0,
               workers: int | None = None, scheduler: str | None = None,
               overrides: dict | None = None) -> Session:
        if workers is not None and (not isinstance(workers, int) or isinstance(workers, bool)
                                    or workers < 1):
            raise _config.ConfigError(f"workers: expected an int >= 1 or None, got {workers!r}")
        if scheduler is not None and not isinstance(scheduler, str):
            raise _config.ConfigError(
                f"scheduler: expected an address string, 'local-dask' or None, got {scheduler!r}")
        cfg = _config.load(slug, preset, seed=seed, overrides=overrides)
        return cls(cfg, workers, scheduler)

    @property
    def slug(self) -> str:
        return self.cfg.slug

    @property
    def store(self) -> Store:
        return Store(self.cfg)

    @property
    def figures_dir(self) -> Path:
        path = figures_root() / self.slug
        path.mkdir(parents=True, exist_ok=True)
        return path

    @property
    def stamp_text(self) -> str:
        return (f"infosets {infosets.__version__} · {self.slug} · preset={self.cfg.preset} · "
                f"seed={self.cfg.seed}")

    def executor(self):
        if self._executor is None:
            self._executor = make_executor(self.workers, self.scheduler)
            atexit.register(self.close)
        return self._executor

    def close(self) -> None:
        if self._executor is not None:
            self._executor.close()
            self._executor = None

    def run(self, tasks: list[Task], name: str = "results", progress: bool = True) -> pd.DataFrame:
        """Run a task grid (cached, resumable) and return its tidy table in task order."""
        stats = RunStats()
        needs_executor = any(self.store.load_task(name, t.task_id) is None for t in tasks)
        frame = run(tasks, self.cfg, name=name, store=self.store,
                    executor=self.executor() if needs_executor else None,
                    progress=progress, stats=stats)
        print(f"[{self.slug}:{name}] {stats.total} tasks ({stats.cached} cached, "
              f"{stats.computed} computed) in {stats.seconds:.1f} s -> {len(frame)} rows")
        return frame

    def _record(self, name: str, kind: str, paper_ref: str, files: list[Path]) -> None:
        self.outputs = [o for o in self.outputs if o["name"] != name]
        self.outputs.append({"name": name, "kind": kind, "paper_ref": paper_ref,
                             "files": " ".join(p.name for p in files)})
        frame = pd.DataFrame(self.outputs)
        atomic_write_text(self.figures_dir / "outputs.csv", frame.to_csv(index=False))
        atomic_write_text(self.figures_dir / "outputs.md", plots.markdown_table(frame))

    def save_figure(self, fig, name: str, paper_ref: str = "") -> list[Path]:
        """Write ``<name>.png`` and ``.svg`` (stamped) and record them."""
        paths = plots.save_figure(fig, self.figures_dir / name, self.stamp_text)
        self._record(name, "figure", paper_ref, paths)
        return paths

    def save_table(self, frame: pd.DataFrame, name: str, paper_ref: str = "") -> list[Path]:
        """Write ``<name>.csv`` and ``<name>.md`` and record them."""
        csv_path, md_path = self.figures_dir / f"{name}.csv", self.figures_dir / f"{name}.md"
        atomic_write_text(csv_path, frame.to_csv(index=False))
        atomic_write_text(md_path, f"<!-- {self.stamp_text} -->\n" + plots.markdown_table(frame))
        self._record(name, "table", paper_ref, [csv_path, md_path])
        return [csv_path, md_path]
