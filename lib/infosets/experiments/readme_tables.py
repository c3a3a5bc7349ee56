"""The README's "what reproduces" table, generated from the committed claims files (all papers).

Every paper notebook ends with a claims table, ``figures/<slug>/claims.csv``: one row per claim
with the paper's number, ours, an interval and a verdict. This module counts the verdicts per
paper and lists every claim, and writes that block into README.md between the markers
``<!-- readme-tables:claims:begin -->`` and ``<!-- readme-tables:claims:end -->``, so that the
README cannot drift from the results. ``python -m infosets.experiments.readme_tables`` (or
``make readme-tables``; ``make figures`` runs it after the notebooks) rewrites the block;
``--check`` only reports whether the README is current (exit 1 when it is not).

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
PRESETS = ("default", "paper")  # the committed presets, in the README's order
PAPER_ORDER = ("belief_mixtures", "pimcts_aggregation", "belote_ismcts", "progressive_hiding",
               "history_filtering")

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
    """A claims file as columns claim, paper, ours, interval, verdict (normalised)."""
    frame = pd.read_csv(path, dtype=str, keep_default_na=False)
    for column in ("claim", "verdict"):
        if column not in frame.columns:
            raise ValueError(f"{path}: no {column!r} column")
    paper = "paper_value" if "paper_value" in frame.columns else "paper"
    return pd.DataFrame({
        "claim": [_cell(c) for c in frame["claim"]],
        "paper": [_cell(v) for v in frame.get(paper, [""] * len(frame))],
        "ours": [_cell(v) for v in frame.get("ours", [""] * len(frame))],
        "interval": [_interval(row) for _, row in frame.iterrows()],
        "verdict": [normalise_verdict(v, str(path)) for v in frame["verdict"]],
    })


def render(root: Path) -> str:
    """The generated block (markers included): verdict counts per paper at the default and
    paper presets (a paper preset not yet run says so), with the CPU-hours its committed
    results cost and links to its claims and its executed report, then every claim."""
    tables = {(slug, preset): read_claims(path)
              for preset in PRESETS for slug, path in claims_files(root, preset).items()}
    slugs = [s for s in PAPER_ORDER if any((s, p) in tables for p in PRESETS)]
    slugs += sorted({s for s, _ in tables} - set(slugs))
    lines = [BEGIN,
             "<!-- generated by `make readme-tables` from figures/<slug>/[<preset>/]claims.csv "
             "and results/<slug>/<preset>/PROVENANCE.json; do not edit by hand -->",
             "",
             "| paper | preset | claims | " + " | ".join(VERDICTS)
             + " | CPU-hours (tasks) | details |",
             "|---|---|---:|" + "---:|" * len(VERDICTS) + "---|---|"]
    for slug in slugs:
        for preset in PRESETS:
            spent = compute_spent(root, slug, preset)
            table = tables.get((slug, preset))
            if table is None:
                if slug in PAPER_ORDER and preset == "paper":
                    lines.append(f"| {slug} | paper | not run yet |" + " |" * len(VERDICTS)
                                 + f" {spent} | |")
                continue
            counts = table["verdict"].value_counts()
            cells = " | ".join(str(int(counts.get(v, 0))) for v in VERDICTS)
            folder = f"figures/{slug}" + ("" if preset == "default" else f"/{preset}")
            report = f"reports/{slug}.{preset}.html"
            read = f" · [report]({report})" if (root / report).exists() else ""
            lines.append(f"| {slug} | {preset} | {len(table)} | {cells} | {spent} | "
                         f"[claims.md]({folder}/claims.md){read} |")
    for (slug, preset), table in sorted(tables.items(), key=lambda kv: (
            slugs.index(kv[0][0]), PRESETS.index(kv[0][1]))):
        lines += ["", f"<details><summary><code>{slug}</code> at <code>{preset}</code>: "
                  "every claim</summary>", "",
                  "| verdict | claim | paper | ours | interval |", "|---|---|---|---|---|"]
        for row in table.itertuples():
            lines.append(f"| {row.verdict} | {row.claim} | {row.paper} | {row.ours} | "
                         f"{row.interval} |")
        lines += ["", "</details>"]
    lines.append(END)
    return "\n".join(lines)


def splice(readme: str, block: str) -> str:
    """``readme`` with the text between the markers (markers included) replaced by ``block``."""
    start, end = readme.find(BEGIN), readme.find(END)
    if start < 0 or end < start or readme.count(BEGIN) != 1 or readme.count(END) != 1:
        raise ValueError(f"README.md: needs exactly one {BEGIN} ... {END} pair")
    return readme[:start] + block + readme[end + len(END):]


def update(root: Path, check: bool = False) -> bool:
    """Rewrites README.md's block from the claims files; returns True when it was current.

    With ``check`` nothing is written."""
    readme = root / "README.md"
    text = readme.read_text(encoding="utf-8")
    new = splice(text, render(root))
    if new == text:
        return True
    if not check:
        atomic_write_text(readme, new, mode=readme.stat().st_mode & 0o7777)
    return False


def main(argv=None) -> int:
    from infosets.experiments.config import repo_root

    parser = argparse.ArgumentParser(prog="python -m infosets.experiments.readme_tables",
                                     description="Regenerate README.md's claims table.")
    parser.add_argument("--check", action="store_true",
                        help="exit 1 if README.md is not current; write nothing")
    parser.add_argument("--root", type=Path, default=None, help="checkout root")
    args = parser.parse_args(argv)
    root = args.root or repo_root()
    try:
        current = update(root, check=args.check)
    except (ValueError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.check:
        print("README.md claims table is current" if current else
              "README.md claims table is stale: run make readme-tables")
        return 0 if current else 1
    print("README.md claims table " + ("unchanged" if current else "rewritten"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
