"""core.files: atomic writes leave the old file or the new one, with a plain file's mode."""

import os
import stat

import pytest

from infosets.core.files import atomic_write_text, atomic_write_with, current_umask


def test_writes_with_the_mode_open_would_give_and_leaves_no_temporary(tmp_path):
    path = tmp_path / "sub" / "a.json"
    atomic_write_text(path, "[1]")
    assert path.read_text() == "[1]"
    assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~current_umask()
    assert os.listdir(path.parent) == ["a.json"]


def test_an_explicit_mode_is_kept(tmp_path):
    path = tmp_path / "README.md"
    atomic_write_text(path, "x", mode=0o640)
    assert stat.S_IMODE(path.stat().st_mode) == 0o640


def test_a_failed_write_keeps_the_old_file_and_removes_its_temporary(tmp_path):
    path = tmp_path / "a.txt"
    path.write_text("old")

    def fail(tmp):
        with open(tmp, "w") as fh:
            fh.write("half")
        raise RuntimeError("killed")

    with pytest.raises(RuntimeError):
        atomic_write_with(path, fail)
    assert path.read_text() == "old" and os.listdir(tmp_path) == ["a.txt"]
