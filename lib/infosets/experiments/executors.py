"""Executors for the task runner: in-process, local process pool, Dask distributed (all papers).

All three expose ``submit_all(calls)``, yielding ``(index, result)`` as calls finish, and
``close()``. A call that raises is re-raised as ``TaskFailed`` carrying the call's index, and
the executor cancels what has not started. The runner sorts results back into task order,
so the table does not depend on the executor or the worker count.
"""

from __future__ import annotations

import multiprocessing as mp
import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

from infosets.experiments import lifeline, runlog

Call = tuple[Callable, tuple]


class TaskFailed(RuntimeError):
    """A task raised; ``index`` is its position in the submitted list."""

    def __init__(self, index: int, error: BaseException):
        super().__init__(f"{type(error).__name__}: {error}")
        self.index, self.error = index, error


def default_workers() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()


class SerialExecutor:
    """Runs calls one after another in this process (workers=1; easiest to debug)."""

    name = "serial"
    workers = 1

    def submit_all(self, calls: Sequence[Call]) -> Iterator[tuple[int, object]]:
        for index, (fn, args) in enumerate(calls):
            try:
                result = fn(*args)
            except Exception as exc:
                raise TaskFailed(index, exc) from exc
            yield index, result

    def close(self) -> None:
        pass


class PoolExecutor:
    """A local process pool (forkserver start method: safe inside Jupyter kernels).

    The forkserver and every worker die with their parent (``lifeline``): a ``kill -9`` of
    the run leaves no process computing."""

    name = "pool"

    def __init__(self, workers: int):
        self.workers = workers
        method = "forkserver" if "forkserver" in mp.get_all_start_methods() else "spawn"
        context = mp.get_context(method)
        if method == "forkserver":  # applies when this process starts its forkserver
            context.set_forkserver_preload(["infosets.experiments.lifeline_preload"])
        self._pool = ProcessPoolExecutor(max_workers=workers, mp_context=context,
                                         initializer=lifeline.pool_worker_initializer)

    def submit_all(self, calls: Sequence[Call]) -> Iterator[tuple[int, object]]:
        futures = {self._pool.submit(fn, *args): i for i, (fn, args) in enumerate(calls)}
        pending = set(futures)
        try:
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in sorted(done, key=futures.get):
                    error = future.exception()
                    if error is not None:
                        raise TaskFailed(futures[future], error) from error
                    yield futures[future], future.result()
        finally:
            for future in pending:
                future.cancel()

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)


CONNECT_TIMEOUT_S = 4.0


class DaskExecutor:
    """A Dask distributed Client: a scheduler address, or ``local-dask`` for a LocalCluster.

    An address that does not answer within ``CONNECT_TIMEOUT_S`` is a one-line ConfigError
    naming it. A worker lost mid-sweep costs only time: the scheduler reruns its tasks on the
    others, and as each task's seed comes from its key, the table is the same.
    """

    name = "dask"

    def __init__(self, scheduler: str, workers: int, timeout: float = CONNECT_TIMEOUT_S):
        from distributed import Client, LocalCluster

        runlog.adopt("distributed")  # its connection and worker messages: the run log
        self._cluster = None
        if scheduler == "local-dask":
            self._cluster = LocalCluster(
                n_workers=workers, threads_per_worker=1, processes=True,
                dashboard_address=None, host="127.0.0.1",
            )
            self._client = Client(self._cluster)
        else:
            self._client = _connect(Client, scheduler, timeout)
        self.workers = len(self._client.scheduler_info().get("workers", {})) or workers

    def submit_all(self, calls: Sequence[Call]) -> Iterator[tuple[int, object]]:
        from distributed import as_completed

        futures = [self._client.submit(fn, *args, pure=False) for fn, args in calls]
        index = {f.key: i for i, f in enumerate(futures)}
        try:
            for future in as_completed(futures):
                i = index[future.key]
                if future.status == "error":
                    error = future.exception()
                    raise TaskFailed(i, error) from error
                yield i, future.result()
        finally:
            self._client.cancel([f for f in futures if not f.done()])

    def close(self) -> None:
        self._client.close()
        if self._cluster is not None:
            self._cluster.close()


def _connect(client_cls, address: str, timeout: float):
    """``Client(address)`` or a one-line ConfigError naming the address, within ``timeout``.

    A TCP address is probed with a plain socket first: a refused or silent port fails at
    once, without leaving a half-made Client that retries in the background."""
    import socket

    from distributed.comm.addressing import parse_address, parse_host_port

    from infosets.experiments.config import ConfigError

    def unreachable(reason) -> ConfigError:
        reason = " ".join(str(reason).split()) or type(reason).__name__
        return ConfigError(f"scheduler: cannot reach the Dask scheduler at {address!r} "
                           f"within {timeout:g} s ({reason})")

    try:
        scheme, location = parse_address(address)
        if scheme in ("tcp", "tls"):
            host, port = parse_host_port(location)
            with socket.create_connection((host, port), timeout=timeout):
                pass
    except (OSError, ValueError) as exc:
        raise unreachable(exc) from None
    try:
        return client_cls(address, timeout=timeout)
    except (OSError, TimeoutError, ValueError) as exc:
        raise unreachable(exc) from None


def make_executor(workers: int | None = None, scheduler: str | None = None):
    """The executor for (workers, scheduler); ``$DASK_SCHEDULER`` applies when unset."""
    if workers is not None and (not isinstance(workers, int) or isinstance(workers, bool)
                                or workers < 1):
        raise ValueError(f"workers: expected an int >= 1 or None, got {workers!r}")
    if scheduler is not None and not isinstance(scheduler, str):
        raise ValueError(f"scheduler: expected an address string or 'local-dask', got {scheduler!r}")
    scheduler = scheduler or os.environ.get("DASK_SCHEDULER") or None
    n = workers or default_workers()
    if scheduler:
        return DaskExecutor(scheduler, n)
    return SerialExecutor() if n == 1 else PoolExecutor(n)
