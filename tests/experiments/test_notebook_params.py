"""Notebook parameters: papermill's injected names are checked, not just warned about."""

import pytest

import infosets.experiments.notebook_session as nb
from infosets.experiments.config import ConfigError


def _namespace(**extra):
    ns = {"__name__": "__main__", "In": [], "Out": {}}
    nb.snapshot(ns)
    ns.update(preset="smoke", seed=0, workers=1, scheduler=None, overrides={})
    ns.update(extra)
    return ns


def test_unknown_injected_parameter_is_rejected():
    with pytest.raises(ConfigError, match=r"^lambda_grid: unknown notebook parameter"):
        nb.start("quickstart", _namespace(lambda_grid=[0.5]))


def test_bad_override_is_rejected():
    with pytest.raises(ConfigError, match=r"^eval_games:"):
        nb.start("quickstart", _namespace(overrides={"eval_games": -3}))


def test_start_needs_snapshot():
    with pytest.raises(ConfigError, match=r"^notebook: call nb.snapshot"):
        nb.start("quickstart", {"preset": "smoke"})


def test_valid_parameters_give_a_session(capsys):
    session = nb.start("quickstart", _namespace(_private_ipython_name=1))
    assert session.cfg.preset == "smoke"
    assert "run_id=" in capsys.readouterr().out
