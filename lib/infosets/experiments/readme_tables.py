"""The generated results pages: README.md's paper table and docs/results.md (all papers).

Every paper notebook ends with a claims table, ``figures/<slug>/claims.csv`` (the paper
preset's in ``figures/<slug>/paper/``): one row per claim with the paper's number, ours, an
interval and a verdict. This module counts the verdicts per paper and preset and writes

* into README.md, between the markers ``<!-- readme-tables:claims:begin -->`` and
  ``<!-- readme-tables:claims:end -->``, one line per paper: what it is, its verdict counts at
  the default and paper presets, and links to its claims, its reports and its reading note;
* docs/results.md, whole: the counts with the CPU-hours each committed run cost, then every
  claim of every paper at both presets, each cell in full (claim, paper, ours, interval,
  test, note),

so that neither page can drift from the results. ``python -m infosets.experiments.readme_tables``
(or ``make readme-tables``; ``make figures`` runs it after the notebooks) rewrites both;
``--check`` only reports whether they are current (exit 1 when one is not).

Verdicts. The typed claim record has one of four verdicts: **match**, **mismatch**,
**inconclusive**, **not run**. Claims files written before that record existed hold free-text
verdicts; `VERDICT_MAP` sends each one we have seen to one of the four (the reasoning is in
the comments next to it). A verdict that is neither one of the four nor in the map is an
error naming the file and the text, so a new phrasing cannot be silently miscounted.

Columns. Either layout is read: the old one (``claim, paper, ours, ci95, verdict``) or the
typed record (``claim, paper_value, ours, ci_low, ci_high, n, test, verdict, note``).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

import pandas as pd

from infosets.core.files import atomic_write_text

BEGIN = "<!-- readme-tables:claims:begin -->"
END = "<!-- readme-tables:claims:end -->"
VERDICTS = ("match", "mismatch", "inconclusive", "not run")
PRESETS = ("default", "paper")  # the presets every paper commits, in the README's order
# What a further committed preset runs, for the README's "further presets" column (a preset
# not named here shows its name alone).
PRESET_TITLES = {"tag": "TAG's own agents"}
PAPER_ORDER = ("belief_mixtures", "pimcts_aggregation", "belote_ismcts", "progressive_hiding",
               "history_filtering")
RESULTS = Path("docs") / "results.md"  # the generated page of every claim, from the root
# One line on each notebook, for the README's table (the papers: docs/papers/<slug>.md).
TITLES = {
    "belief_mixtures": "Arjonilla, Saffidine, Cazenave (2024): mixing public and private "
                       "beliefs (λ) in PIMC and IS-MCTS",
    "pimcts_aggregation": "Ravichandran, Goodman, Lucas: PI-MCTS with D determinizations and "
                          "three aggregation rules, against OL-MCTS and IS-MCTS on 13 games",
    "belote_ismcts": "Boudier: IS-MCTS for two-player Belote, against bots and humans",
    "progressive_hiding": "Heymann, Lanctot (AAMAS 2025): learning in games with progressive "
                          "hiding",
    "history_filtering": "Solinas, Rebstock, Sturtevant, Buro (NeurIPS 2023): history "
                         "filtering with MCMC in trick-taking games",
    "play_belote": "not a paper: play Belote against the IS-MCTS AI",
    "quickstart": "not a paper: a small CFR sweep that shows the pipeline end to end",
}

# Free-text verdicts of the claims files written before the typed record -> the vocabulary.
VERDICT_MAP = {
    # the claim holds
    "supported": "match",
    "consistent": "match",                     # the paper's value lies inside our interval
    "values match (<= 0.05)": "match",
    "match (no gap detected)": "match",
    "fewer iterations lose": "match",          # belote: 500 iterations beat 50, as claimed
    "no c significantly better than 82": "match",  # belote: the paper's C is not beaten
    # the claim does not hold, or our value is outside the paper's
    "not supported": "mismatch",
    "values differ": "mismatch",
    "no reading matches": "mismatch",
    "differs": "mismatch",
    "higher": "mismatch",                      # ours significantly above the paper's value
    "lower": "mismatch",                       # ours significantly below the paper's value
    "below paper": "mismatch",
    "baseline higher than our ph": "mismatch",
    "partial: ~true, not better than importance": "mismatch",  # half of a two-part claim fails
    # measured, but no verdict either way
    "no significant difference": "inconclusive",
    "no difference": "inconclusive",
    "see figure": "inconclusive",              # the paper gives a curve, not a number
    "no paper number": "inconclusive",         # nothing to compare against
    # not computed at this preset
    "not run at this preset": "not run",
    "not run (no port)": "not run",
    "no human games logged yet": "not run",
}


def normalise_verdict(text, where: str = "claims") -> str:
    """One of `VERDICTS` for a verdict cell; ValueError naming ``where`` if unknown."""
    key = " ".join(str(text).split()).lower() if isinstance(text, str) else ""
    if key in VERDICTS:
        return key
    if key in VERDICT_MAP:
        return VERDICT_MAP[key]
    raise ValueError(f"verdict: {text!r} in {where} is not one of {list(VERDICTS)} "
                     "nor a known free-text verdict (add it to readme_tables.VERDICT_MAP)")


def claims_files(root: Path, preset: str = "default") -> dict[str, Path]:
    """slug -> the claims file of ``preset`` (default: figures/<slug>/claims.csv; else
    figures/<slug>/<preset>/claims.csv), the five papers first, then the rest by name."""
    pattern = "*/claims.csv" if preset == "default" else f"*/{preset}/claims.csv"
    found = {(p.parent if preset == "default" else p.parent.parent).name: p
             for p in sorted((root / "figures").glob(pattern))}
    order = [s for s in PAPER_ORDER if s in found] + sorted(set(found) - set(PAPER_ORDER))
    return {slug: found[slug] for slug in order}


def presets(root: Path) -> tuple[str, ...]:
    """The committed presets: ``PRESETS``, then any further preset a paper's figures hold
    (``figures/<slug>/<preset>/claims.csv``, e.g. pimcts_aggregation's ``tag``), by name."""
    found = {p.parent.name for p in (root / "figures").glob("*/*/claims.csv")}
    return PRESETS + tuple(sorted(found - set(PRESETS)))


def compute_spent(root: Path, slug: str, preset: str) -> str:
    """"<CPU-hours> (<tasks done>/<tasks total> tasks)" from results/<slug>/<preset>/
    PROVENANCE.json, the runner's record of the committed tables; "" when there is none."""
    path = root / "results" / slug / preset / "PROVENANCE.json"
    if not path.is_file():
        return ""
    record = json.loads(path.read_text(encoding="utf-8"))
    tables = record.get("tables", {}).values()
    done = sum(int(t.get("tasks_done", 0)) for t in tables)
    total = sum(int(t.get("tasks_total", 0)) for t in tables)
    hours = float(record.get("cpu_seconds", 0.0)) / 3600
    return f"{hours:.2f} ({done}/{total} tasks)"


def _cell(value) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    return " ".join(str(value).split()).replace("|", "\\|")


def _interval(row: pd.Series) -> str:
    if "ci95" in row.index:
        text = _cell(row["ci95"])
    else:
        lo, hi = _cell(row.get("ci_low")), _cell(row.get("ci_high"))
        text = f"[{lo}, {hi}]" if lo and hi else ""
    n = _cell(row.get("n"))
    return f"{text} (n={n})" if n and "n=" not in text else text


def read_claims(path: Path) -> pd.DataFrame:
    """A claims file as columns claim, paper, ours, interval, test, note and verdict
    (normalised); a column the file lacks is empty."""
    frame = pd.read_csv(path, dtype=str, keep_default_na=False)
    for column in ("claim", "verdict"):
        if column not in frame.columns:
            raise ValueError(f"{path}: no {column!r} column")
    # "paper" is the paper's statement as text; "paper_value" (claims.py) its number alone
    paper = "paper" if "paper" in frame.columns else "paper_value"
    empty = [""] * len(frame)
    return pd.DataFrame({
        "claim": [_cell(c) for c in frame["claim"]],
        "paper": [_cell(v) for v in frame.get(paper, empty)],
        "ours": [_cell(v) for v in frame.get("ours", empty)],
        "interval": [_interval(row) for _, row in frame.iterrows()],
        "test": [_cell(v) for v in frame.get("test", empty)],
        "note": [_cell(v) for v in frame.get("note", empty)],
        "verdict": [normalise_verdict(v, str(path)) for v in frame["verdict"]],
    })


def all_claims(root: Path) -> tuple[list[str], dict[tuple[str, str], pd.DataFrame]]:
    """The slugs in README order (the five papers first) and (slug, preset) -> its claims."""
    tables = {(slug, preset): read_claims(path)
              for preset in presets(root) for slug, path in claims_files(root, preset).items()}
    slugs = [s for s in PAPER_ORDER if any(slug == s for slug, _ in tables)]
    return slugs + sorted({s for s, _ in tables} - set(slugs)), tables


def _counts(table: pd.DataFrame | None) -> str:
    """The verdict counts in the order of `VERDICTS`, "a / b / c / d", or "not run yet"."""
    if table is None:
        return "not run yet"
    counts = table["verdict"].value_counts()
    return " / ".join(str(int(counts.get(v, 0))) for v in VERDICTS)


def _reports(root: Path, slug: str, committed: tuple[str, ...]) -> str:
    links = [f"[{preset}](reports/{slug}.{preset}.html)" for preset in committed
             if (root / "reports" / f"{slug}.{preset}.html").exists()]
    return "reports: " + ", ".join(links) if links else ""


def render(root: Path) -> str:
    """README.md's generated block (markers included): one line per paper with what it is,
    its verdict counts at the default and paper presets (and at any further committed preset,
    in a column of its own), and links to its claims in docs/results.md and to its executed
    reports; the name links its reading note."""
    slugs, tables = all_claims(root)
    committed = presets(root)
    further = committed[len(PRESETS):]
    extra = " further presets |" if further else ""
    lines = [BEGIN,
             "<!-- generated by `make readme-tables` from figures/<slug>/[<preset>/]claims.csv; "
             "do not edit by hand -->",
             "",
             f"| paper | default preset: {' / '.join(VERDICTS)} | paper preset |{extra} read |",
             "|---|---|---|" + ("---|" if further else "") + "---|"]
    for slug in slugs:
        note = root / "docs" / "papers" / f"{slug}.md"
        name = f"[`{slug}`](docs/papers/{slug}.md)" if note.exists() else f"`{slug}`"
        paper = tables.get((slug, "paper"))
        paper_cell = "" if paper is None and slug not in PAPER_ORDER else _counts(paper)
        read = " · ".join(x for x in (f"[claims]({RESULTS.as_posix()}#{slug})",
                                       _reports(root, slug, committed)) if x)
        more = "; ".join(_further(preset, tables[(slug, preset)]) for preset in further
                         if (slug, preset) in tables)
        lines.append(f"| {name}: {TITLES.get(slug, '')} | "
                     f"{_counts(tables.get((slug, 'default')))} | {paper_cell} |"
                     + (f" {more} |" if further else "") + f" {read} |")
    lines.append(END)
    return "\n".join(lines)


def _further(preset: str, table: pd.DataFrame) -> str:
    """A further preset's README cell: "`tag` (TAG's own agents): a / b / c / d"."""
    title = f" ({PRESET_TITLES[preset]})" if preset in PRESET_TITLES else ""
    return f"`{preset}`{title}: {_counts(table)}"


def _claims_table(table: pd.DataFrame) -> list[str]:
    lines = ["| verdict | claim | paper | ours | interval | test | note |",
             "|---|---|---|---|---|---|---|"]
    return lines + [f"| {r.verdict} | {r.claim} | {r.paper} | {r.ours} | {r.interval} | "
                    f"{r.test} | {r.note} |" for r in table.itertuples()]


INTRO = (
    "Each paper's notebook ends with a claims table: the paper's number, ours with a 95% "
    "interval and its sample size n, the test that decided, and a verdict: **match**, "
    "**mismatch**, **inconclusive** (measured, but the test cannot tell) or **not run** (not "
    "computed at this preset). The `default` preset runs in minutes; `paper` keeps the "
    "paper's budgets and sample sizes on the cells that decide its claims; a further preset, "
    "where a paper has one, follows them (its notebook's `notebooks/params/<slug>.<preset>.yaml` "
    "says what it runs). The README's "
    "glossary spells out the abbreviations; each paper's reading note "
    "(`docs/papers/<slug>.md`) gives its facts and our interpretations.")


def render_results(root: Path) -> str:
    """docs/results.md, whole: per paper and preset the verdict counts, the CPU-hours and
    tasks of its committed results and links, then every claim with every cell in full."""
    slugs, tables = all_claims(root)
    committed = presets(root)
    lines = ["# What reproduces: every claim of every paper", "",
             "<!-- generated by `make readme-tables` from figures/<slug>/[<preset>/]claims.csv "
             "and results/<slug>/<preset>/PROVENANCE.json; do not edit by hand -->", "",
             INTRO, "",
             "| paper | preset | claims | " + " | ".join(VERDICTS)
             + " | CPU-hours (tasks) | outputs |",
             "|---|---|---:|" + "---:|" * len(VERDICTS) + "---|---|"]
    for slug, preset in ((s, p) for s in slugs for p in committed if (s, p) in tables):
        table = tables[(slug, preset)]
        folder = f"figures/{slug}" + ("" if preset == "default" else f"/{preset}")
        report = f"reports/{slug}.{preset}.html"
        read = f" · [report](../{report})" if (root / report).exists() else ""
        lines.append(f"| [{slug}](#{slug}) | {preset} | {len(table)} | "
                     f"{_counts(table).replace(' / ', ' | ')} | "
                     f"{compute_spent(root, slug, preset)} | "
                     f"[claims.md](../{folder}/claims.md){read} |")
    for slug in slugs:
        lines += ["", f"## {slug}", "", TITLES.get(slug, slug) + "."]
        for preset in (p for p in committed if (slug, p) in tables):
            lines += ["", f"### {slug} at the {preset} preset", ""]
            lines += _claims_table(tables[(slug, preset)])
    return "\n".join(lines) + "\n"


def splice(readme: str, block: str) -> str:
    """``readme`` with the text between the markers (markers included) replaced by ``block``."""
    start, end = readme.find(BEGIN), readme.find(END)
    if start < 0 or end < start or readme.count(BEGIN) != 1 or readme.count(END) != 1:
        raise ValueError(f"README.md: needs exactly one {BEGIN} ... {END} pair")
    return readme[:start] + block + readme[end + len(END):]


def _write_if_changed(path: Path, new: str, check: bool) -> bool:
    """True when ``path`` already holds ``new``; otherwise writes it (unless ``check``),
    keeping the file's mode."""
    old = path.read_text(encoding="utf-8") if path.is_file() else None
    if new == old:
        return True
    if not check:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(path, new, mode=path.stat().st_mode & 0o7777 if old is not None
                          else 0o644)
    return False


def update(root: Path, check: bool = False) -> bool:
    """Rewrites README.md's block and docs/results.md from the claims files; returns True
    when both were current. With ``check`` nothing is written."""
    readme = root / "README.md"
    new_readme = splice(readme.read_text(encoding="utf-8"), render(root))
    results_current = _write_if_changed(root / RESULTS, render_results(root), check)
    return _write_if_changed(readme, new_readme, check) and results_current


def main(argv=None) -> int:
    from infosets.experiments.config import repo_root

    parser = argparse.ArgumentParser(prog="python -m infosets.experiments.readme_tables",
                                     description="Regenerate README.md's paper table "
                                                 "and docs/results.md.")
    parser.add_argument("--check", action="store_true",
                        help="exit 1 if README.md or docs/results.md is not "
                             "current; write nothing")
    parser.add_argument("--root", type=Path, default=None, help="checkout root")
    args = parser.parse_args(argv)
    root = args.root or repo_root()
    try:
        current = update(root, check=args.check)
    except (ValueError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.check:
        print("README.md and docs/results.md are current" if current else
              "README.md or docs/results.md is stale: run make readme-tables")
        return 0 if current else 1
    print("README.md and docs/results.md " + ("unchanged" if current else "rewritten"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
