"""Plot helpers: byte-identical files for identical figures, readable tables."""

import hashlib

import matplotlib.pyplot as plt
import pandas as pd

from infosets import plots


def _figure():
    frame = pd.DataFrame({"x": [1, 2, 3] * 2, "y": [0.2, 0.4, 0.5, 0.3, 0.3, 0.6],
                          "lo": [0.1, 0.3, 0.4, 0.2, 0.2, 0.5],
                          "hi": [0.3, 0.5, 0.6, 0.4, 0.4, 0.7], "agent": ["a"] * 3 + ["b"] * 3})
    fig, (left, right) = plt.subplots(1, 2)
    plots.lines_ci(left, frame, "x", "y", "lo", "hi", hue="agent")
    grid = frame.pivot(index="agent", columns="x", values="y")
    plots.heatmap(right, grid, title="grid")
    return fig


def test_same_figure_gives_byte_identical_files(tmp_path):
    digests = []
    for i in range(2):
        paths = plots.save_figure(_figure(), tmp_path / f"run{i}" / "fig", "stamp")
        digests.append([hashlib.sha256(p.read_bytes()).hexdigest() for p in paths])
        plt.close("all")
    assert digests[0] == digests[1]
    assert [p.suffix for p in paths] == [".png", ".svg"]


def test_markdown_table_escapes_and_formats():
    md = plots.markdown_table(pd.DataFrame({"claim": ["a|b"], "value": [0.123456]}))
    assert md.splitlines() == ["| claim | value |", "|---|---|", "| a\\|b | 0.1235 |"]
