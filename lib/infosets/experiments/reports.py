"""Executed notebooks as committed reports a reader opens without running anything.

``make figures`` writes each executed paper notebook twice under ``reports/``:
``<slug>.<preset>.ipynb`` (the notebook with its outputs, in its own order) and
``<slug>.<preset>.html`` (one self-contained page: images embedded as data URIs, code cells
hidden so the page reads as a report), and rewrites ``reports/index.html``, which links every
report with its verdict counts (``report_index``). The page opens with a summary box (paper,
preset, verdict counts, three headline findings; ``report_summary``), then the figures, the
full claims table and the reconstruction notes, and ends with the settings and configuration
(``report_layout``, from the notebooks' cell tags). Both files are byte-stable for the same
results: what changes from run to run (progress bars and other stderr text, papermill's
timestamps, execution counts) is removed, so a rerun that recomputes nothing leaves
``git status`` clean.

``check_reports`` is the test's view (no error output; every figure cell shows an image; each
page opens with its summary and cuts no table cell; the index lists every page).
``browser_check`` opens each page in headless Chromium (``make reports-check``), saves a
screenshot and fails on a console error or a blank page; ``layout_check`` measures every
table there and fails on a cut cell or a table wider than the page (``report_check``).

Command line: ``python -m infosets.experiments.reports check|browser-check|export
[--dir reports]``; ``export`` re-lays out the committed ``reports/*.ipynb`` as pages (and the
index) with this code, without running any notebook.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import nbformat

from infosets.experiments import report_check, report_index, report_layout, report_summary
from infosets.experiments.config import repo_root
from infosets.experiments.store import atomic_write_text

# A code cell draws a figure when it calls one of the paper modules' plotting functions
# (``plot*``, ``*figure*``). Not ``*heatmap*``: ``belief_mixtures.heatmaps`` computes the
# heatmaps' data, and every heatmap is drawn by a ``plot_heatmap*``.
FIGURE_CALL = re.compile(r"\b(plot\w*|\w*figure\w*)\s*\(")
# What a figure cell prints when its preset has nothing for it to draw (a sweep the preset
# leaves empty, e.g. pimcts_aggregation's ablation outside the tag preset): such a cell may show
# no image, since it says why; any other figure cell without an image is a defect.
NO_FIGURE = "no figure at this preset"
# Notebook and cell metadata that papermill and Jupyter rewrite on every run.
VOLATILE_METADATA = ("papermill", "execution", "widgets")
# Printed lines that differ between identical runs: the session's per-sweep summary
# ("[slug:name] N tasks (C cached, K computed) in T s -> R rows", Session.run) and where a
# derived table came from ("[slug:name] derived table read from results/ ...", Session.derive).
VOLATILE_LINE = re.compile(r"^\[[\w.-]+:[\w.-]+\] (\d+ tasks \(|derived table ).*$\n?",
                           re.MULTILINE)
# Live widgets (tqdm progress bars in the notebook) have random ids and no saved state.
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def reports_dir() -> Path:
    return repo_root() / "reports"


def report_name(slug: str, preset: str) -> str:
    return f"{slug}.{preset}"


def clean(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """Drop what changes between identical runs.

    Removed: stderr streams (progress bars, warnings), live widget views, the sweep summary
    lines (``VOLATILE_LINE``), papermill's timestamps, execution counts; cell ids become
    ``cell-<index>`` (papermill gives its injected parameters cell a random id).
    """
    for key in VOLATILE_METADATA:
        nb.metadata.pop(key, None)
    for index, cell in enumerate(nb.cells):
        cell.id = f"cell-{index}"
        for key in VOLATILE_METADATA:
            cell.metadata.pop(key, None)
        if cell.cell_type != "code":
            continue
        cell.execution_count = None
        outputs = []
        for out in cell.outputs:
            if out.output_type == "stream":
                if out.name == "stderr":
                    continue
                out.text = VOLATILE_LINE.sub("", out.text)
                if not out.text:
                    continue
            elif out.output_type in ("display_data", "execute_result") and WIDGET_VIEW in out.data:
                continue
            if "execution_count" in out:
                out.execution_count = None
            outputs.append(out)
        cell.outputs = outputs
    return nb


def to_html(nb: nbformat.NotebookNode) -> str:
    """One self-contained page: outputs and markdown, code hidden, images inline."""
    from nbconvert import HTMLExporter

    exporter = HTMLExporter(exclude_input=True, exclude_input_prompt=True,
                            exclude_output_prompt=True, embed_images=True)
    body, _ = exporter.from_notebook_node(nb)
    return body


def page_html(nb: nbformat.NotebookNode, slug: str, preset: str, figures: Path) -> str:
    """The report page of a cleaned notebook: re-laid out (``report_layout``), styled."""
    return report_layout.add_style(
        to_html(report_layout.page_notebook(nb, slug, preset, figures)))


def export(executed: Path, slug: str, preset: str, out_dir: Path | None = None,
           figures: Path | None = None) -> list[Path]:
    """Write ``<slug>.<preset>.ipynb`` and ``.html`` from an executed notebook (atomically),
    then the folder's ``index.html``. ``figures``: the run's figures folder, where its
    ``claims.csv`` is (default: the published run's, ``report_summary.run_folder``)."""
    out_dir = Path(out_dir) if out_dir is not None else reports_dir()
    out_dir.mkdir(parents=True, exist_ok=True)
    figures = Path(figures) if figures is not None else report_summary.run_folder(slug, preset)
    nb = clean(nbformat.read(str(executed), as_version=4))
    name = report_name(slug, preset)
    ipynb, html = out_dir / f"{name}.ipynb", out_dir / f"{name}.html"
    atomic_write_text(ipynb, nbformat.writes(nb) + "\n")
    atomic_write_text(html, page_html(nb, slug, preset, figures))
    report_index.write(out_dir)
    return [ipynb, html]


def reexport(folder: Path | None = None) -> list[Path]:
    """Re-export every report notebook of ``folder`` (default ``reports/``) in place: the
    pages take this module's layout without any notebook being run."""
    folder = Path(folder) if folder is not None else reports_dir()
    written = []
    for path in sorted(folder.glob("*.ipynb")):
        slug, _, preset = path.stem.partition(".")
        written += export(path, slug, preset, folder)
    return written


def figure_cells(nb: nbformat.NotebookNode) -> list[int]:
    """Indices of the code cells that draw a figure (see ``FIGURE_CALL``)."""
    return [i for i, cell in enumerate(nb.cells)
            if cell.cell_type == "code" and FIGURE_CALL.search(cell.source)]


def problems(path: Path) -> list[str]:
    """What is wrong with one report notebook: error outputs, figure cells with no image."""
    nb = nbformat.read(str(path), as_version=4)
    found = []
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        for out in cell.outputs:
            if out.output_type == "error":
                found.append(f"{path.name}: cell {i} raised {out.ename}: {out.evalue}")
    for i in figure_cells(nb):
        images = [o for o in nb.cells[i].outputs
                  if o.output_type in ("display_data", "execute_result") and "image/png" in o.data]
        said = any(o.output_type == "stream" and NO_FIGURE in o.text for o in nb.cells[i].outputs)
        if not images and not said:
            found.append(f"{path.name}: figure cell {i} shows no image")
    return found


def page_problems(page: Path) -> list[str]:
    """What is wrong with one report page: no summary box, cut table cells."""
    text = page.read_text(encoding="utf-8")
    found = [] if 'id="report-summary"' in text else [f"{page.name}: no summary box"]
    return found + report_check.cut_cells(text, page.name)


def headline_problems(path: Path) -> list[str]:
    """Headline patterns of a report's paper that its run's claims no longer match."""
    slug, _, preset = path.stem.partition(".")
    claims = report_summary.load_claims(report_summary.run_folder(slug, preset) / "claims.csv")
    if claims is None:
        return []
    return [f"{path.name}: headline pattern {p!r} (report_summary.PAPERS) matches no claim"
            for p in report_summary.missing_headlines(slug, claims)]


def check_reports(folder: Path | None = None) -> list[str]:
    folder = Path(folder) if folder is not None else reports_dir()
    notebooks = sorted(folder.glob("*.ipynb"))
    found = [] if notebooks else [f"{folder}: no report notebooks"]
    index = folder / report_index.INDEX
    index_text = index.read_text(encoding="utf-8") if index.exists() else ""
    if notebooks and not index_text:
        found.append(f"{folder.name}/{report_index.INDEX}: missing")
    for path in notebooks:
        found += problems(path)
        page = path.with_suffix(".html")
        if not page.exists():
            found.append(f"{path.name}: the HTML page is missing")
            continue
        found += page_problems(page)
        if folder.resolve() == reports_dir().resolve():
            found += headline_problems(path)
        if index_text and f'href="{page.name}"' not in index_text:
            found.append(f"{report_index.INDEX}: does not link {page.name}")
    return found


@dataclass
class PageCheck:
    page: Path
    screenshot: Path
    console_errors: list[str]
    blank: bool


def chromium() -> str:
    """Path of the Chromium binary; RuntimeError with the install command when missing."""
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    raise RuntimeError("chromium: not installed; run `apt-get install -y chromium` "
                       "(make reports-check does it)")


# Flags for a closed network: no background fetches, no GPU, a throw-away profile.
_CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                   "--no-first-run", "--disable-background-networking",
                   "--disable-component-update", "--disable-sync", "--hide-scrollbars",
                   "--enable-logging=stderr", "--v=0")


# The browser window of the checks: a laptop screen's width.
WINDOW = (1280, 2400)


def _is_blank(png: Path) -> bool:
    import matplotlib.image as mpimg

    pixels = mpimg.imread(str(png))
    return float(pixels[..., :3].std()) < 0.01


def _kill_group(pgid: int) -> None:
    """SIGKILL a process group (the browser and any helper it left), if any is left."""
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _run_chromium(args: list[str], timeout: float) -> subprocess.CompletedProcess | None:
    """Run headless Chromium with ``args`` and a throw-away profile; None when it hung (it
    and every helper it forked are killed)."""
    with tempfile.TemporaryDirectory() as profile:
        # its own process group, so that a hung browser is killed with its helper processes
        proc = subprocess.Popen(
            [chromium(), *_CHROMIUM_FLAGS, f"--user-data-dir={profile}", *args],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
        try:
            stdout, stderr = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            stdout = stderr = None
        finally:
            _kill_group(proc.pid)
        if stdout is None:
            proc.wait()
            proc.stdout.close()
            proc.stderr.close()
            return None
    return subprocess.CompletedProcess(proc.args, proc.returncode, stdout, stderr)


def browser_check(page: Path, screenshot: Path, timeout: float = 60.0) -> PageCheck:
    """Open ``page`` in headless Chromium, save a screenshot, collect console errors."""
    screenshot.parent.mkdir(parents=True, exist_ok=True)
    screenshot.unlink(missing_ok=True)  # a stale screenshot must not pass for this run's
    run = _run_chromium([f"--window-size={WINDOW[0]},2400", f"--screenshot={screenshot}",
                         page.resolve().as_uri()], timeout)
    if run is None:
        return PageCheck(page, screenshot, [f"chromium timed out after {timeout:g} s"], True)
    errors = [line for line in run.stderr.splitlines()
              if "CONSOLE" in line and re.search(r"Uncaught|Error|error", line)]
    if run.returncode != 0 or not screenshot.exists():
        errors.append(f"chromium exited {run.returncode}: {run.stderr.strip()[-300:]}")
        return PageCheck(page, screenshot, errors, True)
    return PageCheck(page, screenshot, errors, _is_blank(screenshot))


def layout_check(page: Path, timeout: float = 120.0) -> list[str]:
    """Render ``page`` in headless Chromium at ``WINDOW`` and measure every table after
    layout (``report_check.PROBE``): a cut cell or a table wider than the page is a problem
    naming the page and the table."""
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / page.name
        copy.write_text(report_check.probed(page.read_text(encoding="utf-8")), encoding="utf-8")
        run = _run_chromium([f"--window-size={WINDOW[0]},{WINDOW[1]}", "--dump-dom",
                             copy.as_uri()], timeout)
    if run is None:
        return [f"{page.name}: chromium timed out after {timeout:g} s"]
    record = report_check.measurements(run.stdout)
    if record is None:
        return [f"{page.name}: the layout probe wrote nothing (chromium exited {run.returncode})"]
    return report_check.layout_problems(page.name, record["tables"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=["check", "browser-check", "export"])
    parser.add_argument("--dir", default=str(reports_dir()))
    parser.add_argument("--screenshots", default=str(repo_root() / "build" / "screenshots"))
    args = parser.parse_args(argv)
    folder = Path(args.dir)
    if args.command == "export":
        written = reexport(folder)
        print(f"re-exported {len(written) // 2} report(s) and {report_index.INDEX} in {folder}")
        return 0
    if args.command == "check":
        found = check_reports(folder)
        for line in found:
            print(line)
        print(f"{len(sorted(folder.glob('*.ipynb')))} report(s), {len(found)} problem(s)")
        return 1 if found else 0
    failed = 0
    for page in sorted(folder.glob("*.html")):
        result = browser_check(page, Path(args.screenshots) / f"{page.stem}.png")
        layout = layout_check(page)
        status = "ok"
        if result.console_errors or result.blank or layout:
            failed += 1
            status = ("blank page" if result.blank else
                      f"console error: {result.console_errors[0]}" if result.console_errors
                      else f"{len(layout)} layout problem(s)")
        print(f"{page.name}: {status} (screenshot {result.screenshot})")
        for line in layout:
            print(f"  {line}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
