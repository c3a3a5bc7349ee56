"""No dated narrative in the library or the README (issue 54): git has the dates and
docs/changelog.md the history, so lib/ and README.md state present-tense facts.

A calendar date (``2026-11-29``) or a numbered regeneration pass (``seventeenth pass``) is
refused. A year alone (a paper's publication year, a citation) is allowed. ``ALLOWED`` names
the remaining exceptions, each with its reason.
"""

import re
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


def dated_lines(path: Path, rel: str) -> list[str]:
    """``rel:line: text`` for every line of ``path`` with a date or a numbered pass that
    ``ALLOWED`` does not excuse."""
    found = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not (DATE.search(line) or PASS.search(line)):
            continue
        if any(rel == where and text in line for where, text in ALLOWED):
            continue
        found.append(f"{rel}:{number}: {line.strip()}")
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
