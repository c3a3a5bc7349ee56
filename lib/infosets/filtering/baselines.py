"""PBS value estimators: "True", "Importance" and the MCMC chain, as running means.

Solinas, Rebstock, Sturtevant, Buro, "History Filtering in Imperfect Information Games"
(arXiv 2311.14651), section 5.4, Figure 4: "True samples from the exact joint range, and
Importance performs (biased) importance sampling with a uniform proposal and unnormalized
reach probabilities" (self-normalised weights). Each estimator returns the running estimate
of V(S) after each sample, so one run gives the whole error-vs-samples curve.
"""

from __future__ import annotations

import math

import numpy as np

from infosets.core.rng import as_generator, as_random
from infosets.filtering.enumerate import ExplicitRange
from infosets.filtering.mcmc import AssignmentTable, RingSwapChain, check_chain_args


def running_mean(values) -> np.ndarray:
    values = np.asarray(values, dtype=float)
    return np.cumsum(values) / np.arange(1, len(values) + 1)


def true_estimates(explicit: ExplicitRange, num_samples: int, rng) -> np.ndarray:
    """Running V(S) estimates from exact samples of the joint range."""
    return running_mean(explicit.sample_values(num_samples, as_generator(rng)))


def importance_estimates(table: AssignmentTable, log_reach, value, num_samples: int,
                         rng) -> np.ndarray:
    """Running self-normalised importance estimates, uniform proposal over H_S."""
    rand = as_random(rng)
    logs, vals = np.empty(num_samples), np.empty(num_samples)
    for i in range(num_samples):
        hands = table.sample(rand)
        logs[i] = log_reach(hands)
        vals[i] = value(hands)
    out = np.empty(num_samples)
    top = -math.inf
    mass = weighted = 0.0
    for i in range(num_samples):  # running log-sum-exp
        lw = logs[i]
        if lw > top:
            scale = math.exp(top - lw) if top > -math.inf else 0.0
            mass, weighted, top = mass * scale, weighted * scale, lw
        w = math.exp(lw - top)
        mass += w
        weighted += w * vals[i]
        out[i] = weighted / mass
    return out


def mcmc_estimates(chain: RingSwapChain, value, num_samples: int, burn_in: int,
                   thin: int | None = None, restart: bool = False) -> np.ndarray:
    """Running V(S) estimates from the chain (thin defaults to burn_in, min 1)."""
    thin = max(1, burn_in) if thin is None else thin
    check_chain_args(num_samples, burn_in, thin)
    deals = chain.sample(num_samples, burn_in, thin, restart=restart)
    return running_mean([value(d) for d in deals])
