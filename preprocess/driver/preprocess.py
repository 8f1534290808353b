"""Driver of the preprocess stage: plan units, run the learning passes, clean the units, merge their stats.

The driver holds unit descriptors, results and counters only -- never a record.
Units that an earlier run finished (same key, shard and entry in place) are
skipped, so running the same command again after Ctrl-C, SIGTERM or ``kill -9``
redoes only the rest and the collection comes out byte-identical.

Order: options, inputs and the executor (a bad ``--address``) are checked, and the
output folder is checked read-only (:mod:`preprocess.run.claim`), before anything is
written; the folder is locked for this run (:mod:`preprocess.folder.lock`; an existing one
before the executor starts) and then taken.
"""
from __future__ import annotations

import logging
import time

import pyarrow.fs as pafs

from preprocess.run.claim import prepare, remove_stale
from preprocess.run.duplicates import resolve, table_name
from preprocess.runtime.executor import Failure
from preprocess.core.ids import CENSUS, needs_census, safe_id
from preprocess.driver.scaffold import driving
from preprocess.learning.engine import learn
from preprocess.folder.lock import OutputLock, new_run_id
from preprocess.config.options import CleanOptions, RunOptions
from preprocess.folder.output import OutputDir
from preprocess.run.pipeline import summaries
from preprocess.runtime.progress import Progress
from preprocess.readers.sources import discover
from preprocess.core.stats import Stats, peak_rss_mb
from preprocess.run.units import Job, UnitResult, WorkUnit, code_id, plan
from preprocess.run.worker import clean_unit, count_unit

log = logging.getLogger("webprune.preprocess")
MIN_PAGE_TIMEOUT_S = 1.0  # pages take milliseconds: a shorter limit says nothing about a page


def _finished(out: OutputDir, unit: WorkUnit) -> UnitResult | None:
    entry = out.read_json("units", unit.entry)
    if not entry or entry.get("key") != unit.key or entry.get("shard") != unit.shard:
        return None
    if out.size("collection", unit.shard) != entry.get("shard_bytes"):
        return None
    if entry.get("ids") is not None and not out.exists("ids", table_name(unit.index)):
        return None
    return UnitResult(unit.index, unit.key, unit.shard, entry["documents"], entry["shard_bytes"], entry["stats"],
                      entry.get("node", ""), reused=True, ids=entry.get("ids"), dropped=entry.get("dropped", ""),
                      shard_sha1=entry.get("shard_sha1", ""))


def _failed_unit(unit: WorkUnit, failure: Failure, executor, job: Job) -> UnitResult:
    """A unit that failed on every retry: its records are counted (read without cleaning) as failed."""
    stats = Stats()
    counted = next(iter(executor.map(count_unit, [unit], shared=job)))[1]
    n = counted if isinstance(counted, int) else 1
    stats.update("records", n)
    for _ in range(n):
        stats.outcome("failed", failure.reason)
    stats.note(f"failed.{failure.reason}", f"{unit.source.uri}: {failure.message}")
    if not isinstance(counted, int):
        stats.update("read.unit_records_unknown")
        stats.note("read.unit_records_unknown", f"{unit.source.uri}: could not even be counted; 1 record assumed")
    if job.outcomes:
        from preprocess.run.writer import write_ledger

        write_ledger(OutputDir(job.output), unit.index,
                     [(safe_id(f"@{unit.source.filename}#{k}"), f"failed.{failure.reason}") for k in range(n)])
    log.error("%s failed on every retry (%s); its %s records are counted as failed.%s", unit.source.uri,
              failure.message, n if isinstance(counted, int) else "unknown number of", failure.reason)
    return UnitResult(unit.index, unit.key, None, 0, 0, stats.to_state(), error=failure.message)


def _clean_units(units: list[WorkUnit], executor, job: Job) -> dict:
    """Clean ``units`` again (their results by index), a unit that fails every retry counted as failed."""
    done = {}
    for unit, result in executor.map(clean_unit, units, shared=job):
        done[unit.index] = _failed_unit(unit, result, executor, job) if isinstance(result, Failure) else result
    return done


def run_preprocess(inputs: list[str], output: str, opts: CleanOptions | None = None, run: RunOptions | None = None,
                   progress: bool | None = None, overwrite: bool = False, page_timeout: float = 60.0,
                   max_retries: int = 6, max_calls: int = 0, node_wait: float = 300.0) -> dict:
    """Clean every record of ``inputs`` into shards under ``output``; return the stats (also OUT/stats.json)."""
    opts = (opts or CleanOptions()).check_files()
    run = (run or RunOptions()).check()
    if 0 < page_timeout < MIN_PAGE_TIMEOUT_S:
        raise ValueError(f"--page-timeout {page_timeout:g}: under {MIN_PAGE_TIMEOUT_S:g} s every ordinary page "
                         "would fail as a timeout; give 0 (no limit) or at least 1 (default 60)")
    wall0, cpu0 = time.perf_counter(), time.process_time()
    found: dict = {}
    sources = discover(inputs, found)
    out = OutputDir(str(output))
    # in this process (--executor local) nothing could retry a unit: no watchdog ends it
    job = Job(opts, out.uri, run.compress, run.batch_size, page_timeout=page_timeout if run.executor == "ray" else 0,
              outcomes=run.outcomes, run=new_run_id())
    passes = (CENSUS,) if needs_census(sources) else ()
    lock = OutputLock(out.fs, out.root, out.uri, job.run)
    lock.check()  # read-only: a busy or foreign folder is refused before Ray starts
    prepare(out, job, plan(sources, job), overwrite, apply=False, passes=passes)
    # an existing folder is locked at once (a concurrent run is refused in well under a second); a new one is made
    # only once the executor has started (a bad --address leaves nothing behind)
    exists = out.fs.get_file_info(out.root).type == pafs.FileType.Directory
    with driving(run.executor, run.workers, run.address, lock=lock, make_folder=None if exists else out.mkdirs,
                 max_retries=max_retries, max_calls=max_calls, node_wait=node_wait) as executor:
        prepare(out, job, plan(sources, job), overwrite, apply=True, passes=passes)
        return _run(out, sources, found, job, executor, passes, progress, wall0, cpu0)


def _run(out: OutputDir, sources, found: dict, job: Job, executor, passes, progress, wall0: float,
         cpu0: float) -> dict:
    startup = time.perf_counter() - wall0
    stats = Stats()
    for key, items in found.items():  # inputs given twice, symlink loops (sources.discover)
        stats.update(f"inputs.{key}", len(items))
        for item in items[:Stats.MAX_EXAMPLES]:
            stats.note(f"inputs.{key}", item)
    job, learned = learn(job, plan(sources, job), executor, out, stats, extra=passes)
    units = plan(sources, job)
    remove_stale(out, units, job)
    results = {u.index: r for u in units if (r := _finished(out, u)) is not None}
    todo = [u for u in units if u.index not in results]
    for u in units:  # a finished unit's marker is a leftover (stopped between its entry and the marker's removal)
        if u.index in results and out.exists("work", f"{u.key}.json"):
            out.delete("work", f"{u.key}.json")
    if results:
        log.info("resuming: %d of %d units already done in %s", len(results), len(units), out.uri)
    bar = Progress(units, results.values(), executor, enabled=progress)
    clean0 = time.perf_counter()
    try:
        for unit, result in executor.map(clean_unit, todo, shared=job, tick=bar.tick):
            if isinstance(result, Failure):
                result = _failed_unit(unit, result, executor, job)
            results[unit.index] = result
            bar.unit_done(unit, result)
    finally:
        bar.close()
    results = resolve(out, units, results, executor, job, lambda redo: _clean_units(redo, executor, job))
    clean_wall = time.perf_counter() - clean0
    for i in sorted(results):
        stats.merge(Stats.from_state(results[i].stats))
    stats.add_time("preprocess_driver", time.perf_counter() - wall0, time.process_time() - cpu0)
    return _finish(out, sources, units, results, stats, job, executor, wall0, startup, clean_wall, learned)


def _finish(out, sources, units, results, stats, job, executor, wall0, startup, clean_wall, learned) -> dict:
    wall = time.perf_counter() - wall0
    fresh = [r for r in results.values() if not r.reused]
    fresh_records = sum(Stats.from_state(r.stats).counts["records"] for r in fresh)
    driver_cpu = stats.times["preprocess_driver"]["cpu_s"]
    extra = {
        "output": out.uri, "inputs": [s.uri for s in sources], "workers": executor.workers,
        "executor": type(executor).__name__.removesuffix("Executor").lower(), "cleaner": job.opts.cleaner,
        "options": job.opts.to_dict(), "wall_s": round(wall, 3), "startup_s": round(startup, 3),
        "units": {"total": len(units), "reused": len(results) - len(fresh),
                  "failed": sum(1 for r in results.values() if r.error),
                  "nodes": sorted({r.node for r in fresh if r.node}),
                  "worker_peak_rss_mb": max((r.peak_rss_mb for r in fresh), default=None)},
        # throughput of the cleaning pass over the units it ran (start-up and learning reported apart)
        "docs_per_s": round(sum(r.documents for r in fresh) / clean_wall, 2) if clean_wall > 0 and fresh else None,
        "records_per_s": round(fresh_records / clean_wall, 2) if clean_wall > 0 and fresh else None,
        "driver": {"cpu_s": round(driver_cpu, 3), "peak_rss_mb": peak_rss_mb(),
                   "cpu_s_per_1000_records": round(1000 * driver_cpu / fresh_records, 4) if fresh_records else None},
        "learned": learned,
    }
    extra |= summaries(job.opts, stats.counts, learned)  # each step's own report (pruning: threshold, deciles)
    manifest = {"code": code_id(), "shards": [
        {"source": u.source.uri, "shard": results[u.index].shard, "documents": results[u.index].documents,
         "bytes": results[u.index].shard_bytes, "sha1": results[u.index].shard_sha1}
        for u in units if results[u.index].shard]}
    out.write_json(manifest, "manifest.json")
    data = stats.to_dict() | extra
    out.write_json(data, "stats.json")
    # half-written files of a stopped run's tasks that outlived its clean-up (an attached cluster ends them later)
    out.remove_temporary(out.files())
    for reason, n in data["failed"].items():
        example = (data["examples"].get(f"failed.{reason}") or [""])[0]
        log.warning("%d record(s) failed.%s, e.g. %s (all counts and examples: %s/stats.json)", n, reason,
                    example[:200], out.uri)
    if data["unaccounted"]:
        log.error("%d records are unaccounted for: this is a bug in webprune, please report it", data["unaccounted"])
    return data


