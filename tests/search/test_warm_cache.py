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
