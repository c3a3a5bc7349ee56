"""Every path that prose cites exists (issue 54): a docstring or comment in ``lib/``,
``tests/`` or ``benchmarks/``, or any tracked Markdown file, that names a ``tests/…``,
``lib/…``, ``docs/…`` or ``benchmarks/…`` path names one that is in the tree.

A placeholder (``docs/papers/<slug>.md``) or a glob (``tests/games/*/test_*_kernel.py``) must
match at least one file. ``docs/changelog.md`` is left out: it records earlier states of the
tree, whose files may since have been renamed or removed.
"""

import ast
import io
import re
import subprocess
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HISTORY = {"docs/changelog.md"}
# A cited path: one of the four roots, not inside a longer path or a dotted name.
CITED = re.compile(r"(?<![\w./-])((?:tests|lib|docs|benchmarks)/[\w./*<>{},-]*[\w*>/])")
ROOTS = re.compile(r"(?:tests|lib|docs|benchmarks)/")  # in every cited path


def _tracked() -> list[str]:
    try:
        return subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                              check=True).stdout.split()
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")


def python_prose(source: str) -> list[tuple[int, str]]:
    """(line, text) of every comment and docstring of a Python source."""
    found = [(tok.start[0], tok.string) for tok in
             tokenize.generate_tokens(io.StringIO(source).readline)
             if tok.type == tokenize.COMMENT]
    nodes = [ast.parse(source)]
    while nodes:  # statements only: a docstring's owner is never inside an expression
        node = nodes.pop()
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                    and isinstance(body[0].value.value, str):
                found.append((body[0].lineno, body[0].value.value))
        nodes.extend(child for child in ast.iter_child_nodes(node)
                     if isinstance(child, (ast.stmt, ast.excepthandler, ast.match_case)))
    return found


def _pattern(cited: str) -> str:
    """A cited path as a glob: ``<slug>`` and ``{a,b}`` become ``*``."""
    return re.sub(r"<[^<>]*>|\{[^{}]*\}", "*", cited)


def exists(cited: str, root: Path = ROOT) -> bool:
    """True when ``cited`` (a path, a placeholder pattern or a glob) names something in the tree."""
    path = cited.split("::")[0].rstrip(".")
    pattern = _pattern(path)
    if "*" in pattern:
        return any(True for _ in root.glob(pattern.rstrip("/")))
    return (root / path).exists()


def dead_citations(root: Path, names: list[str]) -> list[str]:
    """``file:line: path`` for every cited path in ``names`` that is not in the tree."""
    dead = []
    for name in names:
        if name in HISTORY or not (name.endswith(".md") or (
                name.endswith(".py") and name.split("/")[0] in ("lib", "tests", "benchmarks"))):
            continue
        text = (root / name).read_text(encoding="utf-8", errors="replace")
        if not ROOTS.search(text):  # cites nothing: skip parsing it
            continue
        chunks = python_prose(text) if name.endswith(".py") else [(1, text)]
        for line, chunk in chunks:
            for match in CITED.finditer(chunk):
                if not exists(match.group(1), root):
                    where = line + chunk.count("\n", 0, match.start())
                    dead.append(f"{name}:{where}: {match.group(1)}")
    return dead


def test_every_cited_path_exists():
    dead = dead_citations(ROOT, _tracked())
    assert not dead, "cited paths not in the tree:\n" + "\n".join(dead)


def test_the_check_reads_prose_only_and_finds_a_dead_path(tmp_path):
    (tmp_path / "tests" / "games").mkdir(parents=True)
    (tmp_path / "tests" / "games" / "test_a_kernel.py").write_text("")
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "m.py").write_text(
        '"""See tests/games/test_a_kernel.py and tests/games/test_*_kernel.py."""\n'
        'X = "tests/not_prose.py"  # but tests/gone.py, cited here, is dead\n'
        'def f():\n    """tests/games/test_<name>_kernel.py::test_x is there."""\n')
    (tmp_path / "notes.md").write_text("Read docs/missing.md and lib/m.py.\n"
                                       "Not a citation: open_spiel/python/tests/x.py\n")
    assert sorted(dead_citations(tmp_path, ["lib/m.py", "notes.md"])) == [
        "lib/m.py:2: tests/gone.py", "notes.md:1: docs/missing.md"]
    assert not exists("tests/games/test_*_other.py", tmp_path)
