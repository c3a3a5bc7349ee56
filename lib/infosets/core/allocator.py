"""Keep freed memory in the process: the compiled searches' tree arrays without page faults.

Every compiled search (``search.compiled``; used by all papers) allocates its tree as dense
(nodes x actions) arrays. On a game with many distinct actions that is large: Stratego has
3,600, so one open-loop tree at B = 4,000 fills 115 MB and one IS-MCTS tree about 360 MB.
glibc serves an allocation that large by ``mmap`` and returns it to the system on ``free``, so
the next search faults every page in again, and the kernel zeroes each one. Measured on the
pimcts_aggregation paper run (Stratego, two workers): 70% of the CPU was system time; an
IS-MCTS decision took 0.33 CPU-s with the default allocator and 0.04 with the setting below
(``benchmarks/bench_allocator.py``).

``keep_freed_memory()`` tells glibc to serve every allocation from its heap (``M_MMAP_MAX =
0``) and to keep up to ``TRIM_THRESHOLD`` bytes of freed memory there (``M_TRIM_THRESHOLD``),
so a search reuses the pages of the one before. It sets the same two knobs in the environment
(``ENVIRONMENT``), which glibc reads when a process starts, so the processes this one starts
(spawned pool workers, Jupyter kernels, Dask's local workers) inherit them. Results do not
depend on it: the searches never read memory they have not written (tested).
Anywhere but glibc (macOS, musl) it changes nothing.
"""

from __future__ import annotations

import ctypes
import os
import platform
import sys

M_TRIM_THRESHOLD = -1  # glibc's mallopt parameter numbers (malloc.h)
M_MMAP_MAX = -4
TRIM_THRESHOLD = 1 << 30  # bytes of freed memory a process may keep: above a tree's peak
ENVIRONMENT = {"MALLOC_MMAP_MAX_": "0", "MALLOC_TRIM_THRESHOLD_": str(TRIM_THRESHOLD)}


def _mallopt():
    """glibc's ``mallopt``, or None elsewhere."""
    if not sys.platform.startswith("linux") or platform.libc_ver()[0] != "glibc":
        return None
    try:
        return ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return None


def keep_freed_memory(environment: bool = True) -> bool:
    """Set glibc's allocator to keep freed memory in this process (and, with
    ``environment``, in the processes it starts). True if this process's allocator took it."""
    if environment:
        os.environ.update(ENVIRONMENT)
    mallopt = _mallopt()
    if mallopt is None:
        return False
    return bool(mallopt(M_MMAP_MAX, 0)) and bool(mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD))
