"""The notebooks' kernel (issue 52, item 9): every notebook names ``python3``, which
``run_notebooks`` and ``make lab`` both resolve to this checkout's interpreter, even when the
user has a ``python3`` kernelspec of their own; no other kernel is installed (all papers)."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from infosets.experiments import run_notebooks
from infosets.experiments.notebooks import notebook_dir

ROOT = Path(__file__).resolve().parents[2]


def test_every_notebook_names_the_kernel_run_notebooks_starts():
    for path in sorted(notebook_dir().glob("*.ipynb")):
        spec = json.loads(path.read_text())["metadata"]["kernelspec"]
        assert spec["name"] == run_notebooks.KERNEL_NAME, path.name


def test_python3_is_this_interpreter_despite_a_users_own_kernelspec(tmp_path, monkeypatch):
    from jupyter_client.manager import KernelManager

    own = tmp_path / "kernels" / "python3"
    own.mkdir(parents=True)
    (own / "kernel.json").write_text(json.dumps({
        "argv": ["/opt/elsewhere/bin/python", "-m", "ipykernel_launcher", "-f",
                 "{connection_file}"], "display_name": "someone else's", "language": "python"}))
    monkeypatch.setenv("JUPYTER_DATA_DIR", str(tmp_path))  # the user's data dir
    monkeypatch.setenv("JUPYTER_PREFER_ENV_PATH", "0")  # the user's own setting: theirs first
    monkeypatch.delenv("JUPYTER_PATH", raising=False)
    assert KernelManager(kernel_name="python3").format_kernel_cmd()[0] == \
        "/opt/elsewhere/bin/python"  # what a plain lookup finds
    for key, value in run_notebooks.kernel_env().items():
        monkeypatch.setenv(key, value)
    assert KernelManager(kernel_name="python3").format_kernel_cmd()[0] == sys.executable


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_make_lab_runs_the_venv_kernel_and_installs_none(tmp_path):
    proc = subprocess.run(["make", "-n", "--no-print-directory", "-C", str(ROOT), "lab",
                           f"STAMP={tmp_path}"], capture_output=True, text=True, timeout=60,
                          env={**os.environ})
    assert proc.returncode == 0, proc.stderr
    assert "ipykernel install" not in proc.stdout  # was a 'Python (infosets)' user kernel
    line = next(ln for ln in proc.stdout.splitlines() if "jupyter lab" in ln)
    assert line.startswith(f"JUPYTER_PATH={ROOT}/.venv/share/jupyter ")


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_make_figures_out_moves_the_outputs_and_leaves_the_readme(tmp_path):
    proc = subprocess.run(["make", "-n", "--no-print-directory", "-C", str(ROOT), "figures",
                           "PAPER=quickstart", f"OUT={tmp_path}/x", f"STAMP={tmp_path}"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    line = next(x for x in proc.stdout.splitlines() if "run_notebooks" in x)
    assert line.split()[-2:] == ["--out", f"{tmp_path}/x"]
    assert "readme-tables" not in proc.stdout  # README.md is the clone's
