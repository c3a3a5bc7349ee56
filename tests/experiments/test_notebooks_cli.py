"""`make figures` semantics: a failing notebook makes the run exit non-zero; bad PAPER is named;
a bad parameter reads as one line through the runner and through the papermill CLI."""

import json
import os
import subprocess
import sys

import pytest

from infosets.experiments import run_notebooks

pytestmark = pytest.mark.notebook


def _write_notebook(path, source):
    cells = [
        {"id": "params", "cell_type": "code", "metadata": {"tags": ["parameters"]},
         "execution_count": None,
         "outputs": [], "source": 'preset = "default"\nseed = 0\nworkers = None\n'
                                  'scheduler = None\noverrides = {}'},
        {"id": "body", "cell_type": "code", "metadata": {}, "execution_count": None,
         "outputs": [], "source": source},
    ]
    nb = {"cells": cells, "nbformat": 4, "nbformat_minor": 5,
          "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3",
                                      "language": "python"}}}
    path.write_text(json.dumps(nb))


def test_failing_notebook_exits_nonzero_and_others_still_run(tmp_path, monkeypatch, capsys):
    root = tmp_path / "root"
    (root / "notebooks").mkdir(parents=True)
    _write_notebook(root / "notebooks" / "broken.ipynb", "raise RuntimeError('bad cell')")
    _write_notebook(root / "notebooks" / "fine.ipynb", "assert preset == 'smoke'")
    monkeypatch.setenv("INFOSETS_ROOT", str(root))
    code = run_notebooks.main(["--preset", "smoke", "--out", str(tmp_path / "out")])
    out = capsys.readouterr().out
    assert code == 1
    assert "FAILED" in out and "broken" in out
    assert (tmp_path / "out" / "notebooks" / "smoke" / "fine.ipynb").exists()
    assert "failed notebooks: broken" in out
    assert out.strip().splitlines()[-1] == "broken: RuntimeError: bad cell (cell In [3])"


def test_unknown_paper_is_named(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("INFOSETS_ROOT", str(tmp_path))
    (tmp_path / "notebooks").mkdir()
    assert run_notebooks.main(["--paper", "nope"]) == 2
    assert "PAPER='nope' has no notebook" in capsys.readouterr().err


# -- a bad parameter through papermill: one line, close matches, no wall of text ----------------

def _error_outputs(path):
    nb = json.loads(path.read_text())
    return [o for c in nb["cells"] for o in c.get("outputs", []) if o["output_type"] == "error"]


def test_config_error_through_the_runner_is_one_line(tmp_path, capsys):
    out = tmp_path / "out"
    code = run_notebooks.main(["--paper", "quickstart", "--preset", "smoke", "--out", str(out),
                           "-y", "{games: [leduc_pokr]}"])
    printed = capsys.readouterr()
    assert code == 1
    line = ("ConfigError: games[0]: unknown game 'leduc_pokr'; did you mean "
            "'leduc_poker' or 'repeated_leduc_poker' or 'kuhn_poker'?")
    (failed,) = [ln for ln in printed.out.splitlines() if "FAILED" in ln]
    assert failed.endswith(line)
    assert printed.out.strip().splitlines()[-1] == line  # the one line comes last
    assert len(printed.out.splitlines()) == 4  # ==> line, FAILED line, summary, the error
    assert "Traceback" not in printed.out + printed.err
    (error,) = _error_outputs(out / "notebooks" / "smoke" / "quickstart.ipynb")
    assert error["ename"] == "ConfigError"
    assert len(error["traceback"]) == 1  # the cell shows the one line, not a traceback


def test_malformed_overrides_yaml_is_one_line_before_any_kernel(tmp_path, capsys):
    code = run_notebooks.main(["--paper", "quickstart", "--preset", "smoke",
                           "--out", str(tmp_path / "out"), "-y", "{games: [kuhn_poker"])
    printed = capsys.readouterr()
    assert code == 2
    assert printed.err.startswith("error: overrides: malformed YAML at line 1")
    assert len(printed.err.strip().splitlines()) == 1
    assert not (tmp_path / "out").exists()


def _papermill(tmp_path, *params):
    out = tmp_path / "pm.ipynb"
    proc = subprocess.run(
        [sys.executable, "-m", "papermill", str(run_notebooks.notebook_dir() / "quickstart.ipynb"),
         str(out), "-p", "preset", "smoke", *params],
        capture_output=True, text=True, timeout=180, cwd=str(run_notebooks.notebook_dir()),
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    return proc, out


def test_unknown_game_through_papermill_cli_ends_with_the_one_line(tmp_path):
    proc, out = _papermill(tmp_path, "-y", "overrides: {games: [leduc_pokr]}")
    assert proc.returncode != 0
    text = proc.stdout + proc.stderr
    assert text.strip().splitlines()[-1] == (
        "ConfigError: games[0]: unknown game 'leduc_pokr'; did you mean 'leduc_poker' or "
        "'repeated_leduc_poker' or 'kuhn_poker'?")
    assert "tic_tac_toe" not in text  # OpenSpiel's list of every game is not printed
    assert "infosets/experiments" not in text  # no traceback through the library
    (error,) = _error_outputs(out)
    assert error["traceback"] == [text.strip().splitlines()[-1]]


def test_malformed_overrides_text_through_papermill_cli_is_one_line(tmp_path):
    proc, _ = _papermill(tmp_path, "-p", "overrides", "{games: [kuhn_poker")
    assert proc.returncode != 0
    last = (proc.stdout + proc.stderr).strip().splitlines()[-1]
    assert last.startswith("ConfigError: overrides: malformed YAML at line 1, column 20")
