"""Report pages (issue 54): the summary box, the layout, whole table cells, the index and the
checks that fail on a cut cell or a table wider than the page
(lib/infosets/experiments/report_summary.py, report_layout.py, report_index.py,
report_check.py)."""

from __future__ import annotations

import shutil

import nbformat
import pandas as pd
import pytest

from infosets.experiments import report_check, report_index, report_layout, report_summary, reports

CLAIMS = pd.DataFrame({
    "claim": ["stratego, B=4000: PI-MCTS beats OL-MCTS by 5% (10% at 10000 iterations)",
              "hearts, B=4000: IS-MCTS matches or beats the best PI-MCTS",
              "B=4000: the aggregation matters little (no consistent advantage across games)",
              "control: OL-MCTS focus vs OL-MCTS wins 1/players"],
    "paper": ["+0.05 over OL-MCTS", "in every game (Fig. 1)", "no aggregation better",
              "by construction"],
    "ours": ["-0.085", "0.029", "-0.074", "16/16 cells"],
    "ci95": ["[-0.145, -0.025]", "[-0.092, 0.149]", "[-0.102, -0.046]", ""],
    "n": ["300", "152", "13", "48"],
    "test": ["one-sided paired t", "non-inferiority", "sign test", "Wilson"],
    "verdict": ["mismatch", "inconclusive", "mismatch", "match"],
    "note": ["B=4000 (the paper's 4000); " + "x" * 80, "", "", ""],
})


@pytest.fixture
def run_folder(tmp_path):
    folder = tmp_path / "figures" / "pimcts_aggregation" / "paper"
    folder.mkdir(parents=True)
    CLAIMS.to_csv(folder / "claims.csv", index=False)
    return folder


def test_the_summary_counts_verdicts_and_states_the_headlines_from_the_claims_file(run_folder):
    claims = report_summary.load_claims(run_folder / "claims.csv")
    assert report_summary.verdict_counts(claims) == {
        "match": 1, "mismatch": 2, "inconclusive": 1, "not run": 0}
    box = report_summary.summary_html("pimcts_aggregation", "paper", claims, "claims.csv")
    assert "Ravichandran" in box and "Evaluation of Perfect-Information" in box
    assert "mismatch <b>2</b>" in box
    # one headline pattern (poker_tag) matches nothing: its place goes to the next claim
    assert report_summary.missing_headlines("pimcts_aggregation", claims) == [
        r"^poker_tag\(players=3\), B=\d+: PI-MCTS consistently exceeds the baseline"]
    rows = report_summary.headline_rows("pimcts_aggregation", claims)
    assert [r["claim"][:8] for r in rows] == ["stratego", "B=4000: ", "hearts, "]
    sentence = report_summary.finding_sentence(rows[0])
    assert sentence == ("stratego, B=4000: PI-MCTS beats OL-MCTS by 5% (10% at 10000 "
                        "iterations): the paper says +0.05 over OL-MCTS; ours -0.085 "
                        "[-0.145, -0.025] (n=300); verdict mismatch.")


def test_the_claims_table_shows_every_cell_in_full_with_the_verdict_first(run_folder):
    table = report_summary.claims_table_html(report_summary.load_claims(run_folder / "claims.csv"))
    assert CLAIMS["note"][0] in table                      # 108 characters, not cut
    assert table.index("col-verdict") < table.index("col-claim")
    assert 'class="col-verdict verdict-mismatch"' in table
    assert report_check.cut_cells(table) == []


def test_cut_cells_names_the_table_and_leaves_pandas_row_markers_alone():
    page = """<h2>Games and settings¶</h2>
    <table class="dataframe"><thead><tr><th></th><th>game</th><th>note</th></tr></thead>
    <tbody><tr><th>0</th><td>hearts</td><td>budget 40 ms (ours: iterations); MAST statisti...</td></tr>
    <tr><th>...</th><td>...</td><td>…</td></tr></tbody></table>
    <h2>Claims</h2><table><tr><td>whole</td></tr></table>"""
    assert report_check.cut_cells(page, "x.html") == [
        "x.html: table 1 (under 'Games and settings'; columns game, note) cuts 1 cell(s), "
        "e.g. 'budget 40 ms (ours: iterations); MAST statisti...'"]
    assert report_check.is_cut("the b…") and not report_check.is_cut("...")


def test_layout_problems_name_a_table_wider_than_the_page_and_a_clipped_cell():
    records = [
        {"table": 1, "heading": "The tournament", "columns": ["game", "budget"], "width": 1448.0,
         "right": 1470.0, "room": 1234.0, "viewport": 1280, "cut": []},
        {"table": 2, "heading": "Claims", "columns": ["claim"], "width": 900.0, "right": 930.0,
         "room": 1234.0, "viewport": 1280, "cut": ["hearts, B=4000: IS-MCTS matches or beats the b…"]},
        {"table": 3, "heading": "Fine", "columns": [], "width": 1234.0, "right": 1250.0,
         "room": 1234.0, "viewport": 1280, "cut": []},
    ]
    assert report_check.layout_problems("p.html", records) == [
        "p.html: table 1 (under 'The tournament'; columns game, budget) is 1448 px wide, "
        "wider than the page (1234 px)",
        "p.html: table 2 (under 'Claims'; columns claim) cuts 1 cell(s), "
        "e.g. 'hearts, B=4000: IS-MCTS matches or beats the b…'"]


def test_the_probe_goes_before_the_closing_body_and_its_output_is_read_back():
    page = report_check.probed("<html><body><p>x</p></body></html>")
    assert page.index(report_check.PROBE_ID) < page.index("</body>")
    dom = f'<pre id="{report_check.PROBE_ID}">{{"page_height": 10, "tables": []}}</pre>'
    assert report_check.measurements(dom) == {"page_height": 10, "tables": []}
    assert report_check.measurements("<html></html>") is None


def test_restore_cut_cells_gives_back_the_whole_text_from_the_runs_csv(tmp_path):
    whole = "budget 40 ms (ours: iterations); MAST statistics collected but unused"
    pd.DataFrame({"game": ["a", "b"], "tag_not_modelled": [whole, "short"]}).to_csv(
        tmp_path / "mcts_settings.csv", index=False)
    pd.DataFrame({"x": ["same start, one ending", "same start, another ending" + "." * 40]}
                 ).to_csv(tmp_path / "other.csv", index=False)
    with pd.option_context("display.max_colwidth", 50):  # pandas' default in a notebook
        cut = pd.DataFrame({"tag_not_modelled": [whole]})._repr_html_()
    assert "MAST statisti...</td>" in cut
    assert whole in report_layout.restore_cut_cells(cut, tmp_path)
    assert report_layout.restore_cut_cells(cut, tmp_path / "missing") == cut
    ambiguous = "<td>same start, another ending.......................</td>"
    assert report_layout.restore_cut_cells(
        ambiguous.replace(".......................</td>", "...</td>"), tmp_path).count("...") == 1


def test_long_words_in_cells_may_break_and_wide_tables_get_a_smaller_font():
    assert report_layout.breakable("<td>kuhn_poker(players=3)</td>") == \
        "<td>kuhn_<wbr>poker<wbr>(players=<wbr>3)</td>"
    narrow = pd.DataFrame({"a": [1]}).to_html()
    wide = pd.DataFrame({f"c{i}": [i] for i in range(report_layout.WIDE_COLUMNS + 1)}).to_html()
    assert "wide-table" not in report_layout.mark_wide(narrow)
    assert report_layout.mark_wide(wide).count("wide-table") == 1


def _tagged(source, kind="markdown", tag=None, outputs=()):
    cell = (nbformat.v4.new_markdown_cell(source) if kind == "markdown"
            else nbformat.v4.new_code_cell(source))
    if tag:
        cell.metadata["tags"] = [tag]
    if kind == "code":
        cell.outputs = list(outputs)
    return cell


def test_the_page_opens_with_the_summary_and_ends_with_the_settings(run_folder):
    text = nbformat.v4.new_output("stream", name="stdout", text="preset = paper\n")
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        _tagged("# PI-MCTS aggregation\n\nReproduces a paper.", tag="intro"),
        _tagged("session = nb.start(...)", "code", "settings", [text]),
        _tagged("## Games and settings", tag="settings"),
        _tagged("## Figures"),
        _tagged("analysis.plot(results)", "code"),
        _tagged("## Claims"),
        _tagged("analysis.claims(results)", "code", "claims", [text]),
        _tagged("## Explore", tag="explore"),
    ]
    page = report_layout.page_notebook(nb, "pimcts_aggregation", "paper", run_folder)
    sources = [c.outputs[0].data["text/html"] if c.cell_type == "code" and c.outputs
               and "data" in c.outputs[0] else c.source for c in page.cells]
    assert sources[0] == "# PI-MCTS aggregation"
    assert sources[1].startswith('<div id="report-summary"')
    assert sources[2].startswith('<details class="report-intro">')
    assert sources[3:6] == ["## Figures", "analysis.plot(results)", "## Claims"]
    assert sources[6].startswith('<table class="dataframe claims-table">')
    assert sources[7].startswith("## Settings and configuration")
    assert sources[8:10] == ["session = nb.start(...)", "## Games and settings"]
    assert "JupyterLab" in sources[-1] and "## Explore" not in sources
    again = reports.page_html(nb, "pimcts_aggregation", "paper", run_folder)
    assert again == reports.page_html(nb, "pimcts_aggregation", "paper", run_folder)


def test_the_index_links_every_report_with_its_counts(tmp_path, run_folder):
    out = tmp_path / "reports"
    out.mkdir()
    for name in ("pimcts_aggregation.paper.html", "quickstart.default.html", "index.html"):
        (out / name).write_text("<html></html>")
    assert report_index.pages(out) == [("pimcts_aggregation", "paper"),
                                       ("quickstart", "default")]
    page = report_index.render(out, tmp_path / "figures")
    assert 'href="pimcts_aggregation.paper.html"' in page
    assert 'href="quickstart.default.html"' in page and "no claims file" in page
    row = page[page.index('href="pimcts_aggregation.paper.html"'):].split("</tr>")[0]
    assert [c.split(">")[-1] for c in row.split("</td>")[3:8]] == ["4", "1", "2", "1", "0"]


def test_the_committed_reports_open_with_their_summary_and_cut_no_cell():
    """The committed pages as a reader opens them (``make reports-check``'s first half,
    without a browser): each opens with its summary box, no table cell is cut, the index
    links every page, and every headline pattern matches a claim of its run."""
    folder = reports.reports_dir()
    pages = sorted(p for p in folder.glob("*.html") if p.name != report_index.INDEX)
    assert pages
    found = [line for p in pages for line in reports.page_problems(p)]
    found += [line for p in sorted(folder.glob("*.ipynb")) for line in reports.headline_problems(p)]
    assert found == []


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
BAD_PAGE = """<html><head><style>td.clip { max-width: 60px; overflow: hidden;
 white-space: nowrap; text-overflow: ellipsis; }</style></head><body>
<h2>Wide</h2><div style="width: 400px; overflow-x: auto"><table><tr>
<td>aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa</td>
</tr></table></div>
<h2>Cut</h2><table><tr><td class="clip">a cell whose text the CSS hides</td></tr></table>
<h2>Fine</h2><table><tr><td>short</td></tr></table></body></html>"""


@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed")
def test_the_browser_check_fails_on_a_wide_table_and_a_clipped_cell(tmp_path):
    page = tmp_path / "bad.html"
    page.write_text(BAD_PAGE)
    found = reports.layout_check(page)
    assert len(found) == 2, found
    assert found[0].startswith("bad.html: table 1 (under 'Wide') is ")
    assert found[0].endswith("wider than the page (400 px)")
    assert found[1] == ("bad.html: table 2 (under 'Cut') cuts 1 cell(s), "
                        "e.g. 'a cell whose text the CSS hides'")


def test_notebooks_show_table_cells_in_full():
    """pandas cuts a notebook table's cells at 50 characters with "..." (the claims tables of
    every report were cut); ``nb.snapshot``, the notebooks' first call, turns that off."""
    from infosets.experiments import notebook_session

    text = "hearts, B=4000: IS-MCTS matches or beats the best PI-MCTS"
    with pd.option_context("display.max_colwidth", 50):
        notebook_session.snapshot({})
        assert text in pd.DataFrame({"claim": [text]})._repr_html_()
