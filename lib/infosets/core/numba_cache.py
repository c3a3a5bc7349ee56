"""One on-disk numba cache stamp for the whole compiled engine (pimcts_aggregation engine).

numba checks a cached function against its own source file only. The engine's functions
call kernel functions from other files, so after a kernel edit numba would load engine code
with the old kernel compiled in. Here every jitted function of the engine's files
(``ENGINE_FILES``) is stamped with one hash of all of them: editing any engine or kernel file
recompiles them all. The stamp also hashes every other module of ``infosets.games``
(``STAMPED_FILES``): kernels copy tables from their game's rules at import (Belote's points
from ``belote2p/rules.py``, Dominion's cards from ``dominion.py``, and so on) and numba freezes
those tables into the cached code, so a rules edit must recompile too. Registered once,
before any of those functions is decorated (``core.pcg32`` imports this module first; every
kernel imports ``core.pcg32``).
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from numba.core import caching

_CORE = Path(__file__).resolve().parent
_GAMES = _CORE.parent / "games"
ENGINE_FILES = frozenset(
    str(p) for p in [*_GAMES.glob("_*kernel*.py"), _GAMES / "kernels.py", _CORE / "pcg32.py",
                     _CORE / "numba_cache.py", _CORE.parent / "search" / "compiled.py"]
    if p.exists())
STAMPED_FILES = ENGINE_FILES | frozenset(str(p.resolve()) for p in _GAMES.rglob("*.py"))


def _engine_stamp() -> str:
    digest = hashlib.sha256()
    for path in sorted(STAMPED_FILES):
        digest.update(path.encode())
        digest.update(Path(path).read_bytes())
    return digest.hexdigest()


STAMP = _engine_stamp()


class _EngineStamp:
    def get_source_stamp(self):
        return ("infosets-engine", STAMP)

    @classmethod
    def from_function(cls, py_func, py_file):
        if str(Path(py_file).resolve()) not in ENGINE_FILES:
            return None
        return super().from_function(py_func, py_file)


class EngineUserProvidedLocator(_EngineStamp, caching.UserProvidedCacheLocator):
    """NUMBA_CACHE_DIR, with the engine stamp."""


class EngineInTreeLocator(_EngineStamp, caching.InTreeCacheLocator):
    """``__pycache__`` beside the source, with the engine stamp."""


class EngineUserWideLocator(_EngineStamp, caching.UserWideCacheLocator):
    """The user-wide cache (read-only installs), with the engine stamp."""


_LOCATORS = caching.CacheImpl._locator_classes
if EngineUserProvidedLocator.__name__ not in {c.__name__ for c in _LOCATORS}:
    _LOCATORS[:0] = [EngineUserProvidedLocator, EngineInTreeLocator, EngineUserWideLocator]
