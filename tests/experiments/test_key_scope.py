"""A run's results key covers the code it uses: the modules its paper imports and the folders
of the games it names (``experiments.store.run_files``; issue 55). Editing one game's rules
changes the keys of the runs that play it and no other; editing a comment changes none."""

from __future__ import annotations

import shutil
from functools import cache
from pathlib import Path

import pytest

from infosets.experiments import config, store

PAPERS = ("quickstart", "belief_mixtures", "pimcts_aggregation", "belote_ismcts",
          "progressive_hiding", "history_filtering")
LIB = Path(store.__file__).resolve().parents[1]


@pytest.fixture
def lib_copy(tmp_path, monkeypatch):
    """A copy of lib/infosets that ``store`` hashes instead of the real one."""
    root = tmp_path / "infosets"
    shutil.copytree(LIB, root, ignore=shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc", "*.md",
                                                             "*.json", "*.parquet"))
    monkeypatch.setattr(store, "_PACKAGE_ROOT", root)
    monkeypatch.setattr(store, "_GAMES_DIR", root / "games")
    # a file's executable source depends on its bytes only: parse each version once
    monkeypatch.setattr(store, "executable_source", _parsed)
    for cached in (store.import_closure, store.game_folders, store._hash_files):
        cached.cache_clear()
    yield root
    for cached in (store.import_closure, store.game_folders, store._hash_files):
        cached.cache_clear()


_parsed = cache(store.executable_source)


@cache
def values(slug: str, preset: str) -> dict:
    return config.load(slug, preset).values


def keys(presets=("default", "paper")) -> dict:
    out = {}
    for slug in PAPERS:
        for preset in presets:
            out[slug, preset] = store.code_hash(slug, values(slug, preset))
    store._hash_files.cache_clear()
    return out


def test_editing_love_letter_rekeys_pimcts_only(lib_copy):
    before = keys()
    rules = lib_copy / "games" / "love_letter" / "kernel.py"
    rules.write_text(rules.read_text() + "\nEXTRA_RULE = 1\n")
    after = keys()
    changed = {slug for (slug, _), key in after.items() if key != before[slug, _]}
    assert changed == {"pimcts_aggregation"}


def test_editing_belote_rekeys_belote_only(lib_copy):
    before = keys(("default",))
    rules = lib_copy / "games" / "belote2p" / "rules.py"
    rules.write_text(rules.read_text() + "\nEXTRA_RULE = 1\n")
    after = keys(("default",))
    assert {slug for (slug, _), key in after.items() if key != before[slug, _]} == {"belote_ismcts"}


def test_editing_a_tuned_setting_in_a_table_rekeys_its_paper(lib_copy):
    """Regression: ``pimcts_settings.csv`` (K, rollout length, ... of the paper's games) is read
    at task time; the key covered only Python files, so an edited K replotted the old results."""
    before = keys(("default",))
    table = lib_copy / "papers" / "pimcts_settings.csv"
    row = "Tic-Tac-Toe,tic_tac_toe,2,"
    table.write_text(table.read_text().replace(row + "1.0,", row + "0.5,"))
    after = keys(("default",))
    assert {slug for (slug, _), key in after.items() if key != before[slug, _]} == {"pimcts_aggregation"}
    assert "papers/pimcts_settings.csv" in store.run_files("pimcts_aggregation")


def test_a_comment_in_a_game_rekeys_nothing(lib_copy):
    before = keys(("default",))
    rules = lib_copy / "games" / "love_letter" / "kernel.py"
    rules.write_text(rules.read_text() + "\n# a remark\n")
    assert keys(("default",)) == before


def test_shared_engine_code_rekeys_every_paper_that_searches(lib_copy):
    before = keys(("default",))
    engine = lib_copy / "search" / "compiled.py"
    engine.write_text(engine.read_text() + "\nEXTRA = 1\n")
    after = keys(("default",))
    changed = {slug for (slug, _), key in after.items() if key != before[slug, _]}
    assert "pimcts_aggregation" in changed and "belief_mixtures" in changed


def test_each_paper_names_the_games_it_plays():
    named = {slug: store.games_named(slug, values(slug, "paper")) for slug in PAPERS}
    assert "love_letter" in named["pimcts_aggregation"] and "hearts" in named["pimcts_aggregation"]
    assert {"liars_dice", "trick_game"} <= set(named["belief_mixtures"])
    assert named["progressive_hiding"] == ("coop_matching_pennies",)
    assert "oh_hell" in named["history_filtering"]
    assert "belote2p" in named["belote_ismcts"]
    # a shared games module's imports of the games it serves are not followed
    closure = store.import_closure("infosets.papers.quickstart")
    assert not any(f.startswith("games/love_letter/") for f in closure)


def test_imports_are_parsed_again_when_a_file_changes(tmp_path, monkeypatch):
    """``store._imports_of`` parses each version of a file once: an edit in the same process
    (a new size or modification time) is read, not served from the parse of the old text."""
    from infosets.experiments import store

    monkeypatch.setattr(store, "_PACKAGE_ROOT", tmp_path / "infosets")
    module = tmp_path / "infosets" / "papers" / "x.py"
    module.parent.mkdir(parents=True)
    module.write_text("import infosets.games.leduc_poker\n")
    assert "infosets.games.leduc_poker" in store._imports_of(module)
    assert store._imports_of(module) is store._imports_of(module)  # one parse per version
    module.write_text("from infosets.games import love_letter  # another game\n")
    after = store._imports_of(module)
    assert "infosets.games.love_letter" in after and "infosets.games.leduc_poker" not in after
