"""The root statistics of one search tree, as every engine reports them (pimcts_aggregation).

The Python, compiled and C++ engines of OL-MCTS / PI-MCTS (Ravichandran, Goodman and Lucas,
"PIMCTS evaluation in tabletop games", docs/papers/pimcts_aggregation.md) each return a
``RootStats`` per tree, from which ``mcts.choose_final`` and ``pimcts.aggregate`` choose the
move. It lives here, below both ``search.mcts`` and ``search.compiled``, so that neither
imports the other for it; ``infosets.search.mcts`` re-exports it.
"""

from __future__ import annotations


class RootStats(dict):
    """Root statistics of one tree: {action: (visits, summed reward of the root player)}.

    ``outcomes`` maps a root action whose child is terminal and whose outcome the engine
    recorded (the C++ engine does) to the root player's raw return there. The visit-count
    finals rank a known outcome first, unknown counting as 0, as C++ ``MCTSBot`` does.
    """

    outcomes: dict = {}
    engine: str = "python"
    depth_total: int = 0  # tree nodes summed over iterations
    depth_max: int = 0
    iterations: int = 0
