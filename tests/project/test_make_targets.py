"""Makefile targets `smoke` and `lab`: the smoke folder is removed on success unless KEEP=1;
`lab` passes --allow-root for root and forwards LAB_ARGS (infrastructure, all papers)."""

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="needs make")

FAKE_RUNNER = textwrap.dedent("""\
    #!{python}
    # Stands in for the venv's python: writes a notebook under --out like the real runner.
    import os, sys
    out = os.path.join(sys.argv[sys.argv.index("--out") + 1], "notebooks")
    os.makedirs(out, exist_ok=True)
    open(os.path.join(out, "quickstart.ipynb"), "w").write("{{}}")
    sys.exit(int(os.environ.get("FAKE_RC", "0")))
""")


def _make(tmp_path, *args, env=None):
    stamp = tmp_path / "stamp"
    stamp.touch()  # newer than pyproject.toml: the venv rule does not run
    py = tmp_path / "python"
    py.write_text(FAKE_RUNNER.format(python=sys.executable))
    py.chmod(0o755)
    tmpdir = tmp_path / "tmp"
    tmpdir.mkdir(exist_ok=True)
    return subprocess.run(["make", "--no-print-directory", "-C", str(ROOT), *args,
                           f"PY={py}", f"STAMP={stamp}"],
                          env={**os.environ, "TMPDIR": str(tmpdir), **(env or {})},
                          capture_output=True, text=True, timeout=60), tmpdir


def test_smoke_removes_its_folder_on_success(tmp_path):
    proc, tmpdir = _make(tmp_path, "smoke")
    assert proc.returncode == 0, proc.stderr
    assert "smoke outputs in" in proc.stdout
    assert list(tmpdir.iterdir()) == []


def test_smoke_keeps_its_folder_with_keep_1(tmp_path):
    proc, tmpdir = _make(tmp_path, "smoke", "KEEP=1")
    assert proc.returncode == 0, proc.stderr
    (kept,) = tmpdir.iterdir()
    assert (kept / "notebooks" / "quickstart.ipynb").exists()


def test_smoke_keeps_its_folder_and_fails_when_a_notebook_fails(tmp_path):
    proc, tmpdir = _make(tmp_path, "smoke", env={"FAKE_RC": "1"})
    assert proc.returncode != 0
    (kept,) = tmpdir.iterdir()
    assert str(kept) in proc.stdout


def test_lab_allows_root_and_forwards_lab_args(tmp_path):
    proc, _ = _make(tmp_path, "-n", "lab", "LAB_ARGS=--port=8899 --no-browser")
    assert proc.returncode == 0, proc.stderr
    line = next(ln for ln in proc.stdout.splitlines() if "jupyter lab" in ln)
    assert line.rstrip().endswith("--port=8899 --no-browser")
    assert ("--allow-root" in line) == (os.geteuid() == 0)


def test_figures_forwards_preset_paper_and_dask_scheduler(tmp_path):
    proc = subprocess.run(["make", "-n", "--no-print-directory", "-C", str(ROOT), "figures",
                           "PRESET=full", "PAPER=belote_ismcts", "DASK=tcp://10.0.0.1:8786",
                           f"STAMP={tmp_path}"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    line = next(x for x in proc.stdout.splitlines() if "run_notebooks" in x)
    assert line.split()[-6:] == ["--preset", "full", "--paper", "belote_ismcts",
                                 "--scheduler", "tcp://10.0.0.1:8786"]
