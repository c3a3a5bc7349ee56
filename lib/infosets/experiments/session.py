"""A paper run: config + executor + store + output folder, shared by notebooks and scripts.

``Session.create(slug, preset, seed=..., workers=..., scheduler=..., overrides=...)`` validates
everything, output folders included, before any compute. ``run`` executes task grids through
the runner; ``derive`` caches a table computed from finished sweeps; ``save_figure`` and
``save_table`` write content-named outputs and record them in ``outputs.csv``, the map from
each file to the paper's figure or table number.

One output folder per preset, so that exploring never overwrites published results:

- ``figures/<slug>/`` holds the default preset, ``figures/<slug>/paper/`` the paper preset and
  ``figures/<slug>/full/`` the full preset (the whole grid, for a Dask cluster), each at the
  published seed (0) without overrides. Their sweeps' tidy tables are committed
  under ``results/<slug>/<preset>/`` and serve as a cache source (``committed.py``);
- any other run (smoke, another seed, overrides) writes to the git-ignored
  ``figures/<slug>/custom/<preset>-<config digest>/`` and publishes no result table.

``$INFOSETS_FIGURES_DIR`` and ``$INFOSETS_RESULTS_DIR`` move the two roots. Published tables are
written at fixed precision (``%.10g``) so that no machine noise reaches them; measured times go
to ``timing/`` (git-ignored, never compared). Each output folder has one ``PROVENANCE.json``
(commit, dirty flag, versions, preset, seed, CPU seconds), rewritten only when an output of the
folder changed, so unchanged results keep identical bytes everywhere.
"""

from __future__ import annotations

import atexit
import hashlib
import json
import math
import os
import re
import time
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from infosets import plots
from infosets.core import allocator
from infosets.core.files import atomic_write_bytes
from infosets.experiments import config as _config
from infosets.experiments import rekey, runlog
from infosets.experiments.committed import CommittedResults, git_state, json_bytes
from infosets.experiments.executors import make_executor
from infosets.experiments.figure_text import tidy_for_saving
from infosets.experiments.runner import RunStats, Task, run
from infosets.experiments.store import (
    Store,
    atomic_write_with,
    check_writable,
    data_root,
    dependency_versions,
    games_in_values,
    games_named,
    naming_path,
    write_if_changed,
)
from infosets.experiments.svg_noise import same_drawing

# preset -> folder under figures/<slug>/ (and results/<slug>/<preset>/ for the sweep tables)
PUBLISHED_PRESETS = {"default": "", "paper": "paper", "full": "full", "tag": "tag"}
PUBLISHED_SEED = 0
TABLE_FLOAT_FORMAT = "%.10g"
TIMING_FOLDER = "timing"
DERIVED_FOLDER = "derived"  # tables derived from finished sweeps (Session.derive)


def _write_derived(folder: Path, name: str, file: str, table: pd.DataFrame) -> None:
    """Write ``folder/file`` atomically and drop the older tables of ``name`` there: files
    ``<name>-<run id>-<input hash>.parquet``, not those of a name that merely starts with
    ``name-`` (``heat`` must leave ``heat-small``'s tables alone)."""
    atomic_write_with(folder / file, lambda tmp: table.to_parquet(tmp, index=False))
    own = re.compile(rf"{re.escape(name)}-[0-9a-f]+-[0-9a-f]{{16}}\.parquet")
    for stale in folder.glob(f"{name}-*.parquet"):
        if stale.name != file and own.fullmatch(stale.name):
            stale.unlink(missing_ok=True)


def _check_output_name(name: str) -> None:
    """An output's name is one file stem: ``outputs.csv`` lists a record's files separated by
    spaces (``prune_unlisted`` splits on them), so a space would get the file pruned."""
    if not name or any(c.isspace() for c in name) or "/" in name or "\\" in name:
        raise ValueError(f"name: {name!r} must be one file stem without spaces or slashes "
                         "(e.g. 'table_2')")


class OutputError(_config.ConfigError):
    """An output folder cannot be written (raised before any compute; names the folder)."""


def figures_root() -> Path:
    env = os.environ.get("INFOSETS_FIGURES_DIR")
    return Path(env) if env else _config.repo_root() / "figures"


def is_published(cfg: _config.Config) -> bool:
    """True for a published preset at the published seed with its own values (no overrides)."""
    if cfg.preset not in PUBLISHED_PRESETS:
        return False
    canonical = _config.load(cfg.slug, cfg.preset, seed=PUBLISHED_SEED)
    return canonical.digest() == cfg.digest()


def output_dir(cfg: _config.Config) -> Path:
    """The figures folder of this config (see the module docstring)."""
    base = figures_root() / cfg.slug
    if is_published(cfg):
        sub = PUBLISHED_PRESETS[cfg.preset]
        return base / sub if sub else base
    return base / "custom" / f"{cfg.preset}-{cfg.digest()[:10]}"


INDEX_FILES = ("outputs.csv", "outputs.md", "PROVENANCE.json")


def prune_unlisted(folder: Path) -> list[Path]:
    """Delete the files of a finished run's figures folder that its ``outputs.csv`` does not
    list (outputs of an older design of the notebook), and return them. Only the folder's own
    files and its ``timing/`` are looked at: the preset subfolders (``paper/``, ``custom/``)
    belong to other runs."""
    index = folder / "outputs.csv"
    if not index.is_file():
        return []
    listed = {f for files in pd.read_csv(index)["files"].dropna() for f in str(files).split()}
    candidates = [p for p in folder.iterdir() if p.is_file()]
    if (folder / "timing").is_dir():
        candidates += [p for p in (folder / "timing").iterdir() if p.is_file()]
    stale = [p for p in candidates
             if p.name not in INDEX_FILES and str(p.relative_to(folder)) not in listed]
    for path in stale:
        path.unlink()
    return sorted(stale)


def warm_engine(cfg: _config.Config) -> None:
    """Compile (or load) the numba engine in this process for the kernel games ``cfg`` plays
    (``search.warm_cache``): the games its values name (``store.games_in_values``), else those
    its paper module names (``store.games_named``). About a second a game when cached, tens of
    seconds on a fresh machine, with a progress bar; in a headless run (``runlog``) without the
    bar, and what the compile says goes to the run log."""
    from infosets.games.kernels import kernel_games
    from infosets.search.warm_cache import warm

    played = games_in_values(cfg.values) or games_named(cfg.slug, cfg.values)
    games = [g for g in played if g in kernel_games()]
    if not games:
        return
    with runlog.captured():
        seconds = warm(games, progress=not runlog.headless())
    runlog.info(f"numba engine ready for {', '.join(games)} ({seconds:.0f} s)")


@dataclass
class Session:
    cfg: _config.Config
    workers: int | None = None
    scheduler: str | None = None
    outputs: list = field(default_factory=list)
    _executor: object = None
    _store: Store | None = None
    _changed: bool = False
    _provenance_rewritten: bool = False
    _cpu: dict = field(default_factory=dict)
    _git: dict | None = None

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
        session = cls(cfg, workers, scheduler)
        session.check_outputs()
        runlog.attach(session.store.path)  # machinery messages: the run log, not the notebook
        # here and, through the environment, in the processes it starts: a Dask nanny takes
        # MALLOC_TRIM_THRESHOLD_ from it over its own 64 KiB; pool workers also by lifeline_preload
        allocator.keep_freed_memory()
        return session

    def check_outputs(self) -> None:
        """Fail now, naming the folder, if an output folder cannot be written."""
        folders = [("figures", self.figures_dir_path), ("data", data_root() / self.slug)]
        if self.published:
            folders.append(("results", self.committed.path))
        for label, folder in folders:
            try:
                check_writable(folder)
            except OSError as exc:
                raise OutputError(f"{label}: cannot write to {folder} "
                                  f"({exc.strerror or type(exc).__name__})") from None

    @property
    def published(self) -> bool:
        return is_published(self.cfg)

    @property
    def committed(self) -> CommittedResults | None:
        """``results/<slug>/<preset>/`` for a published run, else None."""
        return CommittedResults(self.cfg) if self.published else None

    @property
    def slug(self) -> str:
        return self.cfg.slug

    @property
    def store(self) -> Store:
        if self._store is None:
            self._store = Store(self.cfg)
        return self._store

    @property
    def figures_dir_path(self) -> Path:
        return output_dir(self.cfg)

    @property
    def figures_dir(self) -> Path:
        path = self.figures_dir_path
        with naming_path(path):
            path.mkdir(parents=True, exist_ok=True)
        return path

    @property
    def stamp_text(self) -> str:
        # No version or commit here: those live in PROVENANCE.json, so that a new commit
        # does not rewrite every figure.
        return (f"infosets · {self.slug} · preset={self.cfg.preset} · seed={self.cfg.seed}"
                f"{'' if self.published else ' · custom'} · provenance: PROVENANCE.json")

    def executor(self):
        """The run's executor, made when a sweep first has a task to compute (the runner
        calls this only then). For parallel workers the numba engine is compiled here first,
        in this process, so that they load it from the disk cache instead of each compiling
        it at once; a serial run compiles only what its tasks call, and a replot from cached
        tables compiles nothing (minutes saved on a fresh clone)."""
        if self._executor is None:
            executor = make_executor(self.workers, self.scheduler)
            if executor.workers > 1:
                warm_engine(self.cfg)
            self._executor = executor
            atexit.register(self.close)
        return self._executor

    def close(self) -> None:
        if self._executor is not None:
            self._executor.close()
            self._executor = None

    def run(self, tasks: list[Task], name: str = "results", progress: bool = True) -> pd.DataFrame:
        """Run a task grid (cached, resumable) and return its tidy table in task order; what
        the run did (cached, computed, rekeyed, seconds) goes to the run log (``runlog``)."""
        stats = RunStats()
        committed = CommittedResults(self.cfg) if self.published else None
        if committed is not None and rekey.requested():
            self._rekey(tasks, name, committed)
        frame = run(tasks, self.cfg, name=name, store=self.store, executor=self.executor,
                    progress=progress, stats=stats, committed=committed)
        if committed is not None:
            rekey.sync_record(committed, self.store)
        self._cpu[name] = stats.cpu_seconds
        shipped = f"{stats.from_committed} from results/, " if stats.from_committed else ""
        runlog.info(f"[{self.slug}:{name}] {stats.total} tasks ({shipped}"
              f"{stats.cached - stats.from_committed} cached, {stats.computed} computed) "
              f"in {stats.seconds:.1f} s -> {len(frame)} rows")
        return frame

    def _rekey(self, tasks: list[Task], name: str, committed: CommittedResults) -> None:
        """``make rekey``: adopt the sweep's committed rows of an older key once a covering
        sample recomputes equal under the current code (``rekey``); raises RekeyError, adopting
        nothing, if one differs."""
        stale = rekey.snapshot(self.cfg, committed, self.store)
        if stale is None:
            return
        with runlog.captured():  # the checked tasks run here on a serial executor
            entry = rekey.adopt(tasks, self.cfg, name, stale, self.store, self.executor,
                                committed)
        if entry["tasks_adopted"]:
            runlog.info(f"[{self.slug}:{name}] rekeyed from {stale.old_run_id}: "
                  f"{entry['tasks_checked']} tasks recomputed equal "
                  f"({entry['checked_cpu_seconds']:.0f} CPU-s), "
                  f"{entry['tasks_adopted']} adopted")

    def derive(self, name: str, fn, *frames: pd.DataFrame, **kwargs) -> pd.DataFrame:
        """``fn(*frames, **kwargs)``, computed once per run and input, for a table derived in the
        notebook process from finished sweeps (belief_mixtures' heatmaps: best responses over
        the λ grid, minutes of one core at the paper preset).

        The table is kept as parquet under the run's key and a hash of the input frames: in the
        run's data folder, and for a published run also in ``results/<slug>/<preset>/derived/``,
        so a fresh clone replots without recomputing. ``fn`` must live in the paper's module (its
        code is in the key) and ``kwargs`` must follow from the config (they are not hashed).
        Raises ValueError if the table does not come back from parquet equal to itself."""
        digest = hashlib.sha256(name.encode())
        for frame in frames:
            digest.update(json.dumps([[str(c), str(t)] for c, t in frame.dtypes.items()]).encode())
            digest.update(pd.util.hash_pandas_object(frame, index=False).to_numpy().tobytes())
        file = f"{name}-{self.store.run_id}-{digest.hexdigest()[:16]}.parquet"
        local = self.store.path / DERIVED_FOLDER
        shipped = self.committed.path / DERIVED_FOLDER if self.published else None
        for where, folder in (("results/", shipped), ("the local cache", local)):
            if folder is not None and (folder / file).is_file():
                try:
                    table = pd.read_parquet(folder / file)
                except Exception:  # a damaged file is not a result: recompute
                    continue
                runlog.info(f"[{self.slug}:{name}] derived table read from {where} ({len(table)} rows)")
                return table
        start = time.perf_counter()
        with runlog.captured():  # what a computation says is not in a replot's notebook
            table = fn(*frames, **kwargs)
        runlog.info(f"[{self.slug}:{name}] derived table computed in {time.perf_counter() - start:.1f} s "
              f"({len(table)} rows)")
        _write_derived(local, name, file, table)
        back = pd.read_parquet(local / file)
        try:  # checked before anything is published
            pd.testing.assert_frame_equal(back, table.reset_index(drop=True))
        except AssertionError as exc:
            (local / file).unlink(missing_ok=True)
            raise ValueError(f"derive: {name!r} does not survive parquet "
                             f"({str(exc).splitlines()[0]})") from None
        if shipped is not None:
            _write_derived(shipped, name, file, back)
        return back

    def _write(self, path: Path, text: str, tracked: bool = True) -> Path:
        changed = write_if_changed(path, text.encode())
        self._changed |= changed and tracked
        return path

    def _record(self, name: str, kind: str, paper_ref: str, files: list[Path]) -> None:
        # a figure and a table may share a name (png/svg beside csv/md): both are kept
        self.outputs = [o for o in self.outputs if (o["name"], o["kind"]) != (name, kind)]
        self.outputs.append({"name": name, "kind": kind, "paper_ref": paper_ref,
                             "files": " ".join(str(p.relative_to(self.figures_dir))
                                               for p in files)})
        frame = pd.DataFrame(self.outputs)
        # The index grows file by file during a session: not a change of results by itself.
        self._write(self.figures_dir / "outputs.csv", frame.to_csv(index=False), tracked=False)
        self._write(self.figures_dir / "outputs.md", plots.markdown_table(frame), tracked=False)
        self._write_provenance()

    def provenance(self) -> dict:
        """What PROVENANCE.json records for this folder."""
        if self._git is None:
            self._git = git_state()
        cpu = {name: round(seconds, 3) for name, seconds in sorted(self._cpu.items())}
        return {**self._git, "slug": self.slug, "preset": self.cfg.preset, "seed": self.cfg.seed,
                "published": self.published, "run_id": self.store.run_id,
                "versions": dependency_versions(), "cpu_seconds_by_sweep": cpu,
                "cpu_seconds": round(math.fsum(cpu.values()), 3)}  # as a replot sums them

    def _write_provenance(self) -> None:
        """Rewrite PROVENANCE.json only if an output changed or the run is another one; once
        this session has rewritten it, at every later output too (its sweeps' CPU grows)."""
        path = self.figures_dir / "PROVENANCE.json"
        try:
            old = json.loads(path.read_text())
        except (OSError, ValueError):
            old = None
        if (self._changed or self._provenance_rewritten or not isinstance(old, dict)
                or old.get("run_id") != self.store.run_id):
            write_if_changed(path, json_bytes(self.provenance()))
            self._provenance_rewritten = True

    def save_figure(self, fig, name: str, paper_ref: str = "") -> list[Path]:
        """Write ``<name>.png`` and ``.svg`` (stamped) and record them, after
        ``figure_text.tidy_for_saving``: legends and corner notes off the data, titles clear of
        their neighbours, the stamp clear of any text."""
        _check_output_name(name)
        tidy_for_saving(fig, self.stamp_text)
        stem = self.figures_dir / name
        targets = [plots.figure_path(stem, "png"), plots.figure_path(stem, "svg")]
        before = [p.read_bytes() if p.exists() else None for p in targets]
        with naming_path(stem):
            paths = plots.save_figure(fig, stem)
            for old, path in zip(before, paths):
                new = path.read_bytes()
                if old is None or old == new:
                    continue
                if path.suffix == ".svg" and same_drawing(old, new):
                    atomic_write_bytes(path, old)  # float noise of another CPU: keep the file
                else:
                    self._changed = True
        self._record(name, "figure", paper_ref, paths)
        return paths

    def _save_table(self, frame: pd.DataFrame, folder: Path, name: str, kind: str,
                    paper_ref: str) -> list[Path]:
        _check_output_name(name)
        csv_path, md_path = folder / f"{name}.csv", folder / f"{name}.md"
        tracked = kind != "timing"
        self._write(csv_path, frame.to_csv(index=False, float_format=TABLE_FLOAT_FORMAT), tracked)
        self._write(md_path, f"<!-- {self.stamp_text} -->\n" + plots.markdown_table(frame),
                    tracked)
        self._record(name, kind, paper_ref, [csv_path, md_path])
        return [csv_path, md_path]

    def save_table(self, frame: pd.DataFrame, name: str, paper_ref: str = "") -> list[Path]:
        """Write ``<name>.csv`` (floats at ``%.10g``) and ``<name>.md`` and record them."""
        return self._save_table(frame, self.figures_dir, name, "table", paper_ref)

    def save_timing_table(self, frame: pd.DataFrame, name: str,
                          paper_ref: str = "") -> list[Path]:
        """Write a table of measured times to ``timing/`` (regenerated, git-ignored, never
        compared): wall or CPU seconds differ on every run and must not touch published files."""
        return self._save_table(frame, self.figures_dir / TIMING_FOLDER, name, "timing",
                                paper_ref)
