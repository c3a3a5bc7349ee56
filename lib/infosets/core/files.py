"""Atomic file writes: a reader sees the old file or the new one, never a partial one.

Each writer renames its own ``mkstemp`` file onto the target, so two processes writing the same
file at once (two workers training the same history_filtering policy, say) cannot collide on
a shared temporary name. The bottom layer holds it so that ``filtering`` and ``experiments``
share one implementation, with ``plots.save_figure`` and the Belote game log; ``experiments.store``
re-exports it and adds only ``write_if_changed``. ``check_writable`` probes an output folder
before any compute (the notebooks' sessions, the Belote game log).
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path


def current_umask() -> int:
    """The process umask, read without changing it where /proc allows (thread-safe)."""
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except OSError:
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


@contextlib.contextmanager
def naming_path(path: Path):
    """Re-raise an OSError that does not say which file failed (e.g. ENOSPC) with ``path``."""
    try:
        yield
    except OSError as exc:
        if exc.filename is not None and str(path) in (str(exc.filename), str(exc.filename2)):
            raise
        raise OSError(exc.errno, exc.strerror or str(exc), str(path)) from exc


def atomic_write_with(path: str | Path, write, mode: int | None = None) -> None:
    """Call ``write(tmp_path)`` on a fresh temporary file, then rename it onto ``path``.

    The file gets ``mode``, or by default the mode a plain ``open`` would give (0666 minus the
    umask) rather than mkstemp's 0600. Any OSError names ``path``; the temporary file is
    removed if ``write`` fails.
    """
    path = Path(path)
    with naming_path(path):
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        try:
            os.close(fd)
            write(tmp)
            os.chmod(tmp, (0o666 & ~current_umask()) if mode is None else mode)
            os.replace(tmp, path)  # no fsync: rename is atomic against a killed process
        except BaseException:
            if os.path.exists(tmp):
                os.unlink(tmp)
            raise


def atomic_write_bytes(path: str | Path, payload: bytes, mode: int | None = None) -> None:
    """Write ``payload`` to ``path`` atomically (see ``atomic_write_with``)."""
    def write(tmp):
        with open(tmp, "wb") as fh:
            fh.write(payload)
    atomic_write_with(path, write, mode)


def atomic_write_text(path: str | Path, text: str, mode: int | None = None) -> None:
    """Write ``text`` (UTF-8) to ``path`` atomically (see ``atomic_write_with``)."""
    atomic_write_bytes(path, text.encode("utf-8"), mode)


def check_writable(folder: Path) -> None:
    """Create ``folder`` and a probe file in it, or raise an OSError naming the folder."""
    folder = Path(folder)
    with naming_path(folder):
        folder.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(dir=folder, prefix=".write-probe.", suffix=".tmp")
        os.close(fd)
        os.unlink(probe)
