"""How far a published run has got, read from the tables it commits (issue 14: paper scale).

A published run (default, paper or full preset, seed 0, no overrides) rewrites
``results/<slug>/<preset>/PROVENANCE.json`` about once a minute with each sweep's finished and
total tasks and its CPU seconds (``committed.py``). The notebook's own progress bars are widgets
inside the kernel, so a terminal running ``make figures`` would see nothing for hours; this
module reads that file instead:

- ``Monitor`` draws one bar per sweep on a terminal while ``run_notebooks`` executes the
  notebook, or prints a plain line when the counts change (at most every few minutes) when the
  output is a log file;
- ``python -m infosets.experiments.progress [--paper SLUG] [--preset paper]`` prints the same
  counts once, for a run in the background or one committed from another machine.

Nothing here changes a result, and no paper imports it.
"""

from __future__ import annotations

import argparse
import sys
import threading
import time
from dataclasses import dataclass

from infosets.experiments.committed import CommittedResults
from infosets.experiments.config import load, presets_of
from infosets.experiments.notebooks import available
from infosets.experiments.session import PUBLISHED_PRESETS


@dataclass(frozen=True)
class SweepProgress:
    """One sweep of a published run: finished and total tasks, CPU seconds of the finished."""

    sweep: str
    done: int
    total: int
    cpu_seconds: float

    def line(self, slug: str) -> str:
        share = f"{100 * self.done / self.total:.0f}%" if self.total else "-"
        return (f"{slug}:{self.sweep} {self.done}/{self.total} tasks ({share}), "
                f"{self.cpu_seconds / 3600:.2f} CPU-hours")


def read(slug: str, preset: str) -> list[SweepProgress]:
    """The sweeps recorded for the published run of ``slug`` at ``preset`` under the current code
    (empty if none is recorded, or if the recorded tables belong to another results key)."""
    return sweeps_of(CommittedResults(load(slug, preset)))


def absence(slug: str, preset: str) -> str:
    """Why ``read(slug, preset)`` is empty: never run, or tables of another results key."""
    results = CommittedResults(load(slug, preset))
    if results.recorded_run_id() is None:
        return f"not run at {preset} (no {slug}/{preset} in results/)"
    return (f"no {preset} tables under the current code (results/{slug}/{preset} holds run "
            f"{results.recorded_run_id()}, this code's key is run {results.run_id}; "
            f"`make figures PRESET={preset} PAPER={slug}` recomputes it)")


def sweeps_of(results: CommittedResults) -> list[SweepProgress]:
    """The sweeps recorded in ``results``' PROVENANCE.json, if its tables are this run's."""
    if not results.valid():
        return []
    sweeps = []
    for name, table in results.provenance().get("tables", {}).items():
        try:
            sweeps.append(SweepProgress(str(name), int(table["tasks_done"]),
                                        int(table["tasks_total"]), float(table["cpu_seconds"])))
        except (KeyError, TypeError, ValueError):
            continue  # a field this version does not know: show the others
    return sweeps


class Monitor:
    """Report ``read(slug, preset)`` on ``stream`` from a background thread until stopped.

    On a terminal: one tqdm bar per sweep, refreshed every ``interval`` seconds. Otherwise: one
    line per sweep whenever its count has changed, at most every ``log_every`` seconds."""

    def __init__(self, slug: str, preset: str, stream=None, *, interval: float = 5.0,
                 log_every: float = 300.0, bars: bool | None = None):
        self.slug, self.preset = slug, preset
        self.stream = stream if stream is not None else sys.stderr
        self.bars = self.stream.isatty() if bars is None else bars
        self.interval, self.log_every = interval, log_every
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="progress-monitor", daemon=True)
        self._results = CommittedResults(load(slug, preset))
        self._bars: dict = {}
        self._logged: dict[str, int] = {}
        self._last_log = float("-inf")

    def __enter__(self) -> Monitor:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()
        self.poll(final=True)
        for bar in self._bars.values():
            bar.close()

    def _loop(self) -> None:
        while not self._stop.wait(self.interval):
            self.poll()

    def poll(self, final: bool = False) -> None:
        """Read the counts once and report what changed."""
        try:
            sweeps = sweeps_of(self._results)
        except OSError:
            return
        if self.bars:
            self._draw(sweeps)
        elif final or time.monotonic() - self._last_log >= self.log_every:
            changed = [s for s in sweeps if self._logged.get(s.sweep) != s.done]
            for s in changed:
                print(f"    {s.line(self.slug)}", file=self.stream, flush=True)
                self._logged[s.sweep] = s.done
            if changed:
                self._last_log = time.monotonic()

    def _draw(self, sweeps: list[SweepProgress]) -> None:
        from tqdm import tqdm

        for s in sweeps:
            bar = self._bars.get(s.sweep)
            if bar is None:  # tasks finished before this run are the start, not the rate
                bar = self._bars[s.sweep] = tqdm(
                    total=s.total, initial=s.done, desc=f"{self.slug}:{s.sweep}", unit="task",
                    file=self.stream, dynamic_ncols=True, leave=True)
            bar.total = s.total
            bar.set_postfix_str(f"{s.cpu_seconds / 3600:.2f} CPU-h", refresh=False)
            if s.done > bar.n:
                bar.update(s.done - bar.n)
            else:
                bar.refresh()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--paper", default=None, help="one slug (default: every notebook)")
    parser.add_argument("--preset", default="paper", choices=tuple(PUBLISHED_PRESETS))
    args = parser.parse_args(argv)
    if args.paper and args.paper not in available():
        print(f"error: --paper {args.paper!r} has no notebook; available: "
              f"{', '.join(available())}", file=sys.stderr)
        return 2
    for slug in [args.paper] if args.paper else available():
        if args.preset not in presets_of(slug):
            continue
        sweeps = read(slug, args.preset)
        if not sweeps:
            print(f"{slug}: {absence(slug, args.preset)}")
        for s in sweeps:
            print(s.line(slug))
    return 0


if __name__ == "__main__":
    sys.exit(main())
