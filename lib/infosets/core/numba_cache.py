"""On-disk numba cache stamps for the compiled engine, one per game (pimcts_aggregation engine).

numba checks a cached function against its own source file only. The engine's searches
(``search/compiled.py``, ``search/multitree_nb.py``) call a game's kernel from other files, and
kernels copy tables from their game's rules at import (Belote's points from
``belote2p/rules.py``, the card game's deck from ``trick_game/deck.py``), which numba freezes into
the cached code. So each cached function here is
stamped with a hash of every file it can reach:

* a game's kernel functions (``games/<name>/kernel.py``) and the engine's copies compiled for
  that game (``search.compiled.game_engine``, named ``<function>__<name>``; MultiTree's
  ``multitree.<function>__<name>``): the game's folder,
  the ``infosets.games``/``infosets.core`` modules those files import, and the engine's files;
* the engine's game-free functions: the engine's files.

Editing Love Letter recompiles Love Letter's kernel and engine on their next use, and nothing
else. Registered once, before any of those functions is decorated (``core.pcg32`` imports this
module first; every kernel imports ``core.pcg32``).
"""

from __future__ import annotations

import ast
import hashlib
from functools import cache
from pathlib import Path

from numba.core import caching

_CORE = Path(__file__).resolve().parent
_PACKAGE = _CORE.parent
_GAMES = _PACKAGE / "games"
ENGINE_FILES = frozenset(str(p) for p in (_CORE / "pcg32.py", _CORE / "numba_cache.py",
                                          _PACKAGE / "search" / "compiled.py",
                                          _PACKAGE / "search" / "multitree_nb.py",
                                          _PACKAGE / "search" / "tag_rules_nb.py"))


def _game_folder(path: Path) -> Path | None:
    """``games/<name>/`` holding ``path``, or None."""
    return path.parent if path.parent.parent == _GAMES else None


def _module_file(name: str) -> Path | None:
    if not (name.startswith("infosets.games") or name.startswith("infosets.core")):
        return None
    base = _PACKAGE.joinpath(*name.split(".")[1:])
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _imports(path: Path) -> set[Path]:
    """Files of the module-level imports of ``path`` (an import inside a function runs Python
    code, which numba does not freeze into a kernel)."""
    found: set[Path] = set()
    for node in ast.parse(path.read_bytes()).body:
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names = [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
        elif isinstance(node, ast.ImportFrom) and node.level == 1:  # from . import x / from .x import y
            package = ".".join(path.relative_to(_PACKAGE.parent).with_suffix("").parts[:-1])
            base = f"{package}.{node.module}" if node.module else package
            names = [base, *(f"{base}.{alias.name}" for alias in node.names)]
        found.update(f for f in map(_module_file, names) if f is not None)
    return found


@cache
def _reach(start: str) -> tuple[str, ...]:
    """Files reachable from ``start``'s game folder (or ``start`` alone) by imports within
    ``infosets.games`` and ``infosets.core``."""
    path = Path(start).resolve()
    folder = _game_folder(path)
    todo = sorted(folder.glob("*.py")) if folder is not None else [path]
    seen: set[Path] = set()
    while todo:
        f = todo.pop()
        if f in seen:
            continue
        seen.add(f)
        todo.extend(_imports(f) - seen)
    return tuple(sorted(str(f) for f in seen))


@cache
def stamp_of(game_file: str | None) -> str:
    """The hash of the engine's files and of every file reachable from ``game_file``'s folder."""
    files = set(ENGINE_FILES) | (set(_reach(game_file)) if game_file else set())
    digest = hashlib.sha256()
    for path in sorted(files):
        digest.update(path.encode())
        digest.update(Path(path).read_bytes())
    return digest.hexdigest()


class _EngineStamp:
    _stamp = ""

    def get_source_stamp(self):
        return ("infosets-engine", self._stamp)

    @classmethod
    def from_function(cls, py_func, py_file):
        path = Path(py_file).resolve()
        is_kernel = path.name == "kernel.py" and _game_folder(path) is not None
        if str(path) not in ENGINE_FILES and not is_kernel:
            return None
        locator = super().from_function(py_func, py_file)
        if locator is not None:
            game_file = str(path) if is_kernel else getattr(py_func, "infosets_game_files", None)
            locator._stamp = stamp_of(game_file)
        return locator


class EngineUserProvidedLocator(_EngineStamp, caching.UserProvidedCacheLocator):
    """NUMBA_CACHE_DIR, with the engine stamp."""


class EngineInTreeLocator(_EngineStamp, caching.InTreeCacheLocator):
    """``__pycache__`` beside the source, with the engine stamp."""


class EngineUserWideLocator(_EngineStamp, caching.UserWideCacheLocator):
    """The user-wide cache (read-only installs), with the engine stamp."""


_LOCATORS = caching.CacheImpl._locator_classes
if EngineUserProvidedLocator.__name__ not in {c.__name__ for c in _LOCATORS}:
    _LOCATORS[:0] = [EngineUserProvidedLocator, EngineInTreeLocator, EngineUserWideLocator]
