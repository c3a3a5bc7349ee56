"""The compiled engine's cache stamps, one per game (core/numba_cache.py): a game's stamp covers
its folder, the modules those files import and the engine's files, and nothing of another game."""

from pathlib import Path

import pytest

from infosets.core import numba_cache

GAMES = Path(numba_cache.__file__).resolve().parent.parent / "games"
LOVE_LETTER = str(GAMES / "love_letter" / "kernel.py")
LEDUC = str(GAMES / "leduc_poker" / "kernel.py")


@pytest.fixture
def edited(monkeypatch):
    """``edited(path)``: from now on ``path`` reads with one more byte (no file is written), and
    stamps are recomputed (``stamp_of`` and ``_reach`` are cached per process)."""
    read = Path.read_bytes
    paths: set[str] = set()

    def edit(path) -> None:
        paths.add(str(Path(path).resolve()))
        numba_cache.stamp_of.cache_clear()

    monkeypatch.setattr(Path, "read_bytes",
                        lambda self: read(self) + (b"#" if str(self.resolve()) in paths else b""))
    numba_cache.stamp_of.cache_clear()
    yield edit
    numba_cache.stamp_of.cache_clear()


def _reach(game_file: str) -> set[str]:
    return set(numba_cache._reach(game_file))


def test_a_game_stamp_covers_its_folder_and_the_modules_its_files_import():
    """Regression (2026-11-27): an ace scored 11 -> 1 in belote2p/rules.py left a warm cache
    scoring 10D + AD as 21 while Python scored 11; only the kernel files were stamped. Kernels
    copy tables from their game's rules at import, so the whole folder is stamped."""
    for game, module in (("belote2p", "belote2p/rules.py"), ("stratego", "stratego/game.py"),
                         ("trick_game", "trick_game/array_rules.py")):
        assert str((GAMES / module).resolve()) in _reach(str(GAMES / game / "kernel.py")), module
    # every kernel imports core.pcg32, which is stamped through the import as well
    assert str((GAMES.parent / "core" / "pcg32.py").resolve()) in _reach(LOVE_LETTER)
    assert not any("/games/leduc_poker/" in f for f in _reach(LOVE_LETTER))


def test_editing_a_game_file_changes_that_game_stamp_only(edited):
    """Editing a file of games/love_letter/ recompiles Love Letter's kernel and engine, not
    Leduc's."""
    love, leduc, free = (numba_cache.stamp_of(f) for f in (LOVE_LETTER, LEDUC, None))
    for name in ("kernel.py", "game.py"):
        edited(GAMES / "love_letter" / name)
        assert numba_cache.stamp_of(LOVE_LETTER) != love, name
        assert numba_cache.stamp_of(LEDUC) == leduc, name
        assert numba_cache.stamp_of(None) == free, name


def test_editing_an_engine_file_changes_every_stamp(edited):
    for engine_file in sorted(numba_cache.ENGINE_FILES):
        before = {f: numba_cache.stamp_of(f) for f in (LOVE_LETTER, LEDUC, None)}
        edited(engine_file)
        for f, stamp in before.items():
            assert numba_cache.stamp_of(f) != stamp, (engine_file, f)


def test_games_have_distinct_stamps():
    assert len({numba_cache.stamp_of(f) for f in (LOVE_LETTER, LEDUC, None)}) == 3


def test_kernel_and_engine_copies_are_stamped_with_their_game():
    """A kernel's functions and the engine compiled for that game (``engine_for``) carry the
    game's stamp; the engine's game-free functions carry the engine-only stamp."""
    from infosets.games.kernels import kernel_module
    from infosets.search import compiled

    for game, file in (("love_letter", LOVE_LETTER), ("leduc_poker", LEDUC)):
        rules = kernel_module(game)
        engine = compiled.engine_for(rules)
        for function in (rules.nb_apply_action, engine.uct_tree, engine.ismcts_tree_with):
            locator = function._cache._impl._locator
            assert type(locator).__name__.startswith("Engine"), function
            assert locator.get_source_stamp() == ("infosets-engine", numba_cache.stamp_of(file))
    locator = compiled._uct_select._cache._impl._locator
    assert locator.get_source_stamp() == ("infosets-engine", numba_cache.stamp_of(None))
