"""PCG32: one seeded integer generator, bit-identical in Python and in numba-jitted code.

Serves the compiled search engine of the PI-MCTS / IS-MCTS comparison of Ravichandran,
Goodman and Lucas, "PIMCTS evaluation in tabletop games" (docs/papers/pimcts_aggregation.md): the
Python reference searches and the jitted engine draw every random number (worlds, chance,
expansions, rollouts, tie-breaks) from this generator, so a seeded search gives the same
moves and statistics in both.

The generator is O'Neill's PCG32 (XSH RR output, 64-bit LCG state, odd increment).
* ``next_u32``: the next 32-bit output.
* ``bounded(n)``: uniform in [0, n) for 1 <= n < 2**32, Lemire's multiply-shift with
  rejection (no modulo bias).
* ``random()``: a double in [0, 1) from 53 bits (two outputs).

Python side: the ``PCG32`` class (``randrange``/``random`` so it can stand in for
``random.Random`` in the search loops). Jitted side: the generator is a ``uint64[2]`` array
``[state, inc]`` and the functions ``rng_next_u32``, ``rng_bounded``, ``rng_random`` update
it in place. ``PCG32.to_array`` / ``PCG32.load`` move the state between the two.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from infosets.core import numba_cache  # noqa: F401  (engine-wide cache stamp, before any @njit)

MULT = 6364136223846793005
MASK64 = (1 << 64) - 1
MASK32 = (1 << 32) - 1
DEFAULT_STREAM = 54  # the reference implementation's default sequence constant
_TWO53 = 9007199254740992.0
_TWO26 = 67108864.0


class PCG32:
    """PCG32 in pure Python (the readable reference of the jitted functions below)."""

    __slots__ = ("state", "inc")

    def __init__(self, seed: int, stream: int = DEFAULT_STREAM):
        if not isinstance(seed, (int, np.integer)) or isinstance(seed, bool):
            raise ValueError(f"seed: must be an int, got {type(seed).__name__}")
        self.state = 0
        self.inc = ((int(stream) << 1) | 1) & MASK64
        self.next_u32()
        self.state = (self.state + int(seed)) & MASK64
        self.next_u32()

    @classmethod
    def from_generator(cls, rng: np.random.Generator) -> PCG32:
        """A generator seeded by one draw of a numpy Generator."""
        return cls(int(rng.integers(0, 2**63 - 1)))

    def next_u32(self) -> int:
        old = self.state
        self.state = (old * MULT + self.inc) & MASK64
        xorshifted = (((old >> 18) ^ old) >> 27) & MASK32
        rot = old >> 59
        return ((xorshifted >> rot) | (xorshifted << ((32 - rot) & 31))) & MASK32

    def bounded(self, n: int) -> int:
        """Uniform integer in [0, n), 1 <= n < 2**32 (Lemire, with rejection)."""
        m = self.next_u32() * n
        low = m & MASK32
        if low < n:
            threshold = ((1 << 32) - n) % n
            while low < threshold:
                m = self.next_u32() * n
                low = m & MASK32
        return m >> 32

    randrange = bounded  # the random.Random name used by the search loops

    def random(self) -> float:
        """Uniform double in [0, 1) with 53 random bits."""
        a = self.next_u32() >> 5
        b = self.next_u32() >> 6
        return (a * _TWO26 + b) / _TWO53

    def to_array(self) -> np.ndarray:
        """The state as the ``uint64[2]`` array the jitted functions use."""
        return np.array([self.state, self.inc], dtype=np.uint64)

    def load(self, array: np.ndarray) -> None:
        """Take over the state of a ``uint64[2]`` array (after jitted draws)."""
        self.state, self.inc = int(array[0]), int(array[1])


_U_MULT = np.uint64(MULT)
_U18, _U27, _U59, _U31, _U32 = np.uint64(18), np.uint64(27), np.uint64(59), np.uint64(31), np.uint64(32)
_U_MASK32 = np.uint64(MASK32)


@nb.njit(cache=True, inline="always")
def rng_next_u32(rng):
    """The next 32-bit output of the generator ``rng = uint64[2]``, as a uint64."""
    old = rng[0]
    rng[0] = old * _U_MULT + rng[1]
    xorshifted = (((old >> _U18) ^ old) >> _U27) & _U_MASK32
    rot = old >> _U59
    return ((xorshifted >> rot) | (xorshifted << ((_U32 - rot) & _U31))) & _U_MASK32


@nb.njit(cache=True)
def rng_bounded(rng, n):
    """Uniform integer in [0, n) (as ``PCG32.bounded``), returned as int64."""
    un = np.uint64(n)
    m = rng_next_u32(rng) * un
    low = m & _U_MASK32
    if low < un:
        threshold = ((np.uint64(1) << _U32) - un) % un
        while low < threshold:
            m = rng_next_u32(rng) * un
            low = m & _U_MASK32
    return np.int64(m >> _U32)


@nb.njit(cache=True)
def rng_random(rng):
    """Uniform double in [0, 1) (as ``PCG32.random``)."""
    a = rng_next_u32(rng) >> np.uint64(5)
    b = rng_next_u32(rng) >> np.uint64(6)
    return (np.float64(a) * _TWO26 + np.float64(b)) / _TWO53
