"""Result store: ``data/<slug>/<run_id>/`` with atomic, checksummed task files (all papers).

run_id hashes what determines a result: the validated config, the executable sources (syntax
trees without comments and docstrings) of the modules the paper imports and of the folders of
the games it plays (``run_files``)
and the installed versions of the packages that can change a number (``dependency_versions``).
A change to any of them starts a new run, while an interrupted run resumes where it stopped.
Each finished task is one file ``<name>/<task_id>.pkl`` written to a temporary file and renamed,
and it starts with the SHA-256 of its payload: a truncated or corrupt file is detected, deleted
and recomputed, never read. These pickles are a local cache (``data/`` is git-ignored);
results that travel are the parquet tables of ``committed.py``.

Every write here is atomic, respects the umask, and names its path when the disk says no.
"""

from __future__ import annotations

import ast
import hashlib
import json
import pickle
import re
import sys
from functools import cache
from importlib import metadata
from pathlib import Path

import pandas as pd

from infosets.core.files import (  # noqa: F401 (re-exported: one implementation, core.files)
    atomic_write_bytes,
    atomic_write_text,
    atomic_write_with,
    check_writable,
    naming_path,
)
from infosets.experiments.config import Config, data_root, repo_root  # noqa: F401 (data_root: re-exported)

_MAGIC = b"INFOSETS2"

# Distributions whose version can change a published number: the games and their resamplers
# (open-spiel), every random stream and reduction (numpy), the compiled kernels (numba,
# llvmlite), statistics (scipy), the tidy tables (pandas, pyarrow) and graph algorithms.
RESULT_PACKAGES = ("open-spiel", "numpy", "numba", "llvmlite", "scipy", "pandas", "pyarrow",
                   "networkx")

_PACKAGE_ROOT = Path(__file__).resolve().parents[1]  # .../lib/infosets


# ------------------------------------------------------------------------------------------
# What a run is keyed on
# ------------------------------------------------------------------------------------------

def _module_file(name: str) -> Path | None:
    """The source file of ``infosets.a.b`` (module or package), or None."""
    parts = name.split(".")
    if parts[0] != "infosets":
        return None
    base = _PACKAGE_ROOT.joinpath(*parts[1:])
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _module_name(path: Path) -> str:
    rel = path.relative_to(_PACKAGE_ROOT.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_dynamic_import(func: ast.expr) -> bool:
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    return name in ("import_module", "__import__")


def _imports_of(path: Path) -> frozenset[str]:
    """Every ``infosets`` module named by an import anywhere in ``path`` (lazy ones too),
    parsed once per version of the file (a paper's closure reaches the same files from many
    roots: pimcts_aggregation's made 359 parses of 68 files)."""
    status = path.stat()
    return _parsed_imports(path, status.st_mtime_ns, status.st_size)


@cache
def _parsed_imports(path: Path, mtime_ns: int, size: int) -> frozenset[str]:
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_bytes(), filename=str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)  # submodules
        elif isinstance(node, ast.Call) and _is_dynamic_import(node.func):
            arg = node.args[0] if node.args else None
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                found.add(arg.value)
            elif path.name == "__init__.py":  # a package importing its modules by name
                found.update(f"{package}.{p.stem if p.suffix else p.name}"
                             for p in path.parent.iterdir()
                             if (p.suffix == ".py" or (p / "__init__.py").is_file())
                             and not p.name.startswith("__"))
    return frozenset(m for m in found if m == "infosets" or m.startswith("infosets."))


_GAMES_DIR = _PACKAGE_ROOT / "games"


@cache
def game_folders() -> tuple[str, ...]:
    """The games that are a folder of their own (``games/<name>/``), by name."""
    return tuple(sorted(p.name for p in _GAMES_DIR.iterdir() if (p / "__init__.py").is_file()))


def _game_of(module: str) -> str | None:
    """The game folder holding ``module`` (``infosets.games.<name>...``), or None."""
    parts = module.split(".")
    return parts[2] if len(parts) > 2 and parts[:2] == ["infosets", "games"] \
        and parts[2] in game_folders() else None


def _game_of_file(path: Path) -> str | None:
    rel = path.relative_to(_PACKAGE_ROOT).parts
    return rel[1] if len(rel) > 2 and rel[0] == "games" and rel[1] in game_folders() else None


@cache
def import_closure(module: str) -> tuple[str, ...]:
    """Source files (relative to ``lib/infosets``) that importing ``module`` can execute.

    A static walk of the import statements from ``module``, including the ``__init__`` of
    every enclosing package; over-inclusive (an import inside a function counts), never short,
    with one exception: the shared modules of ``infosets.games`` import the game folders
    (``games/<name>/``) they serve (the registry, the determinizers, the heuristics), and that
    code runs only when its game is played, so those imports are not followed. A game's folder
    is in the closure when code outside ``games/`` imports it; ``run_files`` adds the folders of
    the games a run names, each with its own closure.
    """
    todo, seen = [(module, None)], set()
    files: set[Path] = set()
    while todo:
        name, importer = todo.pop()
        game = _game_of(name)
        if importer is not None and game is not None and importer.is_relative_to(_GAMES_DIR) \
                and _game_of_file(importer) != game:
            continue  # a shared games module importing a game it serves
        if name in seen:
            continue
        seen.add(name)
        parts = name.split(".")
        for i in range(1, len(parts) + 1):  # a module's parent packages run first
            path = _module_file(".".join(parts[:i]))
            if path is not None and path not in files:
                files.add(path)
                todo.extend((m, path) for m in _imports_of(path))
    if not files:
        raise ValueError(f"module: {module!r} is not an infosets module")
    return tuple(sorted(str(p.relative_to(_PACKAGE_ROOT)) for p in files))


def _strings(value) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in (*_strings(k), *_strings(v))]
    if isinstance(value, (list, tuple, set)):
        return [s for v in value for s in _strings(v)]
    return []


def _folders_in(texts: list[str]) -> tuple[str, ...]:
    words = {w for text in texts for w in re.findall(r"[a-z][a-z0-9_]*", text)}
    return tuple(sorted(words & set(game_folders())))


def games_in_values(values: dict) -> tuple[str, ...]:
    """The game folders a config's ``values`` name (game strings such as
    ``love_letter(players=3)``): the games a run plays, where its config lists them."""
    return _folders_in(_strings(values))


def games_named(slug: str, values: dict | None = None) -> tuple[str, ...]:
    """The game folders a paper's run names: in its config ``values`` (``games_in_values``) or
    in a string of its paper module (``papers/<slug>.py``); over-inclusive, as a key must be."""
    texts = _strings(values or {})
    paper = _PACKAGE_ROOT / "papers" / f"{slug}.py"
    if paper.is_file():
        texts += list(_string_constants(paper))
    return _folders_in(texts)


def _string_constants(path: Path) -> tuple[str, ...]:
    """Every string constant of a module's source, parsed once per version of the file."""
    status = path.stat()
    return _parsed_strings(path, status.st_mtime_ns, status.st_size)


@cache
def _parsed_strings(path: Path, mtime_ns: int, size: int) -> tuple[str, ...]:
    return tuple(node.value for node in ast.walk(ast.parse(path.read_bytes(), filename=str(path)))
                 if isinstance(node, ast.Constant) and isinstance(node.value, str))


def data_files_of(path: Path) -> frozenset[str]:
    """The data files (relative to ``lib/infosets``) a module names: every string constant of
    its source that is the name of a non-Python file beside it (``pimcts_settings.csv``, read
    by ``papers/pimcts_aggregation.py`` at task time). Their bytes are in the key: a tuned
    setting edited in a table reruns what it can change."""
    names = {text for text in _string_constants(path)
             if 0 < len(text) < 256 and "/" not in text and "\n" not in text}
    return frozenset(str((path.parent / name).relative_to(_PACKAGE_ROOT)) for name in names
                     if not name.endswith(".py") and (path.parent / name).is_file())


def run_files(slug: str, values: dict | None = None) -> tuple[str, ...]:
    """The files (relative to ``lib/infosets``) a run's results key covers: the paper's
    ``import_closure``, the folders of the games it names (``games_named``) and the data files
    those modules name (``data_files_of``). Editing one game's folder changes the keys of the
    runs that play it and no other."""
    files = set(import_closure(f"infosets.papers.{slug}"))
    for game in games_named(slug, values):
        for path in (_GAMES_DIR / game).rglob("*.py"):  # the folder and what it imports
            files.update(import_closure(_module_name(path)))
    for name in list(files):
        files.update(data_files_of(_PACKAGE_ROOT / name))
    return tuple(sorted(files))


def executable_source(source: bytes | str) -> str:
    """The part of a module's source that can change a result: its syntax tree without
    comments, docstrings or line numbers. Editing prose leaves it (and so a run's key) alone."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                and body and isinstance(body[0], ast.Expr)
                and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str)):
            node.body = body[1:] or [ast.Pass()]
    return ast.dump(tree, include_attributes=False)


def code_hash(slug: str | None = None, values: dict | None = None) -> str:
    """SHA-256 over the executable source (``executable_source``) of the files a paper's run
    covers (``run_files``, for config ``values``), with their paths; every module if no slug."""
    if slug is None:
        rel = tuple(sorted(str(p.relative_to(_PACKAGE_ROOT)) for p in _PACKAGE_ROOT.rglob("*.py")))
    else:
        rel = run_files(slug, values)
    return _hash_files(rel)


@cache
def _hash_files(rel: tuple[str, ...]) -> str:
    digest = hashlib.sha256()
    for name in rel:
        digest.update(name.encode())
        source = (_PACKAGE_ROOT / name).read_bytes()
        digest.update(executable_source(source).encode() if name.endswith(".py") else source)
    return digest.hexdigest()


def dependency_versions() -> dict[str, str]:
    """Installed versions of the packages that can change a result (and of Python)."""
    return dict(_installed_versions())


@cache
def _installed_versions() -> dict[str, str]:
    versions = {"python": ".".join(map(str, sys.version_info[:3]))}
    for dist in RESULT_PACKAGES:
        try:
            versions[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            versions[dist] = "not installed"
    return versions


def run_key(cfg: Config) -> dict:
    """Everything a run's results depend on, as JSON: config, code and dependency versions."""
    return {"slug": cfg.slug, "seed": cfg.seed, "values": cfg.values,
            "code_hash": code_hash(cfg.slug, cfg.values), "versions": dependency_versions()}


def run_id(cfg: Config) -> str:
    payload = json.dumps(run_key(cfg), sort_keys=True, default=str)
    return hashlib.sha256(payload.encode()).hexdigest()[:12]


# ------------------------------------------------------------------------------------------
# Atomic writes: ``core.files`` implements them (re-exported here for the experiments layer);
# the two helpers below only build on it.
# ------------------------------------------------------------------------------------------

def write_if_changed(path: Path, payload: bytes) -> bool:
    """Atomically write ``payload`` unless ``path`` already holds exactly it; True if written."""
    path = Path(path)
    try:
        if path.read_bytes() == payload:
            return False
    except OSError:
        pass
    atomic_write_bytes(path, payload)
    return True


# ------------------------------------------------------------------------------------------
# The local run folder
# ------------------------------------------------------------------------------------------

class Store:
    """The folder of one run: config.json, per-task files, and the tidy tables."""

    def __init__(self, cfg: Config, root: Path | None = None):
        self.cfg = cfg
        self.run_id = run_id(cfg)
        self.path = (root or data_root()) / cfg.slug / self.run_id
        with naming_path(self.path):
            self.path.mkdir(parents=True, exist_ok=True)
        config_file = self.path / "config.json"
        if not config_file.exists():
            meta = {**cfg.to_json(), **run_key(cfg), "run_id": self.run_id,
                    "code_files": list(run_files(cfg.slug, cfg.values))}
            atomic_write_text(config_file, json.dumps(meta, indent=2, sort_keys=True, default=str))

    def task_file(self, name: str, task_id: str) -> Path:
        return self.path / name / f"{task_id}.pkl"

    def save_task(self, name: str, task_id: str, rows: list[dict],
                  cpu_seconds: float | None = None, adopted: bool = False) -> None:
        """Keep a task's rows and CPU seconds. ``adopted``: the rows were carried over from a
        committed table by ``make rekey`` (``experiments/rekey.py``), not computed here; the
        record says so, and its CPU is a share of the old table's total."""
        record = {"rows": rows, "cpu_seconds": cpu_seconds}
        if adopted:
            record["adopted"] = True
        payload = pickle.dumps(record, protocol=pickle.HIGHEST_PROTOCOL)
        header = _MAGIC + hashlib.sha256(payload).digest()
        atomic_write_bytes(self.task_file(name, task_id), header + payload)

    def load_record(self, name: str, task_id: str) -> dict | None:
        """``{"rows", "cpu_seconds"}`` of a task (and ``"adopted": True`` for rows a rekey
        carried over), or None if absent or corrupt (then deleted)."""
        path = self.task_file(name, task_id)
        try:
            blob = path.read_bytes()
        except FileNotFoundError:
            return None
        head, digest, payload = blob[: len(_MAGIC)], blob[len(_MAGIC): len(_MAGIC) + 32], \
            blob[len(_MAGIC) + 32:]
        if head != _MAGIC or hashlib.sha256(payload).digest() != digest:
            path.unlink(missing_ok=True)
            return None
        return pickle.loads(payload)  # our own local cache, checksummed; never a git file

    def load_task(self, name: str, task_id: str) -> list[dict] | None:
        """The task's rows, or None if absent. A corrupt file is deleted and None returned."""
        record = self.load_record(name, task_id)
        return None if record is None else record["rows"]

    def table_file(self, name: str) -> Path:
        return self.path / f"{name}.parquet"

    def save_table(self, name: str, frame: pd.DataFrame) -> Path:
        path = self.table_file(name)
        atomic_write_with(path, lambda tmp: frame.to_parquet(tmp, index=False))
        return path
