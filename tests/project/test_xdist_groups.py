"""``make test`` runs ``pytest -n 2 --dist loadgroup``: tests marked with one ``xdist_group``
(the multi-process runner tests, the tests sharing one executed notebook) must run on one
worker. Regression (2026-11-29): pytest 9.2.0 moved a node's id to ``Node._id``, so
pytest-xdist 3.8.0's group suffix on ``Item._nodeid`` no longer took effect and every
``xdist_group`` mark was silently ignored; pyproject.toml pins pytest 9.1.1."""

import subprocess
import sys
import textwrap
from pathlib import Path


def test_tests_of_one_xdist_group_run_on_one_worker(tmp_path):
    (tmp_path / "test_grouped.py").write_text(
        textwrap.dedent("""
        import os
        import time

        import pytest


        def _record(name):
            with open(f"{name}.worker", "w") as f:
                f.write(os.environ["PYTEST_XDIST_WORKER"])
            time.sleep(0.3)   # long enough for the other worker to ask for work


        @pytest.mark.xdist_group("shared")
        @pytest.mark.parametrize("i", range(4))
        def test_grouped(i):
            _record(f"grouped{i}")


        @pytest.mark.parametrize("i", range(4))
        def test_free(i):
            _record(f"free{i}")
    """)
    )
    # The plugins that play no part in grouping stay out: hypothesis's alone took about 2 s
    # of import in each of the three processes (the controller and its two workers).
    unrelated = ["-p", "no:hypothesispytest", "-p", "no:anyio", "-p", "no:platformdirs"]
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            *unrelated,
            "-n",
            "2",
            "--dist",
            "loadgroup",
            "test_grouped.py",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    grouped = {(tmp_path / f"grouped{i}.worker").read_text() for i in range(4)}
    free = {(tmp_path / f"free{i}.worker").read_text() for i in range(4)}
    assert len(grouped) == 1, f"one xdist_group ran on workers {sorted(grouped)}"
    assert free <= {"gw0", "gw1"}


def test_the_slow_files_run_first_in_their_order_and_still_exist():
    """``conftest.SLOW_FILES`` go first, in their order; the other tests keep theirs. A listed
    file that was moved or deleted would silently stop going first, so each must exist."""
    from types import SimpleNamespace

    import conftest

    root = Path(__file__).resolve().parents[2]
    assert all((root / path).is_file() for path in conftest.SLOW_FILES)
    first, second = conftest.SLOW_FILES[:2]
    names = [
        "tests/a.py::t1",
        f"{second}::t",
        "tests/b.py::t2",
        f"{first}::t[x]",
        f"{first}::u",
        "tests/a.py::t3",
    ]
    items = [SimpleNamespace(nodeid=name) for name in names]
    conftest.pytest_collection_modifyitems(None, items)
    assert [item.nodeid for item in items] == [
        f"{first}::t[x]",
        f"{first}::u",
        f"{second}::t",
        "tests/a.py::t1",
        "tests/b.py::t2",
        "tests/a.py::t3",
    ]
