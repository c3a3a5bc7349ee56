"""Construction of one history consistent with a trick-taking public state, by max-flow.

Solinas, Rebstock, Sturtevant, Buro, "History Filtering in Imperfect Information Games"
(arXiv 2311.14651), section 5.2 and Figure 3: source -> suit (capacity: unknown cards of
the suit) -> every holder not void in the suit -> sink (capacity: unknown cards the holder
still has). An integral maximum flow saturating the sink edges is a suit-length assignment;
concrete cards are then placed uniformly within it.
"""

from __future__ import annotations

import networkx as nx

from infosets.filtering.deals import sample_deal
from infosets.filtering.public_state import DealConstraints


class NoConsistentHistory(ValueError):
    """The public state cannot be produced by any deal."""


def construct_assignment(c: DealConstraints) -> tuple[int, ...]:
    """A valid suit-length assignment via Edmonds-Karp max-flow.

    Raises:
      NoConsistentHistory: when no deal satisfies the constraints (one-line message).
    """
    graph = nx.DiGraph()
    total = sum(c.suit_totals)
    for s, u in enumerate(c.suit_totals):
        graph.add_edge("src", ("suit", s), capacity=u)
        for r in range(c.num_rows):
            if c.allowed(r, s):
                graph.add_edge(("suit", s), ("row", r), capacity=total)
    for r, need in enumerate(c.need):
        graph.add_edge(("row", r), "sink", capacity=need)
    if total == 0:
        return tuple([0] * (c.num_rows * c.num_suits))
    value, flow = nx.maximum_flow(
        graph, "src", "sink", flow_func=nx.algorithms.flow.edmonds_karp
    )
    if value < total:
        raise NoConsistentHistory(
            f"public state: no history is consistent with it (max-flow places {value} of "
            f"{total} unknown cards under the void-suit constraints)"
        )
    cells = [0] * (c.num_rows * c.num_suits)
    for s in range(c.num_suits):
        for node, f in flow[("suit", s)].items():
            cells[node[1] * c.num_suits + s] = f
    return tuple(cells)


def construct_history(c: DealConstraints, rand) -> tuple[int, ...]:
    """One deal consistent with the constraints: max-flow assignment, then card placement.

    Args:
      c: the public state's deal constraints.
      rand: a seeded ``random.Random`` used to place cards within the assignment.
    Returns:
      Player hand bitmasks (initial hands).
    """
    return sample_deal(c, construct_assignment(c), rand)
