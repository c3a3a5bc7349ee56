"""What a headless notebook run writes (issue 52, items 1, 7 and 8): the executed notebook holds
what the notebook shows a reader and nothing of the run machinery, which goes to the run log;
a replot writes the same bytes as the run that computed; no Jupyter encryption warning; and
``--out DIR`` leaves the clone as it was (run machinery, all papers)."""

import io
import json
import logging
import re
import sys

import pytest

from infosets.experiments import run_notebooks, runlog

pytestmark = pytest.mark.notebook

# What the run machinery says: a sweep's summary, a rekey, a derived table, the compile, a
# progress bar's text, its widget
MACHINERY = re.compile(r"^\[[\w.-]+:[\w.-]+\] |rekeyed from|derived table|numba engine|"
                       r"\d+/\d+ \[|it/s|task/s", re.MULTILINE)
WIDGET = "application/vnd.jupyter.widget-view+json"


def _outputs(path):
    nb = json.loads(path.read_text())
    return [o for c in nb["cells"] if c["cell_type"] == "code" for o in c["outputs"]]


@pytest.fixture
def two_runs(quickstart_twice):
    """quickstart at smoke with ``--out``, twice: the first computes, the second replots (the
    session's ``quickstart_twice``, tests/conftest.py)."""
    run = quickstart_twice
    return run.out, run.runs, run.before, run.after


@pytest.mark.xdist_group("quickstart_twice")
def test_the_executed_notebook_holds_no_machinery_line(two_runs):
    out, runs, _, _ = two_runs
    notebook = out / "notebooks" / "smoke" / "quickstart.ipynb"
    outputs = _outputs(notebook)
    streams = "".join(o["text"] if isinstance(o["text"], str) else "".join(o["text"])
                      for o in outputs if o["output_type"] == "stream")
    assert "quickstart · preset=smoke" in streams  # what the notebook shows a reader stays
    assert not MACHINERY.search(streams), MACHINERY.search(streams)
    assert not [o for o in outputs if o["output_type"] == "stream" and o["name"] == "stderr"]
    assert not [o for o in outputs if WIDGET in o.get("data", {})]  # no progress bar
    proc, _, log = runs[0]
    assert "[quickstart:results] " in log and "computed" in log  # the summary: in the log,
    assert "[quickstart:results] " in proc.stderr  # and on the runner's stderr


@pytest.mark.xdist_group("quickstart_twice")
def test_a_replot_writes_the_same_notebook_as_the_run_that_computed(two_runs):
    _, runs, _, _ = two_runs
    (first, computed, log_1), (_, replotted, log_2) = runs
    assert re.search(r"\b[1-9]\d* computed\)", log_1) and " 0 computed)" in log_2
    assert computed == replotted
    meta = json.loads(computed)["metadata"]["papermill"]
    assert not {"start_time", "end_time", "duration", "input_path", "output_path"} & set(meta)


@pytest.mark.xdist_group("quickstart_twice")
def test_no_jupyter_warning_of_a_plain_tcp_kernel(two_runs):
    _, runs, _, _ = two_runs
    for proc, _, _ in runs:
        assert "without encryption" not in proc.stdout + proc.stderr


@pytest.mark.xdist_group("quickstart_twice")
def test_out_leaves_the_clone_untouched_and_holds_every_output(two_runs):
    out, _, before, after = two_runs
    assert after == before
    assert sorted(p.name for p in out.iterdir()) == ["data", "figures", "notebooks"]
    assert (out / "figures" / "quickstart" / "custom").is_dir()
    assert (out / "data" / "quickstart").is_dir()


def test_help_documents_out_and_the_root_variables(capsys):
    with pytest.raises(SystemExit):
        run_notebooks.main(["--help"])
    text = capsys.readouterr().out
    for word in ("--out DIR", "INFOSETS_FIGURES_DIR", "INFOSETS_DATA_DIR", "INFOSETS_RESULTS_DIR",
                 "--traceback"):
        assert word in text


def test_traceback_flag_prints_the_cell_traceback(tmp_path, monkeypatch, capsys):
    """Without the flag a failing cell is one line, printed last; with it, its traceback too."""
    class CellError(Exception):
        ename, evalue, exec_count = "ZeroDivisionError", "division by zero", 4
        traceback = ["\x1b[31m---------\x1b[0m", "Cell In[4], line 1", "----> 1 1/0",
                     "ZeroDivisionError: division by zero"]

    def failing(*args, **kwargs):
        raise CellError()

    monkeypatch.setattr(run_notebooks, "execute", failing)
    argv = ["--paper", "quickstart", "--preset", "smoke", "--out", str(tmp_path)]
    assert run_notebooks.main(argv) == 1
    printed = capsys.readouterr()
    assert printed.out.strip().splitlines()[-1] == "ZeroDivisionError: division by zero (cell In [4])"
    assert "----> 1 1/0" not in printed.err and "--traceback" in printed.out
    assert run_notebooks.main([*argv, "--traceback"]) == 1
    printed = capsys.readouterr()
    assert "Cell In[4], line 1\n----> 1 1/0" in printed.err and "\x1b" not in printed.err
    assert printed.out.strip().splitlines()[-1] == "ZeroDivisionError: division by zero (cell In [4])"


def test_captured_prints_go_to_the_log_only_when_headless(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv(runlog.LOG_ENV, str(tmp_path / "run.log"))
    monkeypatch.setattr(runlog.logger, "handlers", [])  # none left by another test's attach
    handler = logging.FileHandler(tmp_path / "run.log")
    runlog.logger.addHandler(handler)
    try:
        with runlog.captured():
            print("a task's print")
            print("a warning", file=sys.stderr)
        handler.flush()
        assert capsys.readouterr().out == ""
        text = (tmp_path / "run.log").read_text()
        assert "a task's print" in text and "a warning" in text
        monkeypatch.delenv(runlog.LOG_ENV)
        with runlog.captured():
            print("shown")
        assert capsys.readouterr().out == "shown\n"
    finally:
        runlog.logger.removeHandler(handler)
        handler.close()


def test_a_handler_failing_inside_captured_reports_once_and_does_not_recurse(monkeypatch):
    """A stderr handler on a stream since closed (an earlier pytest capture, in CI) made
    ``logging`` report its failure on ``sys.stderr``, the capturing writer, which logged it
    through the same handler again: RecursionError."""
    dead = io.StringIO()
    monkeypatch.setattr(runlog.logger, "handlers", [logging.StreamHandler(dead)])
    dead.close()
    reports = io.StringIO()
    monkeypatch.setattr(sys, "__stderr__", reports)
    with runlog.captured(enabled=True):
        print("a task's print")
    assert reports.getvalue().count("--- Logging error ---") == 1
    assert "I/O operation on closed file" in reports.getvalue()


def test_attach_logs_to_todays_stderr_not_one_since_replaced(tmp_path, monkeypatch):
    monkeypatch.delenv(runlog.LOG_ENV, raising=False)
    monkeypatch.setattr(runlog.logger, "handlers", [])
    first, second = io.StringIO(), io.StringIO()
    monkeypatch.setattr(sys, "stderr", first)
    runlog.attach(tmp_path)
    monkeypatch.setattr(sys, "stderr", second)
    runlog.attach(tmp_path)
    runlog.info("machinery")
    assert first.getvalue() == "" and second.getvalue() == "machinery\n"
    for handler in runlog.logger.handlers:
        handler.close()


def test_follower_copies_every_line_once(tmp_path):
    path, stream = tmp_path / "x.log", io.StringIO()
    with runlog.Follower(path, stream, interval=0.01):
        with open(path, "a") as handle:
            handle.write("one\ntw")
            handle.flush()
            handle.write("o\n")
    assert stream.getvalue() == "    one\n    two\n"


def test_a_session_logs_to_its_own_run_log(tmp_path, monkeypatch):
    """Outside run_notebooks the log is ``run.log`` in the run's data folder, the latest
    session's only (an interactive kernel makes several)."""
    monkeypatch.delenv(runlog.LOG_ENV, raising=False)
    before = list(runlog.logger.handlers)
    try:
        first = runlog.attach(tmp_path / "a")
        runlog.info("to a")
        second = runlog.attach(tmp_path / "b")
        runlog.info("to b")
        assert first == tmp_path / "a" / "run.log" and second == tmp_path / "b" / "run.log"
        assert "to a" in first.read_text() and "to b" not in first.read_text()
        assert "to b" in second.read_text()
    finally:
        for handler in [h for h in runlog.logger.handlers if h not in before]:
            runlog.logger.removeHandler(handler)
            handler.close()


def test_a_library_logger_goes_to_the_run_log_when_headless(tmp_path, monkeypatch):
    """Dask's ``distributed`` logs to stderr, which in a kernel is a cell's output."""
    other = logging.getLogger("infosets-test-library")
    stream = io.StringIO()
    other.addHandler(logging.StreamHandler(stream))
    other.setLevel(logging.INFO)
    monkeypatch.setenv(runlog.LOG_ENV, str(tmp_path / "run.log"))
    handler = logging.FileHandler(tmp_path / "run.log")
    runlog.logger.addHandler(handler)
    try:
        runlog.adopt("infosets-test-library")
        other.warning("worker lost")
        handler.flush()
        assert stream.getvalue() == ""
        assert "worker lost" in (tmp_path / "run.log").read_text()
    finally:
        runlog.logger.removeHandler(handler)
        for h in list(other.handlers):
            other.removeHandler(h)
        handler.close()
