"""How a tournament cell of pimcts_aggregation is named, both ways: the labels of the claims
table, the ablation's PI-MCTS cell and the per-cell caps (``games_per_cell_by_cell``).

Ravichandran, Goodman and Lucas, "Evaluation of Perfect-Information Monte Carlo Tree Search in
Imperfect-Information Games" (docs/papers/pimcts_aggregation.md) compare, per game and budget,
OL-MCTS (the control, D = 1), PI-MCTS at each D > 1 and aggregation, and IS-MCTS. A cell is
written "control", "IS-MCTS" or "D=10 TotalVisits". The task module and the analysis both read
these names, so they live here, apart from either: an edit to the claims leaves the results
keys alone.
"""

from __future__ import annotations

from infosets.search.pimcts import AGGREGATIONS


def cell_label(agent: str, d: int, aggregation: str) -> str:
    """The name of the cell of focus agent ``agent`` ("olmcts", "pimcts", "ismcts")."""
    if agent == "pimcts":
        return f"D={int(d)} {aggregation}"
    return "control" if agent == "olmcts" else "IS-MCTS"


def parse_cell(text: str) -> tuple[int, str]:
    """(D, aggregation) of a PI-MCTS cell written as the claims table writes it,
    "D=10 TotalVisits"; ValueError (one line) otherwise."""
    parts = str(text).split()
    if len(parts) != 2 or not parts[0].startswith("D=") or not parts[0][2:].isdigit():
        raise ValueError(f"{text!r} is not a PI-MCTS cell; write it as 'D=10 TotalVisits'")
    d, aggregation = int(parts[0][2:]), parts[1]
    if d < 2:
        raise ValueError(f"{text!r}: a PI-MCTS cell has D > 1 (D = 1 is OL-MCTS)")
    if aggregation not in AGGREGATIONS:
        raise ValueError(f"{text!r}: aggregation {aggregation!r} is not one of {list(AGGREGATIONS)}")
    return d, aggregation


def cell_agent(label: str) -> dict:
    """The agent config ({"agent", "D", "aggregation"}) of the cell named ``label``: "control"
    (OL-MCTS), "IS-MCTS", or a PI-MCTS cell "D=10 TotalVisits"; ValueError (one line)
    otherwise. The inverse of ``cell_label``."""
    if label == "control":
        return {"agent": "olmcts", "D": 1, "aggregation": "none"}
    if label == "IS-MCTS":
        return {"agent": "ismcts", "D": 0, "aggregation": "none"}
    try:
        d, aggregation = parse_cell(label)
    except ValueError as exc:
        raise ValueError(f"{exc}, 'control' or 'IS-MCTS'") from None
    return {"agent": "pimcts", "D": d, "aggregation": aggregation}
