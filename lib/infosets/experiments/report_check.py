"""What a reader must never meet in a report page: a cut table cell or a table wider than the page.

Two views, one vocabulary of problems (``"<page>: table <k> (under '<heading>'; columns
...) ..."``):

* ``cut_cells`` reads the HTML (no browser): a table cell whose text ends with "…" or "..."
  after some text was cut (pandas' ``display.max_colwidth``); a cell that is only "..." is
  pandas' marker of left-out rows or columns of a long table, not a cut cell.
* ``PROBE`` is a script that ``probed`` adds to a copy of the page; in headless Chromium
  (``reports.layout_check``) it measures every visible table after layout and writes the
  measurements as JSON into the page, which ``--dump-dom`` prints. ``layout_problems`` reads
  them: a table wider than the space it has (the viewport or the nearest box that scrolls or
  clips it) is too wide; a cell that ends with an ellipsis, or whose text overflows a box
  that hides it, is cut.
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser

ELLIPSIS = ("…", "...")
PROBE_ID = "infosets-layout-probe"
# Runs after the load event: one record per visible table, in document order.
PROBE = """
<script>
window.addEventListener('load', function () {
  var out = [], heading = '', k = 0;
  var vw = document.documentElement.clientWidth;
  document.querySelectorAll('h1, h2, h3, h4, table').forEach(function (el) {
    if (el.tagName !== 'TABLE') { heading = el.textContent.replace('¶', '').trim(); return; }
    k += 1;
    var box = el.getBoundingClientRect();
    if (box.width === 0) { return; }
    var room = vw;
    for (var a = el.parentElement; a; a = a.parentElement) {
      if (getComputedStyle(a).overflowX !== 'visible') { room = Math.min(room, a.clientWidth); }
    }
    var cut = [];
    el.querySelectorAll('td, th').forEach(function (c) {
      var text = c.textContent.trim();
      var hidden = getComputedStyle(c).overflowX !== 'visible' && c.scrollWidth > c.clientWidth + 1;
      if (hidden || (text.length > 3 && /(\\u2026|\\.\\.\\.)$/.test(text))) { cut.push(text); }
    });
    var columns = [];
    el.querySelectorAll('thead th').forEach(function (c) {
      if (c.textContent.trim()) { columns.push(c.textContent.trim()); }
    });
    out.push({table: k, heading: heading, columns: columns.slice(0, 4), width: box.width,
              right: box.right, top: box.top + window.scrollY, room: room, viewport: vw,
              cut: cut});
  });
  var pre = document.createElement('pre');
  pre.id = '""" + PROBE_ID + """';
  pre.textContent = JSON.stringify({page_height: document.documentElement.scrollHeight,
                                     tables: out});
  document.body.appendChild(pre);
});
</script>
"""
PROBE_OUTPUT = re.compile(r'<pre id="' + PROBE_ID + r'">(.*?)</pre>', re.S)


def is_cut(text: str) -> bool:
    """A cell's text was cut: it ends with an ellipsis after some text."""
    text = text.strip()
    return text.endswith(ELLIPSIS) and text not in ELLIPSIS


def table_name(table: int, heading: str, columns: list[str]) -> str:
    where = f"under '{heading}'" if heading else "before any heading"
    cols = f"; columns {', '.join(columns)}" if columns else ""
    return f"table {table} ({where}{cols})"


class _Tables(HTMLParser):
    """Collects, per table in document order, the nearest heading, the header texts and
    every cell's text."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tables: list[dict] = []
        self._heading: str | None = None
        self._last_heading = ""
        self._cell: list[str] | None = None
        self._in_head = False
        self._open: list[dict] = []

    def handle_starttag(self, tag, attrs):
        if tag in ("h1", "h2", "h3", "h4"):
            self._heading = ""
        elif tag == "table":
            record = {"heading": self._last_heading, "columns": [], "cells": []}
            self.tables.append(record)
            self._open.append(record)
        elif tag == "thead":
            self._in_head = True
        elif tag in ("td", "th") and self._open:
            self._cell = []

    def handle_endtag(self, tag):
        if tag in ("h1", "h2", "h3", "h4") and self._heading is not None:
            self._last_heading = self._heading.replace("¶", "").strip()
            self._heading = None
        elif tag == "table" and self._open:
            self._open.pop()
        elif tag == "thead":
            self._in_head = False
        elif tag in ("td", "th") and self._cell is not None and self._open:
            text = "".join(self._cell).strip()
            self._open[-1]["cells"].append(text)
            if self._in_head and tag == "th" and text:
                self._open[-1]["columns"].append(text)
            self._cell = None

    def handle_data(self, data):
        if self._heading is not None:
            self._heading += data
        if self._cell is not None:
            self._cell.append(data)


def cut_cells(page: str, name: str = "page") -> list[str]:
    """One problem per table of ``page`` (HTML) that has cut cells, naming the table."""
    parser = _Tables()
    parser.feed(page)
    found = []
    for k, table in enumerate(parser.tables, 1):
        cut = [c for c in table["cells"] if is_cut(c)]
        if cut:
            found.append(f"{name}: {table_name(k, table['heading'], table['columns'][:4])} "
                         f"cuts {len(cut)} cell(s), e.g. {cut[0]!r}")
    return found


def probed(page: str) -> str:
    """``page`` with ``PROBE`` before its closing body tag."""
    end = page.rfind("</body>")
    return page + PROBE if end < 0 else page[:end] + PROBE + page[end:]


def measurements(dom: str) -> dict | None:
    """The probe's record from a dumped DOM (``page_height`` and one record per visible
    table under ``tables``); None when the probe wrote nothing."""
    import html

    match = PROBE_OUTPUT.search(dom)
    return None if match is None else json.loads(html.unescape(match.group(1)))


def layout_problems(name: str, records: list[dict], slack: float = 1.0) -> list[str]:
    """Problems in the probe's ``records`` of page ``name``: tables wider than their room
    (or reaching past the viewport), and tables with cut cells."""
    found = []
    for r in records:
        label = f"{name}: {table_name(r['table'], r.get('heading', ''), r.get('columns', []))}"
        room = min(r["room"], r["viewport"])
        if r["width"] > room + slack or r["right"] > r["viewport"] + slack:
            found.append(f"{label} is {r['width']:.0f} px wide, wider than the page "
                         f"({room:.0f} px)")
        if r["cut"]:
            found.append(f"{label} cuts {len(r['cut'])} cell(s), e.g. {r['cut'][0]!r}")
    return found
