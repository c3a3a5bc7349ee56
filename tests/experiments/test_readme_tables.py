"""README.md's paper table and docs/results.md are generated from figures/<slug>/claims.csv
(infosets.experiments.readme_tables) and must agree with the committed claims files."""

import os
import shutil
from pathlib import Path

import pandas as pd
import pytest

from infosets.experiments import readme_tables as rt

ROOT = Path(__file__).resolve().parents[2]


def test_committed_readme_agrees_with_the_claims_files():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert rt.splice(readme, rt.render(ROOT)) == readme, \
        "README.md's claims table is stale: run make readme-tables"


def test_committed_results_page_agrees_with_the_claims_files():
    """docs/results.md holds every claim of every paper at both presets (issue 54)."""
    assert (ROOT / rt.RESULTS).read_text(encoding="utf-8") == rt.render_results(ROOT), \
        "docs/results.md is stale: run make readme-tables"


def test_every_committed_claim_has_a_known_verdict_and_every_paper_is_counted():
    files = rt.claims_files(ROOT)
    assert set(rt.PAPER_ORDER) <= set(files)
    assert list(files)[:5] == list(rt.PAPER_ORDER)
    for path in files.values():
        assert set(rt.read_claims(path)["verdict"]) <= set(rt.VERDICTS)


def test_verdict_vocabulary_and_mapping():
    assert set(rt.VERDICT_MAP.values()) <= set(rt.VERDICTS)
    for verdict in rt.VERDICTS:
        assert rt.normalise_verdict(verdict) == verdict
        assert rt.normalise_verdict(f"  {verdict.upper()} ") == verdict
    assert rt.normalise_verdict("Not supported") == "mismatch"
    assert rt.normalise_verdict("no human games logged yet") == "not run"
    with pytest.raises(ValueError, match=r"^verdict: 'kinda' in x/claims.csv"):
        rt.normalise_verdict("kinda", "x/claims.csv")


def _checkout(tmp_path, claims: dict[str, pd.DataFrame]) -> Path:
    for slug, frame in claims.items():
        (tmp_path / "figures" / slug).mkdir(parents=True)
        frame.to_csv(tmp_path / "figures" / slug / "claims.csv", index=False)
    (tmp_path / "README.md").write_text(f"# t\n\nbefore\n\n{rt.BEGIN}\nold\n{rt.END}\n\nafter\n")
    return tmp_path


def test_old_and_typed_claims_layouts_are_both_read_and_counted(tmp_path):
    old = pd.DataFrame({"claim": ["a", "b|c"], "paper": ["1", "2"], "ours": ["1.0", "3"],
                        "ci95": ["[0.9, 1.1]", ""], "verdict": ["consistent", "lower"]})
    typed = pd.DataFrame({"claim": ["x", "y", "z"], "paper_value": [0.5, 0.7, None],
                          "ours": [0.52, 0.2, None], "ci_low": [0.45, 0.1, None],
                          "ci_high": [0.6, 0.3, None], "n": [200, 50, ""],
                          "test": ["wilson", "wilson", ""],
                          "verdict": ["match", "mismatch", "not run"],
                          "note": ["", "", "paper preset only"]})
    root = _checkout(tmp_path, {"history_filtering": old, "belote_ismcts": typed})
    block = rt.render(root)
    assert "| `belote_ismcts`: Boudier: IS-MCTS for two-player Belote, against bots and humans " \
           "| 1 / 1 / 0 / 1 | not run yet | [claims](docs/results.md#belote_ismcts) |" in block
    assert "| `history_filtering`: Solinas" in block and "| 1 / 1 / 0 / 0 | not run yet |" in block
    assert block.index("belote_ismcts") < block.index("history_filtering")  # paper order
    page = rt.render_results(root)
    assert "| [belote_ismcts](#belote_ismcts) | default | 3 | 1 | 1 | 0 | 1 |  |" in page
    assert "| [history_filtering](#history_filtering) | default | 2 | 1 | 1 | 0 | 0 |" in page
    assert "| match | x | 0.5 | 0.52 | [0.45, 0.6] (n=200) | wilson |  |" in page
    assert "| not run | z |  |  |  |  | paper preset only |" in page
    assert "b\\|c" in page  # a pipe inside a cell does not break the table


def test_update_rewrites_only_the_block_keeps_the_mode_and_is_idempotent(tmp_path):
    frame = pd.DataFrame({"claim": ["a"], "paper": ["1"], "ours": ["1"], "ci95": [""],
                          "verdict": ["match"]})
    root = _checkout(tmp_path, {"quickstart": frame})
    os.chmod(root / "README.md", 0o644)
    assert rt.main(["--root", str(root), "--check"]) == 1
    assert rt.update(root) is False
    text = (root / "README.md").read_text()
    assert text.startswith("# t\n\nbefore\n\n") and text.endswith("\n\nafter\n")
    assert "old" not in text and "| 1 / 0 / 0 / 0 |  | [claims](docs/results.md#quickstart) |" \
        in text
    assert (root / "README.md").stat().st_mode & 0o777 == 0o644
    assert "| match | a | 1 | 1 |  |  |  |" in (root / "docs" / "results.md").read_text()
    assert rt.update(root) is True
    assert rt.main(["--root", str(root), "--check"]) == 0
    frame.loc[0, "verdict"] = "not supported"  # a claims file changes: the README is stale
    frame.to_csv(root / "figures" / "quickstart" / "claims.csv", index=False)
    assert rt.main(["--root", str(root), "--check"]) == 1
    assert rt.update(root) is False and rt.update(root) is True
    (root / "docs" / "results.md").write_text("edited by hand\n")  # the page alone is stale
    assert rt.main(["--root", str(root), "--check"]) == 1


def test_unknown_verdict_or_missing_markers_is_one_line(tmp_path, capsys):
    frame = pd.DataFrame({"claim": ["a"], "verdict": ["sort of"]})
    root = _checkout(tmp_path, {"quickstart": frame})
    assert rt.main(["--root", str(root)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: verdict: 'sort of'") and "\n" not in err
    shutil.rmtree(root / "figures")
    (root / "README.md").write_text("no markers\n")
    with pytest.raises(ValueError, match="README.md: needs exactly one"):
        rt.update(root)


def test_both_presets_are_counted_with_the_compute_their_results_cost(tmp_path):
    """The README shows verdict counts at the default and paper presets, and the CPU-hours
    and tasks of the committed results (issue 14)."""
    frame = pd.DataFrame({"claim": ["a", "b"], "paper": ["1", "2"], "ours": ["1", "5"],
                          "ci95": ["", ""], "verdict": ["match", "mismatch"]})
    root = _checkout(tmp_path, {"belote_ismcts": frame})
    (root / "figures" / "belote_ismcts" / "paper").mkdir()
    frame.assign(verdict=["match", "match"]).to_csv(
        root / "figures" / "belote_ismcts" / "paper" / "claims.csv", index=False)
    results = root / "results" / "belote_ismcts" / "paper"
    results.mkdir(parents=True)
    (results / "PROVENANCE.json").write_text(
        '{"cpu_seconds": 5400, "tables": {"a": {"tasks_done": 3, "tasks_total": 4},'
        ' "b": {"tasks_done": 2, "tasks_total": 2}}}')
    page = rt.render_results(root)
    assert "| [belote_ismcts](#belote_ismcts) | default | 2 | 1 | 1 | 0 | 0 |  |" in page
    assert ("| [belote_ismcts](#belote_ismcts) | paper | 2 | 2 | 0 | 0 | 0 | 1.50 (5/6 tasks) | "
            "[claims.md](../figures/belote_ismcts/paper/claims.md) |") in page
    assert "### belote_ismcts at the paper preset" in page
    assert "| 1 / 1 / 0 / 0 | 2 / 0 / 0 / 0 | [claims](docs/results.md#belote_ismcts) |" \
        in rt.render(root)
    # the executed report is linked once it exists, from both pages
    (root / "reports").mkdir()
    (root / "reports" / "belote_ismcts.paper.html").write_text("<html></html>")
    assert ("[claims.md](../figures/belote_ismcts/paper/claims.md) · "
            "[report](../reports/belote_ismcts.paper.html) |") in rt.render_results(root)
    assert "· reports: [paper](reports/belote_ismcts.paper.html) |" in rt.render(root)


def test_the_results_page_writes_every_cell_in_full(tmp_path):
    """No cell is cut: a 900-character note and a long claim appear whole (issue 54)."""
    note = "word " * 180
    frame = pd.DataFrame({"claim": ["a claim " * 20], "paper": ["1"], "ours": ["2"],
                          "ci95": [""], "test": ["paired t"], "verdict": ["mismatch"],
                          "note": [note]})
    root = _checkout(tmp_path, {"pimcts_aggregation": frame})
    page = rt.render_results(root)
    assert f"| mismatch | {' '.join(['a claim'] * 20)} | 1 | 2 |  | paired t | {note.strip()} |" \
        in page
    assert "…" not in page and "<details>" not in page


def test_a_claims_file_with_both_paper_columns_shows_the_papers_statement(tmp_path):
    # claims.py writes the paper's statement ("paper") and, for a size claim, its number
    # alone ("paper_value", empty otherwise): the tables show the statement
    path = tmp_path / "claims.csv"
    pd.DataFrame({"claim": ["TSSR largest over λ", "drop in win rate"],
                  "paper": ["up to 10x", "drop 16.6 points"], "paper_value": ["", "0.166"],
                  "ours": ["3.72", "0.022"], "verdict": ["mismatch", "mismatch"]}).to_csv(path, index=False)
    assert rt.read_claims(path)["paper"].tolist() == ["up to 10x", "drop 16.6 points"]


def test_a_further_committed_preset_gets_a_column_its_rows_and_its_report(tmp_path):
    """pimcts_aggregation's ``tag`` run (TAG's own agents, issue 56) is committed beside the
    default and paper presets: the README counts it in a column of its own (absent while no
    paper has such a run), docs/results.md lists its claims after the paper preset's."""
    frame = pd.DataFrame({"claim": ["a", "b"], "paper": ["1", "2"], "ours": ["1", "5"],
                          "ci95": ["", ""], "verdict": ["match", "mismatch"]})
    root = _checkout(tmp_path, {"pimcts_aggregation": frame, "belote_ismcts": frame})
    assert rt.presets(root) == rt.PRESETS and "further presets" not in rt.render(root)
    for preset, verdicts in (("paper", ["match", "match"]), ("tag", ["inconclusive", "match"])):
        (root / "figures" / "pimcts_aggregation" / preset).mkdir()
        frame.assign(verdict=verdicts).to_csv(
            root / "figures" / "pimcts_aggregation" / preset / "claims.csv", index=False)
    (root / "reports").mkdir()
    (root / "reports" / "pimcts_aggregation.tag.html").write_text("<html></html>")
    assert rt.presets(root) == ("default", "paper", "tag")
    block = rt.render(root)
    assert "| default preset: match / mismatch / inconclusive / not run | paper preset | " \
           "further presets | read |\n|---|---|---|---|---|" in block
    assert ("| 1 / 1 / 0 / 0 | 2 / 0 / 0 / 0 | `tag` (TAG's own agents): 1 / 0 / 1 / 0 | "
            "[claims](docs/results.md#pimcts_aggregation) · reports: "
            "[tag](reports/pimcts_aggregation.tag.html) |") in block
    assert "| 1 / 1 / 0 / 0 | not run yet |  | [claims](docs/results.md#belote_ismcts) |" in block
    page = rt.render_results(root)
    assert "| [pimcts_aggregation](#pimcts_aggregation) | tag | 2 | 1 | 0 | 1 | 0 |" in page
    paper_at, tag_at = (page.index(f"### pimcts_aggregation at the {p} preset")
                        for p in ("paper", "tag"))
    assert paper_at < tag_at
