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
        for preset in config.presets_of(slug):  # full only where a paper has one
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
    # the default preset given every one of smoke's values is the same experiment
    same = {k: a.values[k] for k in config.schema_for("quickstart").params}
    c = config.load("quickstart", "default", seed=1, overrides=same)
    assert c.preset != a.preset and c.values == a.values
    assert c.digest() == a.digest()
    assert config.load("quickstart", "default", seed=1).digest() != a.digest()


@pytest.mark.parametrize(
    ("slug", "overrides", "name", "match"),
    [
        # pimcts_aggregation: no determinizer / simultaneous moves; a budget below every D > 1
        ("pimcts_aggregation", {"games": ["goofspiel(imp_info=True,num_cards=4)"]}, "games[0]",
         "simultaneous"),
        ("pimcts_aggregation", {"games": ["leduc_poker", "tarok"]}, "games[1]",
         "no determinizer"),
        ("pimcts_aggregation", {"budgets": [5], "determinizations": [10, 20]}, "budgets[0]",
         "no PI-MCTS cell"),
        ("pimcts_aggregation", {"budgets": [30, 2]}, "budgets[1]", "no PI-MCTS cell"),
        ("pimcts_aggregation", {"tabletop_budgets": [2]}, "tabletop_budgets[0]", "no PI-MCTS"),
        ("pimcts_aggregation", {"tabletop_games": ["leduc_poker"]}, "tabletop_games[0]",
         "not a tabletop port"),
        # belief_mixtures: every game needs a belief model (two players, enumerable or sampled)
        ("belief_mixtures", {"heatmap_games_pimc": ["kuhn_poker"]}, "heatmap_games_pimc[0]",
         "no belief model"),
        ("belief_mixtures", {"heatmap_games_ismcts": ["kuhn_poker"]}, "heatmap_games_ismcts[0]",
         "no belief model"),
        ("belief_mixtures", {"table_games_pimc": ["liars_dice(numdice=2)"]}, "table_games_pimc[0]",
         "numdice"),
        ("belief_mixtures", {"winrate_games_ismcts": ["leduc_poker(players=3)"]},
         "winrate_games_ismcts[0]", "2 players"),
        # quickstart: CFR needs two-player zero-sum sequential games
        ("quickstart", {"games": ["kuhn_poker(players=3)"]}, "games[0]", "two-player zero-sum"),
        ("quickstart", {"games": ["goofspiel"]}, "games[0]", "SIMULTANEOUS"),
        # progressive_hiding: the trade and bridge experiments are for their games
        ("progressive_hiding", {"trade_games": ["kuhn_poker"]}, "trade_games[0]", "trade_comm"),
        ("progressive_hiding", {"bridge_game": "tiny_bridge_4p"}, "bridge_game", "tiny_bridge_2p"),
    ],
)
def test_games_and_grids_a_paper_cannot_run_are_rejected(slug, overrides, name, match):
    with pytest.raises(ConfigError) as err:
        config.load(slug, "smoke", overrides=overrides)
    message = str(err.value)
    assert "\n" not in message
    assert message.startswith(f"{name}:"), message
    assert match in message, message


def test_misspelt_game_gets_close_matches_and_no_wall_of_names(capfd):
    with pytest.raises(ConfigError) as err:
        config.load("quickstart", "smoke", overrides={"games": ["leduc_pokr"]})
    message = str(err.value)
    assert message.startswith("games[0]: unknown game 'leduc_pokr'; did you mean 'leduc_poker'")
    assert len(message) < 200
    out, errout = capfd.readouterr()
    assert "tic_tac_toe" not in out + errout  # OpenSpiel's list of every game stays unprinted
    with pytest.raises(ConfigError, match=r"^games\[0\]: invalid game .*Unknown parameter 'foo'"):
        config.load("quickstart", "smoke", overrides={"games": ["leduc_poker(foo=1)"]})
    assert "OpenSpiel exception" not in "".join(capfd.readouterr())


def test_accept_reason_is_one_line_naming_the_parameter():
    param = Param(str, accept=lambda v: None if v == "ok" else f"{v!r} is\nnot ok")
    assert param.check("x", "ok") == "ok"
    with pytest.raises(ConfigError) as err:
        param.check("x", "bad")
    assert str(err.value) == "x: 'bad' is not ok"


def test_a_mapping_param_checks_each_value_naming_its_key():
    """``Param(dict, item=...)`` checks every value as a scalar of that kind and range, so a
    paper's {game: n} overrides need no check of their own (pimcts_aggregation's did)."""
    p = Param(dict, item=int, lo=1, hi=10)
    assert p.check("by_game", {"hearts": 3, "leduc_poker": 4.0}) == {"hearts": 3, "leduc_poker": 4}
    with pytest.raises(ConfigError, match=r"^by_game\['hearts'\]: 0 is out of range"):
        p.check("by_game", {"hearts": 0})
    with pytest.raises(ConfigError, match=r"^by_game\['hearts'\]: expected int, got bool"):
        p.check("by_game", {"hearts": True})
    assert Param(dict).check("free", {"a": "b"}) == {"a": "b"}
