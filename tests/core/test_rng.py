"""The one way to take randomness (infosets.core.rng)."""

import ast
from pathlib import Path

import numpy as np
import pytest

from infosets import arena
from infosets.core.rng import as_generator, as_random, named_child

LIB = Path(__file__).resolve().parents[2] / "lib" / "infosets"


@pytest.mark.parametrize("bad", [None, True, 1.5, "7", [1, 2]])
def test_refuses_anything_but_a_generator_seed_sequence_or_int(bad):
    for fn in (as_generator, as_random):
        with pytest.raises(ValueError, match=r"^rng: must be a numpy Generator"):
            fn(bad)
    with pytest.raises(ValueError, match=r"^sampler_rng: "):
        as_generator(bad, "sampler_rng")


@pytest.mark.parametrize("seed", [-1, np.int64(-5), -(2**70)])
def test_a_negative_int_seed_is_refused_naming_the_parameter(seed):
    """Refused here, once, for every caller (numpy's own error names no parameter)."""
    for fn in (as_generator, as_random):
        with pytest.raises(ValueError, match=rf"^rng: an int seed must be >= 0, got {int(seed)}$"):
            fn(seed)
        with pytest.raises(ValueError, match=r"^sampler_rng: an int seed must be >= 0"):
            fn(seed, "sampler_rng")
    with pytest.raises(ValueError, match=r"^seed: an int seed must be >= 0"):
        named_child(seed, "deal")
    # Zero and numpy integers are seeds; a bool is not (refused as a type, above).
    assert as_generator(np.uint8(0)).random() == np.random.default_rng(0).random()
    assert as_random(np.int32(0)).random() == as_random(0).random()
    assert named_child(np.int64(0), "deal").entropy == 0


def test_a_generator_is_used_as_is_and_seeds_are_reproducible():
    g = np.random.default_rng(5)
    assert as_generator(g) is g
    seq = np.random.SeedSequence(11)
    assert as_generator(seq).integers(2**62) == as_generator(np.random.SeedSequence(11)).integers(2**62)
    assert as_generator(np.int64(3)).random() == np.random.default_rng(3).random()
    assert as_random(4).random() == as_random(np.random.SeedSequence(4)).random()
    a, b = np.random.default_rng(9), np.random.default_rng(9)
    assert as_random(a).random() == as_random(b).random()
    assert a.random() == b.random()  # each advanced by exactly one draw


def test_named_children_are_stable_independent_and_apart_from_spawn():
    root = np.random.SeedSequence(2024)
    deal3 = named_child(root, "deal", 3)
    assert deal3.generate_state(4).tolist() == named_child(2024, "deal", 3).generate_state(4).tolist()
    others = [named_child(root, "deal", 4), named_child(root, "seat play", 3), *root.spawn(8)]
    states = {tuple(s.generate_state(4).tolist()) for s in [deal3, *others]}
    assert len(states) == 1 + len(others)
    # arena's duplicate-deal seed is a named child of the root entropy (unchanged streams).
    assert (arena.deal_seed(2024, "leduc_poker", 5).generate_state(4).tolist()
            == named_child(2024, "leduc_poker", 5).generate_state(4).tolist())
    with pytest.raises(ValueError, match="names"):
        named_child(root, -1)
    with pytest.raises(ValueError, match="seed"):
        named_child(None, "deal")


def test_no_other_module_coerces_seeds():
    """One helper: no module but infosets.core.rng turns a seed into a generator by type tests."""
    offenders = []
    for path in LIB.rglob("*.py"):
        text = path.read_text()
        if path.name == "rng.py" or "SeedSequence" not in text:  # nothing to parse for
            continue
        for node in ast.walk(ast.parse(text)):
            if (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "isinstance"
                    and "SeedSequence" in ast.unparse(node.args[1])):
                offenders.append(f"{path.relative_to(LIB)}:{node.lineno}")
    assert not offenders, offenders
