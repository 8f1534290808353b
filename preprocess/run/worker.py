"""What runs where a unit is: read its file, clean its records, write its shard and its entry.

The driver never sees a record. :func:`clean_unit` returns a :class:`UnitResult`
(counts, times, the shard's name and size); :func:`count_unit` only counts a unit's
records (for a unit that failed on every retry). A learning pass's half that runs
where a unit is: :mod:`preprocess.learning.worker`.
"""
from __future__ import annotations

import json
import os
import time
from typing import Iterator

import orjson

from preprocess.core.document import Document
from preprocess.run.duplicates import UnitIds, skip_copy, table_name
from preprocess.runtime.attempts import AttemptGuard
from preprocess.runtime.interrupt import noting_stops
from preprocess.core.artefacts import Learned
from preprocess.folder.output import OutputDir
from preprocess.run.pipeline import Pipeline
from preprocess.readers import read_source
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


def timed_records(docs: Iterator[Document], stats: Stats) -> Iterator[Document]:
    """The reader's records, its time counted as the ``read`` stage."""
    while True:
        t0, c0 = time.perf_counter(), time.process_time()
        doc = next(docs, None)
        stats.add_time("read", time.perf_counter() - t0, time.process_time() - c0)
        if doc is None:
            return
        yield doc


def json_dumps(data: dict) -> bytes:
    """One shard line, compact JSON in UTF-8 (orjson: ~12x faster than ``json``). A lone surrogate, which
    UTF-8 cannot hold, is written as a ``\\udXXX`` escape instead of failing the record."""
    try:
        return orjson.dumps(data, option=orjson.OPT_APPEND_NEWLINE)
    except TypeError:
        return (json.dumps(data, separators=(",", ":")) + "\n").encode("ascii")


def json_line(doc: Document) -> tuple[bytes, int]:
    """The shard line of a document, and the UTF-8 size of its ``contents`` (what gets indexed)."""
    data = doc.to_json()
    return json_dumps(data), len(data["contents"].encode("utf-8"))


class _Reporter:
    """Sends the records read to the driver's progress counter, at most twice a second; what a counter not there
    yet could not take is sent with the next report, tried again after ``RETRY_S`` (a counter the driver has not
    started yet costs a lookup each time) or at the unit's end."""

    EVERY_S, RETRY_S = 0.5, 5.0

    def __init__(self, progress):
        self.progress, self.sent, self.next = progress, 0, 0.0

    def __call__(self, stats: Stats, force: bool = False) -> None:
        if self.progress is None:
            return
        now = time.monotonic()
        if force or now >= self.next:
            n = stats.counts["records"]
            if n > self.sent:
                if self.progress.add(n - self.sent):
                    self.sent, self.next = n, now + self.EVERY_S
                else:
                    self.next = now + self.RETRY_S


def clean_unit(job: Job, unit: WorkUnit, progress=None) -> UnitResult:
    out = OutputDir(job.output)
    pipe = pipeline_for(job)
    pipe.reset()  # nothing one unit taught a step carries over to the next
    stats = Stats()
    if job.outcomes:
        stats.ledger = []
    report = _Reporter(progress)
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
           report: _Reporter) -> UnitResult:
    """Clean the unit's records into its shard, then write its entry."""
    renames = (load_learned(job).get("page_ids") or {}).get("renamed", {}).get(str(unit.index))
    records = timed_records(read_source(unit.source, stats, job.opts.max_bytes, renames=renames), stats)
    ids, where = UnitIds(), unit.source.uri
    for batch in guard.batches(records, job.batch_size, stats):
        t0 = time.perf_counter()
        docs = pipe.run(batch, stats)
        stats.slow(time.perf_counter() - t0, f"{batch[0].id}" + (f" +{len(batch) - 1}" if len(batch) > 1 else "")
                   + f" ({unit.source.filename})")
        with stats.timer("write"):
            firsts = [ids.add(d.id) for d in docs]
            lines = [json_line(d) for d, first in zip(docs, firsts) if first is None]
            shard.write([line for line, _ in lines])
        stats.update("bytes_out", sum(n for _, n in lines))
        for d, first in zip(docs, firsts):
            if first is None:
                stats.outcome("written", rid=d.id)
            else:
                skip_copy(stats, d.id, f"{where}, document {first}", where)
        report(stats)
    with stats.timer("write"):
        size = shard.commit()
        table, parts = ids.table()
        out.write_bytes(table, "ids", table_name(unit.index))
    report(stats, force=True)
    if stats.ledger is not None:
        write_ledger(out, unit.index, stats.ledger)
    result = UnitResult(unit.index, unit.key, unit.shard, shard.documents, size, stats.to_state(), node=_node(),
                        pid=os.getpid(), peak_rss_mb=peak_rss_mb(), ids=parts, shard_sha1=shard.sha1)
    out.write_json(result.entry(), "units", unit.entry)
    guard.done()
    return result


def write_ledger(out: OutputDir, index: int, ledger: list[tuple[str, str]]) -> None:
    import gzip

    text = "".join(f"{rid}\t{outcome}\n" for rid, outcome in ledger)  # ids hold no tab or newline (ids.safe_id)
    out.write_bytes(gzip.compress(text.encode("utf-8"), mtime=0), "outcomes", f"{index:05d}.tsv.gz")


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
