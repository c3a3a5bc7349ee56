"""Run the paper notebooks headless with papermill (``make figures``, ``make smoke``, tests).

``python -m infosets.experiments.run_notebooks --preset default [--paper SLUG]`` executes
``notebooks/<slug>.ipynb`` into ``build/notebooks/<preset>/`` and exits non-zero if any
notebook fails. ``--preset full`` runs the papers that have a full preset (the others' paper
preset already is their whole grid) and is meant for a Dask cluster (``--scheduler ADDRESS``
or ``$DASK_SCHEDULER``). ``run_notebook(slug, out_dir)`` is the smoke helper used by the tests: it
runs one notebook at the smoke preset with every output redirected under ``out_dir`` and
returns what it wrote.

A failing notebook is reported in one line, printed last: a ``ConfigError`` (bad parameter)
as ``ConfigError: <parameter>: <reason>``, any other error as its type and first line with
the cell that raised it; ``--traceback`` also prints the cell's full traceback, and the
executed copy keeps it.

``--out DIR`` puts every output of the run under DIR: executed notebooks and their run logs
in ``DIR/notebooks/<preset>/``, figures in ``DIR/figures``, the result store in ``DIR/data``,
published tables in ``DIR/results`` and, for a published config, reports in ``DIR/reports``;
the clone is left as it was. Without it, notebooks and logs go to ``build/notebooks/<preset>/``
and ``$INFOSETS_FIGURES_DIR``, ``$INFOSETS_DATA_DIR`` and ``$INFOSETS_RESULTS_DIR`` move the
other roots (``figures/``, ``data/``, ``results/`` in the clone when unset).

An executed notebook holds what its notebook shows a reader and nothing of the run
machinery: cache, rekey, timing and progress messages go to the run log (``runlog``:
``<slug>.log`` beside the executed copy, copied to this process's stderr as they come),
progress bars are not drawn in the kernel, and papermill's timestamps and paths are removed
from its metadata (``pin_metadata``), so that a replot of the same tables writes the same
bytes as the run that computed them. The kernel is ``python3`` run by this interpreter
(``kernel_env``), and its connection is CurveZMQ-encrypted where the kernel supports it
(``KERNEL_CONFIG``: Jupyter warns of every plain-TCP kernel).
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import time
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from infosets.experiments import reports, runlog
from infosets.experiments.config import (
    PRESETS,
    REQUIRED_PRESETS,
    ConfigError,
    parse_overrides,
    presets_of,
    repo_root,
)
from infosets.experiments.notebooks import available, notebook_dir
from infosets.experiments.progress import Monitor

KERNEL_NAME = "python3"  # what every notebook's metadata names (make lab uses the same)
# Manager-provisioned CurveZMQ keys where the kernelspec declares support (ipykernel's does):
# no plain-TCP kernel, so no "Kernel is running over TCP without encryption" warning.
KERNEL_CONFIG = {"KernelManager": {"transport_encryption": "auto"}}
ROOT_ENV = {"figures": "INFOSETS_FIGURES_DIR", "data": "INFOSETS_DATA_DIR",
            "results": "INFOSETS_RESULTS_DIR"}
# papermill's per-run stamps: timestamps, durations, the input and output paths
VOLATILE_PAPERMILL = ("start_time", "end_time", "duration", "input_path", "output_path")
INJECTED_CELL_ID = "injected-parameters"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
ANSI = re.compile(r"\x1b\[[0-9;]*m")


@contextmanager
def _env(**values):
    old = {k: os.environ.get(k) for k in values}
    os.environ.update({k: str(v) for k, v in values.items() if v is not None})
    try:
        yield
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def kernel_env() -> dict[str, str]:
    """The environment that makes ``python3`` this interpreter's kernel: this environment's
    kernelspecs first on ``JUPYTER_PATH`` (jupyter_client runs a spec's ``python`` with the
    interpreter that launches it), so a user's own ``python3`` kernelspec does not apply."""
    own = str(Path(sys.prefix) / "share" / "jupyter")
    rest = [p for p in os.environ.get("JUPYTER_PATH", "").split(os.pathsep) if p and p != own]
    return {"JUPYTER_PATH": os.pathsep.join([own, *rest]),
            "MPLBACKEND": "module://matplotlib_inline.backend_inline"}


def pin_metadata(path: Path) -> None:
    """Remove from an executed notebook, in place, what differs between two runs of the same
    tables: papermill's stamps (timestamps, durations, paths, the injected cell's random id),
    the kernel's per-cell timings, and live widget views (an explorer's; random model ids,
    no saved state, so a headless copy shows nothing there either way)."""
    import nbformat

    nb = nbformat.read(str(path), as_version=4)
    for key in VOLATILE_PAPERMILL:
        nb.metadata.get("papermill", {}).pop(key, None)
    nb.metadata.pop("widgets", None)
    for cell in nb.cells:
        cell.metadata.pop("execution", None)
        for key in VOLATILE_PAPERMILL:
            cell.metadata.get("papermill", {}).pop(key, None)
        if "injected-parameters" in cell.metadata.get("tags", []):
            cell.id = INJECTED_CELL_ID
        if cell.cell_type == "code":
            cell.outputs = [o for o in cell.outputs if WIDGET_VIEW not in o.get("data", {})]
    nbformat.write(nb, str(path))


def execute(slug: str, preset: str, output: Path, *, seed: int = 0, workers: int | None = None,
            scheduler: str | None = None, overrides: dict | None = None,
            timeout: int | None = None, progress: bool = False,
            log: Path | None = None) -> Path:
    """Execute ``notebooks/<slug>.ipynb`` with papermill; raise on any failing cell. The run
    machinery's messages go to ``log`` (default: ``<output>`` with suffix ``.log``)."""
    import papermill as pm
    from traitlets.config import Config

    source = notebook_dir() / f"{slug}.ipynb"
    if not source.exists():
        raise FileNotFoundError(f"paper: no notebook {source.name}; available: {available()}")
    if preset not in PRESETS:
        raise ValueError(f"preset: {preset!r} is not one of {list(PRESETS)}")
    output.parent.mkdir(parents=True, exist_ok=True)
    log = Path(log) if log is not None else output.with_suffix(".log")
    log.unlink(missing_ok=True)
    params = {"preset": preset, "seed": seed, "workers": workers, "scheduler": scheduler,
              "overrides": overrides or {}}
    with _env(**kernel_env(), **{runlog.LOG_ENV: log.resolve()}):
        try:
            pm.execute_notebook(str(source), str(output), parameters=params,
                                cwd=str(notebook_dir()), progress_bar=progress,
                                kernel_name=KERNEL_NAME, execution_timeout=timeout,
                                config=Config(KERNEL_CONFIG))
        finally:
            if output.exists():
                pin_metadata(output)
    return output


@dataclass
class NotebookRun:
    """What a smoke run wrote."""

    notebook: Path
    figures_dir: Path
    data_dir: Path
    files: list[Path]

    def table(self, name: str) -> pd.DataFrame:
        return pd.read_csv(self.figures_dir / f"{name}.csv")


def out_roots(out: Path) -> dict[str, Path]:
    """The output roots under ``--out DIR``: figures, data, results, notebooks, reports."""
    out = Path(out)
    return {name: out / name for name in ("figures", "data", "results", "notebooks", "reports")}


def run_notebook(slug: str, out_dir: Path, preset: str = "smoke", *,
                 figures_root: Path | None = None, **kwargs) -> NotebookRun:
    """Run one notebook (smoke preset by default) with outputs under ``out_dir`` (figures
    under ``figures_root`` if given)."""
    from infosets.experiments.config import load
    from infosets.experiments.session import output_dir

    out_dir = Path(out_dir)
    figures, data, results = out_dir / "figures", out_dir / "data", out_dir / "results"
    figures = Path(figures_root) if figures_root is not None else figures
    with _env(INFOSETS_FIGURES_DIR=figures, INFOSETS_DATA_DIR=data, INFOSETS_RESULTS_DIR=results):
        nb = execute(slug, preset, out_dir / f"{slug}.{preset}.ipynb", **kwargs)
        slug_dir = output_dir(load(slug, preset, seed=kwargs.get("seed", 0),
                                   overrides=kwargs.get("overrides")))
    files = sorted(p for p in slug_dir.rglob("*") if p.is_file()) if slug_dir.exists() else []
    return NotebookRun(nb, slug_dir, data / slug, files)


def failure_line(exc: BaseException) -> str:
    """One line for a failed notebook run (papermill's error carries the cell's exception)."""
    ename = getattr(exc, "ename", None)
    if ename is not None:  # papermill.PapermillExecutionError
        lines = str(getattr(exc, "evalue", "")).strip().splitlines()
        line = f"{ename}: {lines[0] if lines else ''}"
        if ename != "ConfigError":
            line += f" (cell In [{getattr(exc, 'exec_count', '?')}])"
        return line
    lines = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {lines[0] if lines else ''}"


def failure_traceback(exc: BaseException) -> str:
    """The full traceback of a failed run: the cell's (without colour codes) for an error in
    the notebook, else this process's."""
    import traceback

    cell = getattr(exc, "traceback", None)
    if getattr(exc, "ename", None) is not None and cell:
        return ANSI.sub("", "\n".join(cell))
    return "".join(traceback.format_exception(exc)).rstrip()


def publishes_report(slug: str, preset: str, seed: int, overrides: dict | None) -> bool:
    """Only a published run (default, paper or full preset, seed 0, no overrides, the repository's
    own figures folder) writes ``reports/<slug>.<preset>.*``; exploration never does."""
    from infosets.experiments.config import load
    from infosets.experiments.session import is_published

    if os.environ.get("INFOSETS_FIGURES_DIR") or overrides:
        return False
    return is_published(load(slug, preset, seed=seed))


def prune_published(slug: str, preset: str) -> list:
    """Remove from a published run's figures folder the files it no longer writes."""
    from infosets.experiments.config import load
    from infosets.experiments.session import PUBLISHED_SEED, output_dir, prune_unlisted

    return prune_unlisted(output_dir(load(slug, preset, seed=PUBLISHED_SEED)))


HELP_EPILOG = """\
outputs: without --out, executed notebooks and their run logs go to build/notebooks/<preset>/,
and these variables move the other roots (default: in the clone):
  INFOSETS_FIGURES_DIR   figures/  (figures and tables; a run outside figures/ writes no report)
  INFOSETS_DATA_DIR      data/     (this machine's result store, the cache of finished tasks)
  INFOSETS_RESULTS_DIR   results/  (the published runs' committed tables)
--out DIR overrides all three.
"""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], epilog=HELP_EPILOG,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--preset", default="default", choices=PRESETS)
    parser.add_argument("--paper", default=None, help="one slug (default: every notebook)")
    parser.add_argument("--out", default=None, metavar="DIR",
                        help="put every output under DIR: notebooks/<preset>/ (executed "
                             "notebooks, run logs), figures/, data/, results/ and, for a "
                             "published config, reports/; the clone is left untouched")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--scheduler", default=None)
    parser.add_argument("-y", "--overrides", default=None, metavar="YAML",
                        help="paper parameters as YAML, e.g. '{games: [kuhn_poker]}'")
    parser.add_argument("--traceback", action="store_true",
                        help="print a failing cell's full traceback (default: its one line)")
    return parser


def _check_args(args, overrides_text) -> tuple[list[str], dict | None] | int:
    """The slugs to run and the parsed overrides, or exit code 2 after a one-line error."""
    try:
        overrides = parse_overrides(overrides_text) if overrides_text is not None else None
    except ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    slugs = [args.paper] if args.paper else available()
    if args.paper and args.paper not in available():
        print(f"error: PAPER={args.paper!r} has no notebook; available: {', '.join(available())}",
              file=sys.stderr)
        return 2
    if args.preset not in REQUIRED_PRESETS:
        if args.paper and args.preset not in presets_of(args.paper):
            print(f"error: PAPER={args.paper!r} has no {args.preset} preset; papers with one: "
                  f"{', '.join(s for s in available() if args.preset in presets_of(s)) or 'none'}",
                  file=sys.stderr)
            return 2
        skipped = [s for s in slugs if args.preset not in presets_of(s)]
        if skipped:
            print(f"no {args.preset} preset (their paper preset is the whole grid): "
                  f"{', '.join(skipped)}")
        slugs = [s for s in slugs if s not in skipped]
    return slugs, overrides


def _report_dir(args, slug: str, overrides) -> Path | None:
    """Where this run's report goes: ``reports/`` for a published run in the clone,
    ``DIR/reports`` for a published config under ``--out DIR``, else nowhere."""
    if args.out is None:
        return reports.reports_dir() if publishes_report(slug, args.preset, args.seed,
                                                         overrides) else None
    from infosets.experiments.config import load
    from infosets.experiments.session import PUBLISHED_PRESETS, is_published

    if overrides or args.preset not in PUBLISHED_PRESETS or not is_published(
            load(slug, args.preset, seed=args.seed)):
        return None
    return out_roots(Path(args.out))["reports"]


def _shown(path: Path) -> str:
    try:
        return str(Path(path).resolve().relative_to(repo_root().resolve()))
    except ValueError:
        return str(path)


def _run_one(slug: str, args, overrides, notebooks: Path) -> None:
    """Execute one notebook and write its report; raises what the run raised."""
    out = notebooks / args.preset / f"{slug}.ipynb"
    log = out.with_suffix(".log")
    log.unlink(missing_ok=True)  # the follower copies the file from its start
    report_dir = _report_dir(args, slug, overrides)
    t0 = time.perf_counter()
    print(f"==> {slug} (preset={args.preset}) -> {_shown(out)} (log: {log.name})", flush=True)
    monitor = Monitor(slug, args.preset) if report_dir is not None else nullcontext()
    with monitor, runlog.Follower(log, sys.stderr):
        execute(slug, args.preset, out, seed=args.seed, workers=args.workers,
                scheduler=args.scheduler, overrides=overrides, progress=sys.stderr.isatty(),
                log=log)
    print(f"    ok in {time.perf_counter() - t0:.0f} s", flush=True)
    if report_dir is not None:
        for path in prune_published(slug, args.preset):
            print(f"    removed (no longer an output): {_shown(path)}")
        written = reports.export(out, slug, args.preset, report_dir)
        print(f"    report: {', '.join(_shown(p) for p in written)}")


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    checked = _check_args(args, args.overrides)
    if isinstance(checked, int):
        return checked
    slugs, overrides = checked
    roots = out_roots(Path(args.out)) if args.out is not None else {}
    notebooks = roots.get("notebooks", repo_root() / "build" / "notebooks")
    moved = {ROOT_ENV[name]: roots[name] for name in ROOT_ENV if name in roots}
    failed: list[tuple[str, str]] = []
    with _env(**moved):
        for slug in slugs:
            try:
                _run_one(slug, args, overrides, notebooks)
            except Exception as exc:  # every failing notebook in one line, then exit 1
                print(f"    FAILED: {failure_line(exc)}", flush=True)
                if args.traceback:
                    print(failure_traceback(exc), file=sys.stderr, flush=True)
                failed.append((slug, failure_line(exc)))
    if failed:
        print(f"failed notebooks: {', '.join(s for s, _ in failed)} (executed copies and logs in "
              f"{_shown(notebooks / args.preset)}"
              f"{'' if args.traceback else '; --traceback prints the full tracebacks'})")
        for slug, line in failed:  # the error last, where a terminal leaves the eye
            print(line if len(slugs) == 1 else f"{slug}: {line}")
        return 1
    print(f"all {len(slugs)} notebook(s) ran at preset={args.preset}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
