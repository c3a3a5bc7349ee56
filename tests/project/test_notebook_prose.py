"""Notebooks a reader can follow: a markdown paragraph above every figure cell (what the paper
shows, what we computed, how to read it), and every notebook ends with its explorer
(``infosets.explore``), a call on tables already computed."""

import json
import re
from pathlib import Path

from infosets.experiments.reports import FIGURE_CALL

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


def _cells(path):
    return [(c["cell_type"], "".join(c["source"])) for c in json.loads(path.read_text())["cells"]]


def test_every_figure_cell_has_a_paragraph_above_it():
    assert NOTEBOOKS
    for path in NOTEBOOKS:
        cells = _cells(path)
        for i, (kind, source) in enumerate(cells):
            if kind == "code" and FIGURE_CALL.search(source):
                above_kind, above = cells[i - 1]
                words = len(re.findall(r"\w+", above))
                assert above_kind == "markdown" and words >= 25, \
                    f"{path.name}: figure cell {i} ({source.splitlines()[0]}) has no paragraph above it"


def test_every_notebook_ends_with_its_explorer():
    for path in NOTEBOOKS:
        (kind, source), (md_kind, _) = _cells(path)[-1], _cells(path)[-2]
        assert kind == "code" and md_kind == "markdown", path.name
        assert f"from infosets.explore import explore_{path.stem}" in source, path.name
        call = source.strip().splitlines()[-1]
        assert re.fullmatch(rf"explore_{path.stem}\(.*\)", call), path.name
