"""No dated narrative in the library, the README, the notebooks or the reports (issue 54): git
has the dates and docs/changelog.md the history, so lib/, README.md, notebooks/*.ipynb (every
cell) and the executed reports (reports/*.ipynb markdown, reports/*.html text) state
present-tense facts.

A calendar date (``2026-11-29``) or a numbered regeneration pass (``seventeenth pass``) is
refused. A year alone (a paper's publication year, a citation) is allowed. ``ALLOWED`` names
the remaining exceptions, each with its reason.
"""

import json
import re
from html.parser import HTMLParser
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DATE = re.compile(r"(?<!\d)20\d\d-[01]\d-[0-3]\d(?!\d)")
PASS = re.compile(r"\b(?:first|second|third|\w+th|\w+teenth|\w+tieth) pass\b", re.I)
# (file, the exact text that may hold a date): why
ALLOWED = {
    # a command-line option's help and error show the format of the time it takes
    ("lib/infosets/papers/pimcts_costs.py", "e.g. 2026-11-27T10:29"): "format example",
    ("lib/infosets/papers/pimcts_costs.py", "like 2026-11-27T10:29"): "format example",
}


def dated_text(text: str, rel: str) -> list[str]:
    """``rel:line: text`` for every line of ``text`` with a date or a numbered pass that
    ``ALLOWED`` does not excuse."""
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        if not (DATE.search(line) or PASS.search(line)):
            continue
        if any(rel == where and allowed in line for where, allowed in ALLOWED):
            continue
        found.append(f"{rel}:{number}: {line.strip()}")
    return found


def dated_lines(path: Path, rel: str) -> list[str]:
    """``dated_text`` of the file at ``path``."""
    return dated_text(path.read_text(encoding="utf-8"), rel)


def dated_cells(path: Path, rel: str, kinds=("markdown", "code", "raw")) -> list[str]:
    """``dated_text`` of the source of every cell of notebook ``path`` whose type is in
    ``kinds``, each named ``rel[cell i]`` (line numbers count within the cell)."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    found = []
    for i, cell in enumerate(cells):
        if cell["cell_type"] in kinds:
            found += dated_text("".join(cell["source"]), f"{rel}[cell {i}]")
    return found


class _Text(HTMLParser):
    """The text a browser shows of an HTML page: data outside ``script`` and ``style``."""

    def __init__(self):
        super().__init__()
        self.parts, self._hidden = [], 0

    def handle_starttag(self, tag, attrs):
        self._hidden += tag in ("script", "style")

    def handle_endtag(self, tag):
        if tag in ("script", "style") and self._hidden:
            self._hidden -= 1

    def handle_data(self, data):
        if not self._hidden:
            self.parts.append(data)


def dated_html(path: Path, rel: str) -> list[str]:
    """``dated_text`` of the shown text of the HTML page at ``path``."""
    parser = _Text()
    parser.feed(path.read_text(encoding="utf-8"))
    return dated_text("".join(parser.parts), rel)


def notebooks_dated(root: Path) -> list[str]:
    """Dated lines of every cell of ``root/notebooks/*.ipynb``."""
    found = []
    for path in sorted((root / "notebooks").glob("*.ipynb")):
        found += dated_cells(path, path.relative_to(root).as_posix())
    return found


def test_lib_and_the_readme_carry_no_date():
    files = sorted((ROOT / "lib" / "infosets").rglob("*.py")) + [ROOT / "README.md"]
    found = []
    for path in files:
        rel = path.relative_to(ROOT).as_posix()
        found += dated_lines(path, rel)
    assert not found, "dated narrative (move it to docs/changelog.md):\n" + "\n".join(found)


def test_a_date_or_a_pass_is_found_and_a_year_is_not(tmp_path):
    path = tmp_path / "m.py"
    path.write_text('"""Arjonilla et al. (2024), AAMAS 2025."""\n'
                    "# fixed on 2026-11-28\n"
                    "# moved in the seventeenth pass\n"
                    'HELP = "e.g. 2026-11-27T10:29"\n')
    assert [line.split(":")[1] for line in dated_lines(path, "x.py")] == ["2", "3", "4"]
    assert dated_lines(path, "lib/infosets/papers/pimcts_costs.py")[-1].startswith(
        "lib/infosets/papers/pimcts_costs.py:3:")


def test_the_notebooks_carry_no_date():
    assert sorted((ROOT / "notebooks").glob("*.ipynb"))
    found = notebooks_dated(ROOT)
    assert not found, "dated narrative (move it to docs/changelog.md):\n" + "\n".join(found)


def test_the_reports_carry_no_date():
    """The executed reports copy the notebooks' markdown; they hold a date until they are
    regenerated from dateless notebooks."""
    reports = ROOT / "reports"
    found = []
    for path in sorted(reports.glob("*.ipynb")):
        found += dated_cells(path, path.relative_to(ROOT).as_posix(), kinds=("markdown",))
    for path in sorted(reports.glob("*.html")):
        found += dated_html(path, path.relative_to(ROOT).as_posix())
    assert sorted(reports.glob("*.html")) and sorted(reports.glob("*.ipynb"))
    assert not found, "dated narrative (re-execute the report):\n" + "\n".join(found)


def _notebook(path: Path, cells: list[tuple[str, str]]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"cells": [{"cell_type": kind, "source": [source]}
                                          for kind, source in cells]}))
    return path


def test_a_date_is_found_in_any_notebook_cell_and_in_shown_html_text(tmp_path):
    _notebook(tmp_path / "notebooks" / "a.ipynb",
              [("markdown", "Since 2004, per Smith (2019).\nFixed on 2026-11-27."),
               ("code", "x = 1  # the ninth pass"),
               ("raw", "Arjonilla et al. (2024)")])
    found = notebooks_dated(tmp_path)
    assert [line.split(": ")[0] for line in found] == [
        "notebooks/a.ipynb[cell 0]:2", "notebooks/a.ipynb[cell 1]:1"]
    page = tmp_path / "r.html"
    page.write_text("<html><style>/* 2026-11-27 */</style><script>d='2026-11-28'</script>"
                    "<p>As of 2026-11-29 it &amp; read</p>\n<p>Smith (2024)</p></html>")
    assert [line.split(": ")[1] for line in dated_html(page, "r.html")] == [
        "As of 2026-11-29 it & read"]
