"""Archives built byte by byte for the hostile-input tests: WARC records (optionally with digests) packed in
every framing -- one gzip member per record, one gzip member for the whole file, uncompressed -- and ARC files.
"""
from __future__ import annotations

import base64
import gzip
import hashlib
import io

from preprocess.readers import archive
from preprocess.readers.archive import read_archive
from preprocess.core.stats import Stats

WARC_FRAMINGS = ("record-gz", "file-gz", "plain")
SUFFIX = {"record-gz": ".warc.gz", "file-gz": ".warc.gz", "plain": ".warc", "arc": ".arc", "arc-gz": ".arc.gz"}


def page(n: int, words: int = 60) -> bytes:
    """A small real-looking page whose text names its number."""
    text = " ".join(f"word{(n * 7 + i) % 97}" for i in range(words))
    return (f"<html><head><title>Page {n}</title></head><body><h1>Page number {n}</h1><p>{text}</p>"
            f"<p>The end of page {n}.</p></body></html>").encode()


def http(body: bytes, ctype: str = "text/html; charset=utf-8", extra: str = "") -> bytes:
    return (f"HTTP/1.1 200 OK\r\nContent-Type: {ctype}\r\n{extra}Content-Length: {len(body)}\r\n\r\n").encode() + body


def sha1_b32(data: bytes) -> str:
    return "sha1:" + base64.b32encode(hashlib.sha1(data).digest()).decode()


def warc_record(n: int, block: bytes | None = None, kind: str = "response", length: int | None = None,
                digests: bool = False, headers: dict | None = None, version: str = "WARC/1.0") -> bytes:
    """One WARC record: its block (an HTTP response around :func:`page` by default), headers, separator."""
    block = http(page(n)) if block is None else block
    h = {"WARC-Type": kind, "WARC-Record-ID": f"<urn:uuid:{n:08d}>", "WARC-Target-URI": f"http://x.org/{n}",
         "WARC-Date": "2024-01-01T00:00:00Z", "Content-Type": "application/http; msgtype=response"}
    if digests:
        h["WARC-Block-Digest"] = sha1_b32(block)
    h["Content-Length"] = str(len(block) if length is None else length)
    h.update(headers or {})
    head = version + "\r\n" + "".join(f"{k}: {v}\r\n" for k, v in h.items() if v is not None) + "\r\n"
    return head.encode() + block + b"\r\n\r\n"


def rid(n: int) -> str:
    return f"urn:uuid:{n:08d}"


def pack(records: list[bytes], framing: str) -> bytes:
    if framing in ("record-gz", "arc-gz"):
        return b"".join(gzip.compress(r, mtime=0) for r in records)
    if framing == "file-gz":
        return gzip.compress(b"".join(records), mtime=0)
    return b"".join(records)


def arc_file(records: list[tuple[str, bytes]], lengths: dict[int, int] | None = None) -> list[bytes]:
    """ARC v1 records (filedesc first): [(url, block)]; ``lengths`` overrides a record's declared length."""
    desc = b"1 0 webprune\nURL IP-address Archive-date Content-type Archive-length\n"
    out = [b"filedesc://t.arc 0.0.0.0 20240101000000 text/plain %d\n%s\n" % (len(desc), desc)]
    for i, (url, block) in enumerate(records):
        n = (lengths or {}).get(i, len(block))
        out.append(f"{url} 10.0.0.{i % 250} 20240101000000 text/html {n}\n".encode() + block + b"\n")
    return out


def read(data: bytes, name: str, max_bytes: int = 16 << 20):
    """(documents, stats) of an archive held in memory; checks that every record is accounted for, and that
    the reader's fast path reads it exactly as its careful line-by-line path does."""
    docs, stats = read_with(data, name, max_bytes)
    outcomes = sum(stats.group("skipped").values()) + sum(stats.group("failed").values())
    assert stats.counts["records"] == len(docs) + outcomes, dict(stats.counts)
    assert_paths_agree(data, name, max_bytes, (docs, stats))
    return docs, stats


def read_with(data: bytes, name: str, max_bytes: int = 16 << 20, fast: bool = True, seen: list | None = None):
    """(documents, stats with a ledger) read with the fast path on or off; ``seen`` gets the observed facts."""
    stats = Stats()
    stats.ledger = []
    was, archive.FAST = archive.FAST, fast
    try:
        docs = list(read_archive(io.BytesIO(data), name, name, stats, max_bytes,
                                 None if seen is None else lambda **kw: seen.append(kw),
                                 reopen=lambda: io.BytesIO(data)))
    finally:
        archive.FAST = was
    return docs, stats


def outcome(docs, stats) -> tuple:
    return ([(d.id, d.url, d.source, d.content_type, d.raw, d.meta) for d in docs], dict(stats.counts),
            stats.examples, stats.ledger)


def assert_paths_agree(data: bytes, name: str, max_bytes: int = 16 << 20, fast_read=None) -> None:
    """The fast path and the careful path give the same documents, counters, examples, ledger and facts."""
    seen_fast, seen_careful = [], []
    fast = read_with(data, name, max_bytes, True, seen_fast)
    careful = read_with(data, name, max_bytes, False, seen_careful)
    for what, a, b in zip(("documents", "counters", "examples", "ledger"), outcome(*fast), outcome(*careful)):
        assert a == b, f"{name}: the fast path's {what} differ from the careful path's"
    assert seen_fast == seen_careful, f"{name}: observed facts differ"
    if fast_read is not None:  # what the caller read is what both paths read
        assert outcome(*fast_read)[:3] == outcome(*fast)[:3]
