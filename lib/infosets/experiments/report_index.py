"""``reports/index.html``: one page that links every report with its verdict counts (issue 54).

One row per report page ``<slug>.<preset>.html`` in the folder: the paper (title, authors,
from ``report_summary.PAPERS``), the preset, the verdict counts of the run's claims file and
the link. ``reports.export`` rewrites it whenever it writes a report, so it lists what the
folder holds. The page is byte-stable (sorted, no dates).
"""

from __future__ import annotations

import html
from pathlib import Path

from infosets.experiments import report_summary
from infosets.experiments.readme_tables import PAPER_ORDER, VERDICTS
from infosets.experiments.store import atomic_write_text

INDEX = "index.html"
PRESET_ORDER = ("default", "paper", "full")

STYLE = """<style>
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 1100px; padding: 0 1em; }
table { border-collapse: collapse; width: 100%; table-layout: auto; }
th, td { border-bottom: 1px solid #ddd; padding: 0.4em 0.6em; text-align: left;
  vertical-align: top; overflow-wrap: break-word; }
td.count, td.preset, th.count { text-align: right; white-space: nowrap; }
td.preset { text-align: left; }
</style>"""


def pages(folder: Path) -> list[tuple[str, str]]:
    """(slug, preset) of every report page in ``folder``: the papers first, then the rest."""
    found = []
    for page in Path(folder).glob("*.html"):
        if page.name == INDEX or page.stem.count(".") != 1:
            continue
        slug, preset = page.stem.split(".")
        found.append((slug, preset))
    rank = {s: i for i, s in enumerate(PAPER_ORDER)}
    return sorted(found, key=lambda sp: (rank.get(sp[0], len(rank)), sp[0],
                                         PRESET_ORDER.index(sp[1]) if sp[1] in PRESET_ORDER
                                         else len(PRESET_ORDER), sp[1]))


def row_html(slug: str, preset: str, figures_root: Path | None = None) -> str:
    paper = report_summary.paper_of(slug)
    claims = report_summary.load_claims(
        report_summary.run_folder(slug, preset, figures_root) / "claims.csv")
    if claims is None:
        counts = ['<td class="count" colspan="5">no claims file</td>']
    else:
        tally = report_summary.verdict_counts(claims)
        counts = [f'<td class="count">{len(claims)}</td>'] + [
            f'<td class="count verdict-{v.replace(" ", "-")}">{tally[v]}</td>' for v in VERDICTS]
    who = f"<br><small>{html.escape(paper.authors)}</small>" if paper.authors else ""
    link = f"{slug}.{preset}.html"
    return (f"<tr><td><a href=\"{link}\">{html.escape(paper.title)}</a>{who}</td>"
            f"<td><code>{html.escape(slug)}</code></td>"
            f'<td class="preset">{html.escape(preset)}</td>'
            + "".join(counts) + "</tr>")


def render(folder: Path, figures_root: Path | None = None) -> str:
    head = "".join(f"<th>{v}</th>" for v in ("paper", "notebook", "preset")) + "".join(
        f'<th class="count">{v}</th>' for v in ("claims", *VERDICTS))
    rows = "\n".join(row_html(s, p, figures_root) for s, p in pages(folder))
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<title>infosets reports</title>\n" + STYLE + "</head><body>\n"
            "<h1>infosets: the executed reports</h1>\n"
            "<p>Each report opens with its verdict summary. The counts are those of the run's "
            "claims file, <code>figures/&lt;slug&gt;/[&lt;preset&gt;/]claims.csv</code>.</p>\n"
            f"<table>\n<thead><tr>{head}</tr></thead>\n<tbody>\n{rows}\n</tbody>\n</table>\n"
            "</body></html>\n")


def write(folder: Path, figures_root: Path | None = None) -> Path:
    path = Path(folder) / INDEX
    atomic_write_text(path, render(folder, figures_root))
    return path
