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
Records read are counted by a small progress actor, started the first time the driver asks for the count (a
progress bar at once, a log line after 30 s), so a shorter run without a bar starts no process for it;
``progress.add(n)`` says whether the count was taken (a worker sends what was not with its next report).
"""
from __future__ import annotations

import contextlib
import logging
import os
import socket
import time
import uuid
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator

from preprocess.runtime.fatal_signals import restore_jvm_handlers
from preprocess.runtime.interrupt import raise_if_stopping, ray_daemons_apart
from preprocess.folder.owned import OutputUnwritable
from preprocess.runtime.ray_local import LOCAL_RAY_CONFIG, without_idle_daemons

log = logging.getLogger("webprune.preprocess")


@dataclass
class Failure:
    reason: str     # a short name for stats: worker_crash, unit_error, ...
    message: str


class Counter:
    """Records read so far, summed over every unit (the local executor's progress)."""

    def __init__(self):
        self.records = 0

    def add(self, n: int) -> bool:
        self.records += n
        return True

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
            except OutputUnwritable:  # not the unit's fault: the run stops (a full disk, a read-only folder)
                raise
            except Exception as exc:  # noqa: BLE001 -- one unit's error never stops the run
                raise_if_stopping()
                log.error("unit failed: %s: %s", type(exc).__name__, exc)
                result = Failure("unit_error", f"{type(exc).__name__}: {exc}")
            if tick:
                tick()
            yield item, result

    def close(self) -> None:
        pass


class _RemoteProgress:
    """A worker's way to the progress actor, found by name once the driver has started it: ``add`` sends without
    waiting for an answer and says whether it sent (no actor yet: the caller keeps the count and sends it later)."""

    def __init__(self, name: str, namespace: str | None):
        self.name, self.namespace, self.actor = name, namespace, None

    def add(self, n: int) -> bool:
        import ray

        try:
            if self.actor is None:
                self.actor = ray.get_actor(self.name, namespace=self.namespace)
            self.actor.add.remote(n)
            return True
        except Exception:  # noqa: BLE001 -- not started yet (ValueError), or gone: progress never fails a unit
            return False


def _call(fn, shared, item, progress):
    try:
        return fn(shared, item, progress)
    except OutputUnwritable as exc:  # returned, not raised: no retry, no traceback; the driver stops the run
        return exc


CONNECT_TIMEOUT_S = 3.0
# The driver's gRPC keepalive on an attached cluster (unless set in its environment). A unit on a node cut off from
# the network (a partition, a pulled cable: no TCP reset) is redone once the driver's call to its worker fails, and
# with Ray's own client keepalive (a ping after 300 s of silence, 120 s for the answer) that took 7 min a unit. Ray's
# servers accept a ping every 60 s (a client that pings faster is sent GOAWAY, failing its calls): 70 + 20 s here.
# Faster needs the same variables on every node too (docs/cluster.md).
DRIVER_KEEPALIVE = {"RAY_grpc_client_keepalive_time_ms": "70000", "RAY_grpc_client_keepalive_timeout_ms": "20000"}


def check_address(address: str | None) -> str | None:
    """The Ray cluster to attach to: ``address``, else $RAY_ADDRESS; None to start a local one.

    Answers within seconds, before anything is written: a ``ray://`` address (Ray Client, whose extras
    webprune does not install) or one that is not HOST:PORT is refused, and HOST:PORT must accept a TCP
    connection (Ray's GCS) -- ``ray.init`` would otherwise wait for minutes. ValueError says what to do.
    """
    origin = "--address" if address else "$RAY_ADDRESS"
    address = address or os.environ.get("RAY_ADDRESS") or None
    if address is None or address == "local":
        return None
    address = address.strip()
    if address.startswith("ray://"):
        raise ValueError(f"{origin} {address}: ray:// addresses (Ray Client) are not supported: run webprune on a "
                         "node of the cluster and give --address HOST:6379 (or set RAY_ADDRESS to it)")
    if address == "auto":
        try:
            from ray._private.services import canonicalize_bootstrap_address
        except ImportError:  # Ray's private helper moved: let ray.init resolve it
            return address
        try:
            address = canonicalize_bootstrap_address("auto")
        except (ConnectionError, ValueError):
            raise ValueError(f"{origin} auto: no Ray cluster runs on this machine: start one with `ray start "
                             "--head`, or leave --address out to start a local one") from None
        origin = f"{origin} auto"
    host, _, port = address.rpartition(":")
    host = host.strip("[]")
    if "://" in address or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"{origin} {address!r}: give the cluster's HOST:PORT, as `ray start --head` prints it "
                         "(e.g. 10.0.0.5:6379)")
    try:
        socket.create_connection((host, int(port)), timeout=CONNECT_TIMEOUT_S).close()
    except OSError as exc:
        why = "timed out" if isinstance(exc, socket.timeout) else exc.strerror or type(exc).__name__
        raise ValueError(f"no Ray cluster answers at {address} ({origin}: {why}): start one with `ray start --head "
                         f"--port {port}` there, or leave --address out to start a local one") from None
    return address


class NoNodesLeft(RuntimeError):
    """Every Ray node with CPUs has been gone for ``node_wait`` seconds: nothing can run the units left."""


NODE_CHECK_S = 2.0  # how often the driver, while no unit finishes, asks the GCS which nodes are alive


class RayExecutor:
    def __init__(self, workers: int | None = None, address: str | None = None, max_retries: int = 6,
                 max_calls: int = 0, node_wait: float = 300.0):
        import ray

        self.ray = ray
        self.node_wait = node_wait  # seconds with no node that has CPUs before map stops (0: wait for ever)
        self._next_check, self._no_nodes_since = 0.0, None
        if not ray.is_initialized():
            address = check_address(address)
            quiet = dict(logging_level=logging.ERROR, log_to_driver=True, configure_logging=True)
            os.environ.setdefault("RAY_DEDUP_LOGS", "1")
            with ray_daemons_apart():  # a signal to the command's process group is the driver's alone
                if address:
                    for key, value in DRIVER_KEEPALIVE.items():
                        os.environ.setdefault(key, value)
                    try:
                        ray.init(address=address, **quiet)
                    except (ConnectionError, RuntimeError) as exc:
                        raise RuntimeError(f"cannot attach to the Ray cluster at {address}: {exc}. Check that it "
                                           "runs (`ray status`); a cluster started with token authentication (the "
                                           "default of `ray start` in recent Ray) also needs RAY_AUTH_MODE=token "
                                           "in this shell (docs/cluster.md)") from None
                else:  # a local cluster of this machine's CPUs (its own, even beside a `ray start` cluster)
                    with without_idle_daemons():
                        ray.init(address="local", num_cpus=min(workers or os.cpu_count(), os.cpu_count()),
                                 include_dashboard=False, _system_config=dict(LOCAL_RAY_CONFIG), **quiet)
            restore_jvm_handlers()  # a JVM of this process keeps its fatal signals (Ray's core worker took them)
        self._had_nodes = ray.cluster_resources().get("CPU", 0) > 0  # else an autoscaler is still to start some
        cpus = int(ray.cluster_resources().get("CPU", 1))
        if workers and workers > cpus:
            log.warning("--workers %d: the Ray cluster has %d CPUs, so %d workers are used", workers, cpus, cpus)
        self.workers = max(1, min(workers, cpus) if workers else cpus)
        # units in flight: one queued per worker keeps every worker busy; --workers below the cluster's
        # CPUs is a limit on concurrency, so nothing is queued past it
        self.cap = self.workers if self.workers < cpus else 2 * self.workers
        # a dead worker is always retried; of the errors, only I/O ones (a storage hiccup) are worth another try
        options = dict(num_cpus=1, max_retries=max_retries, retry_exceptions=[OSError, TimeoutError])
        if max_calls:
            options["max_calls"] = max_calls
        self.task = ray.remote(**options)(_call)
        self.progress = None  # the actor, once records() is first asked
        self.reporter = _RemoteProgress(f"webprune-progress-{uuid.uuid4().hex}", ray.get_runtime_context().namespace)

    def records(self) -> int:
        """Records read so far by the running and finished units (0 the first time: the actor starts now, and
        workers send it what they read until then at their next report: within half a second, or five seconds when
        their last lookup found no actor, see ``preprocess.runtime.progress.UnitProgress``)."""
        if self.progress is None:
            actor = self.ray.remote(num_cpus=0)(_Progress)
            self.progress = actor.options(name=self.reporter.name, namespace=self.reporter.namespace,
                                          get_if_exists=True).remote()
            return 0
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
                pending[self.task.remote(fn, shared_ref, item, self.reporter)] = item
            if not pending:
                return
            done, _ = ray.wait(list(pending), num_returns=1, timeout=0.5)
            if tick:
                tick()
            if not done:
                self._check_nodes(len(pending))
            for ref in done:
                item = pending.pop(ref)
                try:
                    result = ray.get(ref)
                except ray.exceptions.RayTaskError as exc:
                    cause = exc.cause if getattr(exc, "cause", None) is not None else exc
                    result = Failure("unit_error", f"{type(cause).__name__}: {str(cause).strip()[:500]}")
                except ray.exceptions.RayError as exc:  # the worker died on every retry
                    result = Failure("worker_crash", f"{type(exc).__name__}: {str(exc).strip()[:500]}")
                if isinstance(result, OutputUnwritable):  # the output cannot take more: stop, naming the path
                    raise result
                if isinstance(result, Failure):  # after a stop signal: its workers were ended by it, no failure
                    raise_if_stopping()
                yield item, result

    def _check_nodes(self, in_flight: int) -> None:
        """NoNodesLeft once no live node has had CPUs for ``node_wait`` seconds, on a cluster that had some: the units
        in flight would wait for ever (Ray keeps a task no node can take until one joins). Asked every few seconds."""
        now = time.monotonic()
        if not self.node_wait or now < self._next_check:
            return
        self._next_check = now + NODE_CHECK_S
        if any(n.get("Alive") and n.get("Resources", {}).get("CPU", 0) > 0 for n in self.ray.nodes()):
            self._had_nodes, self._no_nodes_since = True, None
            return
        if not self._had_nodes:
            return
        self._no_nodes_since = self._no_nodes_since or now
        if now - self._no_nodes_since >= self.node_wait:
            raise NoNodesLeft(f"no node of the Ray cluster with CPUs has been alive for {self.node_wait:g} s, with "
                              f"{in_flight} unit(s) in flight: start worker nodes, then run the same command again "
                              "(finished units are kept)")

    def close(self) -> None:
        if self.progress is None:
            return
        try:
            self.ray.kill(self.progress)
        except Exception:  # noqa: BLE001
            pass


class _Progress:
    """The progress actor (num_cpus=0): records read, summed over every unit."""

    def __init__(self):
        self.n = 0

    def add(self, n: int) -> None:
        self.n += n

    def total(self) -> int:
        return self.n


def make_executor(kind: str, workers: int | None = None, address: str | None = None, **kw):
    return LocalExecutor() if kind == "local" else RayExecutor(workers, address, **kw)


def shutdown_ray_at_exit() -> None:
    """At the end of a ``webprune`` command, whose process exits next: Ray shut down now rather than by its
    exit hook, which first sleeps 0.5 s (the local cluster has no autoscaler monitor to wait for:
    :func:`without_idle_daemons`). An attached cluster is only disconnected from, as before."""
    import sys

    ray = sys.modules.get("ray")
    if ray is not None and ray.is_initialized():
        try:
            with _stderr_silenced():  # the core worker's lines on tasks it fails as it stops are no news to a user
                ray.shutdown()
        except (KeyboardInterrupt, Exception):  # a second Ctrl-C, or Ray gone already: the process exits anyway
            pass


@contextlib.contextmanager
def _stderr_silenced():
    """File descriptor 2 and ``sys.stderr`` (C++'s writes and Python's) to /dev/null for the block, then back."""
    import sys

    try:
        sys.stderr.flush()
        saved = os.dup(2)
    except (OSError, ValueError, AttributeError):  # no stderr at all (`2>&-`): nothing to silence
        yield
        return
    python_stderr = sys.stderr
    with open(os.devnull, "w") as null:
        try:
            os.dup2(null.fileno(), 2)
            sys.stderr = null  # (whatever sys.stderr is now: the descriptor's, or a stream of its own)
            yield
        finally:
            sys.stderr = python_stderr
            os.dup2(saved, 2)
            os.close(saved)
