"""Search a Pyserini/Anserini Lucene index: QL-Dirichlet by default, or any :class:`search.models.RetrievalModel`.

Uses Anserini's ``SimpleSearcher`` (the Java class behind Pyserini's
``LuceneSearcher``) through Pyserini's classpath set-up, which avoids the ~10 s
torch import of ``pyserini.search.lucene``; queries go through the same default
analyzer and query generator, so runs equal ``LuceneSearcher.set_qld(mu)`` (or ``set_bm25``/``set_rm3``) ones.
"""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from index.java import autoclass
from preprocess.folder.owned import claim_outputs, write_output
from search.models import RetrievalModel


def _strings(items):
    JArrayList = autoclass("java.util.ArrayList")
    out = JArrayList()
    for s in items:
        out.add(s)
    return out


def check_run_args(k: int, threads: int, tag: str = "webprune") -> None:
    """ValueError unless ``k`` (hits per topic) and ``threads`` are whole numbers >= 1 and ``tag`` is not empty."""
    for name, value in (("k", k), ("threads", threads)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"search {name} must be a whole number >= 1, not {value!r}")
    if not str(tag).strip():
        raise ValueError("the run tag is empty: give one (the last column of a TREC run), e.g. --tag webprune")


def run_tag(tag: str) -> str:
    """The tag as one column: whitespace (a variant named "learned, held out") becomes ``_``."""
    return "_".join(str(tag).split())


def qld_search(index: str | Path, topics: dict[str, str], mu: float = 2000.0, k: int = 1000,
               threads: int = 2, chunk: int = 500, model: RetrievalModel | None = None
               ) -> dict[str, list[tuple[str, float]]]:
    """{qid: [(docid, score), ...]} best first; ``model`` (default: QLD with ``mu``) ranks."""
    model = (model or RetrievalModel("qld", mu=mu)).check("search:")
    check_run_args(k, threads)
    index = Path(index)
    if not (index / "segments_1").exists() and not list(index.glob("segments_*")):
        raise FileNotFoundError(f"{index}: not a Lucene index; build one with `webprune index COLLECTION --index {index}`")
    searcher = autoclass("io.anserini.search.SimpleSearcher")(str(index))
    qids, out = list(topics), {}
    bar = None
    if len(qids) > chunk and sys.stderr.isatty():
        from tqdm import tqdm

        bar = tqdm(total=len(qids), unit=" queries", desc="search")
    try:
        model.configure(searcher)
        for start in range(0, len(qids), chunk):  # chunks: progress, and bounded memory for 10K+ topics
            part = qids[start:start + chunk]
            results = searcher.batch_search(_strings([topics[q] for q in part]), _strings(part), int(k), int(threads))
            for q in part:
                hits = results.get(q)
                out[q] = [(h.docid, h.score) for h in hits] if hits is not None else []
            if bar is not None:
                bar.update(len(part))
        return out
    finally:
        searcher.close()
        if bar is not None:
            bar.close()


def write_run(results: dict[str, list[tuple[str, float]]], path: str | Path, tag: str = "webprune") -> None:
    """TREC run format, formatted as Pyserini's TREC writer does (score with 6 decimals); six columns always."""
    path, tag = Path(path), run_tag(tag)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_output(str(path), "".join(f"{qid} Q0 {docid} {rank} {score:.6f} {tag}\n"
                                    for qid, hits in results.items() for rank, (docid, score) in enumerate(hits, 1)))


def run_search(index: str | Path, topics: dict[str, str], output: str | Path, mu: float = 2000.0, k: int = 1000,
               threads: int = 2, tag: str = "webprune", model: RetrievalModel | None = None,
               claim: bool = False) -> dict:
    """Search ``topics`` and write the run (and its ``.stats.json``); ``claim``: list them first in their folder's
    record of webprune's files (:func:`preprocess.folder.owned.claim_outputs`: a file of someone else's is refused)."""
    model = model or RetrievalModel("qld", mu=mu)
    check_run_args(k, threads, tag)
    t0, c0 = time.perf_counter(), time.process_time()
    results = qld_search(index, topics, k=k, threads=threads, model=model)
    wall = time.perf_counter() - t0
    if claim:
        claim_outputs([str(output), str(output) + ".stats.json"])
    write_run(results, output, tag)
    stats = {"index": str(index), "run": str(output), "topics": len(topics), **model.to_dict(), "k": k, "threads": threads,
             "wall_s": round(wall, 3), "cpu_s_driver": round(time.process_time() - c0, 3),
             "queries_per_s": round(len(topics) / wall, 2) if wall else None}
    write_output(str(output) + ".stats.json", json.dumps(stats, indent=2) + "\n")
    return stats
