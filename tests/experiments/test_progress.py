"""Progress of a published run, read from its committed PROVENANCE.json: the sweeps' counts, a
stale key ignored, the monitor's log lines and bars, the CLI, and `make figures`' wiring."""

import io
import time

import pytest

from infosets.experiments import progress, run_notebooks
from infosets.experiments.committed import CommittedResults
from infosets.experiments.config import load

SLUG, PRESET = "quickstart", "default"


@pytest.fixture
def results(tmp_path, monkeypatch):
    monkeypatch.setenv("INFOSETS_RESULTS_DIR", str(tmp_path / "results"))
    return CommittedResults(load(SLUG, PRESET))


def _finish(results, done, total=8, name="results"):
    results.save(name, [(f"t{i}", [{"x": i}]) for i in range(done)], total, 36.0 * done)


def test_counts_come_from_the_committed_provenance(results):
    assert progress.read(SLUG, PRESET) == []
    _finish(results, 3)
    _finish(results, 5, total=5, name="other")
    assert sorted(progress.read(SLUG, PRESET), key=lambda s: s.sweep) == [
        progress.SweepProgress("other", 5, 5, 180.0),
        progress.SweepProgress("results", 3, 8, 108.0)]
    by_name = {s.sweep: s for s in progress.read(SLUG, PRESET)}
    assert by_name["results"].line(SLUG) == (
        "quickstart:results 3/8 tasks (38%), 0.03 CPU-hours")


def test_tables_of_another_results_key_are_not_this_runs_progress(results):
    _finish(results, 3)
    run = results.path / "RUN.json"
    run.write_text(run.read_text().replace(results.run_id, "0123456789ab"))
    assert progress.read(SLUG, PRESET) == []


def test_log_mode_prints_a_line_when_the_count_changes(results):
    stream = io.StringIO()
    _finish(results, 1)
    with progress.Monitor(SLUG, PRESET, stream, interval=0.01, log_every=0.0, bars=False):
        deadline = time.monotonic() + 10
        while "1/8" not in stream.getvalue() and time.monotonic() < deadline:
            time.sleep(0.01)
        _finish(results, 4)
    lines = stream.getvalue().splitlines()
    assert lines[0].strip().startswith("quickstart:results 1/8 tasks")
    assert lines[-1].strip().startswith("quickstart:results 4/8 tasks")
    assert len(lines) == 2  # unchanged counts are not repeated


def test_bar_mode_draws_the_sweep(results):
    stream = io.StringIO()
    _finish(results, 6)
    with progress.Monitor(SLUG, PRESET, stream, interval=60.0, bars=True):
        pass
    assert "quickstart:results" in stream.getvalue() and "6/8" in stream.getvalue()


def test_cli_prints_each_sweep_and_names_a_bad_paper(results, capsys):
    assert progress.main(["--paper", SLUG, "--preset", PRESET]) == 0
    assert "quickstart: not run at default (no quickstart/default in results/)" in \
        capsys.readouterr().out
    _finish(results, 2)
    run = results.path / "RUN.json"
    run.write_text(run.read_text().replace(results.run_id, "0123456789ab"))
    progress.main(["--paper", SLUG, "--preset", PRESET])
    assert "quickstart: no default tables under the current code (results/quickstart/default " \
        "holds run 0123456789ab" in capsys.readouterr().out
    _finish(results, 2)
    progress.main(["--paper", SLUG, "--preset", PRESET])
    assert "quickstart:results 2/8 tasks (25%)" in capsys.readouterr().out
    assert progress.main(["--paper", "nope"]) == 2
    assert "--paper 'nope'" in capsys.readouterr().err


def test_make_figures_reports_a_published_runs_progress(results, monkeypatch, tmp_path, capsys):
    """run_notebooks wraps a published notebook in a Monitor; its last count reaches the log."""
    def fake_execute(slug, preset, out, **kwargs):
        _finish(results, 7)
        return out

    monkeypatch.setattr(run_notebooks, "execute", fake_execute)
    monkeypatch.setattr(run_notebooks, "publishes_report", lambda *a: True)
    monkeypatch.setattr(run_notebooks, "prune_published", lambda *a: [])
    monkeypatch.setattr(run_notebooks.reports, "export", lambda *a: [])
    code = run_notebooks.main(["--preset", PRESET, "--paper", SLUG, "--out", str(tmp_path)])
    assert code == 0
    assert "quickstart:results 7/8 tasks (88%)" in capsys.readouterr().err
