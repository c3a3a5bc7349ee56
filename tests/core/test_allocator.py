"""``core.allocator``: glibc keeps freed memory, so a search reuses the pages of the one
before (all papers; the pimcts_aggregation paper run spent 70% of its CPU faulting them in).

Each check runs in a fresh interpreter whose environment has no MALLOC_* variable (``make``
exports them), so "default" really is glibc's default.
"""

import json
import os
import subprocess
import sys
import textwrap

import pytest

from infosets.core import allocator

pytestmark = pytest.mark.skipif(allocator._mallopt() is None, reason="glibc only")

# What numba's runtime does for each tree array: malloc, fill, free. (Not numpy arrays: numpy
# asks for transparent huge pages, which fault 512 times less often.)
FAULTS = """
import ctypes, resource

libc = ctypes.CDLL(None)
libc.malloc.restype = ctypes.c_void_p
libc.free.argtypes = [ctypes.c_void_p]

def fill_and_free(size):
    block = libc.malloc(size)
    ctypes.memset(block, 255, size)
    libc.free(block)

def faults(count=5, megabytes=64):
    fill_and_free(megabytes << 20)  # the first one may fault: the heap grows
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for _ in range(count):
        fill_and_free(megabytes << 20)
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before
"""
PAGES_PER_ARRAY = (64 << 20) // 4096


def _python(code: str, tmp_path, env_extra=None) -> str:
    (tmp_path / "faults.py").write_text(FAULTS)
    env = {k: v for k, v in os.environ.items() if not k.startswith("MALLOC_")}
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path), env.get("PYTHONPATH", "")])
    env.update(env_extra or {})
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=env, cwd=tmp_path,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip().splitlines()[-1]


def test_a_freed_tree_sized_array_is_reused_without_page_faults(tmp_path):
    out = json.loads(_python("""
        import json
        from faults import faults
        from infosets.core.allocator import keep_freed_memory
        default = faults()
        took = keep_freed_memory(environment=False)
        print(json.dumps([default, took, faults()]))
    """, tmp_path))
    default, took, kept = out
    assert default >= 5 * PAGES_PER_ARRAY * 0.9  # glibc's default: every page faulted again
    assert took is True
    assert kept < PAGES_PER_ARRAY // 10


def test_keep_freed_memory_reaches_the_processes_it_starts(monkeypatch):
    for name in allocator.ENVIRONMENT:  # setenv records the value to restore after the test
        monkeypatch.setenv(name, "")
        monkeypatch.delenv(name)
    allocator.keep_freed_memory()
    assert {k: os.environ[k] for k in allocator.ENVIRONMENT} == allocator.ENVIRONMENT


def test_pool_workers_keep_freed_memory_through_the_forkserver_preload(tmp_path):
    # the parent process never calls keep_freed_memory: the workers get it from the
    # forkserver's preload (experiments.lifeline_preload)
    out = _python("""
        from faults import faults
        from infosets.experiments.executors import make_executor
        executor = make_executor(2)  # one worker would run in this process
        try:
            print(list(executor.submit_all([(faults, ())])))
        finally:
            executor.close()
    """, tmp_path)
    assert "[(0, " in out
    assert int(out.split(",")[1].strip(" )]")) < PAGES_PER_ARRAY // 10


SEARCHES = """
import json
import numpy as np, pyspiel
import infosets.games  # noqa: F401
from infosets.core.allocator import keep_freed_memory
from infosets.search.ismcts import ISMCTSBot
from infosets.search.mcts import OLMCTSBot
from infosets.search.pimcts import PIMCTSBot

game = pyspiel.load_game("stratego")
state = game.new_initial_state()
rng = np.random.default_rng(3)
while (len(state.history()) < 60 or state.is_chance_node()) and not state.is_terminal():
    if state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes())
        state.apply_action(int(rng.choice(actions, p=probs)))
    else:
        state.apply_action(int(rng.choice(state.legal_actions())))
player = state.current_player()


def searches():
    kw = dict(rng=np.random.default_rng(5), engine="compiled", rollout_length=40)
    bots = [OLMCTSBot(game, player, iterations=3000, **kw),
            ISMCTSBot(game, player, iterations=1500, **kw),
            PIMCTSBot(game, player, iterations=3000, determinizations=3,
                      aggregation="AverageValue", **kw)]
    roots = []
    for _ in range(2):  # the second round's arrays land on the first round's freed memory
        for bot in bots:
            stats = bot.search(state)
            roots.append(sorted((int(a), [float(x) for x in np.ravel(v)])
                                for a, v in stats.items())
                         if isinstance(stats, dict) else repr(stats))
    return roots


default = searches()  # glibc's default: each tree array is fresh (zeroed) memory
took = keep_freed_memory(environment=False)
print(json.dumps([took, default, searches()]))
"""


def test_compiled_searches_give_the_same_trees_with_either_allocator(tmp_path):
    """One interpreter searches under glibc's default, then keeps freed memory and searches
    again with new bots (was: one interpreter each, paying the imports and the engine load
    twice). Reading a tree array before writing it would differ once the kept pages hold the
    first searches' trees instead of zeros."""
    (tmp_path / "searches.py").write_text(SEARCHES)
    took, default, kept = json.loads(
        _python("import runpy; runpy.run_path('searches.py')", tmp_path))
    assert took is True
    assert default == kept
    assert len(default) == 6


@pytest.mark.xdist_group("runner")  # starts local Dask clusters: beside the other multi-process tests
def test_a_sessions_local_dask_workers_start_with_the_allocator_environment(tmp_path):
    # Dask's nanny starts them with MALLOC_TRIM_THRESHOLD_=65536 unless its own environment
    # says otherwise (Session.create sets it). Both ways of asking for a local cluster, the
    # argument and then $DASK_SCHEDULER, in one interpreter (was one each), with one worker
    # each (was two): every worker is started by a nanny the same way.
    extra = {f"INFOSETS_{kind}_DIR": str(tmp_path / kind.lower())
             for kind in ("FIGURES", "DATA", "RESULTS")}
    out = _python("""
        import json, os
        from infosets.experiments.session import Session

        def environment():
            import os
            return {k: v for k, v in os.environ.items() if k.startswith("MALLOC_")}

        seen = {}
        for through, scheduler in (("argument", "local-dask"), ("DASK_SCHEDULER", None)):
            for name in [k for k in os.environ if k.startswith("MALLOC_")]:
                del os.environ[name]  # each session must set them itself
            if scheduler is None:
                os.environ["DASK_SCHEDULER"] = "local-dask"
            session = Session.create("quickstart", "smoke", workers=1, scheduler=scheduler)
            try:
                executor = session.executor()
                seen[through] = [type(executor).__name__,
                                 list(executor.submit_all([(environment, ())]))]
            finally:
                session.close()
        print(json.dumps(seen))
    """, tmp_path, extra)
    seen = json.loads(out)
    for through in ("argument", "DASK_SCHEDULER"):
        name, [[index, environment]] = seen[through]
        assert name == "DaskExecutor", (through, name)
        assert environment == allocator.ENVIRONMENT, through
