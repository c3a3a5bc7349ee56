"""PCG32 (compiled engine, pimcts_aggregation): the Python reference and the jitted functions
draw bit-identical streams."""

import numba as nb
import numpy as np
import pytest

from infosets.core.pcg32 import PCG32, rng_bounded, rng_next_u32, rng_random


@nb.njit  # not cached: it would not see edits of core.pcg32
def _jitted_draws(rng, bounds, out_u32, out_bounded, out_random):
    for i in range(out_u32.shape[0]):
        out_u32[i] = rng_next_u32(rng)
        out_bounded[i] = rng_bounded(rng, bounds[i])
        out_random[i] = rng_random(rng)


def test_reference_values_of_pcg32():
    # pcg32_srandom(42, 54) in O'Neill's pcg32-demo prints these first outputs.
    rng = PCG32(42, 54)
    assert [rng.next_u32() for _ in range(3)] == [0xa15c02b7, 0x7b47f409, 0xba1d3330]


@pytest.mark.parametrize("seed", [0, 1, 12345, 2**63 - 2])
def test_python_and_numba_streams_are_bit_identical(seed):
    # 3 * 2**30 rejects a quarter of its draws, so both rejection loops run (the other
    # bounds reject fewer than one draw in 10**8)
    bounds = np.array([1, 2, 3, 6, 7, 52, 1000, 2**31 - 1, 2**32 - 1, 5, 3 * 2**30] * 100,
                      dtype=np.int64)
    py = PCG32(seed)
    arr = py.to_array()
    u32, bnd, rnd = np.zeros(len(bounds), np.uint64), np.zeros(len(bounds), np.int64), np.zeros(len(bounds))
    _jitted_draws(arr, bounds, u32, bnd, rnd)
    for i, n in enumerate(bounds):
        assert py.next_u32() == int(u32[i])
        assert py.bounded(int(n)) == int(bnd[i])
        assert py.random() == rnd[i]  # bit-identical doubles
    assert (py.state, py.inc) == (int(arr[0]), int(arr[1]))
    py2 = PCG32(0)
    py2.load(arr)
    assert py2.next_u32() == py.next_u32()


def test_bounded_is_uniform_and_random_in_unit_interval():
    rng = PCG32(3)
    counts = np.bincount([rng.bounded(6) for _ in range(6000)], minlength=6)
    assert counts.min() > 850 and counts.max() < 1150
    values = [rng.random() for _ in range(1000)]
    assert 0.0 <= min(values) and max(values) < 1.0


def test_bounded_rejects_the_draws_that_would_bias_a_large_bound():
    """Lemire's multiply-shift maps the 2**32 draws onto n = 3 * 2**30 values unevenly: each
    value j with j % 3 == 0 has two preimages and the others one, so without the rejection
    step a third of the values would take half the mass. With it, every value is equally
    likely. Over 4,000 draws the share is binomial with sd 0.0075: 1/2 lies 22 sd away."""
    n = 3 * 2**30
    rng = PCG32(11)
    draws = np.array([rng.bounded(n) for _ in range(4000)])
    assert 0 <= draws.min() and draws.max() < n
    assert abs(np.mean(draws % 3 == 0) - 1 / 3) < 0.04


def test_bad_seed_is_refused():
    with pytest.raises(ValueError, match="^seed:"):
        PCG32(None)
