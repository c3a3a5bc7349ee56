"""Drawing a chance outcome: the one bottom-layer helper that games and search share.

Every search of the papers (pimcts_aggregation: docs/papers/pimcts_aggregation.md) and the
games' own random playouts draw chance the same way: one uniform number against the
cumulative probabilities of ``state.chance_outcomes()``, in the order the game lists them.
This module imports nothing from ``infosets``, so ``games/`` can use it without depending on
``search/``.
"""

from __future__ import annotations


def sample_chance(state, rnd) -> int:
    """Draw a chance outcome of ``state`` by its probabilities (``rnd.random()`` once)."""
    outcomes = state.chance_outcomes()
    u = rnd.random()
    acc = 0.0
    for action, prob in outcomes:
        acc += prob
        if u < acc:
            return action
    return outcomes[-1][0]
