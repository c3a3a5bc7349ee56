"""The compiled engine's cache stamp covers every module its kernels read (core/numba_cache.py)."""

from pathlib import Path

from infosets.core import numba_cache

GAMES = Path(numba_cache.__file__).resolve().parent.parent / "games"


def test_the_stamp_covers_the_rules_modules_kernels_copy_tables_from():
    """Regression (2026-11-27): an ace scored 11 -> 1 in belote2p/rules.py left a warm cache
    scoring 10D + AD as 21 while Python scored 11; only the kernel files were stamped."""
    for module in ("belote2p/rules.py", "dominion.py", "stratego.py", "trick_kernel.py"):
        assert str((GAMES / module).resolve()) in numba_cache.STAMPED_FILES, module
    assert numba_cache.ENGINE_FILES <= numba_cache.STAMPED_FILES


def test_editing_a_rules_module_changes_the_stamp(monkeypatch):
    rules = str((GAMES / "belote2p" / "rules.py").resolve())
    read = Path.read_bytes
    before = numba_cache._engine_stamp()
    monkeypatch.setattr(Path, "read_bytes",
                        lambda self: read(self) + (b"#" if str(self) == rules else b""))
    assert numba_cache._engine_stamp() != before
