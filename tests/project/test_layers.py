"""Layers point one way (design pass, issue 13): each package imports only from those below it.

core (bottom) < games < search, learning, filtering < experiments < play < papers < explore.
The top-level modules sit between: beliefs (belief states over games), stats (intervals) and
sequential (group-sequential boundaries) below search; arena (the one tournament loop),
metrics, claims and plots above search. A module may also never import another package's
private name (``_x``) or private module.
"""

import ast
from pathlib import Path

from infosets.experiments import store

LIB = Path(store.__file__).resolve().parents[1]

# Each layer with the layers it may import (besides itself).
CORE = {"core"}
GAMES = CORE | {"games"}
MIDDLE = GAMES | {"beliefs", "stats", "sequential"}
SEARCH = MIDDLE | {"search", "learning", "filtering"}
UPPER = SEARCH | {"arena", "metrics", "claims", "plots"}
ALLOWED = {
    "core": CORE,
    "games": GAMES,
    "beliefs": GAMES,
    "stats": CORE,
    "sequential": CORE,
    "search": MIDDLE | {"search"},
    "learning": MIDDLE | {"learning"},
    "filtering": MIDDLE | {"filtering"},
    "arena": SEARCH,
    "metrics": SEARCH | {"arena"},
    "claims": SEARCH | {"stats"},
    "plots": SEARCH,
    "experiments": UPPER | {"experiments"},
    "play": UPPER | {"experiments", "play"},
    "papers": UPPER | {"experiments", "play", "papers"},
    "explore": UPPER | {"experiments", "play", "papers"},
}


def _layer(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "infosets"


def _edges():
    for path in sorted(LIB.rglob("*.py")):
        name = store._module_name(path)
        for imported in store._imports_of(path):
            yield path.relative_to(LIB), _layer(name), imported


def test_every_package_has_a_layer():
    layers = {_layer(store._module_name(p)) for p in LIB.rglob("*.py")} - {"infosets"}
    assert layers <= set(ALLOWED), sorted(layers - set(ALLOWED))


# ``arena.main`` (the command line) reports a misspelt game in one line with
# ``games.loading.load_game``, which ``experiments.config.load_game`` wraps; it once imported
# the config's, an import upward from arena.
KNOWN_UPWARD = []


def test_imports_point_down():
    wrong = sorted(f"{path}: {source} imports {imported}"
                   for path, source, imported in _edges()
                   if source in ALLOWED and _layer(imported) not in ALLOWED[source] | {"infosets"})
    assert wrong == KNOWN_UPWARD, wrong


def test_core_imports_nothing_above_it():
    for path in (LIB / "core").glob("*.py"):
        assert {_layer(m) for m in store._imports_of(path)} <= {"core", "infosets"}, path


def test_no_module_imports_another_packages_private_names():
    """``from infosets.a import _b`` / ``import infosets.a._b`` across packages is refused: make
    it public in the right place (e.g. ``games.kernels``, ``determinizers.determinizer_label``)."""
    wrong = []
    for path in sorted(LIB.rglob("*.py")):
        here = _layer(store._module_name(path))
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("infosets"):
                names = [node.module + "." + a.name for a in node.names]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names if a.name.startswith("infosets")]
            else:
                continue
            for full in names:
                private = any(part.startswith("_") and not part.startswith("__")
                              for part in full.split(".")[1:])
                if private and _layer(full) != here:
                    wrong.append(f"{path.relative_to(LIB)}: {full}")
    assert not wrong, wrong


# ``RootStats`` lives in ``search/root_stats.py``, which ``mcts`` and ``compiled`` both import;
# ``compiled`` once imported it from ``mcts`` inside a function while ``mcts`` imported it.
KNOWN_CYCLES = []


def test_no_two_modules_import_each_other():
    """Module-level and function-level imports alike, package ``__init__`` files aside (they
    gather their package by design). ``progress`` once imported ``run_notebooks.available``
    inside ``main()`` while ``run_notebooks`` imported ``progress.Monitor``; both now take the
    notebook list from ``experiments/notebooks.py``."""
    import networkx as nx

    paths = sorted(LIB.rglob("*.py"))
    packages = {store._module_name(p) for p in paths if p.name == "__init__.py"}
    modules = {store._module_name(p) for p in paths} - packages
    graph = nx.DiGraph()
    for path in paths:
        name = store._module_name(path)
        if name in modules:
            graph.add_edges_from((name, m) for m in store._imports_of(path)
                                 if m in modules and m != name)
    cycles = sorted(sorted(c) for c in nx.simple_cycles(graph))
    assert cycles == KNOWN_CYCLES
