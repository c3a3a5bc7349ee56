"""Group-sequential boundaries (``infosets.sequential``): Lan-DeMets spending reproduces the
published O'Brien-Fleming-type constants, one look is the fixed-sample test, and the boundaries
hold the type I error they spend (simulated Brownian motion at the looks)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from infosets import sequential
from infosets.sequential import alpha_spent, boundaries, crossed


def test_one_look_is_the_fixed_sample_test():
    assert boundaries([1.0], alpha=0.05) == pytest.approx([stats.norm.ppf(0.95)], abs=1e-6)
    assert boundaries([1.0], alpha=0.025, kind="pocock") == pytest.approx([stats.norm.ppf(0.975)], abs=1e-6)


def test_obrien_fleming_type_matches_the_published_constants():
    # Lan-DeMets O'Brien-Fleming spending, 3 equally spaced looks, one-sided 0.025
    # (gsDesign's sfLDOF: 3.7103, 2.5114, 1.9930); five looks: 4.8769 ... 2.0310
    assert boundaries([1 / 3, 2 / 3, 1.0], alpha=0.025) == pytest.approx([3.7103, 2.5114, 1.9930], abs=1e-4)


def test_pocock_type_is_flat_and_spends_its_alpha_by_the_end():
    b = boundaries([0.25, 0.5, 0.75, 1.0], alpha=0.05, kind="pocock")
    assert max(b) - min(b) < 0.15 and min(b) > stats.norm.ppf(0.95)
    assert alpha_spent(1.0, 0.05, "pocock") == pytest.approx(0.05)


@pytest.mark.parametrize("kind", ["obrien_fleming", "pocock"])
def test_the_boundaries_hold_the_type_one_error(kind):
    fractions = np.array([0.2, 0.5, 1.0])
    bounds = boundaries(fractions, alpha=0.05, kind=kind)
    rng = np.random.default_rng(7)
    steps = rng.normal(size=(200_000, 3)) * np.sqrt(np.diff(np.concatenate([[0.0], fractions])))
    z = np.cumsum(steps, axis=1) / np.sqrt(fractions)  # one Brownian motion's z at the looks, null
    rejected = (z >= np.array(bounds)).any(axis=1).mean()
    assert rejected == pytest.approx(0.05, abs=0.003)  # 200k draws: sd 0.0005
    power_fixed = (z[:, -1] >= stats.norm.ppf(0.95)).mean()
    assert power_fixed == pytest.approx(0.05, abs=0.003)


def test_crossed_names_the_first_look_reaching_its_boundary():
    assert crossed([1.0, 2.6, 3.0], [3.7, 2.5, 2.0]) == 1
    assert crossed([1.0, 2.0], [3.7, 2.5]) is None


@pytest.mark.parametrize(
    "call,message",
    [
        (lambda: boundaries([0.5, 0.4]), r"^fractions: must rise"),
        (lambda: boundaries([0.0, 1.0]), r"^fractions: must rise"),
        (lambda: boundaries([1.0], alpha=0.7), r"^alpha: "),
        (lambda: boundaries([1.0], kind="haybittle"), r"^kind: "),
    ],
)
def test_bad_parameters_are_refused_in_one_line(call, message):
    with pytest.raises(ValueError, match=message) as err:
        call()
    assert "\n" not in str(err.value)


def test_five_looks_match_the_published_constants():
    assert boundaries([0.2, 0.4, 0.6, 0.8, 1.0], alpha=0.025) == pytest.approx(
        [4.8769, 3.3569, 2.6803, 2.2898, 2.0310], abs=2e-4
    )


def test_a_look_sequence_is_computed_once_and_its_caller_gets_its_own_list():
    """The planner asks for the same looks for many claims: the second ask is the cache's,
    equal to the first whatever the sequence's type, and a caller's edit cannot reach it."""
    sequential._boundaries.cache_clear()
    first = sequential.boundaries([0.25, 0.5, 1.0])
    first[0] = 99.0
    again = sequential.boundaries(np.array([0.25, 0.5, 1.0]))
    assert again[0] != 99.0 and again == sequential.boundaries((0.25, 0.5, 1.0))
    assert sequential._boundaries.cache_info().misses == 1
