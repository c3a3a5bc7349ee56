"""RingSwap neighbours and the Metropolis-Hastings history chain ("TTCG Gibbs sampler").

Solinas, Rebstock, Sturtevant, Buro, "History Filtering in Imperfect Information Games"
(arXiv 2311.14651), section 5.3, Algorithm 1 and the chain below it:

1. Omega_sigma = RingSwap(S, sigma): deals whose suit-length assignment is a neighbour.
2. sigma' uniform in Omega_sigma (an assignment with probability proportional to its
   number of deals, then a uniform deal within it).
3. z = min{1, P(h') |Omega_sigma| / (P(h) |Omega_sigma'|)}, accept with probability z.

RingSwap (our reading of "BFS over swap sequences of length < n in other rows"): a ring is
a sequence of distinct rows r_0..r_{m-1} (2 <= m <= max_ring, default the number of rows)
and suits c_0..c_{m-1} with c_t != c_{t+1 mod m}; row r_t gains a card of suit c_t and gives
up one of suit c_{t+1}. Every column sum is preserved; a neighbour must keep cells
non-negative and void cells zero. Reversing a ring undoes it, so the relation is symmetric,
which the acceptance rule needs. The undealt pile is a row like a player's hand.
``include_current`` also proposes deals of the current assignment (needed for
irreducibility when an assignment has no ring neighbour, e.g. a one-suit deck).

Neighbour sets depend only on the assignment and are cached per assignment, so a transition
costs O(rows * suits) plus one reach lookup: it does not grow with |H_S|.
"""

from __future__ import annotations

import bisect
import itertools
import math

import numpy as np

from infosets.core.rng import as_random
from infosets.filtering.deals import (
    assignment_of,
    iter_assignments,
    log_deals_in_assignment,
    sample_deal,
)
from infosets.filtering.public_state import DealConstraints


def ring_moves(c: DealConstraints, max_ring: int | None = None) -> np.ndarray:
    """Every distinct ring move (a rows x suits delta, flattened) allowed by the voids.

    A move depends on the voids only, not on the current assignment, so it is computed once
    per public state; ``ring_swap_neighbours`` adds the moves that keep cells non-negative.
    """
    n_rows, n_suits = c.num_rows, c.num_suits
    max_ring = n_rows if max_ring is None else max_ring
    if not 2 <= max_ring <= max(2, n_rows):
        raise ValueError(f"max_ring: {max_ring} must be in [2, {n_rows}]")
    moves = set()
    for m in range(2, min(max_ring, n_rows) + 1):
        for rows in itertools.permutations(range(n_rows), m):
            if rows[0] != min(rows):  # rotations of a ring give the same move
                continue
            for cols in itertools.product(range(n_suits), repeat=m):
                if any(cols[t] == cols[(t + 1) % m] for t in range(m)):
                    continue
                if any(c.void[rows[t]][cols[t]] for t in range(m)):
                    continue
                delta = [0] * (n_rows * n_suits)
                for t in range(m):
                    delta[rows[t] * n_suits + cols[t]] += 1
                    delta[rows[t] * n_suits + cols[(t + 1) % m]] -= 1
                if any(delta):
                    moves.add(tuple(delta))
    if not moves:
        return np.zeros((0, n_rows * n_suits), dtype=np.int64)
    return np.array(sorted(moves), dtype=np.int64)


def ring_swap_neighbours(c: DealConstraints, assignment, max_ring: int | None = None,
                         moves: np.ndarray | None = None):
    """The suit-length assignments one ring swap away (Algorithm 1), sorted."""
    moves = ring_moves(c, max_ring) if moves is None else moves
    if len(moves) == 0:
        return []
    cand = np.asarray(assignment, dtype=np.int64)[None, :] + moves
    ok = cand.min(axis=1) >= 0
    return sorted(set(map(tuple, cand[ok].tolist())))


class RingSwapChain:
    """Metropolis-Hastings over deals consistent with a public state.

    Args:
      constraints: the public state's deal constraints.
      log_reach: callable(hands) -> unnormalised log reach probability under the joint policy;
        must be finite on every deal (a policy with full support).
      rng: numpy Generator, SeedSequence or int seed (``infosets.core.rng.as_random``); the
        chain's only randomness.
      initial: starting deal (hand bitmasks), or None for a uniform draw from H_S.
      max_ring: longest ring in RingSwap (default: number of rows).
      include_current: also propose deals with the current assignment.
    """

    def __init__(self, constraints: DealConstraints, log_reach, rng, initial=None,
                 max_ring: int | None = None, include_current: bool = True):
        self.c = constraints
        self.log_reach = log_reach
        self.rand = as_random(rng)
        self.max_ring = max_ring
        self.include_current = include_current
        self._hood = {}
        self._logcount = {}
        self._moves = ring_moves(constraints, max_ring)
        if initial is None:
            initial = uniform_deal(constraints, self.rand)
        elif not constraints.hands_consistent(initial):
            raise ValueError("initial: the deal is not consistent with the public state")
        self.reset(initial)
        self.transitions = 0
        self.accepted = 0

    def reset(self, hands):
        self.hands = tuple(hands)
        self.assignment = assignment_of(self.c, self.hands)
        self.logp = self.log_reach(self.hands)
        if not math.isfinite(self.logp):
            raise ValueError(
                "policy: the initial history has reach 0; the chain needs a policy with full "
                "support at every information state"
            )

    def neighbourhood(self, assignment):
        """(neighbour assignments, cumulative deal counts, log |Omega|), cached."""
        hood = self._hood.get(assignment)
        if hood is None:
            nbrs = ring_swap_neighbours(self.c, assignment, moves=self._moves)
            if self.include_current:
                nbrs.append(tuple(assignment))
            logs = [self._log_count(a) for a in nbrs]
            top = max(logs)
            cum, acc = [], 0.0
            for lg in logs:
                acc += math.exp(lg - top)
                cum.append(acc)
            hood = (nbrs, cum, top + math.log(acc))
            self._hood[assignment] = hood
        return hood

    def _log_count(self, assignment) -> float:
        value = self._logcount.get(assignment)
        if value is None:
            value = self._logcount[assignment] = log_deals_in_assignment(self.c, assignment)
        return value

    def step(self) -> bool:
        """One Metropolis-Hastings transition; returns True when the proposal is accepted."""
        nbrs, cum, log_omega = self.neighbourhood(self.assignment)
        rand = self.rand
        proposal = nbrs[min(bisect.bisect_right(cum, rand.random() * cum[-1]), len(nbrs) - 1)]
        hands = sample_deal(self.c, proposal, rand)
        logp = self.log_reach(hands)
        if logp == -math.inf:
            raise ValueError(
                "policy: a consistent history has reach 0; the chain needs a policy with "
                "full support at every information state"
            )
        log_omega_new = self.neighbourhood(proposal)[2]
        log_z = logp - self.logp + log_omega - log_omega_new
        self.transitions += 1
        if log_z >= 0 or rand.random() < math.exp(log_z):
            self.hands, self.assignment, self.logp = hands, proposal, logp
            self.accepted += 1
            return True
        return False

    def run(self, transitions: int):
        for _ in range(transitions):
            self.step()

    def sample(self, num_samples: int, burn_in: int, thin: int = 1, restart: bool = False):
        """Histories from the chain.

        Args:
          num_samples: samples to return.
          burn_in: transitions before the first sample (>= 0).
          thin: transitions between consecutive samples (>= 1).
          restart: if True every sample comes from a fresh run of ``burn_in`` transitions
            from the current start (the paper's parallel variant); ``thin`` is unused.
        Returns:
          A list of deals (tuples of hand bitmasks).
        """
        check_chain_args(num_samples, burn_in, thin)
        if restart:
            start = self.hands
            out = []
            for _ in range(num_samples):
                self.reset(start)
                self.run(burn_in)
                out.append(self.hands)
            return out
        self.run(burn_in)
        out = [self.hands]
        for _ in range(num_samples - 1):
            self.run(thin)
            out.append(self.hands)
        return out[:num_samples] if num_samples else []


def check_chain_args(num_samples: int, burn_in: int, thin: int = 1):
    if burn_in < 0:
        raise ValueError(f"burn_in: {burn_in} must be >= 0")
    if thin < 1:
        raise ValueError(f"thin: {thin} must be >= 1")
    if num_samples < 0:
        raise ValueError(f"num_samples: {num_samples} must be >= 0")


class AssignmentTable:
    """Every valid assignment with its deal count: uniform sampling from H_S.

    The number of assignments is polynomial in the deal size for a fixed number of suits
    and rows, so holding them is cheap even when |H_S| is not.
    """

    def __init__(self, c: DealConstraints):
        self.c = c
        self.assignments = list(iter_assignments(c))
        if not self.assignments:
            raise ValueError("public state: no history is consistent with it")
        logs = [log_deals_in_assignment(c, a) for a in self.assignments]
        top = max(logs)
        acc, self.cum = 0.0, []
        for lg in logs:
            acc += math.exp(lg - top)
            self.cum.append(acc)
        self.log_size = top + math.log(acc)
        self.size = sum(c.deals_in_assignment(a) for a in self.assignments)

    def sample(self, rand) -> tuple[int, ...]:
        i = bisect.bisect_right(self.cum, rand.random() * self.cum[-1])
        a = self.assignments[min(i, len(self.assignments) - 1)]
        return sample_deal(self.c, a, rand)


def uniform_deal(c: DealConstraints, rand) -> tuple[int, ...]:
    """One deal drawn uniformly from H_S."""
    return AssignmentTable(c).sample(rand)
