"""Config validation of the history_filtering paper module."""

import pytest

from infosets.experiments.config import ConfigError, load
from infosets.papers import history_filtering as hf


@pytest.mark.parametrize("overrides, match", [
    ({"states": ["3-4-6"]}, r"states\[0\]: '3-4-6' must be"),
    ({"states": ["3-4-6-9-6-0"]}, "tricks must be in"),
    ({"burnin_states": ["3-4-5-4-6-1"]}, "burnin_states: '3-4-5-4-6-1' is not in states"),
    ({"burn_ins": [-1]}, "burn_ins"),
    ({"temperature": 0.0}, "temperature"),
])
def test_bad_parameters_raise_one_line(overrides, match):
    with pytest.raises(ConfigError, match=match) as err:
        load("history_filtering", "smoke", overrides=overrides)
    assert "\n" not in str(err.value)


def test_presets_load_and_name_real_states():
    for preset in ("smoke", "default", "paper"):
        cfg = load("history_filtering", preset)
        assert set(cfg.burnin_states) <= set(cfg.states)
        assert cfg.max_samples == max(cfg.sample_sizes)
    spec, plays, seed = hf.parse_state("3-4-6-4-6-0")
    assert (spec.num_cards, spec.num_tricks, plays, seed) == (24, 4, 6, 0)
