"""Config validation: every bad parameter gives a one-line error naming it, before compute."""

import pytest

from infosets.experiments import config
from infosets.experiments.config import ConfigError, Param
from infosets.experiments.session import Session


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        ({"overrides": {"nonsense": 1}}, "nonsense"),
        ({"overrides": {"iterations": "ten"}}, "iterations"),
        ({"overrides": {"iterations": [1, "x"]}}, "iterations[1]"),
        ({"overrides": {"iterations": [0]}}, "iterations[0]"),
        ({"overrides": {"eval_games": -1}}, "eval_games"),
        ({"overrides": {"eval_games": 2.5}}, "eval_games"),
        ({"overrides": {"eval_games": True}}, "eval_games"),
        ({"overrides": {"solvers": ["dcfr"]}}, "solvers[0]"),
        ({"overrides": {"games": ["no_such_game"]}}, "games[0]"),
        ({"overrides": {"games": []}}, "games"),
        ({"overrides": {"n_tasks": 3}}, "n_tasks"),
        ({"seed": -1}, "seed"),
        ({"seed": "0"}, "seed"),
        ({"overrides": [1, 2]}, "overrides"),
    ],
)
def test_bad_parameter_is_one_line_naming_it(kwargs, name):
    with pytest.raises(ConfigError) as err:
        config.load("quickstart", "smoke", **kwargs)
    message = str(err.value)
    assert "\n" not in message
    assert message.startswith(f"{name}:"), message


def test_unknown_preset_and_paper():
    with pytest.raises(ConfigError, match=r"^preset: unknown preset 'huge'"):
        config.load("quickstart", "huge")
    with pytest.raises(ConfigError, match=r"^slug: unknown paper 'nope'"):
        config.load("nope", "smoke")


def test_session_rejects_bad_executor_settings():
    with pytest.raises(ConfigError, match=r"^workers:"):
        Session.create("quickstart", "smoke", workers=0)
    with pytest.raises(ConfigError, match=r"^scheduler:"):
        Session.create("quickstart", "smoke", scheduler=8786)


def test_overrides_apply_before_derived_values():
    cfg = config.load("quickstart", "smoke", overrides={"iterations": [1, 2, 3, 4]})
    assert cfg.iterations == [1, 2, 3, 4]
    assert cfg.n_tasks == len(cfg.games) * len(cfg.solvers) * 4
    assert "n_tasks" in cfg.derived_keys


def test_every_preset_of_every_paper_validates():
    slugs = sorted({p.name.split(".")[0] for p in config.params_dir().glob("*.yaml")})
    assert "quickstart" in slugs
    for slug in slugs:
        for preset in config.PRESETS:
            cfg = config.load(slug, preset)
            assert set(config.schema_for(slug).params) <= set(cfg.values)


def test_param_normalises_numbers():
    assert Param(float).check("x", 1) == 1.0
    assert Param(int).check("x", 3.0) == 3
    with pytest.raises(ConfigError, match=r"^x: 1.5 is out of range; expected in \[0, 1\]"):
        Param(float, lo=0, hi=1).check("x", 1.5)


def test_digest_ignores_preset_name_but_not_seed():
    a = config.load("quickstart", "smoke", seed=1)
    b = config.load("quickstart", "smoke", seed=2)
    assert a.digest() != b.digest()
