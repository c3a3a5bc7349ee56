"""The page layout of a report: what a reader came for first, the run's settings last (issue 54).

An executed notebook runs in the order its computation needs: introduction, configuration,
settings tables, then figures and claims. ``page_notebook`` re-lays it out for the HTML page,
from cell tags set in ``notebooks/*.ipynb`` (papermill keeps them):

1. the title (the first line of the first cell) and the summary box (``report_summary``);
2. the introduction (cells tagged ``intro``, the title line removed), folded;
3. every untagged cell in notebook order: the figures and analysis tables, then the claims
   (the code cell tagged ``claims`` shows the run's claims file in full, every cell wrapped)
   and the reconstruction notes;
4. "Settings and configuration": the cells tagged ``settings`` (the printed configuration,
   settings and cost tables).

Cells tagged ``explore`` (widgets, which a static page cannot run) are left out, with a line
saying where they run. ``PAGE_CSS`` makes every table fit the page (cells wrap anywhere) and
long printed lines wrap. ``restore_cut_cells`` gives back the whole text of table cells that
pandas cut at 50 characters with "..." in notebooks executed before the notebooks showed
cells in full (``notebook_session.show_table_cells_in_full``), from the run's own CSV tables.
The ``.ipynb`` report keeps the notebook's own order; only the page is re-laid out.
"""

from __future__ import annotations

import copy
import html
import re
from pathlib import Path

import nbformat
import pandas as pd

from infosets.experiments import report_summary

TAGS = ("intro", "settings", "claims", "explore")
# pandas cuts a cell at display.max_colwidth (50 by default) to 47 characters and "...".
PANDAS_CUT = 47
CELL = re.compile(r"(<t[dh][^>]*>)([^<]*)(</t[dh]>)")
# Where a long word of a table cell may break (after these), so that wide tables fit the page.
# A table with more columns than this gets a smaller font (``mark_wide``).
WIDE_COLUMNS = 12
BREAK_AFTER = re.compile(r"([_/,=:;])(?=\S)")
BREAK_BEFORE = re.compile(r"(?<=\w)([(\[])")

PAGE_CSS = """
<style id="report-layout">
.jp-RenderedHTMLCommon table { table-layout: auto; max-width: 100%; font-size: 0.85em; }
.jp-RenderedHTMLCommon td, .jp-RenderedHTMLCommon th {
  white-space: normal; overflow-wrap: break-word; word-break: normal; max-width: none;
  padding: 0.3em 0.4em; }
.jp-RenderedHTMLCommon table.wide-table { font-size: 0.72em; }
.jp-RenderedHTMLCommon table.wide-table td, .jp-RenderedHTMLCommon table.wide-table th {
  padding: 0.25em 0.25em; }
.jp-RenderedHTMLCommon table.claims-table td, .jp-RenderedHTMLCommon table.claims-table th {
  text-align: left; vertical-align: top; }
.claims-table .col-claim, .claims-table .col-test, .claims-table .col-note { min-width: 11em; }
.claims-table .col-paper { min-width: 6em; }
.jp-OutputArea-output pre { white-space: pre-wrap; overflow-wrap: anywhere; }
.report-summary { border: 2px solid #4a6fa5; border-radius: 6px; background: #f3f6fb;
  padding: 0.6em 1.2em; margin: 0.5em 0 1.2em 0; font-size: 1.05em; text-align: left; }
.report-summary li { margin-bottom: 0.4em; }
.verdict { padding: 0.1em 0.5em; border-radius: 4px; margin-right: 0.3em; }
.verdict-match { background: #e3f3e3; }
.verdict-mismatch { background: #fbe3e3; }
.verdict-inconclusive { background: #fbf3d9; }
.verdict-not-run { background: #eeeeee; }
details.report-intro { margin-bottom: 1em; }
</style>
"""


def tags(cell) -> set[str]:
    return set(cell.get("metadata", {}).get("tags", []))


def _markdown(source: str):
    return nbformat.v4.new_markdown_cell(source)


def _html_cell(text: str):
    cell = nbformat.v4.new_code_cell("")
    cell.outputs = [nbformat.v4.new_output("display_data", data={"text/html": text})]
    return cell


def _title_and_intro(cells: list) -> tuple[str, list]:
    """The first cell's heading line, and the intro cells with that line removed."""
    title, intro = "", []
    for i, cell in enumerate(cells):
        if "intro" not in tags(cell):
            continue
        text = cell.source
        if i == 0 and cell.cell_type == "markdown" and text.startswith("# "):
            title, _, text = text.partition("\n")
        if text.strip():
            intro.append(_markdown(text.strip()))
    if not title and cells and cells[0].cell_type == "markdown" \
            and cells[0].source.startswith("# "):
        title = cells[0].source.partition("\n")[0]
    return title, intro


def _fold(cells: list, summary: str) -> list:
    """Markdown cells rendered inside one closed ``<details>`` element (an output, so that
    the markdown renderer does not close the element before its content)."""
    if not cells:
        return []
    from nbconvert.filters.markdown import markdown2html_mistune

    text = markdown2html_mistune("\n\n".join(c.source for c in cells))
    return [_html_cell(f'<details class="report-intro"><summary>{summary}</summary>\n'
                       f'<div class="jp-RenderedMarkdown">{text}</div></details>')]


def page_notebook(nb: nbformat.NotebookNode, slug: str, preset: str,
                  folder: Path) -> nbformat.NotebookNode:
    """The page's notebook: ``nb`` (cleaned) re-laid out as the module docstring says, with
    the summary box and claims table read from ``folder`` (the run's figures folder)."""
    nb = copy.deepcopy(nb)
    source = Path(folder) / "claims.csv"
    claims = report_summary.load_claims(source)
    for cell in nb.cells:
        if cell.cell_type == "code":
            for out in cell.outputs:
                if "text/html" in out.get("data", {}):
                    out.data["text/html"] = mark_wide(breakable(
                        restore_cut_cells(out.data["text/html"], folder)))
    title, intro = _title_and_intro(nb.cells)
    shown = _display_path(source)
    page = [_markdown(title)] if title else []
    page.append(_html_cell(report_summary.summary_html(slug, preset, claims, shown)))
    page += _fold(intro, "About this notebook: what it reproduces, its outputs, its run time")
    body, settings, explore = [], [], False
    for i, cell in enumerate(nb.cells):
        cell_tags = tags(cell)
        if "intro" in cell_tags or (i == 0 and title and not intro and not cell_tags):
            continue
        if "explore" in cell_tags:
            explore = True
        elif "settings" in cell_tags:
            settings.append(cell)
        elif "claims" in cell_tags and cell.cell_type == "code" and claims is not None:
            table = breakable(report_summary.claims_table_html(claims))
            cell.outputs = [nbformat.v4.new_output("display_data", data={"text/html": table})]
            body.append(cell)
        else:
            body.append(cell)
    if settings:
        body.append(_markdown("## Settings and configuration\n\nThe run's configuration as "
                              "the notebook printed it, and the tables of its settings."))
        body += settings
    if explore:
        body.append(_markdown(f"*The interactive explorers run in JupyterLab: open "
                              f"`notebooks/{slug}.ipynb`.*"))
    nb.cells = page + body
    for index, cell in enumerate(nb.cells):  # new cells get random ids: the page must not
        cell.id = f"page-{index}"
    return nb


def _display_path(path: Path) -> str:
    from infosets.experiments.config import repo_root

    try:
        return str(Path(path).resolve().relative_to(repo_root().resolve()))
    except ValueError:
        return str(path)


def breakable(table_html: str) -> str:
    """``table_html`` with a line-break opportunity (``<wbr>``) after the underscores,
    slashes, commas, equals signs, colons and semicolons inside its cells' words, and before
    an opening bracket that follows a word, so that a table of long names wraps to the page
    instead of widening it."""
    def wrap(text: str) -> str:
        return BREAK_BEFORE.sub(r"<wbr>\1", BREAK_AFTER.sub(r"\1<wbr>", text))

    return CELL.sub(lambda m: m.group(1) + wrap(m.group(2)) + m.group(3), table_html)


def mark_wide(table_html: str) -> str:
    """``table_html`` with class ``wide-table`` (a smaller font) on each table of more than
    ``WIDE_COLUMNS`` header cells in its first row, so that it fits the page."""
    def mark(match: re.Match) -> str:
        head = match.group(0)
        first_row = head[:head.find("</tr>")] if "</tr>" in head else head
        if first_row.count("<th") <= WIDE_COLUMNS:
            return head
        return head.replace('class="dataframe', 'class="dataframe wide-table', 1)

    return re.sub(r'<table[^>]*class="dataframe[^"]*"[^>]*>.*?</tr>', mark, table_html,
                  flags=re.S)


def add_style(page: str) -> str:
    """``page`` (an nbconvert HTML page) with ``PAGE_CSS`` at the end of its head."""
    head = page.rfind("</head>")
    if head < 0:
        raise ValueError("page: no </head> to put the report's style in")
    return page[:head] + PAGE_CSS + page[head:]


def _long_texts(folder: Path) -> set[str]:
    """The texts longer than ``PANDAS_CUT`` characters in the CSV tables of ``folder``."""
    found: set[str] = set()
    for path in sorted(Path(folder).glob("*.csv")) if Path(folder).is_dir() else []:
        frame = pd.read_csv(path, dtype=str, keep_default_na=False)
        found.update(v for v in pd.unique(frame.to_numpy().ravel()) if len(v) > PANDAS_CUT)
    return found


def restore_cut_cells(table_html: str, folder: Path) -> str:
    """``table_html`` with every cell pandas cut (at most 50 characters ending with "...")
    given its whole text, when exactly one text of the run's CSV tables in ``folder`` starts
    with what is left."""
    if "...</t" not in table_html:
        return table_html
    texts = _long_texts(folder)

    def whole(match: re.Match) -> str:
        text = html.unescape(match.group(2))
        if not PANDAS_CUT - 10 < len(text) <= PANDAS_CUT + 3 or not text.endswith("..."):
            return match.group(0)
        hits = {t for t in texts if t.startswith(text[:-3])}
        if len(hits) != 1:
            return match.group(0)
        return match.group(1) + html.escape(hits.pop(), quote=False) + match.group(3)

    return CELL.sub(whole, table_html)
