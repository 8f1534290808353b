"""Query loads for timing search: a query file, or N queries sampled (seeded) from a collection's titles.

``load_queries(n, file=..., collection=..., seed=...)`` returns ``{qid: text}`` with exactly ``n``
queries. A file is a topics file that :func:`search.topics.read_topics` knows, or plain text with
one query per line (optionally ``qid<TAB>query``, Anserini's TSV topics); it is cycled when it
holds fewer than ``n``. Without a file the queries are drawn, with replacement when there are
fewer than ``n``, from the ``title`` and ``post_title`` (headline) fields of the JsonCollection
shards, or a document's first line when it has no title; ``random.Random(seed)`` makes the load
the same on every run and every variant.

``timed_searches(jobs, ...)`` runs each job's whole batch ``repeats`` times, round-robin over the
jobs after an untimed warm-up of each, and returns each run's wall and CPU seconds
(``time.process_time`` counts the JVM's search threads, which run inside this process).
"""
from __future__ import annotations

import gzip
import json
import random
import statistics
import time
from pathlib import Path

from index.build import collection_dir
from search.qld import _strings
from search.topics import read_topics

MAX_WORDS = 12  # a title longer than this is cut: a query, not a document


def _shard_lines(collection: Path):
    shards = sorted(collection.glob("*.jsonl")) + sorted(collection.glob("*.jsonl.gz"))
    if not shards:
        raise FileNotFoundError(f"{collection}: no .jsonl/.jsonl.gz shards to sample load queries from")
    for shard in shards:
        opener = gzip.open if shard.suffix == ".gz" else open
        with opener(shard, "rt", encoding="utf-8") as f:
            yield from f


def headlines(collection: str | Path) -> list[str]:
    """Each document's title and headline (``post_title``), else its first line; in shard order."""
    out = []
    for line in _shard_lines(collection_dir(collection)):
        doc = json.loads(line)
        texts = [t for t in (doc.get("title"), doc.get("post_title")) if t and t.strip()]
        if not texts:
            first = (doc.get("contents") or "").strip().split("\n", 1)[0]
            texts = [first] if first else []
        for t in dict.fromkeys(texts):
            words = t.split()[:MAX_WORDS]
            if any(any(c.isalnum() for c in w) for w in words):
                out.append(" ".join(words))
    return out


def _read_file(path: Path) -> list[str]:
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no such query file (give one query per line, or a topics file)")
    try:
        return list(read_topics(path).values())
    except ValueError:
        pass
    out = []
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        text = line.split("\t", 1)[1] if "\t" in line else line
        if text.strip():
            out.append(" ".join(text.split()))
    if not out:
        raise ValueError(f"{path}: no queries in the query file")
    return out


def load_queries(n: int, file: str | Path | None = None, collection: str | Path | None = None,
                 seed: int = 42) -> dict[str, str]:
    """``n`` queries as ``{"L00001": text, ...}`` from ``file`` or sampled from ``collection``."""
    if n <= 0:
        raise ValueError(f"the query load must be a positive number of queries, not {n}")
    if file is not None:
        pool = _read_file(Path(file))
        chosen = [pool[i % len(pool)] for i in range(n)]
    else:
        pool = headlines(collection)
        if not pool:
            raise ValueError(f"{collection}: no titles or first lines to sample load queries from")
        rng = random.Random(seed)
        chosen = rng.sample(pool, n) if n <= len(pool) else rng.choices(pool, k=n)
    width = len(str(n))
    return {f"L{i:0{width}d}": q for i, q in enumerate(chosen, 1)}


def write_queries(queries: dict[str, str], path: str | Path) -> None:
    """Anserini's TSV topics (``qid<TAB>query``): the load can be replayed as a query file."""
    Path(path).write_text("".join(f"{q}\t{t}\n" for q, t in queries.items()), encoding="utf-8")


def timed_searches(jobs: dict[str, dict], threads: int = 2, repeats: int = 3, warmup: int = 1, measure=None,
                   chunk: int = 2000) -> dict[str, list[dict]]:
    """Time each job ``{"index", "queries", "model", "k"}`` (``model``: a :class:`search.models.RetrievalModel`) ``repeats`` times, round-robin over the jobs.

    Every job has its own open searcher and one untimed warm-up run first; the repeats then take
    turns (job 1, job 2, ..., job 1, ...), so JIT compilation and the other load on the machine fall
    on every job alike rather than on the first. ``measure(fn)`` times one run (default: wall and
    CPU seconds; :class:`eval.energy.Tasks` adds codecarbon). Returns {job: [measurement, ...]}.
    """
    from index.java import autoclass

    if measure is None:
        def measure(fn):
            t0, c0 = time.perf_counter(), time.process_time()
            fn()
            return {"wall_s": round(time.perf_counter() - t0, 4), "cpu_s": round(time.process_time() - c0, 4)}
    searchers, batches = {}, {}
    try:
        for name, job in jobs.items():
            if not list(Path(job["index"]).glob("segments_*")):
                raise FileNotFoundError(f"{job['index']}: not a Lucene index")
            searchers[name] = autoclass("io.anserini.search.SimpleSearcher")(str(job["index"]))
            job["model"].configure(searchers[name])
            qids = list(job["queries"])
            batches[name] = [(_strings([job["queries"][q] for q in qids[i:i + chunk]]), _strings(qids[i:i + chunk]))
                             for i in range(0, len(qids), chunk)]

        def run(name):
            for texts, ids in batches[name]:
                searchers[name].batch_search(texts, ids, int(jobs[name]["k"]), int(threads))

        for name in jobs:
            for _ in range(warmup):
                run(name)
        out = {name: [] for name in jobs}
        for _ in range(repeats):
            for name in jobs:
                out[name].append(measure(lambda name=name: run(name)) | {"queries": len(jobs[name]["queries"])})
        return out
    finally:
        for s in searchers.values():
            s.close()


def summarise(repeats: list[dict]) -> dict:
    """Median with min and max of wall and CPU seconds over the repeats, and queries per second."""
    out = {"repeats": len(repeats), "queries": repeats[0]["queries"] if repeats else 0}
    if repeats and "codecarbon" in repeats[0]:  # summed over the repeats, as a Meter around them all
        out["codecarbon"] = {"kg": sum(r["codecarbon"]["kg"] for r in repeats),
                             "kwh": sum(r["codecarbon"]["kwh"] for r in repeats)}
    for key in ("wall_s", "cpu_s"):
        values = [r[key] for r in repeats]
        out[key] = {"median": statistics.median(values), "min": min(values), "max": max(values)}
    wall = out["wall_s"]["median"]
    out["queries_per_s"] = out["queries"] / wall if wall else None
    out["cpu_s_per_query"] = out["cpu_s"]["median"] / out["queries"] if out["queries"] else None
    return out
