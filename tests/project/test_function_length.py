"""No function longer than 100 lines (one concern per function; design pass, issue 13)."""

import ast
from pathlib import Path

LIB = Path(__file__).resolve().parents[2] / "lib" / "infosets"
MAX_LINES = 100


def _long_functions(path: Path):
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            lines = node.end_lineno - node.lineno + 1
            if lines > MAX_LINES:
                yield f"{path.relative_to(LIB)}:{node.lineno} {node.name} ({lines} lines)"


def test_no_function_is_over_100_lines():
    files = sorted(LIB.rglob("*.py"))
    assert len(files) > 20
    offenders = [f for path in files for f in _long_functions(path)]
    assert not offenders, offenders
