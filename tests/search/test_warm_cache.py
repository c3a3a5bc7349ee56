"""``python -m infosets.search.warm_cache [GAME ...]`` compiles the compiled engine
(Ravichandran, Goodman and Lucas; docs/papers/pimcts_aggregation.md) for the games a run plays,
one game at a time under a progress bar, before ``make test``'s workers start."""

import pytest

from infosets.games.kernels import kernel_module
from infosets.search import compiled as C
from infosets.search import warm_cache


def test_an_unknown_game_is_one_line_of_error(capsys):
    with pytest.raises(SystemExit) as exit_:
        warm_cache.main(["no_such_game", "leduc_poker"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    errors = [line for line in err if "error:" in line]
    assert len(errors) == 1 and errors[0] == err[-1]
    assert "error: games: no kernel for no_such_game (kernels: " in err[-1]
    assert "Traceback" not in "\n".join(err)


def test_a_game_without_kernel_is_a_value_error():
    with pytest.raises(ValueError, match="has no kernel"):
        warm_cache.warm_game("kuhn_poker")


def test_warm_compiles_the_searches_the_bots_call():
    """``warm(["leduc_poker"])`` leaves Leduc's OL-MCTS/PI-MCTS entry (``pimcts_trees``) and
    IS-MCTS entry (``ismcts_tree_with``) compiled (or loaded from the cache)."""
    seconds = warm_cache.warm(["leduc_poker"], progress=False)
    assert seconds >= 0.0
    engine = C.engine_for(kernel_module("leduc_poker"))
    assert engine.pimcts_trees.signatures and engine.ismcts_tree_with.signatures


def test_main_warms_the_named_games(monkeypatch):
    calls = []
    monkeypatch.setattr(warm_cache, "warm_game", calls.append)
    assert warm_cache.main(["leduc_poker", "trick_game"]) == 0
    assert calls == ["leduc_poker", "trick_game"]
    calls.clear()
    assert warm_cache.main([]) == 0
    assert calls == ["leduc_poker"]


def test_warm_runs_every_game_once_in_order(monkeypatch):
    """``warm`` warms each game once, in order, with or without the bar. The seconds it returns
    are not checked (no timing assertion)."""
    calls = []
    monkeypatch.setattr(warm_cache, "warm_game", calls.append)
    for progress in (False, True):
        calls.clear()
        warm_cache.warm(["a", "b", "c"], progress=progress)
        assert calls == ["a", "b", "c"], progress


def test_loading_a_cached_engine_shows_no_compile_bar(monkeypatch, capsys):
    """A cached engine loads in 2 to 3 s on a busy machine; the bar used to appear after 2 s and
    announce "compiling ..." in every notebook that computed a task."""
    import time

    monkeypatch.setattr(warm_cache, "warm_game", lambda name: time.sleep(3.0))
    warm_cache.warm(["cached"], progress=True)
    assert "compiling" not in capsys.readouterr().err


def test_a_slow_compile_shows_the_bar_with_its_game(monkeypatch, capsys):
    """The other side of the test above, which a bar that never printed would also pass: a game
    slower than the bar's delay (shortened here from 6 s) shows the bar, named by the game being
    compiled."""
    import time

    monkeypatch.setattr(warm_cache, "LOAD_SECONDS", 0.2)
    monkeypatch.setattr(warm_cache, "warm_game", lambda name: time.sleep(0.5))
    warm_cache.warm(["first", "slow_game"], progress=True)
    err = capsys.readouterr().err
    assert "compiling the numba engine" in err and "slow_game" in err
