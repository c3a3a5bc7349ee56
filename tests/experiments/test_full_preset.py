"""The fourth preset, ``full``: the paper's whole grid for a Dask cluster (all papers with one).

Configs only (no sweep runs): it validates, publishes to its own folders, is optional per paper,
and the paper preset runs a part of it (docs/paper_scale.md).
"""

import pytest

from infosets.experiments import committed, config, reports, run_notebooks, task_costs
from infosets.experiments.config import ConfigError
from infosets.experiments.session import is_published, output_dir

FULL_PAPERS = ("belief_mixtures",)  # the other papers: their paper preset is the whole grid


@pytest.mark.parametrize("slug", FULL_PAPERS)
def test_full_preset_validates_and_publishes_to_its_own_folders(slug, tmp_path, monkeypatch):
    monkeypatch.setenv("INFOSETS_FIGURES_DIR", str(tmp_path / "figures"))
    monkeypatch.setenv("INFOSETS_RESULTS_DIR", str(tmp_path / "results"))
    cfg = config.load(slug, "full")
    assert cfg.preset == "full" and "full" in config.presets_of(slug)
    assert is_published(cfg)
    assert output_dir(cfg) == tmp_path / "figures" / slug / "full"
    assert committed.CommittedResults(cfg).path == tmp_path / "results" / slug / "full"
    assert reports.report_name(slug, "full") == f"{slug}.full"
    assert not is_published(config.load(slug, "full", overrides={"seats": [0]})
                            if slug == "belief_mixtures" else config.load(slug, "full", seed=1))


@pytest.mark.parametrize("slug", FULL_PAPERS)
def test_paper_preset_runs_a_part_of_the_full_grid(slug):
    """Every list the paper preset sweeps is a sub-list of the full preset's, and no sweep of
    the paper preset has more tasks than the full one."""
    paper, full = config.load(slug, "paper"), config.load(slug, "full")
    for key, value in paper.values.items():
        if isinstance(value, list) and key not in paper.derived_keys:
            assert set(map(str, value)) <= set(map(str, full[key])), key
    for sweep in task_costs.SWEEPS[slug]:
        assert (len(task_costs.sweep_tasks(paper, sweep))
                <= len(task_costs.sweep_tasks(full, sweep))), sweep


def test_full_is_optional_and_a_missing_one_is_one_line():
    assert config.presets_of("quickstart") == ["smoke", "default", "paper"]
    with pytest.raises(ConfigError) as err:
        config.load("quickstart", "full")
    assert str(err.value).startswith("preset: quickstart has no full preset")
    assert "\n" not in str(err.value)


def test_every_paper_has_the_required_presets():
    slugs = sorted({p.name.split(".")[0] for p in config.params_dir().glob("*.yaml")})
    for slug in slugs:
        assert set(config.REQUIRED_PRESETS) <= set(config.presets_of(slug)), slug


def test_make_figures_at_full_skips_papers_without_one(tmp_path, monkeypatch, capsys):
    root = tmp_path / "root"
    (root / "notebooks" / "params").mkdir(parents=True)
    (root / "notebooks" / "other.ipynb").write_text("{}")
    monkeypatch.setenv("INFOSETS_ROOT", str(root))
    assert run_notebooks.main(["--preset", "full", "--out", str(tmp_path / "out")]) == 0
    out = capsys.readouterr().out
    assert "no full preset" in out and "other" in out and "all 0 notebook(s)" in out
    assert run_notebooks.main(["--preset", "full", "--paper", "other"]) == 2
    assert "PAPER='other' has no full preset" in capsys.readouterr().err
