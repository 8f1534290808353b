"""Where batches are cleaned: in this process, or on a pool of Ray actors.

Both executors take an iterator of (key, batch) items and yield (key, docs, stats)
in input order. A key of three parts (what, source, bucket) pins its batch to
worker ``bucket % workers`` (per-host cleaners keep state per host). The Ray
executor keeps at most ``2 x workers`` batches in flight, so memory stays flat
however large the input; each actor builds its pipeline
(and loads any model) once, at start. A batch whose actor dies is counted as
``failed.worker_crash`` and the run goes on with a restarted actor.
"""
from __future__ import annotations

import logging
import os
from collections import deque
from typing import Iterable, Iterator

from preprocess.document import Document
from preprocess.pipeline import CleanOptions, Pipeline
from preprocess.stats import Stats

log = logging.getLogger("webprune.preprocess")
Item = tuple[object, list[Document] | None]


class LocalExecutor:
    """Runs the pipeline in the calling process (debugging, single-core benchmarks)."""

    def __init__(self, opts: CleanOptions):
        self.pipeline = Pipeline(opts)
        self.workers = 1

    def map(self, items: Iterable[Item]) -> Iterator[tuple[object, list[dict], Stats]]:
        for key, batch in items:
            if batch is None:
                yield key, [], Stats()
            else:
                yield (key, *self.pipeline.process(batch))

    def close(self) -> None:
        pass


def _crash_stats(batch: list[Document], exc: Exception) -> Stats:
    stats = Stats()
    for d in batch:
        stats.outcome("failed", "worker_crash", example=f"{d.id} ({d.source}): {type(exc).__name__}")
    log.error("a cleaner actor died on a batch of %d records from %s (%s); they are counted as failed.worker_crash",
              len(batch), batch[0].source if batch else "?", exc)
    return stats


class RayExecutor:
    """A pool of cleaner actors, one CPU each, started locally or on the cluster at ``address``."""

    def __init__(self, opts: CleanOptions, workers: int | None = None, address: str | None = None):
        import ray

        self.ray = ray
        address = address or os.environ.get("RAY_ADDRESS") or None
        if not ray.is_initialized():
            if address:
                ray.init(address=address, log_to_driver=True)
            else:
                ray.init(num_cpus=workers or os.cpu_count(), include_dashboard=False, log_to_driver=True,
                         logging_level=logging.WARNING, configure_logging=True)
        if not workers:
            workers = max(1, int(ray.cluster_resources().get("CPU", 1)))
        self.workers = workers

        @ray.remote(num_cpus=1, max_restarts=-1, max_task_retries=0)
        class CleanerActor:
            def __init__(self, opts: CleanOptions):
                logging.basicConfig(level=logging.WARNING)
                self.pipeline = Pipeline(opts)

            def process(self, batch: list[Document]):
                return self.pipeline.process(batch)

            def ready(self) -> bool:
                return True

        self.actors = [CleanerActor.remote(opts) for _ in range(workers)]
        # Wait for every actor to build its pipeline: start-up errors (a bad model path, a missing
        # package on a cluster node) surface here, once, instead of on the first batch.
        ray.get([a.ready.remote() for a in self.actors])

    def map(self, items: Iterable[Item]) -> Iterator[tuple[object, list[dict], Stats]]:
        ray = self.ray
        slots = {id(a): 2 for a in self.actors}  # two batches queued per actor keeps it busy while we collect
        rr = 0  # round robin over actors for batches not pinned to one
        pending: deque = deque()  # (key, batch, actor, ref) in submission order
        items = iter(items)
        waiting = None  # an item whose actor has no free slot yet
        exhausted = False
        while True:
            while not exhausted:
                if waiting is None:
                    try:
                        waiting = next(items)
                    except StopIteration:
                        exhausted = True
                        break
                key, batch = waiting
                if batch is None:
                    pending.append((key, None, None, None))
                    waiting = None
                    continue
                if len(key) > 2:
                    actor = self.actors[key[2] % len(self.actors)]
                else:
                    actor = max(self.actors[rr:] + self.actors[:rr], key=lambda a: slots[id(a)])
                    rr = (rr + 1) % len(self.actors)
                if slots[id(actor)] <= 0:
                    break  # collect the oldest result first; that frees a slot
                slots[id(actor)] -= 1
                pending.append((key, batch, actor, actor.process.remote(batch)))
                waiting = None
            if not pending:
                return
            key, batch, actor, ref = pending.popleft()
            if ref is None:
                yield key, [], Stats()
                continue
            try:
                docs, stats = ray.get(ref)
            except (ray.exceptions.RayActorError, ray.exceptions.RayTaskError, ray.exceptions.WorkerCrashedError) as exc:
                docs, stats = [], _crash_stats(batch, exc)
            slots[id(actor)] += 1
            yield key, docs, stats

    def close(self) -> None:
        for a in self.actors:
            self.ray.kill(a)
        self.actors = []
