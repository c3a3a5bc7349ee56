"""OpenSpiel games added by infosets, and determinizers for OpenSpiel games.

One folder per game (``games/<name>/``: ``game.py`` its pyspiel registration and rules,
``kernel.py`` its numba rules for the compiled engine, ``worlds.py`` its world sampler where
it has one); the flat modules are shared by every game (determinizers, kernels' registry,
heuristics, loading). Importing ``infosets.games`` registers every game with pyspiel (each
folder's ``game`` module and every public flat module), so ``pyspiel.load_game("<name>")``
works.
"""

import importlib
import pkgutil
from pathlib import Path

__all__ = []

for _info in pkgutil.iter_modules(__path__):
    if _info.name.startswith("_"):
        continue
    if _info.ispkg:
        if (Path(__path__[0]) / _info.name / "game.py").is_file():
            importlib.import_module(f"{__name__}.{_info.name}.game")
        elif (Path(__path__[0]) / _info.name / "__init__.py").is_file():
            importlib.import_module(f"{__name__}.{_info.name}")
    else:
        importlib.import_module(f"{__name__}.{_info.name}")
    __all__.append(_info.name)
