"""The 3-FSAT game: constructing one consistent history means solving 3-SAT.

Solinas, Rebstock, Sturtevant, Buro, "History Filtering in Imperfect Information Games"
(arXiv 2311.14651), Definition 2 and Theorem 1: player 1 picks a hidden m-variable truth
assignment; every later move publicly reveals a random 3-CNF clause the assignment
satisfies. A history consistent with the public clauses is a satisfying assignment, so
history construction is FSAT. Here the game is a plain model (not registered with pyspiel):
the public state is the clause list, a history is an assignment.

Literals are (variable, sign) pairs; sign True means the positive literal. Assignments are
ints whose bit v is variable v's value.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from infosets.core.rng import as_generator


def random_clause(assignment: int, m: int, rng: np.random.Generator):
    """A uniformly random 3-clause over distinct variables satisfied by ``assignment``."""
    while True:
        variables = rng.choice(m, size=3, replace=False)
        signs = rng.random(3) < 0.5
        clause = tuple((int(v), bool(s)) for v, s in zip(variables, signs))
        if satisfies(assignment, clause):
            return clause


def satisfies(assignment: int, clause) -> bool:
    return any(((assignment >> v) & 1) == int(s) for v, s in clause)


def public_state(m: int, num_clauses: int, rng):
    """(hidden assignment, clauses): one play of the 3-FSAT game with a uniform player 1."""
    if m < 3:
        raise ValueError(f"m: {m} variables; the game needs m >= 3")
    if num_clauses < 0:
        raise ValueError(f"num_clauses: {num_clauses} must be >= 0")
    rng = as_generator(rng)
    hidden = int(rng.integers(0, 2**m))
    return hidden, [random_clause(hidden, m, rng) for _ in range(num_clauses)]


@dataclass
class Construction:
    assignment: int | None  # the first consistent history found (None: none exists)
    checked: int  # assignments examined
    seconds: float


def construct_brute_force(m: int, clauses) -> Construction:
    """Scan assignments 0, 1, 2, ... and return the first one satisfying every clause."""
    start = time.perf_counter()
    for a in range(2**m):
        if all(satisfies(a, c) for c in clauses):
            return Construction(a, a + 1, time.perf_counter() - start)
    return Construction(None, 2**m, time.perf_counter() - start)


def count_consistent(m: int, clauses) -> int:
    """|H_S|: the number of assignments satisfying every clause (vectorised over 2^m)."""
    if m > 26:
        raise ValueError(f"m: {m} is too large to count by brute force (max 26)")
    a = np.arange(2**m, dtype=np.int64)
    ok = np.ones(2**m, dtype=bool)
    for clause in clauses:
        sat = np.zeros(2**m, dtype=bool)
        for v, s in clause:
            sat |= ((a >> v) & 1) == int(s)
        ok &= sat
    return int(ok.sum())


def is_consistent(assignment: int, clauses) -> bool:
    """The verification predicate (polynomial, Lemma 1): the history reproduces S."""
    return all(satisfies(assignment, c) for c in clauses)
