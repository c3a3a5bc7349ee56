"""The summary box that opens each report, and the report's full claims table (issue 54).

A reader opens ``reports/<slug>.<preset>.html`` for the verdicts. The box states the paper
(title, authors), the preset, the verdict counts of the run's own claims file
(``figures/<slug>/[<preset>/]claims.csv``, counted as ``readme_tables`` counts them) and three
headline findings, one sentence each. Which claims are the headlines is declared per paper in
``PAPERS`` (patterns over claim names); every sentence is generated from its claims row (the
claim, the paper's value, ours with its interval, the verdict), so no number is written here.
A pattern that no row matches is named by ``missing_headlines`` (``reports check`` lists it)
and its place goes to the next claim of the file.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from infosets.experiments.readme_tables import VERDICTS, read_claims

HEADLINES = 3


@dataclass(frozen=True)
class Paper:
    """A report's paper: ``title`` and ``authors`` as the paper prints them (empty for a
    notebook that reproduces no paper); ``headlines``: regular expressions matched against
    claim names (``re.search``), the headline findings in order."""

    title: str
    authors: str
    headlines: tuple[str, ...]


BOUDIER = ("Information Set Monte Carlo Tree Search for Two-players Belote", "T. Boudier")
PAPERS = {
    "belief_mixtures": Paper(
        "Mixture of Public and Private Distributions in Imperfect Information Games (2024)",
        "J. Arjonilla, A. Saffidine, T. Cazenave",
        (r"^private \(λ=0\) beats public \(λ=1\) against the best responder",
         r"^PIMC LD 3D seat 0: private \(λ=0\) beats public \(λ=1\) in win rate",
         r"^PIMC on LD 2D: TSSR")),
    "pimcts_aggregation": Paper(
        "Evaluation of Perfect-Information Monte Carlo Tree Search in Imperfect-Information "
        "Games", "V. A. Ravichandran, J. Goodman, S. Lucas",
        (r"^stratego, B=\d+: PI-MCTS beats OL-MCTS by 5%",
         r"^poker_tag\(players=3\), B=\d+: PI-MCTS consistently exceeds the baseline",
         r"the aggregation matters little")),
    "belote_ismcts": Paper(
        *BOUDIER,
        (r"^the 63 human games' statistics recompute",
         r"^the AI wins most games \(> 81 points\), vs pimc",
         r"^no C beats C = 82")),
    "progressive_hiding": Paper(
        "Learning in Games with Progressive Hiding (AAMAS 2025)", "B. Heymann, M. Lanctot",
        (r"^Trade Comm .*: PH \(cheated\) beats the original-map baseline",
         r"^CMP success rate, mccfr_team",
         r"^Tiny Bridge: PH peak")),
    "history_filtering": Paper(
        "History Filtering in Imperfect Information Games: Algorithms and Complexity "
        "(NeurIPS 2023)", "C. Solinas, D. Rebstock, N. R. Sturtevant, M. Buro",
        (r"^MCMC \(b=\d+\) ~ True sampling and beats Importance",
         r"^burn-in \d+, \d+ samples .* approximate the value",
         r"^poker-like public states are polynomial")),
    "play_belote": Paper(*BOUDIER, (r"^AI scores > 81 against humans",)),
    "quickstart": Paper(
        "Quickstart: OpenSpiel's CFR and CFR+ on Kuhn and Leduc poker (no paper)", "",
        (r"^Kuhn poker value for player 0",
         r"^cfr_plus exploitability falls with iterations on leduc_poker")),
}


def paper_of(slug: str) -> Paper:
    """The paper of ``slug``; a notebook not in ``PAPERS`` gets its slug as title."""
    return PAPERS.get(slug, Paper(slug, "", ()))


def run_folder(slug: str, preset: str, root: Path | None = None) -> Path:
    """The figures folder of the published run ``slug`` at ``preset`` (the figures root is
    ``root``, by default ``$INFOSETS_FIGURES_DIR`` or ``figures/``). A preset that is never
    published (smoke) has no fixed folder: its run's folder must be passed explicitly."""
    from infosets.experiments.session import PUBLISHED_PRESETS, figures_root

    base = (Path(root) if root is not None else figures_root()) / slug
    sub = PUBLISHED_PRESETS.get(preset, f"custom/{preset}")
    return base / sub if sub else base


def load_claims(path: Path) -> pd.DataFrame | None:
    """The claims file as ``readme_tables.read_claims`` reads it, plus its other columns
    (direction, size, ...) under their own names; None when there is no file."""
    if not Path(path).is_file():
        return None
    frame = read_claims(Path(path))
    raw = pd.read_csv(path, dtype=str, keep_default_na=False)
    for column in raw.columns:
        if column not in frame.columns and column not in ("paper", "paper_value", "ci95"):
            frame[column] = raw[column].values
    return frame


def verdict_counts(claims: pd.DataFrame) -> dict[str, int]:
    counts = claims["verdict"].value_counts()
    return {v: int(counts.get(v, 0)) for v in VERDICTS}


def missing_headlines(slug: str, claims: pd.DataFrame) -> list[str]:
    """The headline patterns of ``slug`` that no claim name matches."""
    return [p for p in paper_of(slug).headlines
            if not any(re.search(p, name) for name in claims["claim"])]


def headline_rows(slug: str, claims: pd.DataFrame) -> list[pd.Series]:
    """The headline claims of ``slug`` (first match of each pattern), then, in place of a
    pattern that matches nothing, the next claims of the file, up to ``HEADLINES`` rows."""
    chosen: list[int] = []
    for pattern in paper_of(slug).headlines:
        hits = [i for i, name in enumerate(claims["claim"]) if re.search(pattern, name)]
        if hits and hits[0] not in chosen:
            chosen.append(hits[0])
    for i in range(len(claims)):
        if len(chosen) >= min(HEADLINES, len(claims)):
            break
        if i not in chosen:
            chosen.append(i)
    return [claims.iloc[i] for i in chosen[:HEADLINES]]


def finding_sentence(row: pd.Series) -> str:
    """One sentence from a claims row: the claim, the paper's value, ours with its interval,
    the verdict (with its direction and size verdicts when the row has them)."""
    ours = row["ours"] or "not measured"
    if row.get("interval"):
        ours = f"{ours} {row['interval']}"
    verdict = row["verdict"]
    parts = [f"{k} {row[k]}" for k in ("direction", "size") if row.get(k)]
    if parts:
        verdict += f" ({', '.join(parts)})"
    paper = row["paper"] or "no number"
    return f"{row['claim']}: the paper says {paper}; ours {ours}; verdict {verdict}."


def _counts_html(counts: dict[str, int]) -> str:
    return " ".join(f'<span class="verdict verdict-{v.replace(" ", "-")}">{v} '
                    f"<b>{counts[v]}</b></span>" for v in VERDICTS)


def summary_html(slug: str, preset: str, claims: pd.DataFrame | None, source: str) -> str:
    """The box: paper, preset, verdict counts from ``claims`` (read from ``source``), and
    the headline findings; says so when the run wrote no claims file."""
    paper = paper_of(slug)
    esc = html.escape
    lines = ['<div id="report-summary" class="report-summary">',
             f'<p class="report-paper"><b>{esc(paper.title)}</b>'
             + (f" — {esc(paper.authors)}" if paper.authors else "") + "</p>",
             f"<p>Preset <code>{esc(preset)}</code>. "]
    if claims is None:
        lines[-1] += f"No claims file: <code>{esc(source)}</code> does not exist.</p>"
        return "\n".join(lines + ["</div>"])
    lines[-1] += (f"{len(claims)} claims (<code>{esc(source)}</code>): "
                  f"{_counts_html(verdict_counts(claims))}</p>")
    lines.append("<p>Headline findings:</p><ol>")
    for row in headline_rows(slug, claims):
        cls = f"verdict-{row['verdict'].replace(' ', '-')}"
        lines.append(f'<li class="{cls}">{esc(finding_sentence(row))}</li>')
    lines += ["</ol>", "<p>The full claims table follows the figures; settings and "
              "configuration are at the end.</p>", "</div>"]
    return "\n".join(lines)


# The claims table's first columns; the file's other columns follow in their order.
CLAIM_COLUMNS = ("verdict", "claim", "paper", "ours", "interval", "direction", "size", "test",
                 "note")


def claims_table_html(claims: pd.DataFrame) -> str:
    """Every claim in full: the verdict first, no index, no column that is empty in every row
    (nor ``n``, which the interval states), each cell classed by its column and each verdict
    cell by its verdict (the page's CSS colours it and wraps every cell)."""
    order = [c for c in CLAIM_COLUMNS if c in claims.columns]
    order += [c for c in claims.columns if c not in order and c != "n"]
    frame = claims[[c for c in order if (claims[c].astype(str) != "").any()]]
    esc = html.escape
    head = "".join(f'<th class="col-{esc(str(c))}">{esc(str(c))}</th>' for c in frame.columns)
    rows = []
    for _, row in frame.iterrows():
        cells = []
        for column, value in row.items():
            cls = f"col-{column}"
            if column in ("verdict", "direction", "size") and value:
                cls += f" verdict-{str(value).replace(' ', '-')}"
            cells.append(f'<td class="{esc(cls)}">{esc(str(value), quote=False)}</td>')
        rows.append("<tr>" + "".join(cells) + "</tr>")
    return ('<table class="dataframe claims-table">\n<thead><tr>' + head + "</tr></thead>\n"
            "<tbody>\n" + "\n".join(rows) + "\n</tbody>\n</table>")
