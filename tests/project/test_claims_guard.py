"""Guard over every committed claims table (figures/<slug>/[paper/]claims.csv, issue 53): a
verdict must say what its data show.

1. No row reads match or inconclusive when its 95% interval excludes the paper's stated value
   and its power at that value is at least 0.8 (that is a mismatch of size,
   ``claims.by_size``). The stated value is the ``paper_value`` column, or, in a table written
   before that column, the number of a "drop X points" or "+X over" paper text.
2. No row reads match from a cell whose win rates (``rates``) are within 5 points of 0 or 1
   unless its note says so (``claims.FLOOR_NOTE``).
3. A row with both a direction and a size verdict has ``verdict`` = ``claims.overall`` of them.
"""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import pytest

from infosets import claims

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted([*ROOT.glob("figures/*/claims.csv"), *ROOT.glob("figures/*/paper/claims.csv")])


def stated_value(row) -> float | None:
    """The paper's number for a row, in the units of ``ours``."""
    value = str(row.get("paper_value", "") or "").strip()
    if value and value != "nan":
        return float(value)
    paper = str(row["paper"])
    drop = re.fullmatch(r"drop (\d+(?:\.\d+)?) points", paper)
    if drop:
        return float(drop.group(1)) / 100
    over = re.match(r"\+(\d*\.\d+) over ", paper)
    return float(over.group(1)) if over else None


def interval(text) -> tuple[float, float] | None:
    found = re.fullmatch(r"\[(\S+), (\S+)\]", str(text).strip())
    return (float(found.group(1)), float(found.group(2))) if found else None


def number(text) -> float | None:
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def size_violations(table: pd.DataFrame) -> list[str]:
    """Rows that read match or inconclusive while a powered interval excludes the paper's
    number."""
    bad = []
    for row in table.to_dict("records"):
        target, ends, power = stated_value(row), interval(row["ci95"]), number(row["power"])
        if target is None or ends is None or power is None or power < claims.SIZE_POWER:
            continue
        if not ends[0] <= target <= ends[1] and row["verdict"] in ("match", "inconclusive"):
            bad.append(f"{row['claim']}: {row['verdict']} with {row['ci95']} against "
                       f"{target:g} at power {power:.2f}")
    return bad


def floor_violations(table: pd.DataFrame) -> list[str]:
    """Rows that read match from a floor / ceiling cell without saying so."""
    if "rates" not in table.columns:
        return []
    bad = []
    for row in table.to_dict("records"):
        rates = [float(r) for r in str(row["rates"] or "").split(";") if r.strip() not in ("", "nan")]
        near = [r for r in rates if min(r, 1 - r) < claims.FLOOR]
        if near and row["verdict"] == "match" and claims.FLOOR_NOTE not in str(row["note"]):
            bad.append(f"{row['claim']}: match from rates {near} without saying so")
    return bad


def combination_violations(table: pd.DataFrame) -> list[str]:
    if not {"direction", "size"} <= set(table.columns):
        return []
    return [f"{row['claim']}: {row['verdict']} from direction {row['direction']}, size {row['size']}"
            for row in table.to_dict("records")
            if row["direction"] and row["size"]
            and row["verdict"] != claims.overall(row["direction"], row["size"])]


def _read(path: Path) -> pd.DataFrame:
    return pd.read_csv(path, dtype=str, keep_default_na=False)


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(ROOT)) for p in FILES])
def test_committed_claims_say_what_the_data_show(path):
    table = _read(path)
    bad = size_violations(table) + floor_violations(table) + combination_violations(table)
    assert not bad, f"{path.relative_to(ROOT)}:\n" + "\n".join(bad)


def test_the_guard_catches_a_powered_interval_that_excludes_the_paper():
    """Hand-made rows: the paper's 16.6-point drop against our [0.007, 0.037] at power 1.00
    must not read match (the committed belief_mixtures row before issue 53); the same row
    as a mismatch, or at power 0.5, passes; a "+0.05 over" text counts as stated."""
    row = {"claim": "c", "paper": "drop 16.6 points", "ci95": "[0.007, 0.037]", "power": "1.00",
           "verdict": "match"}
    assert size_violations(pd.DataFrame([row]))
    assert not size_violations(pd.DataFrame([{**row, "verdict": "mismatch"}]))
    assert not size_violations(pd.DataFrame([{**row, "power": "0.50"}]))
    over = {**row, "paper": "+0.05 over OL-MCTS", "ci95": "[-0.025, 0.026]", "verdict": "inconclusive"}
    assert size_violations(pd.DataFrame([over]))
    assert not size_violations(pd.DataFrame([{**over, "ci95": "[0.02, 0.08]"}]))


def test_the_guard_catches_a_silent_floor_cell():
    row = {"claim": "c", "rates": "0.007; 0.020", "verdict": "match", "note": "D=1000"}
    assert floor_violations(pd.DataFrame([row]))
    assert not floor_violations(pd.DataFrame([{**row, "note": f"D=1000; {claims.FLOOR_NOTE}"}]))
    assert not floor_violations(pd.DataFrame([{**row, "rates": "0.3; 0.6"}]))
