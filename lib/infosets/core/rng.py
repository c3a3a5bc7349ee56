"""Randomness, one way: the keyword ``rng``, one coercion, named child seeds.

Every paper of the library (belief_mixtures, pimcts_aggregation, belote_ismcts,
progressive_hiding, history_filtering) reports seeded results, and one root seed must drive
every random stream of a run. So every function or class that draws takes its randomness
as the keyword ``rng``: a ``numpy.random.Generator``, a ``numpy.random.SeedSequence`` or an
int seed (>= 0), and nothing else. There is no default: ``None`` (like a bool or a negative
seed) is refused with a one-line error naming the parameter, before any compute.

- ``as_generator(rng)`` turns such a value into a Generator (a Generator is used as is, so
  the caller's stream continues);
- ``as_random(rng)`` gives a ``random.Random`` for hot Python loops (``random()`` and
  ``randrange`` are faster there than a Generator's);
- ``named_child(seed, *names)`` derives an independent child seed from a SeedSequence by
  names (strings or non-negative ints) instead of magic salts: the same names give the
  same child, different names independent ones, and it does not disturb ``seed.spawn``.

This module imports only numpy and the standard library, so every layer may use it
(``games/`` included).
"""

from __future__ import annotations

import hashlib
import random

import numpy as np

_SEED_TYPES = (np.random.Generator, np.random.SeedSequence, int, np.integer)


def _check(rng, name: str) -> None:
    if isinstance(rng, bool) or not isinstance(rng, _SEED_TYPES):
        raise ValueError(f"{name}: must be a numpy Generator, SeedSequence or int seed "
                         f"(no default seed), got {type(rng).__name__}")
    _check_int_seed(rng, name)


def _check_int_seed(seed, name: str) -> None:
    """Refuse a negative int seed (Python or numpy) in one line naming ``name``: numpy's own
    error ("expected non-negative integer") names no parameter."""
    if isinstance(seed, (int, np.integer)) and seed < 0:
        raise ValueError(f"{name}: an int seed must be >= 0, got {seed}")


def as_generator(rng, name: str = "rng") -> np.random.Generator:
    """The numpy Generator for ``rng`` (a Generator itself, or one seeded by a SeedSequence or
    an int). ``name`` is the parameter named in the error for anything else (None included)."""
    _check(rng, name)
    if isinstance(rng, np.random.Generator):
        return rng
    return np.random.default_rng(rng)


def as_random(rng, name: str = "rng") -> random.Random:
    """A ``random.Random`` for ``rng``: seeded by one 63-bit draw of a Generator (which
    advances by that draw), or by the first 32-bit word of a SeedSequence (an int seed: of
    ``SeedSequence(seed)``), as history_filtering's chains have always been seeded."""
    _check(rng, name)
    if isinstance(rng, np.random.Generator):
        return random.Random(int(rng.integers(2**63)))
    seq = rng if isinstance(rng, np.random.SeedSequence) else np.random.SeedSequence(int(rng))
    return random.Random(int(seq.generate_state(1)[0]))


def _words(name) -> tuple[int, ...]:
    if isinstance(name, str):
        digest = hashlib.blake2b(name.encode(), digest_size=8).digest()
        return int.from_bytes(digest[:4], "little"), int.from_bytes(digest[4:], "little")
    if isinstance(name, (int, np.integer)) and not isinstance(name, bool) and int(name) >= 0:
        return (int(name),)
    raise ValueError(f"names: each must be a str or an int >= 0, got {name!r}")


def named_child(seed, *names) -> np.random.SeedSequence:
    """The child of ``seed`` (a SeedSequence or an int seed) reached by ``names``.

    A string adds the two 32-bit words of its BLAKE2b hash to the spawn key, an int adds
    itself: ``named_child(s, "deal", 3)`` is ``SeedSequence(s.entropy,
    spawn_key=s.spawn_key + (*words("deal"), 3))``. ``seed.spawn`` children add one small
    word, a string name two: a child named by a string never coincides with a spawned one
    (short of a hash collision). ``arena.deal_seed`` is ``named_child(entropy, label, deal)``.
    """
    if isinstance(seed, bool) or not isinstance(seed, (np.random.SeedSequence, int, np.integer)):
        raise ValueError(f"seed: must be a numpy SeedSequence or int seed, got {type(seed).__name__}")
    _check_int_seed(seed, "seed")
    seq = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(int(seed))
    key = tuple(w for name in names for w in _words(name))
    return np.random.SeedSequence(entropy=seq.entropy, spawn_key=tuple(seq.spawn_key) + key)
