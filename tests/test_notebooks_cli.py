"""`make figures` semantics: a failing notebook makes the run exit non-zero; bad PAPER is named."""

import json

import pytest

from infosets.experiments import notebooks

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
    code = notebooks.main(["--preset", "smoke", "--out", str(tmp_path / "out")])
    out = capsys.readouterr().out
    assert code == 1
    assert "FAILED" in out and "broken" in out
    assert (tmp_path / "out" / "smoke" / "fine.ipynb").exists()
    assert "failed notebooks: broken" in out


def test_unknown_paper_is_named(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("INFOSETS_ROOT", str(tmp_path))
    (tmp_path / "notebooks").mkdir()
    assert notebooks.main(["--paper", "nope"]) == 2
    assert "PAPER='nope' has no notebook" in capsys.readouterr().err
