"""WARC (1.0, 1.1, ClueWeb09's 0.18) and ARC records, one at a time, each accounted for alone.

A record with bad or missing headers, an unreadable HTTP head or a wrong length
is skipped alone, counted with its reason and offset; the next record is read as
usual. Framing corruption -- a gzip member that does not inflate, bytes that are
not a record -- is resynchronised at the next gzip member or ``WARC/`` line; each
unreadable member is counted as one record lost (``failed.corrupt``). A record cut
short by the end of the file keeps what it holds (``read.truncated_records``).

Ids: ``WARC-TREC-ID`` (ClueWeb09/12), ``ClueWeb22-ID``, ``WARC-Record-ID``; ARC
records and records without any id get ``FILE:OFFSET`` (the raw offset of their
gzip member, or their byte offset), which stays the same from run to run.
"""
from __future__ import annotations

import logging
from typing import Iterator

from preprocess.document import Document
from preprocess.readers.http import BadHttp, payload
from preprocess.readers.stream import MemberStream
from preprocess.stats import Stats
from preprocess.steps.text import TEXT_ONLY

log = logging.getLogger("webprune.preprocess")
ID_HEADERS = ("warc-trec-id", "clueweb22-id", "warc-record-id")
MAX_HEADER_BYTES = 1 << 16
SKIP_CHUNK = 1 << 20  # a skipped block is read in chunks this large (never kept whole)
KEEP_TYPES = ("response", "conversion")  # records that can become documents (conversion: WET text)


class Archive:
    """Reads one archive file (a stream) and yields Documents; every record lands in ``stats``."""

    def __init__(self, raw, name: str, uri: str, stats: Stats, max_bytes: int, arc: bool, observe=None):
        self.s = MemberStream(raw)
        self.name, self.uri, self.stats, self.max_bytes, self.arc = name, uri, stats, max_bytes, arc
        self.claimed_gaps = 0
        self.observe = observe  # called with the facts of each record (webprune inspect)

    # -- accounting ------------------------------------------------------------------------------------------
    def where(self, pos: int) -> str:
        raw = self.s.raw_offset(pos)
        return f"offset {raw}" if raw is not None else f"byte {pos} (decompressed)"

    def fail(self, reason: str, pos: int, message: str, records: int = 1) -> None:
        for _ in range(records):
            self.stats.update("records")
            self.stats.outcome("failed", reason, rid=f"@{self.where(pos)}")
        self.stats.note(f"failed.{reason}", f"{self.uri} @ {self.where(pos)}: {message}")
        log.debug("%s @ %s: %s; counted as failed.%s, reading goes on with the next record", self.uri,
                    self.where(pos), message, reason)

    def note(self, key: str, example: str | None = None) -> None:
        self.stats.update(key)
        if example:
            self.stats.note(key, example)

    def _claim_gaps(self, upto: int, record_pos: int | None = None) -> bool:
        """Count the unreadable members before ``upto`` (one record lost each); True if one cut the record at
        ``record_pos``, whose own failure stands for that gap."""
        cut = False
        while self.claimed_gaps < len(self.s.gaps) and self.s.gaps[self.claimed_gaps].pos <= upto:
            gap = self.s.gaps[self.claimed_gaps]
            self.claimed_gaps += 1
            if not gap.member:  # junk between members: no record was there
                self.stats.update("read.junk_bytes", gap.raw_end - gap.raw_start)
                self.stats.note("read.junk_bytes", f"{self.uri} @ raw offset {gap.raw_start}: {gap.error}")
                continue
            # the record's own member failed: its failure stands for the gap. A later member that failed (a
            # Content-Length running past the record's intact member) is a record lost of its own.
            if record_pos is not None and gap.pos > record_pos and not cut \
                    and gap.raw_start <= (self.s.member_of(record_pos) or 0):
                cut = True
                continue
            self.fail("corrupt", gap.pos, f"gzip member at raw offset {gap.raw_start} unreadable ({gap.error}); "
                      f"reading went on at raw offset {gap.raw_end}")
        return cut

    # -- framing ---------------------------------------------------------------------------------------------
    def _resync(self, pos: int, why: str, count: bool = True) -> None:
        """Skip to the next record start (a ``WARC/`` line, or an ARC header at a member start); with ``count``
        the skipped bytes count as one record lost when they began a gzip member (or in an uncompressed file)."""
        skipped, lost, headed = 0, False, False
        while True:
            at = self.s.tell()
            line = self.s.readline()
            if not line:
                break
            if (self.arc and self._arc_header(line) and (self.s.raw_offset(at) is not None or not self.s.starts)) \
                    or (not self.arc and line.startswith(b"WARC/") and line.rstrip()[5:6].isdigit()):
                self.s.unread(line)
                break
            skipped += len(line)
            lost = lost or bool(self.s.member_starts_in(pos - 1, at + 1))
            headed = headed or line[:16].lower().startswith((b"warc-type:", b"warc-record-id:"))
        self.stats.update("read.resync")
        self.stats.update("read.garbage_bytes", skipped)
        # bytes that begin a gzip member of their own were a record, and so were WARC headers without their
        # version line; left-overs of the record before (a Content-Length too short) were not
        if not count:
            return
        if lost or self.s.raw_offset(pos) is not None or headed:
            self.fail("corrupt", pos, f"{why}; {skipped} bytes skipped to the next record")
        else:
            self.note("read.leftover_bytes_skipped", f"{self.uri} @ {self.where(pos)}: {why} ({skipped} bytes)")

    @staticmethod
    def _arc_header(line: bytes) -> bool:
        parts = line.split()
        return bool(parts) and (parts[0].startswith(b"filedesc:") or (len(parts) >= 5 and b":" in parts[0]))

    # -- records ---------------------------------------------------------------------------------------------
    def __iter__(self) -> Iterator[Document]:
        read = self._arc_record if self.arc else self._warc_record
        while True:
            pos = self.s.tell()
            line = self.s.readline()
            while line and not line.strip():  # blank lines between records
                pos, line = self.s.tell(), self.s.readline()
            self._claim_gaps(pos)
            if not line:
                break
            try:
                doc = read(pos, line)
            except _Skip as skip:
                if skip.counted:
                    self.fail(skip.reason, pos, skip.message)
                if skip.resync:
                    self._resync(pos, skip.message, count=not skip.counted)
                continue
            if doc is not None:
                yield doc
        self._claim_gaps(float("inf"))
        if self.s.truncated_member:
            self.note("read.file_ends_inside_a_gzip_member", self.uri)

    def _block(self, pos: int, length: int, keep: bool) -> tuple[bytes, int]:
        """The record's block (or None if not kept) and the bytes missing at the end of the file."""
        start = self.s.tell()
        cap = self.max_bytes + MAX_HEADER_BYTES
        if keep and length <= cap:
            block = self.s.read(length)
            got = len(block)
        elif self.arc:
            block = None
            got = self.s.skip(length)
        else:
            return None, self._skip_block(pos, start, length)
        # a length that swallows the next gzip member, which starts a record of its own, is wrong: cut it there
        if block is not None and not self.arc:
            for m in self.s.member_starts_in(start, start + got):
                if block[m - start:m - start + 5] == b"WARC/":
                    self.s.unread(block[m - start:])
                    block, got = block[:m - start], m - start
                    self.note("read.bad_length", f"{self.uri} @ {self.where(pos)}: Content-Length {length} runs "
                              f"into the next record; cut at {got}")
                    return block, 0
        return block, length - got

    def _skip_block(self, pos: int, start: int, length: int) -> int:
        """Skip a block that is not kept, in chunks, stopping at a gzip member that starts a record of its own
        (a wrong, too long Content-Length must not swallow the next records); returns the bytes missing."""
        got = 0
        while got < length:
            chunk = self.s.read(min(SKIP_CHUNK, length - got))
            if not chunk:
                break
            for m in self.s.member_starts_in(start + got - (1 if got else 0), start + got + len(chunk)):
                off = m - start - got
                if len(chunk) - off < 5:  # the member starts at the chunk's end: look at its first bytes
                    chunk += self.s.read(5 - (len(chunk) - off))
                if chunk[off:off + 5] == b"WARC/":
                    self.s.unread(chunk[off:])
                    self.note("read.bad_length", f"{self.uri} @ {self.where(pos)}: Content-Length {length} runs "
                              f"into the next record; cut at {got + off}")
                    return 0
            if got + len(chunk) > length:  # looked past the block's end: give those bytes back
                self.s.unread(chunk[length - got:])
                chunk = chunk[:length - got]
            got += len(chunk)
        return max(length - got, 0)

    def _warc_record(self, pos: int, line: bytes) -> Document | None:
        if not (line.startswith(b"WARC/") and line.rstrip()[5:6].isdigit()):
            raise _Skip("corrupt", f"no WARC/ version line but {line[:60]!r}", resync=True, counted=False)
        headers, size = {}, 0
        while True:
            h = self.s.readline()
            size += len(h)
            if not h or size > MAX_HEADER_BYTES:
                raise _Skip("bad_headers", "WARC headers without an end", resync=True)
            if not h.strip():
                break
            name, colon, value = h.decode("utf-8", "replace").partition(":")
            if colon:
                headers.setdefault(name.strip().lower(), value.strip())
        kind = headers.get("warc-type", "").lower()
        try:
            length = int(headers.get("content-length", ""))
            if length < 0:
                raise ValueError
        except ValueError:
            raise _Skip("bad_headers", f"Content-Length {headers.get('content-length')!r} is not a length",
                        resync=True) from None
        keep = kind in KEEP_TYPES and length <= self.max_bytes + MAX_HEADER_BYTES
        block, missing = self._block(pos, length, keep)
        rid = self._id(headers, pos)
        if self.observe:
            self.observe(kind=kind or "?", length=length, url=headers.get("warc-target-uri", ""),
                         id_header=next((h for h in ID_HEADERS if headers.get(h)), "offset"))
        self.stats.update("records")
        if self._claim_gaps(self.s.tell(), pos):
            self.stats.outcome("failed", "corrupt", rid=rid, example=f"{rid} ({self.uri} @ {self.where(pos)}): "
                               "its gzip member is unreadable")
            return None
        if missing:
            self._truncated(rid, pos, missing, length)
        if not kind:
            self.stats.outcome("failed", "bad_headers", rid=rid, example=f"{rid} ({self.uri} @ {self.where(pos)}): no WARC-Type")
            return None
        if kind not in KEEP_TYPES:
            self.stats.outcome("skipped", "non_response", rid=rid)
            self.stats.update(f"read.record_type.{kind}")
            return None
        if block is None:
            self.stats.outcome("skipped", "too_large", rid=rid, example=f"{rid} ({self.uri}): {length} bytes > --max-bytes")
            return None
        if kind == "conversion":  # WET: text already extracted, pruned without a DOM (preprocess/steps/text.py)
            return Document(id=rid, url=headers.get("warc-target-uri", "").strip().strip("<>"), source=self.uri,
                            content_type=headers.get("content-type", "text/plain"), raw=block,
                            meta={TEXT_ONLY: True})
        return self._document(rid, headers.get("warc-target-uri", ""), block, pos)

    def _document(self, rid: str, url: str, block: bytes, pos: int) -> Document | None:
        try:
            status, ctype, body = payload(block, self.stats.update)
        except BadHttp as exc:
            self.stats.outcome("failed", "bad_http_head", rid=rid, example=f"{rid} ({self.uri} @ {self.where(pos)}): {exc}")
            return None
        if status is not None:
            self.stats.update(f"read.http_status.{status // 100}xx")
        if self.observe:
            self.observe(status=status, content_type=ctype, payload=len(body))
        return Document(id=rid, url=url.strip().strip("<>"), source=self.uri, content_type=ctype, raw=body)

    def _truncated(self, rid: str, pos: int, missing: int, length: int) -> None:
        self.stats.update("read.truncated_records")
        self.stats.note("read.truncated_records", f"{rid} ({self.uri} @ {self.where(pos)}): {missing} of {length} "
                        "bytes missing")
        log.debug("%s: record %s at %s ends %d bytes early (file truncated?); its partial payload is kept and "
                    "counted in read.truncated_records", self.uri, rid, self.where(pos), missing)

    def _id(self, headers: dict, pos: int) -> str:
        for h in ID_HEADERS:
            value = headers.get(h, "").strip().strip("<>")
            if value:
                return value
        return f"{self.name}:{self.s.raw_offset(pos) if self.s.raw_offset(pos) is not None else pos}"

    def _arc_record(self, pos: int, line: bytes) -> Document | None:
        parts = line.decode("utf-8", "replace").split()
        if not self._arc_header(line):
            raise _Skip("corrupt", f"not an ARC record header: {line[:60]!r}", resync=True, counted=False)
        try:
            length = max(int(parts[-1]), 0)
        except ValueError:
            length = 0
            self.stats.update("read.arc_bad_length")
        url, ctype = parts[0], parts[3] if len(parts) > 3 else ""
        if self.observe:
            self.observe(kind="arc_filedesc" if url.startswith("filedesc:") else "arc_record", length=length, url=url,
                         id_header="offset")
        keep = not url.startswith("filedesc:") and length <= self.max_bytes + MAX_HEADER_BYTES
        block, missing = self._block(pos, length, keep)
        rid = f"{self.name}:{self.s.raw_offset(pos) if self.s.raw_offset(pos) is not None else pos}"
        self.stats.update("records")
        if self._claim_gaps(self.s.tell(), pos):
            self.stats.outcome("failed", "corrupt", rid=rid, example=f"{rid}: its gzip member is unreadable")
            return None
        if missing:
            self._truncated(rid, pos, missing, length)
        if url.startswith("filedesc:"):
            self.stats.outcome("skipped", "non_response", rid=rid)
            self.stats.update("read.record_type.arc_filedesc")
            return None
        if block is None:
            self.stats.outcome("skipped", "too_large", rid=rid, example=f"{rid} ({self.uri}): {length} bytes > --max-bytes")
            return None
        if not block.startswith(b"HTTP/"):
            return Document(id=rid, url=url, source=self.uri, content_type=ctype, raw=block)
        return self._document(rid, url, block, pos)


class _Skip(Exception):
    def __init__(self, reason: str, message: str, resync: bool = False, counted: bool = True):
        self.reason, self.message, self.resync, self.counted = reason, message, resync, counted


def read_archive(raw, name: str, uri: str, stats: Stats, max_bytes: int, observe=None) -> Iterator[Document]:
    arc = name.endswith((".arc", ".arc.gz"))
    yield from Archive(raw, name, uri, stats, max_bytes, arc, observe)
