"""Streaming enumeration of H_S with reach probabilities under a joint policy.

Solinas, Rebstock, Sturtevant, Buro, "History Filtering in Imperfect Information Games"
(arXiv 2311.14651), sections 4.2 and 5.4: the enumerative baseline "must construct and
calculate the reach probability for" every history of the public state. Histories are
generated one suit-length assignment at a time and never held together; the exact PBS value
V(S) = sum_h P(h|S) V(h) is accumulated with a running log-sum-exp. ``ExplicitRange`` is the
explicit belief representation (one log weight and one value per history, numpy arrays) that
"True" sampling from the joint range needs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from infosets.filtering.deals import iter_assignments, iter_deals
from infosets.filtering.public_state import DealConstraints


def iter_histories(c: DealConstraints):
    """Every deal consistent with the public state (hand bitmask tuples), lazily."""
    for assignment in iter_assignments(c):
        yield from iter_deals(c, assignment)


def count_histories(c: DealConstraints, limit: int | None = None) -> int:
    """|H_S| by walking the enumeration (stops early, returning limit + 1, past ``limit``)."""
    n = 0
    for _ in iter_histories(c):
        n += 1
        if limit is not None and n > limit:
            break
    return n


@dataclass
class ExactValue:
    value: float  # V(S)
    log_normaliser: float  # log sum_h P(h) (unnormalised reach)
    num_histories: int


def exact_value(c: DealConstraints, log_reach, value) -> ExactValue:
    """V(S) = sum_h P(h|S) V(h) in one streaming pass (constant memory).

    Args:
      value: callable(deal) -> V(h) (deterministic, e.g. ``OhHellValue.value`` when exact).
    """
    top = -math.inf
    mass = weighted = 0.0
    n = 0
    for hands in iter_histories(c):
        lw = log_reach(hands)
        n += 1
        if lw == -math.inf:
            continue
        if lw > top:
            scale = math.exp(top - lw) if top > -math.inf else 0.0
            mass, weighted, top = mass * scale, weighted * scale, lw
        w = math.exp(lw - top)
        mass += w
        weighted += w * value(hands)
    if n == 0 or mass == 0.0:
        raise ValueError("public state: no history with positive reach is consistent with it")
    return ExactValue(weighted / mass, top + math.log(mass), n)


class ExplicitRange:
    """The joint range held explicitly: normalised probabilities and V(h) per history.

    This is what enumeration-based filtering stores; "True" sampling draws from it.
    """

    def __init__(self, c: DealConstraints, log_reach, value, chunk: int = 1 << 16):
        logs, vals = np.empty(chunk), np.empty(chunk)
        n = 0
        for hands in iter_histories(c):
            if n == len(logs):
                logs, vals = np.resize(logs, 2 * n), np.resize(vals, 2 * n)
            logs[n] = log_reach(hands)
            vals[n] = value(hands)
            n += 1
        if n == 0:
            raise ValueError("public state: no history is consistent with it")
        logs, vals = logs[:n], vals[:n]
        w = np.exp(logs - logs.max())
        self.probs = w / w.sum()
        self.values = vals
        # Exactly rounded (history_filtering publishes it as exact): a BLAS dot product
        # changes its last digits with the BLAS thread count and the CPU model.
        self.value = math.fsum((self.probs * vals).tolist())
        self.num_histories = n
        self._cdf = np.cumsum(self.probs)

    def sample_values(self, num_samples: int, rng: np.random.Generator) -> np.ndarray:
        """V(h) of ``num_samples`` histories drawn from the exact joint range P(h|S)."""
        idx = np.searchsorted(self._cdf, rng.random(num_samples) * self._cdf[-1], side="right")
        return self.values[np.minimum(idx, self.num_histories - 1)]
