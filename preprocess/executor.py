"""Where units run: in this process, or as Ray tasks on a cluster.

Both executors have one method, ``map(fn, items, shared, tick)``: ``fn(shared, item,
progress)`` runs once per item and ``map`` yields ``(item, result)`` as each
finishes, or ``(item, Failure)`` for an item that failed on every retry. Items are
small descriptors (work units); ``shared`` (the job) is sent once.

Ray does the scheduling, retries and backpressure: each item is a task
(``max_retries`` covers a dead worker -- a native crash, an OOM kill, the page
watchdog -- and ``retry_exceptions`` an error such as a storage hiccup), at most
``2 x workers`` are in flight (``ray.wait``), and a worker process is replaced
after ``max_calls`` tasks, so memory a parser leaks does not pile up.
Records read are counted by a small progress actor that ``tick`` reads.
"""
from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator

log = logging.getLogger("webprune.preprocess")


@dataclass
class Failure:
    reason: str     # a short name for stats: worker_crash, unit_error, ...
    message: str


class Counter:
    """Records read so far, summed over every unit (the local executor's progress)."""

    def __init__(self):
        self.records = 0

    def add(self, n: int) -> None:
        self.records += n

    def total(self) -> int:
        return self.records


class LocalExecutor:
    """Runs every item in this process, one after another (debugging, single-core benchmarks)."""

    workers = 1

    def __init__(self):
        self.progress = Counter()

    def records(self) -> int:
        return self.progress.total()

    def map(self, fn: Callable, items: Iterable, shared: Any = None,
            tick: Callable[[], None] | None = None) -> Iterator[tuple[Any, Any]]:
        for item in items:
            try:
                result = fn(shared, item, self.progress)
            except Exception as exc:  # noqa: BLE001 -- one unit's error never stops the run
                log.error("unit failed: %s: %s", type(exc).__name__, exc)
                result = Failure("unit_error", f"{type(exc).__name__}: {exc}")
            if tick:
                tick()
            yield item, result

    def close(self) -> None:
        pass


class _RemoteProgress:
    """A worker's handle on the progress actor: ``add`` without waiting for an answer."""

    def __init__(self, actor):
        self.actor = actor

    def add(self, n: int) -> None:
        self.actor.add.remote(n)


def _call(fn, shared, item, actor):
    return fn(shared, item, _RemoteProgress(actor) if actor is not None else None)


class RayExecutor:
    def __init__(self, workers: int | None = None, address: str | None = None, max_retries: int = 6,
                 max_calls: int = 0):
        import ray

        self.ray = ray
        address = address or os.environ.get("RAY_ADDRESS") or None
        if not ray.is_initialized():
            quiet = dict(logging_level=logging.ERROR, log_to_driver=True, configure_logging=True)
            os.environ.setdefault("RAY_DEDUP_LOGS", "1")
            if address:
                ray.init(address=address, **quiet)
            else:
                ray.init(num_cpus=workers or os.cpu_count(), include_dashboard=False, **quiet)
        cpus = int(ray.cluster_resources().get("CPU", 1))
        self.workers = max(1, min(workers, cpus) if workers else cpus)
        # units in flight: one queued per worker keeps every worker busy; --workers below the cluster's
        # CPUs is a limit on concurrency, so nothing is queued past it
        self.cap = self.workers if self.workers < cpus else 2 * self.workers
        # a dead worker is always retried; of the errors, only I/O ones (a storage hiccup) are worth another try
        options = dict(num_cpus=1, max_retries=max_retries, retry_exceptions=[OSError, TimeoutError])
        if max_calls:
            options["max_calls"] = max_calls
        self.task = ray.remote(**options)(_call)

        @ray.remote(num_cpus=0)
        class Progress:
            def __init__(self):
                self.n = 0

            def add(self, n: int) -> None:
                self.n += n

            def total(self) -> int:
                return self.n

        self.progress = Progress.remote()

    def records(self) -> int:
        return self.ray.get(self.progress.total.remote())

    def map(self, fn: Callable, items: Iterable, shared: Any = None,
            tick: Callable[[], None] | None = None) -> Iterator[tuple[Any, Any]]:
        ray = self.ray
        shared_ref = ray.put(shared)
        pending: dict = {}
        todo = iter(items)
        exhausted = False
        while True:
            while not exhausted and len(pending) < self.cap:
                try:
                    item = next(todo)
                except StopIteration:
                    exhausted = True
                    break
                pending[self.task.remote(fn, shared_ref, item, self.progress)] = item
            if not pending:
                return
            done, _ = ray.wait(list(pending), num_returns=1, timeout=0.5)
            if tick:
                tick()
            for ref in done:
                item = pending.pop(ref)
                try:
                    yield item, ray.get(ref)
                except ray.exceptions.RayTaskError as exc:
                    cause = exc.cause if getattr(exc, "cause", None) is not None else exc
                    yield item, Failure("unit_error", f"{type(cause).__name__}: {str(cause).strip()[:500]}")
                except ray.exceptions.RayError as exc:  # the worker died on every retry
                    yield item, Failure("worker_crash", f"{type(exc).__name__}: {str(exc).strip()[:500]}")

    def close(self) -> None:
        try:
            self.ray.kill(self.progress)
        except Exception:  # noqa: BLE001
            pass


def make_executor(kind: str, workers: int | None = None, address: str | None = None, **kw):
    return LocalExecutor() if kind == "local" else RayExecutor(workers, address, **kw)
