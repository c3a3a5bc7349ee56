"""OpenSpiel games added by infosets, and determinizers for OpenSpiel games.

Every public module in this package registers its game(s) with pyspiel when imported;
importing ``infosets.games`` imports them all, so ``pyspiel.load_game("<name>")`` works.
"""

import importlib
import pkgutil

__all__ = []

for _info in pkgutil.iter_modules(__path__):
    if not _info.name.startswith("_"):
        importlib.import_module(f"{__name__}.{_info.name}")
        __all__.append(_info.name)
