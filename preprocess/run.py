"""Driver of the preprocess stage: read sources, dispatch batches, write shards and stats."""
from __future__ import annotations

import logging
import sys
import time
import zlib
from pathlib import Path
from typing import Iterator

from preprocess.calibrate import calibrate
from preprocess.executor import LocalExecutor, RayExecutor
from preprocess.learn import learn_feed_templates
from preprocess.pipeline import HOST_GROUPED, CleanOptions
from preprocess.readers import Source, discover, read_source
from preprocess.stats import Stats
from preprocess.steps.prune import deciles
from preprocess.writer import ShardWriter

log = logging.getLogger("webprune.preprocess")


def _batches(sources: list[Source], stats: Stats, batch_size: int, host_buckets: int = 0,
             window: int = 4096) -> Iterator[tuple]:
    """(("doc", i), batch) items per source, then (("end", i), None) when source i is done.

    With ``host_buckets`` (cleaners that compare the pages of a host) each source is read in
    windows of ``window`` records; inside a window records are regrouped by host, hosts are put
    in ``crc32(host) % host_buckets`` buckets, and each batch carries its bucket as
    (("doc", i, bucket), batch) so the executor sends every page of a host to the same worker.
    Memory stays bounded by the window; output order is window, bucket, host, input order.
    """
    for i, src in enumerate(sources):
        yield ("start", i), None
        batch, records = [], read_source(src, stats)
        while True:
            t0, c0 = time.perf_counter(), time.process_time()
            doc = next(records, None)
            stats.add_time("read", time.perf_counter() - t0, time.process_time() - c0)
            if doc is not None:
                batch.append(doc)
            if host_buckets and (len(batch) >= window or (doc is None and batch)):
                yield from _host_batches(i, batch, batch_size, host_buckets)
                batch = []
            elif not host_buckets and (len(batch) >= batch_size or (doc is None and batch)):
                yield ("doc", i), batch
                batch = []
            if doc is None:
                break
        yield ("end", i), None


def _host_batches(i: int, docs: list, batch_size: int, buckets: int) -> Iterator[tuple]:
    by_bucket: dict[int, dict[str, list]] = {}
    for d in docs:
        host = d.host
        by_bucket.setdefault(zlib.crc32(host.encode()) % buckets, {}).setdefault(host, []).append(d)
    for bucket in sorted(by_bucket):
        batch: list = []
        for group in by_bucket[bucket].values():  # a host's pages stay in one batch where they fit
            if batch and len(batch) + len(group) > batch_size:
                yield ("doc", i, bucket), batch
                batch = []
            batch.extend(group)
        if batch:
            yield ("doc", i, bucket), batch


def run_preprocess(inputs: list[str], output: str | Path, opts: CleanOptions | None = None, workers: int | None = None,
                   address: str | None = None, compress: bool = False, batch_size: int = 64,
                   executor: str = "ray", progress: bool | None = None, host_window: int = 4096) -> dict:
    """Clean every record of ``inputs`` into shards under ``output``; return the stats dict (also in stats.json)."""
    opts = (opts or CleanOptions()).check()
    output = Path(output)
    sources = discover(inputs)
    stats = Stats()
    wall0, cpu0 = time.perf_counter(), time.process_time()
    opts, feeds = learn_feed_templates(opts, sources)
    opts, calibration = calibrate(opts, sources)
    pool = LocalExecutor(opts) if executor == "local" else RayExecutor(opts, workers, address)
    startup = time.perf_counter() - wall0  # Ray start-up and actor creation (model loading goes here too)
    writer = ShardWriter(output, compress)
    progress = sys.stderr.isatty() if progress is None else progress
    bar = None
    if progress:
        from tqdm import tqdm
        bar = tqdm(unit=" rec", desc="preprocess", dynamic_ncols=True, smoothing=0.1)
    last_note = time.perf_counter()
    try:
        buckets = pool.workers if opts.cleaner in HOST_GROUPED else 0
        for (what, i, *_), docs, bstats in pool.map(_batches(sources, stats, batch_size, buckets, host_window)):
            src = sources[i]
            if what == "start":
                writer.open(i, str(src.path), src.name)
                if bar is not None:
                    bar.set_postfix_str(f"{i + 1}/{len(sources)} {src.path.name}", refresh=False)
                continue
            if what == "end":
                with stats.timer("write"):
                    writer.close()
                continue
            stats.merge(bstats)
            with stats.timer("write"):
                writer.write(docs, stats)
            if bar is not None:
                bar.n = stats.counts["records"]
                bar.refresh()
            elif time.perf_counter() - last_note > 30:  # no terminal (logs, nohup): a line every 30 s
                last_note = time.perf_counter()
                done = stats.counts["records"]
                log.info("preprocess: %d records (%.0f/s), source %d/%d %s", done,
                         done / max(last_note - wall0 - startup, 1e-9), i + 1, len(sources), src.path.name)
    finally:
        if bar is not None:
            bar.close()
        pool.close()
    stats.add_time("preprocess_driver", time.perf_counter() - wall0, time.process_time() - cpu0)
    wall = time.perf_counter() - wall0
    busy = wall - startup
    extra = {
        "output": str(output), "inputs": [str(s.path) for s in sources], "workers": pool.workers,
        "executor": executor, "cleaner": opts.cleaner, "wall_s": round(wall, 3), "startup_s": round(startup, 3),
        # throughput once the workers are up: start-up is a constant, reported on its own
        "docs_per_s": round(stats.counts["written"] / busy, 2) if busy > 0 else None,
        "records_per_s": round(stats.counts["records"] / busy, 2) if busy > 0 else None,
    }
    if feeds:
        extra["feeds"] = feeds | {"hosts": sorted(opts.extra["feed_templates"])}
    if opts.prune_model:
        extra["pruning"] = {"model": opts.prune_model, "score": opts.prune_score,
                            "threshold": opts.prune_threshold if opts.prune_threshold is not None else opts.max_perplexity,
                            "calibration": calibration or None, "perplexity_deciles": deciles(stats.counts)}
    stats.write(output / "stats.json", extra)
    result = stats.to_dict() | extra
    if result["unaccounted"]:
        log.error("%d records are unaccounted for: this is a bug in webprune, please report it", result["unaccounted"])
    return result
