"""The repository stands on its own: every paper has a reading note in docs/papers/, every
citation of a note points to a file that exists, and nothing cites notes outside the repo."""

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SLUGS = ("belief_mixtures", "pimcts_aggregation", "belote_ismcts", "progressive_hiding",
         "history_filtering")
# Files a clone does not have: the team's reading notes and layout guide, and the reference
# shelf beside the repository (spelled in pieces so this file does not cite them itself).
OUTSIDE = ("NOTES" + ".md", "../" + "sha" + "red/", "GUIDE" + ".md")


def _tracked_text_files():
    try:
        names = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                               check=True).stdout.split()
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    suffixes = {".py", ".md", ".ipynb", ".yaml", ".cff", ".toml", ".txt"}
    return [ROOT / n for n in names if Path(n).suffix in suffixes or n == "Makefile"]


def test_every_paper_has_a_reading_note_and_the_guides_exist():
    for slug in SLUGS:
        text = (ROOT / "docs" / "papers" / f"{slug}.md").read_text()
        assert "## Interpretations" in text and "## Facts" in text, slug
    for name in ("README.md", "results.md", "changelog.md", "openspiel.md"):
        assert (ROOT / "docs" / name).is_file()
    guide = (ROOT / "CONTRIBUTING.md").read_text()
    for section in ("## Layout", "## Results keys, in plain words", "## Add a paper",
                    "## Add a claim", "## Add an algorithm", "## Add a game and its determinizer"):
        assert section in guide, section


def test_one_contributor_guide_and_one_layout():
    """The layout is described once, in CONTRIBUTING.md (issue 54: three copies disagreed)."""
    assert not (ROOT / "docs" / "contributing.md").exists()
    tree = re.compile(r"^\s+search/\s+\S", flags=re.M)  # the package tree's search/ line
    layouts = [str(p.relative_to(ROOT)) for p in (ROOT / "README.md", ROOT / "CONTRIBUTING.md",
                                                  ROOT / "docs" / "README.md")
               if tree.search(p.read_text())]
    assert layouts == ["CONTRIBUTING.md"], layouts


def test_citations_point_into_the_repository():
    cited = set()
    for path in _tracked_text_files():
        if path.resolve() == Path(__file__).resolve():
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        for needle in OUTSIDE:
            assert needle not in text, f"{path.relative_to(ROOT)} cites {needle}"
        cited |= set(re.findall(r"docs/papers/(\w+)\.md", text))
    missing = {slug for slug in cited if not (ROOT / "docs" / "papers" / f"{slug}.md").exists()}
    assert not missing, missing
    assert set(SLUGS) <= cited
