"""``python -m infosets.search.warm_cache`` compiles every part of the compiled engine
(Ravichandran, Goodman and Lucas; docs/papers/pimcts_aggregation.md) before ``make test``'s
workers start, stage by stage under a progress bar."""

import numba

from infosets.games import kernels as K
from infosets.search import warm_cache


def test_the_stages_cover_every_kernel_dispatcher_and_every_search_entry():
    dispatchers = {name for name, value in vars(K).items()
                   if name.startswith("k_") and isinstance(value, numba.core.registry.CPUDispatcher)}
    names = [name for name, _ in warm_cache.stages()]
    assert set(names[:len(dispatchers)]) == dispatchers  # a new dispatcher must be warmed too
    assert names[len(dispatchers):] == ["OL-MCTS", "PI-MCTS", "IS-MCTS"]


def test_each_stage_leaves_its_code_compiled():
    for name, call in warm_cache.stages():
        call()
        if name.startswith("k_"):
            assert getattr(K, name).signatures, name
    assert warm_cache.warm(progress=False) >= 0.0


def test_loading_a_cached_engine_shows_no_compile_bar(monkeypatch, capsys):
    """A cached engine loads in 2 to 3 s on a busy machine; the bar used to appear after 2 s and
    announce "compiling ... (first run only)" in every notebook that computed a task."""
    import time

    monkeypatch.setattr(warm_cache, "stages", lambda: [("k_cached", lambda: time.sleep(3.0))])
    warm_cache.warm(progress=True)
    assert "compiling" not in capsys.readouterr().err


def test_a_slow_compile_shows_the_bar_with_its_stage(monkeypatch, capsys):
    """The other side of the test above, which a bar that never printed would also pass: a
    stage slower than the bar's delay (shortened here from 6 s) shows the bar, named by the
    stage being compiled."""
    import time

    monkeypatch.setattr(warm_cache, "LOAD_SECONDS", 0.2)
    monkeypatch.setattr(warm_cache, "stages", lambda: [("k_first", lambda: time.sleep(0.5)),
                                                       ("k_slow", lambda: time.sleep(0.5))])
    warm_cache.warm(progress=True)
    err = capsys.readouterr().err
    assert "compiling the numba engine (first run only)" in err and "k_slow" in err
