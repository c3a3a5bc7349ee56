"""``python -m infosets.search.warm_cache`` compiles every part of the compiled engine
(Ravichandran, Goodman and Lucas; docs/papers/pimcts_aggregation.md) before ``make test``'s
workers start, stage by stage under a progress bar."""

import numba

from infosets.games import kernels as K
from infosets.search import compiled as C
from infosets.search import warm_cache


def test_the_stages_cover_every_kernel_dispatcher_and_every_search_entry():
    dispatchers = {name for name, value in vars(K).items()
                   if name.startswith("k_") and isinstance(value, numba.core.registry.CPUDispatcher)}
    names = [name for name, _ in warm_cache.stages()]
    assert set(names[:len(dispatchers)]) == dispatchers  # a new dispatcher must be warmed too
    assert names[len(dispatchers):] == ["OL-MCTS", "PI-MCTS", "IS-MCTS"]


def test_each_stage_leaves_its_code_compiled():
    """A dispatcher's stage compiles that dispatcher; a bot's stage compiles the compiled
    engine's entry point the bot searches with (OL-MCTS and PI-MCTS: ``pimcts_trees``;
    IS-MCTS: ``ismcts_tree_with``)."""
    entry = {"OL-MCTS": C.pimcts_trees, "PI-MCTS": C.pimcts_trees, "IS-MCTS": C.ismcts_tree_with}
    for name, call in warm_cache.stages():
        call()
        compiled = getattr(K, name) if name.startswith("k_") else entry[name]
        assert compiled.signatures, name


def test_warm_runs_every_stage_once_in_order(monkeypatch):
    """``warm`` runs every stage of ``stages`` (its docstring), once each, in their order,
    with or without the bar. The seconds it returns are not checked (no timing assertion)."""
    calls = []
    fake = [(name, lambda name=name: calls.append(name)) for name in ("k_a", "k_b", "IS-MCTS")]
    monkeypatch.setattr(warm_cache, "stages", lambda: fake)
    for progress in (False, True):
        calls.clear()
        warm_cache.warm(progress=progress)
        assert calls == ["k_a", "k_b", "IS-MCTS"], progress


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
