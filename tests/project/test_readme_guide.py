"""README.md is a guide (issue 54): at most 250 lines, "Change an experiment" within its
first 100, and a glossary that spells out every abbreviation the README or a claims table
(figures/<slug>/[paper/]claims.csv, which docs/results.md and the reports show) uses."""

import re
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
# An abbreviation: two capitals in one word (IS-MCTS, TSSR, CFR+, NashConv), or the papers'
# game labels LD kD and CG nC with their numbers.
ABBREVIATION = re.compile(r"(?<![\w-])(?:LD \d+D|CG \d+C|[A-Z][A-Za-z]*[A-Z][A-Za-z0-9+]*"
                          r"(?:-[A-Z][A-Za-z0-9+]*)*)(?![\w-])")
# Names, file names and formats a reader knows, and the papers' section numbers.
KNOWN = {"AAMAS", "NeurIPS", "CONTRIBUTING", "LICENSE", "CPU", "HTML", "JSON", "YAML",
         "JupyterLab", "OpenSpiel", "VI"}
CLAIM_TEXT = ("claim", "paper", "ours", "test", "note")


def glossary(text: str) -> set[str]:
    """The terms of the README's glossary table (first column, split at commas)."""
    section = text[text.index("## Glossary"):]
    section = section[:section.index("\n## ", 1)]
    terms = set()
    for line in section.splitlines():
        if line.startswith("| ") and not line.startswith("| term"):
            terms |= {part.strip() for part in re.split(r"[,;]", line.split("|")[1])}
    return terms


def abbreviations(text: str) -> set[str]:
    """The abbreviations of prose ``text`` (code, inline code and link targets left out),
    with LD 3D and CG 10C read as LD kD and CG nC, and LD or CG alone as LD kD or CG nC."""
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    text = re.sub(r"`[^`]*`", "", text)
    text = re.sub(r"\]\([^)]*\)", "]", text)
    found = set()
    for word in ABBREVIATION.findall(text):
        word = re.sub(r"^LD \d+D$", "LD kD", re.sub(r"^CG \d+C$", "CG nC", word))
        found.add({"LD": "LD kD", "CG": "CG nC"}.get(word, word))
    return found


def test_the_readme_is_short_and_says_early_how_to_change_an_experiment():
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 250, len(lines)
    assert "## Change an experiment" in lines[:100]


def test_the_glossary_spells_out_every_abbreviation_of_the_readme_and_the_claims():
    text = README.read_text(encoding="utf-8")
    terms = glossary(text)
    start = text.index("## Glossary")
    used = {"README.md": abbreviations(text[:start] + text[text.index("\n## ", start + 1):])}
    for path in sorted((ROOT / "figures").glob("*/claims.csv")) + sorted(
            (ROOT / "figures").glob("*/paper/claims.csv")):
        frame = pd.read_csv(path, dtype=str, keep_default_na=False)
        used[str(path.relative_to(ROOT))] = abbreviations(" ".join(
            " ".join(frame[c]) for c in CLAIM_TEXT if c in frame.columns))
    missing = {f"{where}: {word}" for where, words in used.items()
               for word in words - terms - KNOWN}
    assert not missing, sorted(missing)


def test_the_abbreviation_reader(tmp_path):
    text = "PIMC on LD 3D and CG 20C, `NotThis`, [CFR+](docs/X.md), NashConv; Sec. VI"
    assert abbreviations(text) == {"PIMC", "LD kD", "CG nC", "CFR+", "NashConv", "VI"}
    assert glossary("## Glossary\n\n| term | m |\n|---|---|\n| B, D | x |\n\n## Next\n") \
        == {"B", "D"}
