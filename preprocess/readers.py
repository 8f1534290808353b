"""Input discovery and record readers: WARC/ARC (gzipped or not), tar archives and folders of HTML.

A record cut short by the end of its file is kept with what it holds (partial
pages still carry text a judged document may need) and is listed under
``read.truncated_records`` in the stats, with examples.

Readers run on the driver and stream :class:`Document` records with raw payloads.
They own three outcomes: ``records`` (every record seen), ``skipped.non_response``
(WARC request/metadata/... records) and ``failed.corrupt`` (a record or the rest of
a file that cannot be read: it is counted once, logged with its offset, and the run
goes on with the next file).
"""
from __future__ import annotations

import gzip
import logging
import tarfile
from pathlib import PurePosixPath
from typing import Iterator

import pyarrow.fs as pafs
from warcio.archiveiterator import ArchiveIterator

from preprocess.document import Document
from preprocess.sources import HTML_SUFFIXES, Source, filesystem
from preprocess.stats import Stats

log = logging.getLogger("webprune.preprocess")

def read_source(src: Source, stats: Stats) -> Iterator[Document]:
    reader = {"warc": read_archive, "tar": read_tar, "htmldir": read_html_dir}[src.kind]
    yield from reader(src, stats)


def _corrupt(stats: Stats, path: str, offset, exc: Exception, hint: str) -> None:
    stats.update("records")
    stats.outcome("failed", "corrupt", example=f"{path} @ {offset}: {type(exc).__name__}: {exc}")
    log.warning("%s: unreadable from offset %s (%s: %s); %s. Counted as failed.corrupt; going on with the next input.",
                path, offset, type(exc).__name__, str(exc).strip().splitlines()[0] if str(exc).strip() else "", hint)


def _record_id(rec, name: str, offset) -> str:
    """WARC-TREC-ID (ClueWeb), else WARC-Record-ID; ARC records have no id, so FILE:OFFSET (stable across runs)."""
    if name.endswith((".arc", ".arc.gz")):  # warcio invents a random uuid for converted ARC records
        return f"{name}:{offset}"
    rid = rec.rec_headers.get_header("WARC-TREC-ID") or rec.rec_headers.get_header("WARC-Record-ID") or ""
    return rid.strip().strip("<>") or f"{name}:{offset}"


def read_archive(src: Source, stats: Stats) -> Iterator[Document]:
    """WARC (incl. ClueWeb09's WARC/0.18) and ARC records; ARC is converted to WARC by warcio."""
    done = 0
    try:
        yield from _iter_archive(src, src.open(), stats, skip=0)
        return
    except _NonChunkedGzip as e:
        done = e.done
    # A whole-file gzip stream (not one member per record): read it through gzip instead.
    log.info("%s: single gzip stream, not one gzip member per record; reading it as one stream", src.uri)
    stats.update("read.whole_file_gzip")
    yield from _iter_archive(src, gzip.GzipFile(fileobj=src.open(), mode="rb"), stats, skip=done)


class _NonChunkedGzip(Exception):
    def __init__(self, done: int):
        self.done = done


def _iter_archive(src: Source, fh, stats: Stats, skip: int) -> Iterator[Document]:
    path, seen = src.uri, 0
    with fh:
        it = ArchiveIterator(fh, arc2warc=True, check_digests=False)
        while True:
            offset = f"record #{seen + 1}"
            try:
                rec = next(it)
                kind = rec.rec_type
                payload = rec.content_stream().read() if kind == "response" else None
                rec.raw_stream.read()  # drain, so that a short record shows in the limit left
                offset = it.get_record_offset()
            except StopIteration:
                return
            except Exception as exc:
                if "non-chunked gzip" in str(exc) and skip == 0:
                    raise _NonChunkedGzip(seen) from exc
                _corrupt(stats, path, offset, exc, "the file is truncated or not valid WARC/ARC; "
                         "check it with `warcio check` or fetch it again")
                return
            seen += 1
            if seen <= skip:
                continue
            stats.update("records")
            rid = _record_id(rec, src.filename, offset)
            missing = getattr(rec.raw_stream, "limit", 0)
            if missing:  # the file ends inside this record: keep what is there, but say so
                stats.update("read.truncated_records")
                stats.note("read.truncated_records", f"{rid} ({path} @ {offset}): {missing} of {rec.length} bytes missing")
                log.warning("%s: record %s at offset %s ends %d bytes early (file truncated?); its partial "
                            "payload is kept and counted in read.truncated_records", path, rid, offset, missing)
            if rec.rec_headers.get_header("WARC-Truncated"):
                stats.update("read.warc_truncated_by_crawler")
            if kind != "response":
                stats.outcome("skipped", "non_response")
                stats.update(f"read.record_type.{kind}")
                continue
            http = rec.http_headers
            yield Document(
                id=rid,
                url=(rec.rec_headers.get_header("WARC-Target-URI") or "").strip(),
                source=path,
                content_type=(http.get_header("Content-Type") if http else None) or "",
                raw=payload,
            )


def _page(name: str, data: bytes, source: str) -> Document:
    stem = PurePosixPath(name).name.rsplit(".", 1)[0]
    return Document(id=stem, url="", source=source, content_type="text/html", raw=data)


def read_tar(src: Source, stats: Stats) -> Iterator[Document]:
    """A tar (optionally gzipped) of .html pages; doc id = file stem (CACM-0001)."""
    try:
        with src.open() as fh, tarfile.open(fileobj=fh, mode="r|*") as tar:
            for member in tar:
                if not member.isfile():
                    continue
                stats.update("records")
                if not member.name.lower().endswith(HTML_SUFFIXES):
                    stats.outcome("skipped", "non_html", example=f"{src.uri}:{member.name}")
                    continue
                data = tar.extractfile(member).read()
                yield _page(member.name, data, src.uri)
    except (tarfile.TarError, OSError, EOFError) as exc:
        _corrupt(stats, src.uri, "tar stream", exc, "the tar file is truncated or corrupt")


def read_html_dir(src: Source, stats: Stats) -> Iterator[Document]:
    """Every .html/.htm file under a folder (archives there are separate sources)."""
    fs, root = filesystem(src.uri)
    files = [f for f in fs.get_file_info(pafs.FileSelector(root, recursive=True))
             if f.type == pafs.FileType.File and f.base_name.lower().endswith(HTML_SUFFIXES)]
    for f in sorted(files, key=lambda f: f.path.split("/")):
        stats.update("records")
        try:
            with fs.open_input_stream(f.path) as fh:
                data = fh.read()
        except OSError as exc:
            stats.outcome("failed", "unreadable", example=f"{f.path}: {exc}")
            log.warning("%s: cannot read (%s); skipped", f.path, exc)
            continue
        yield _page(f.base_name, data, src.uri)
