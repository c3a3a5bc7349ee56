"""Every test process runs numba bounds-checked from the tests' own cache (tests/numba_env.py)."""

import numba as nb
import numpy as np
import pytest

import numba_env


@nb.njit
def _past_the_end(a):
    return a[len(a)]


def test_an_index_out_of_range_raises_in_every_test():
    with pytest.raises(IndexError):
        _past_the_end(np.zeros(3))


def test_the_engine_caches_in_the_tests_folder_not_beside_the_sources():
    """The checked builds must not land where ``make figures`` loads its builds from (numba's
    cache key ignores the bounds-check flag)."""
    import pyspiel

    import infosets.games  # noqa: F401
    from infosets.games.kernels import kernel_for
    from infosets.search.compiled import engine_for

    kernel = kernel_for(pyspiel.load_game("leduc_poker"))
    engine = engine_for(kernel.rules)
    function = engine.ismcts_tree_with
    locator = function._cache._impl._locator
    assert type(locator).__name__ == "EngineUserProvidedLocator"
    assert str(locator._cache_path).startswith(str(numba_env.CACHE))


def test_a_process_that_imported_numba_first_is_refused(monkeypatch):
    monkeypatch.setenv("NUMBA_BOUNDSCHECK", "0")
    with pytest.raises(RuntimeError, match="numba was imported before"):
        numba_env.apply()


def test_a_process_that_imported_numba_at_another_optimisation_level_is_refused(monkeypatch):
    """The bounds check alone was checked: a process whose numba was imported bounds-checked
    but at the default level 3 passed, and its builds were not the tests' level-1 builds."""
    monkeypatch.setenv("NUMBA_BOUNDSCHECK", "1")
    monkeypatch.setenv("NUMBA_OPT", "3")
    with pytest.raises(RuntimeError, match=r"numba was imported before .*\(NUMBA_OPT\)"):
        numba_env.apply()
