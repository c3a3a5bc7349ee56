"""Run the paper notebooks headless with papermill (``make figures``, ``make smoke``, tests).

``python -m infosets.experiments.run_notebooks --preset default [--paper SLUG]`` executes
``notebooks/<slug>.ipynb`` into ``build/notebooks/<preset>/`` and exits non-zero if any
notebook fails. ``--preset full`` runs the papers that have a full preset (the others' paper
preset already is their whole grid) and is meant for a Dask cluster (``--scheduler ADDRESS``
or ``$DASK_SCHEDULER``). ``run_notebook(slug, out_dir)`` is the smoke helper used by the tests: it
runs one notebook at the smoke preset with every output redirected under ``out_dir`` and
returns what it wrote.

A failing notebook is reported in one line: a ``ConfigError`` (bad parameter) as
``ConfigError: <parameter>: <reason>``, any other error as its type and first line with the
cell that raised it; the executed copy keeps the full output.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from infosets.experiments import reports
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


def execute(slug: str, preset: str, output: Path, *, seed: int = 0, workers: int | None = None,
            scheduler: str | None = None, overrides: dict | None = None,
            timeout: int | None = None, progress: bool = False) -> Path:
    """Execute ``notebooks/<slug>.ipynb`` with papermill; raise on any failing cell."""
    import papermill as pm

    source = notebook_dir() / f"{slug}.ipynb"
    if not source.exists():
        raise FileNotFoundError(f"paper: no notebook {source.name}; available: {available()}")
    if preset not in PRESETS:
        raise ValueError(f"preset: {preset!r} is not one of {list(PRESETS)}")
    output.parent.mkdir(parents=True, exist_ok=True)
    params = {"preset": preset, "seed": seed, "workers": workers, "scheduler": scheduler,
              "overrides": overrides or {}}
    with _env(MPLBACKEND="module://matplotlib_inline.backend_inline"):
        pm.execute_notebook(str(source), str(output), parameters=params, cwd=str(notebook_dir()),
                            progress_bar=progress, kernel_name="python3", execution_timeout=timeout)
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="default", choices=PRESETS)
    parser.add_argument("--paper", default=None, help="one slug (default: every notebook)")
    parser.add_argument("--out", default=str(repo_root() / "build" / "notebooks"))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--scheduler", default=None)
    parser.add_argument("-y", "--overrides", default=None, metavar="YAML",
                        help="paper parameters as YAML, e.g. '{games: [kuhn_poker]}'")
    args = parser.parse_args(argv)
    try:
        overrides = parse_overrides(args.overrides) if args.overrides is not None else None
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
    failed = []
    for slug in slugs:
        out = Path(args.out) / args.preset / f"{slug}.ipynb"
        t0 = time.perf_counter()
        print(f"==> {slug} (preset={args.preset}) -> {out}", flush=True)
        try:
            published = publishes_report(slug, args.preset, args.seed, overrides)
            with Monitor(slug, args.preset) if published else nullcontext():
                execute(slug, args.preset, out, seed=args.seed, workers=args.workers,
                        scheduler=args.scheduler, overrides=overrides,
                        progress=sys.stderr.isatty())
            print(f"    ok in {time.perf_counter() - t0:.0f} s", flush=True)
            if published:
                for path in prune_published(slug, args.preset):
                    print(f"    removed (no longer an output): {path.relative_to(repo_root())}")
                written = reports.export(out, slug, args.preset)
                print(f"    report: {', '.join(str(p.relative_to(repo_root())) for p in written)}")
        except Exception as exc:  # report every failing notebook in one line, then exit 1
            print(f"    FAILED in {time.perf_counter() - t0:.0f} s: {failure_line(exc)}", flush=True)
            failed.append(slug)
    if failed:
        print(f"failed notebooks: {', '.join(failed)} (executed copies in {args.out})")
        return 1
    print(f"all {len(slugs)} notebook(s) ran at preset={args.preset}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
