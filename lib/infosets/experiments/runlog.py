"""The run log: what the run machinery says goes to a log, never into a notebook's outputs.

A committed report holds only what its notebook shows a reader (issue 52, item 1). What the
machinery says about a run (a sweep's cache and timing summary, a rekey, a derived table read
or computed, the numba compile, task progress, a pool worker's warnings) differs between a
run that computes and a replot of the same tables, or between machines, so it is logged on
the ``infosets.run`` logger (INFO) instead of printed:

- under ``run_notebooks`` (``make figures``, ``make smoke``), each notebook's kernel appends
  to the file named by ``$INFOSETS_RUN_LOG`` (``<out>/<preset>/<slug>.log`` beside the
  executed notebook), and ``run_notebooks`` copies its lines to its own stderr as they come
  (``Follower``). Such a run is *headless*: no progress bar is drawn in the kernel, and what
  a computing task prints goes to the log (``captured``, ``redirect_fds``);
- elsewhere (JupyterLab, a script), ``attach`` appends to ``run.log`` in the run's data
  folder (``data/<slug>/<run id>/``, git-ignored) and, outside a Jupyter kernel, to stderr.

Nothing here changes a result, and no results key includes it.
"""

from __future__ import annotations

import contextlib
import io
import logging
import os
import sys
import threading
from pathlib import Path

LOG_ENV = "INFOSETS_RUN_LOG"
LOG_NAME = "run.log"
FORMAT = "%(asctime)s %(message)s"

logger = logging.getLogger("infosets.run")
logger.setLevel(logging.INFO)
logger.propagate = False  # a library's logging.basicConfig must not put these in a notebook


def headless() -> bool:
    """True inside a notebook executed by ``run_notebooks`` (``$INFOSETS_RUN_LOG`` set)."""
    return bool(os.environ.get(LOG_ENV))


def in_kernel() -> bool:
    """True inside a Jupyter kernel, where stderr is a cell's output."""
    shell = sys.modules.get("IPython")
    get = getattr(shell, "get_ipython", None)
    return get is not None and get() is not None and "ipykernel" in sys.modules


def log_path(default_dir: Path | None = None) -> Path | None:
    """The file the run log goes to: ``$INFOSETS_RUN_LOG``, else ``default_dir/run.log``."""
    env = os.environ.get(LOG_ENV)
    if env:
        return Path(env)
    return Path(default_dir) / LOG_NAME if default_dir is not None else None


def attach(default_dir: Path | None = None) -> Path | None:
    """Send ``logger`` to ``log_path(default_dir)`` (the latest session's file only) and,
    outside a kernel and a headless run, to today's ``sys.stderr`` (only); returns the file."""
    path = log_path(default_dir)
    for old in [h for h in logger.handlers if isinstance(h, logging.FileHandler)]:
        if path is None or old.baseFilename != str(path.resolve()):
            logger.removeHandler(old)
            old.close()
    if path is not None and not any(isinstance(h, logging.FileHandler) for h in logger.handlers):
        path.parent.mkdir(parents=True, exist_ok=True)
        handler = logging.FileHandler(path, encoding="utf-8")
        handler.setFormatter(logging.Formatter(FORMAT, "%H:%M:%S"))
        logger.addHandler(handler)
    for old in [h for h in logger.handlers if getattr(h, "infosets_stderr", False)]:
        if old.stream is not sys.stderr:  # a stderr since replaced (and perhaps closed)
            logger.removeHandler(old)
    if not headless() and not in_kernel() and not any(
            getattr(h, "infosets_stderr", False) for h in logger.handlers):
        handler = logging.StreamHandler(sys.stderr)
        handler.infosets_stderr = True
        logger.addHandler(handler)
    return path


def adopt(name: str) -> None:
    """In a headless run, send the records of library logger ``name`` (e.g. Dask's
    ``distributed``, which logs to stderr: a cell's output in a kernel) to the run log."""
    if not headless():
        return
    other = logging.getLogger(name)
    for handler in list(other.handlers):
        if isinstance(handler, logging.StreamHandler) and not isinstance(
                handler, logging.FileHandler):
            other.removeHandler(handler)
    for handler in logger.handlers:
        if handler not in other.handlers:
            other.addHandler(handler)
    other.propagate = False


def info(message: str) -> None:
    """Log one machinery message (``attach`` first, or it goes nowhere)."""
    logger.info(message)


class _LogWriter(io.TextIOBase):
    """A text stream whose complete lines become log records.

    What is written while a record is being logged (``logging`` reports a handler's failure,
    say a stream closed under it, on ``sys.stderr``: this writer inside ``captured``) goes to
    the process's own stderr, not back into the log, which would recurse without end."""

    def __init__(self):
        self._pending = ""
        self._logging = threading.local()

    def writable(self) -> bool:
        return True

    def _log(self, line: str) -> None:
        self._logging.active = True
        try:
            logger.info(line)
        finally:
            self._logging.active = False

    def write(self, text: str) -> int:
        if getattr(self._logging, "active", False):
            if sys.__stderr__ is not None:
                sys.__stderr__.write(text)
            return len(text)
        lines = (self._pending + text).replace("\r", "\n").split("\n")
        self._pending = lines.pop()
        for line in lines:
            if line.strip():
                self._log(line.rstrip())
        return len(text)

    def flush(self) -> None:
        if getattr(self._logging, "active", False):
            return
        pending, self._pending = self._pending, ""
        if pending.strip():
            self._log(pending.rstrip())


@contextlib.contextmanager
def captured(enabled: bool | None = None):
    """In a headless run (or when ``enabled``), what this process prints to stdout or stderr
    inside the block (a task's prints and warnings, a compile's messages) goes to the log."""
    if not (headless() if enabled is None else enabled):
        yield
        return
    writer = _LogWriter()
    with contextlib.redirect_stdout(writer), contextlib.redirect_stderr(writer):
        try:
            yield
        finally:
            writer.flush()


def redirect_fds() -> None:
    """In a headless run, point this process's file descriptors 1 and 2 at the run log (a
    pool worker's output would otherwise reach the kernel's captured stderr, a cell's)."""
    path = log_path()
    if path is None:
        return
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    for target in (1, 2):
        os.dup2(fd, target)
    os.close(fd)


class Follower:
    """Copy the lines of ``path`` (from its start: remove an old one first) to ``stream``,
    prefixed, from a thread until stopped; what is left is copied on exit."""

    def __init__(self, path: Path, stream=None, *, prefix: str = "    ", interval: float = 0.5):
        self.path, self.prefix, self.interval = Path(path), prefix, interval
        self.stream = stream if stream is not None else sys.stderr
        self._offset, self._pending = 0, b""
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="run-log", daemon=True)

    def __enter__(self) -> Follower:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()
        self.poll(final=True)

    def _loop(self) -> None:
        while not self._stop.wait(self.interval):
            self.poll()

    def poll(self, final: bool = False) -> None:
        try:
            with open(self.path, "rb") as handle:
                handle.seek(self._offset)
                chunk = handle.read()
        except OSError:
            return
        self._offset += len(chunk)
        lines = (self._pending + chunk).split(b"\n")
        self._pending = b"" if final else lines.pop()
        for line in lines:
            if line.strip():
                text = line.decode("utf-8", "replace").rstrip()
                print(f"{self.prefix}{text}", file=self.stream, flush=True)
