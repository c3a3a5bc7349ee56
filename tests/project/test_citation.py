"""The repository is citable and licensed: CITATION.cff (CFF 1.2.0) parses and agrees with
pyproject.toml, LICENSE holds the Apache-2.0 text that pyproject declares, and README.md
carries a BibTeX entry for the repository and for each of the five papers."""

import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
PAPER_KEYS = {"arjonilla2024mixture", "ravichandran_pimcts", "boudier_belote",
                    "heymann2025progressive", "solinas2023history"}


def _pyproject() -> dict:
    """``name = "value"`` lines of pyproject's [project] table (tomllib is Python >= 3.11)."""
    text = (ROOT / "pyproject.toml").read_text().split("[project]", 1)[1].split("\n[", 1)[0]
    return dict(re.findall(r'^(\w+) = "([^"]*)"', text, flags=re.M))


def test_citation_cff_has_the_required_keys_and_matches_pyproject():
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    for key in ("cff-version", "message", "title", "authors"):
        assert cff.get(key), f"CITATION.cff: missing required key {key!r}"
    assert str(cff["cff-version"]) == "1.2.0"
    assert isinstance(cff["authors"], list)
    for author in cff["authors"]:
        assert author.get("name") or author.get("family-names"), author
    project = _pyproject()
    assert cff["license"] == project["license"]
    assert str(cff["version"]) == project["version"]
    assert cff["type"] == "software"
    titles = [ref["title"] for ref in cff["references"]]
    assert len(titles) == 5
    for ref in cff["references"]:
        assert ref["type"] and ref["authors"], ref


def test_license_is_the_apache_2_text():
    text = (ROOT / "LICENSE").read_text()
    assert _pyproject()["license"] == "Apache-2.0"
    assert "Apache License" in text and "Version 2.0, January 2004" in text
    assert "TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION" in text
    assert "END OF TERMS AND CONDITIONS" in text
    sections = re.findall(r"^\s+(\d+)\. [A-Z]", text, flags=re.M)
    assert [int(s) for s in sections[:9]] == list(range(1, 10))


def test_readme_bibtex_names_the_repository_and_every_paper():
    readme = (ROOT / "README.md").read_text()
    keys = set(re.findall(r"^@\w+\{([^,]+),", readme, flags=re.M))
    assert "infosets" in keys
    assert PAPER_KEYS <= keys, PAPER_KEYS - keys
