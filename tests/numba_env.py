"""The numba build every test process runs: bounds-checked, in the tests' own cache (issue 55).

Every test, the compile queue before it (``tests/precompile.py``) and every process they start
(notebook kernels, ``make play-belote`` in a terminal, the bounds check's script) run numba with
NUMBA_BOUNDSCHECK=1, so an index out of range in a kernel or in the engine raises IndexError in
whichever test reaches it, and the one bounds-checked build per game is also the build the
tests search with. Before, a game compiled twice in ``make test``: once for the shared cache
the tests used and once bounds-checked for its own check (15 builds, about 250 CPU-s on the
2-core machine); bounds checking at numba's default optimization costs 5-13% more compile
(Love Letter's engine 50 -> 57 CPU-s, 7 Wonders' 72 -> 76, fresh caches).

The tests compile at numba's optimisation level 1 (NUMBA_OPT=1), not its default 3: on a fresh
clone of the 2-core machine the compile queue took 420 CPU-s instead of 473 and the suite 585 s
instead of 594 (``make test`` 13 min 48 s against 14 min 25 s). Level 0 compiles faster still
(363 CPU-s) but numba cannot cache its builds (dynamic globals), so every process compiled again
and the suite took 1,048 s.

numba's cache key ignores NUMBA_BOUNDSCHECK, so these builds live in a cache of their own,
``build/numba-checked`` in the clone (``NUMBA_CACHE_DIR``, which the engine's stamped locator
honours: ``core.numba_cache``): the in-tree ``__pycache__`` builds that ``make figures`` and
the benchmarks load are never replaced by checked ones, nor the other way round. The folder
persists, so a second ``make test`` in the same clone compiles nothing again.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CACHE = ROOT / "build" / "numba-checked"
# the settings numba reads once, when it is imported
READ_AT_IMPORT = ("NUMBA_BOUNDSCHECK", "NUMBA_OPT")


def checked_env(base: dict | None = None) -> dict:
    """``base`` (default: this process's environment) with the tests' numba settings."""
    lib = str(ROOT / "lib")
    base = dict(os.environ if base is None else base)
    path = [p for p in base.get("PYTHONPATH", "").split(os.pathsep) if p and p != lib]
    return {
        **base,
        "NUMBA_BOUNDSCHECK": "1",
        "NUMBA_OPT": "1",
        "NUMBA_CACHE_DIR": str(CACHE),
        "PYTHONPATH": os.pathsep.join([lib, *path]),
    }


def apply() -> None:
    """Set the tests' numba settings in this process (and so in every process it starts).
    Refuses once numba is imported with other settings: numba reads them at import, so they
    would not hold (the bounds check and the optimisation level, ``READ_AT_IMPORT``)."""
    wanted = {k: v for k, v in checked_env().items() if k.startswith("NUMBA_")}
    if "numba" in sys.modules:
        wrong = [k for k in READ_AT_IMPORT if os.environ.get(k) != wanted[k]]
        if wrong:
            raise RuntimeError(
                "numba_env.apply: numba was imported before the tests' settings were set "
                f"({', '.join(wrong)})")
    os.environ.update(wanted)
