"""What runs where a unit is: read its file, clean its records, write its shard and its entry.

The driver never sees a record. :func:`clean_unit` returns a :class:`UnitResult`
(counts, times, the shard's name and size); :func:`count_unit` only counts a unit's
records (for a unit that failed on every retry). A learning pass's half that runs
where a unit is: :mod:`preprocess.learning.worker`.
"""
from __future__ import annotations

import os
import time

from preprocess.runtime.attempts import AttemptGuard
from preprocess.runtime.interrupt import noting_stops
from preprocess.core.artefacts import Learned
from preprocess.folder.output import OutputDir
from preprocess.run.pipeline import Pipeline
from preprocess.readers import read_source, unit_records
from preprocess.run.writer import UnitWriter
from preprocess.runtime.progress import UnitProgress
from preprocess.core.stats import Stats, peak_rss_mb
from preprocess.run.units import Job, UnitResult, WorkUnit

_CACHE: dict = {}  # one pipeline per worker process, rebuilt only when the job changes


def load_learned(job: Job) -> Learned:
    """The artefacts named in ``job.learned``, read from OUT/learned/ (cached per process)."""
    key = ("learned", job.output, tuple(sorted(job.learned.items())))
    if key not in _CACHE:
        out = OutputDir(job.output)
        artefacts = {}
        for name, digest in job.learned.items():
            saved = out.read_json("learned", f"{name}.json")
            if not saved or saved.get("key") != digest:
                raise RuntimeError(f"learned artefact {name!r} is missing or stale in {job.output}/learned; "
                                   "run the command again (the learning pass is redone)")
            artefacts[name] = saved["artefact"]
        _CACHE.clear()
        _CACHE[key] = Learned(artefacts, root=job.output)
    return _CACHE[key]


def pipeline_for(job: Job) -> Pipeline:
    key = ("pipeline", job.key)
    if key not in _CACHE:
        learned = load_learned(job)
        for k in [k for k in _CACHE if k[0] == "pipeline"]:
            del _CACHE[k]
        _CACHE[key] = Pipeline(job.opts, learned)
    return _CACHE[key]


def clean_unit(job: Job, unit: WorkUnit, progress=None) -> UnitResult:
    out = OutputDir(job.output)
    pipe = pipeline_for(job)
    pipe.reset()  # nothing one unit taught a step carries over to the next
    stats = Stats()
    if job.outcomes:
        stats.ledger = []
    report = UnitProgress(progress)
    guard = AttemptGuard(out, unit.key, unit.source.uri, job.page_timeout, run=job.run)
    if guard.cancelled:
        stats.update("units.cancelled_attempts_redone")
    if guard.lost:
        stats.update("units.retried")
        stats.update("units.attempts_lost", guard.lost)
    if guard.stops:
        stats.update("units.stopped_attempts_redone", guard.stops)
    shard = out.open_shard(unit.shard, job.compress)
    with noting_stops() as stops:
        try:
            return _clean(job, unit, out, pipe, guard, shard, stats, report)
        except BaseException as exc:
            shard.abort()
            if stops or isinstance(exc, KeyboardInterrupt):  # stopped (Ray's SIGTERM handler exits): no crash
                guard.stopped()
            raise


def _clean(job: Job, unit: WorkUnit, out: OutputDir, pipe: Pipeline, guard: AttemptGuard, shard, stats: Stats,
           report: UnitProgress) -> UnitResult:
    """The unit's chain: its records read, in batches the guard watches, through the pipeline, into its shard;
    then its entry."""
    renames = (load_learned(job).get("page_ids") or {}).get("renamed", {}).get(str(unit.index))
    records = unit_records(unit.source, stats, job.opts.max_bytes, renames)
    writer = UnitWriter(out, unit, shard, stats)
    for batch in guard.batches(records, job.batch_size, stats):
        t0 = time.perf_counter()
        docs = pipe.run(batch, stats)
        stats.slow(time.perf_counter() - t0, f"{batch[0].id}" + (f" +{len(batch) - 1}" if len(batch) > 1 else "")
                   + f" ({unit.source.filename})")
        writer.write(docs)
        report(stats)
    size, parts = writer.commit()
    report(stats, force=True)
    result = UnitResult(unit.index, unit.key, unit.shard, shard.documents, size, stats.to_state(), node=_node(),
                        pid=os.getpid(), peak_rss_mb=peak_rss_mb(), ids=parts, shard_sha1=shard.sha1)
    out.write_json(result.entry(), "units", unit.entry)
    guard.done()
    return result


def _node() -> str:
    """The Ray node that ran the unit (the host name outside Ray)."""
    try:
        import ray

        if ray.is_initialized():
            return ray.get_runtime_context().get_node_id()
    except Exception:  # noqa: BLE001
        pass
    import socket

    return socket.gethostname()


def count_unit(job: Job, unit: WorkUnit, progress=None) -> int:
    """Records of a unit, read without cleaning."""
    stats = Stats()
    for _ in read_source(unit.source, stats, job.opts.max_bytes):
        pass
    return stats.counts["records"]
