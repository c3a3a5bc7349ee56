"""Committed reports (lib/infosets/experiments/reports.py): clean, complete, byte-stable."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest

from infosets.experiments import reports


@pytest.fixture
def executed(quickstart_twice, tmp_path):
    """The quickstart notebook run twice into one folder at the smoke preset (the second run
    reads the first one's cache), as a user reruns it: the session's ``quickstart_twice``
    (tests/conftest.py, shared with test_run_log), read under its
    ``xdist_group`` so that ``make test``'s two workers run it once, not once each. The
    reports go under this test's own folder."""
    return quickstart_twice.first, quickstart_twice.second, tmp_path


@pytest.mark.notebook
@pytest.mark.xdist_group("quickstart_twice")
def test_export_writes_a_clean_self_contained_report(executed):
    first, _, out = executed
    ipynb, html = reports.export(first, "quickstart", "smoke", out / "reports")
    assert ipynb.name == "quickstart.smoke.ipynb" and html.name == "quickstart.smoke.html"
    nb = nbformat.read(str(ipynb), as_version=4)
    assert "papermill" not in nb.metadata
    streams = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs
               if o.output_type == "stream"]
    assert all(o.name == "stdout" for o in streams)
    assert reports.figure_cells(nb), "quickstart draws a figure"
    page = html.read_text()
    assert "data:image/png;base64," in page        # images embedded
    assert "nb.snapshot(globals())" not in page    # code hidden
    assert reports.check_reports(out / "reports") == []


@pytest.mark.notebook
@pytest.mark.xdist_group("quickstart_twice")
def test_reports_are_byte_identical_across_identical_runs(executed, tmp_path):
    first, second, _ = executed
    a = reports.export(first, "quickstart", "smoke", tmp_path / "a")
    b = reports.export(second, "quickstart", "smoke", tmp_path / "b")
    for x, y in zip(a, b):
        assert x.read_bytes() == y.read_bytes(), x.name


def test_check_reports_names_errors_and_missing_figures(tmp_path):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("paper.plot(results, session)"),
                nbformat.v4.new_code_cell("1 / 0")]
    nb.cells[1].outputs = [nbformat.v4.new_output("error", ename="ZeroDivisionError",
                                                  evalue="division by zero", traceback=[])]
    nbformat.write(nb, str(tmp_path / "x.default.ipynb"))
    found = reports.check_reports(tmp_path)
    assert any("cell 1 raised ZeroDivisionError" in f for f in found)
    assert any("figure cell 0 shows no image" in f for f in found)
    assert any("HTML page is missing" in f for f in found)
    assert reports.check_reports(tmp_path / "empty") == [f"{tmp_path / 'empty'}: no report notebooks"]


def test_a_figure_cell_with_nothing_to_draw_must_say_so(tmp_path):
    """A figure cell whose preset leaves its sweep empty shows no image; it passes only if it
    prints reports.NO_FIGURE (pimcts_aggregation's ablation outside the tag preset: the
    committed default and paper reports failed the check before its line said so)."""
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("analysis.plot_ablation(table, session)"),
                nbformat.v4.new_code_cell("analysis.plot_ablation(table, session)")]
    nb.cells[0].outputs = [nbformat.v4.new_output("stream", name="stdout",
                                                  text=f"No ablation here: {reports.NO_FIGURE}.\n")]
    nb.cells[1].outputs = [nbformat.v4.new_output("stream", name="stdout", text="no ablation\n")]
    path = tmp_path / "x.default.ipynb"
    nbformat.write(nb, str(path))
    assert reports.problems(path) == ["x.default.ipynb: figure cell 1 shows no image"]


def test_a_data_call_named_heatmaps_is_not_a_figure_cell():
    """Regression (2026-11-26): ``make reports-check`` failed on belief_mixtures' compute cell
    ``heat = paper.heatmaps(policies, session.cfg)``, which draws nothing."""
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("heat = paper.heatmaps(policies, session.cfg)"),
                nbformat.v4.new_code_cell("paper.plot_heatmaps(heat, session)"),
                nbformat.v4.new_code_cell("session.save_figure(fig, 'x')")]
    assert reports.figure_cells(nb) == [1, 2]


def test_the_committed_reports_have_no_error_and_every_figure_cell_an_image():
    """The committed ``reports/`` as a reader opens them (``make reports-check``'s first half)."""
    assert reports.check_reports() == []


def test_only_published_runs_write_reports(monkeypatch):
    from infosets.experiments.run_notebooks import publishes_report

    monkeypatch.delenv("INFOSETS_FIGURES_DIR", raising=False)
    assert publishes_report("quickstart", "default", 0, None)
    assert not publishes_report("quickstart", "smoke", 0, None)
    assert not publishes_report("quickstart", "default", 1, None)
    assert not publishes_report("quickstart", "default", 0, {"iterations": [1, 2]})
    monkeypatch.setenv("INFOSETS_FIGURES_DIR", "/tmp/elsewhere")
    assert not publishes_report("quickstart", "default", 0, None)


def test_clean_drops_the_session_lines_that_differ_between_identical_runs():
    """Whether a sweep or a derived table was computed, cached or read from results/ changes
    between identical runs; a report must not (a replot left belief_mixtures' report dirty)."""
    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("heat = session.derive('heatmaps', paper.heatmaps, policies)")
    cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text=(
        "[belief_mixtures:policies] 66 tasks (66 from results/, 0 cached, 0 computed) in 1.0 s"
        " -> 10 rows\n"
        "[belief_mixtures:heatmaps] derived table read from results/ (726 rows)\n"
        "[belief_mixtures:heatmaps] derived table computed in 412.3 s (726 rows)\n"
        "n_policy_tables = 88\n"))]
    nb.cells = [cell]
    (out,) = reports.clean(nb).cells[0].outputs
    assert out.text == "n_policy_tables = 88\n"


def test_a_hung_browser_is_reported_and_killed_with_its_helpers(tmp_path, monkeypatch):
    """A Chromium that hangs after forking a helper: the timeout escaped browser_check (so
    the remaining pages went unchecked) and the helper was left running with parent 1."""
    import os
    import time

    fake = tmp_path / "bin" / "chromium"
    fake.parent.mkdir()
    helper_pid = tmp_path / "helper.pid"
    fake.write_text(f"#!/bin/sh\nsleep 60 &\necho $! > {helper_pid}\nexec sleep 60\n")
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{fake.parent}{os.pathsep}{os.environ['PATH']}")
    page = tmp_path / "page.html"
    page.write_text("<html><body>x</body></html>")
    started = time.monotonic()
    result = reports.browser_check(page, tmp_path / "shot.png", timeout=1.0)
    assert time.monotonic() - started < 30
    assert result.blank and result.console_errors == ["chromium timed out after 1 s"]
    pid = int(helper_pid.read_text())
    status = Path(f"/proc/{pid}/status")
    for _ in range(50):  # SIGKILL is asynchronous; a killed helper is gone or a zombie
        try:
            if "\nState:\tZ" in status.read_text():
                break
        except FileNotFoundError:
            break
        time.sleep(0.1)
    else:
        pytest.fail(f"helper process {pid} outlived the browser check")
