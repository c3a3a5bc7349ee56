"""Processes of a run die with their parent (all papers): no orphan after ``kill -9``.

A killed ``make figures`` or papermill would otherwise leave its pool workers, the
multiprocessing forkserver and the kernel computing for nobody. ``die_with_parent()``
ties the calling process to its current parent: on Linux the kernel sends SIGKILL when the
parent thread ends (``prctl(PR_SET_PDEATHSIG)``), and everywhere a daemon thread exits the
process once its parent pid changes (the process was re-parented). Pool workers call it
from their initializer; the forkserver gets it by preloading ``lifeline_preload``.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import threading
import time

PR_SET_PDEATHSIG = 1
POLL_S = 0.2


def _set_pdeathsig(sig: int) -> bool:
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_PDEATHSIG, int(sig), 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _watch(parent: int) -> None:
    while True:
        if os.getppid() != parent:
            os._exit(1)
        time.sleep(POLL_S)


def die_with_parent(pdeathsig: bool = True) -> None:
    """Exit when the current parent process dies.

    Args:
        pdeathsig: also ask Linux for SIGKILL when the parent *thread* that started this
            process ends (right for pool workers; not for a process started by a thread that
            may end before its process does).
    """
    parent = os.getppid()
    if pdeathsig:
        _set_pdeathsig(signal.SIGKILL)
        if os.getppid() != parent:  # the parent died before the signal was armed
            os._exit(1)
    threading.Thread(target=_watch, args=(parent,), name="die-with-parent", daemon=True).start()


def pool_worker_initializer() -> None:
    """Pool workers die with their parent and leave Ctrl-C (and a kernel's shutdown
    interrupt) to it; in a headless run their output goes to the run log (``runlog``), not
    to the kernel's stderr (a notebook cell's output)."""
    from infosets.experiments import runlog

    die_with_parent()
    runlog.redirect_fds()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
