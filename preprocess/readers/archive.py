"""WARC (1.0, 1.1, ClueWeb09's 0.18) and ARC records, one at a time, each accounted for alone, in every framing.

Records are found and their lengths checked by :class:`preprocess.readers.framer.Framer`, in every framing.

A record is trusted when the gzip members holding it pass their CRC check, or when its own
``WARC-Block-Digest`` (or payload digest) verifies; a digest that does not match fails the record alone
(``failed.digest_mismatch``), and a record in a member that fails its check with no digest to prove it intact
fails as ``failed.corrupt`` -- one count per record the member held. Bytes that are not a record are skipped
to the next header; a gzip member that stops inflating costs the records it cut (``failed.corrupt``). A
record cut short by the end of the file keeps what it holds (``read.truncated_records``).

Ids: ``WARC-TREC-ID`` (ClueWeb09/12), ``ClueWeb22-ID``, ``WARC-Record-ID``; ARC records and records without
any id get ``FILE:OFFSET`` (the raw offset of their gzip member, or their byte offset), stable across runs; each
made safe by :func:`preprocess.core.ids.safe_id`. Header fields folded over several lines (a line starting with a
space or tab) are one value, joined by a space; an id header's bytes that are not UTF-8 are kept as they are
(into the id's ``%XX``), other fields' become U+FFFD.
"""
from __future__ import annotations

import logging
import os
import re
from typing import Iterator

from preprocess.core.document import TEXT_ONLY, Document
from preprocess.core.ids import escaped
from preprocess.readers import digest
from preprocess.readers.framer import PEEK, Framer
from preprocess.readers.record_starts import damaged_header, next_start
from preprocess.readers.http import BadHttp, payload
from preprocess.core.stats import Stats

log = logging.getLogger("webprune.preprocess")
ID_HEADERS = ("warc-trec-id", "clueweb22-id", "warc-record-id")
MAX_HEADER_BYTES = 1 << 16
FAST = not os.environ.get("WEBPRUNE_CAREFUL_READER")  # off: every head read line by line (to compare)
_BLANK_LINE = re.compile(rb"\n[ \t\r\x0b\x0c]*\n")  # a line bytes.strip() empties (after the one before it)
KEEP_TYPES = ("response", "conversion")  # records that can become documents (conversion: WET text)


class Archive(Framer):
    """Reads one archive file (a stream) and yields Documents; every record lands in ``stats``."""

    def __init__(self, raw, name: str, uri: str, stats: Stats, max_bytes: int, arc: bool, observe=None,
                 reopen=None):
        super().__init__(raw, name, uri, stats, max_bytes, arc, reopen, observe)

    # -- records ---------------------------------------------------------------------------------------------
    def __iter__(self) -> Iterator[Document]:
        read = self._arc_record if self.arc else self._warc_record
        fast = FAST and not self.arc
        while True:
            head = self._buffered_head() if fast else None
            if head is None:
                pos = self.s.tell()
                line = self.s.readline(members=self.members_are_records)
                while line and not line.strip():  # blank lines between records (a member's own stay its record's)
                    pos = pos if self._member_start(pos) and not self.s.at_member_start() else self.s.tell()
                    line = self.s.readline(members=self.members_are_records)
            else:
                pos, headers = head
            self._claim_gaps(pos)
            if head is None and not line:
                break
            self._headed = False
            try:
                doc = read(pos, line) if head is None else self._warc_fields(pos, headers)
            except _Skip as skip:
                if skip.counted:  # a head that does not read in a damaged member: the member is the cause
                    self.fail("corrupt" if self._member_failed(pos) else skip.reason, pos, skip.message)
                if skip.resync:
                    self._resync(pos, skip.message, count=not skip.counted)
                continue
            if doc is not None:
                yield doc
        self._claim_gaps(float("inf"))
        if self.s.truncated_member:
            self.note("read.file_ends_inside_a_gzip_member", self.uri)

    def _member_failed(self, pos: int) -> bool:
        """Whether the gzip member holding ``pos`` failed its check (its bytes cannot be trusted)."""
        over = self.s.members_over(pos, pos + 1)
        return bool(over) and self.s.verify(over[0]) in ("crc", "error")

    def _untrusted(self, pos: int, headers: dict | None, block: bytes | None) -> tuple[str, str] | None:
        """(reason, why) when the record cannot be trusted: its digest does not match its block, or a gzip
        member holding it failed its check and no digest proves it intact (then not even its headers are sure,
        so it fails whatever its type)."""
        bad = None
        for m in self.s.members_over(pos, self.s.tell()):
            status = self.s.verify(m)
            if status in ("crc", "error"):
                bad = bad or status
        check = "unchecked"
        if headers is not None and block is not None:
            check = digest.check(headers, block, lambda: digest.payloads(block))
            if check != "unchecked":
                self.stats.update(f"read.digest_{check}")
        if check == "mismatch":
            return "digest_mismatch", "its digest does not match its bytes"
        if bad and check != "ok":
            return "corrupt", ("its gzip member fails its CRC check" if bad == "crc" else
                               "its gzip member stops inflating") + " and no digest proves it intact"
        return None

    def _buffered_head(self) -> tuple[int, dict] | None:
        """(position, headers) of a plain WARC head already buffered whole, consumed; None (nothing consumed) for
        anything else -- a head not all there yet, a blank-looking or non-ASCII line, no version line -- which
        the line-by-line path then reads. Same headers, same position as that path."""
        found = self.s.buffered_head(MAX_HEADER_BYTES)
        if found is None:
            return None
        blank, head = found
        at = self.s.tell()
        if self.members_are_records and (self.s.starts_in(at + 1, at + blank)
                                         or self.s.starts_in(at + blank + 1, at + blank + len(head))):
            return None  # blank lines or a head that a gzip member starts inside: read line by line
        end = head.find(b"\n") + 1
        if not (head.startswith(b"WARC/") and head[:end].rstrip()[5:6].isdigit()):
            return None
        fields = head[end:-2]
        if not fields.isascii() or _BLANK_LINE.search(head, end - 1, len(head) - 2):
            return None
        headers = _ascii_fields(fields.decode("ascii"))
        start = self.s.tell()
        self.s.skip(blank)
        pos = start if blank and self._member_start(start) else self.s.tell()
        self.s.skip(len(head))
        return pos, headers

    def _member_start(self, pos: int) -> bool:
        """Whether ``pos`` starts a gzip member while members are records: blank lines there are its record's."""
        return self.members_are_records and self.s.raw_offset(pos) is not None

    def _warc_record(self, pos: int, line: bytes) -> Document | None:
        if not (line.startswith(b"WARC/") and line.rstrip()[5:6].isdigit()):
            look = line + self.s.peek(PEEK)
            look = look[:self._record_in(look, pos, 1, next_start) or len(look)]  # up to the next sound record
            self._headed = damaged_header(b"\r\n\r\n" + look, False)
            raise _Skip("corrupt", f"no WARC/ version line but {line[:60]!r}", resync=True, counted=False)
        headers, size, last = {}, 0, None
        while True:
            if self.members_are_records and self.s.at_member_start():  # the next record's member
                raise _Skip("bad_headers", "WARC headers without an end before the next gzip member")
            h = self.s.readline(members=self.members_are_records)
            size += len(h)
            if not h or size > MAX_HEADER_BYTES:
                raise _Skip("bad_headers", "WARC headers without an end", resync=True)
            if not h.strip():
                break
            last = _add_field(headers, h.decode("utf-8", "surrogateescape"), last)
        return self._warc_fields(pos, headers)

    def _warc_fields(self, pos: int, headers: dict) -> Document | None:
        """The record whose headers were read, its block next."""
        kind = headers.get("warc-type", "").lower()
        try:
            length = int(headers.get("content-length", ""))
            if length < 0:
                raise ValueError
        except ValueError:
            raise _Skip("bad_headers", f"Content-Length {headers.get('content-length')!r} is not a length",
                        resync=True) from None
        self.record_at(pos)
        block, missing = self._block(pos, length, headers)
        rid, fields = self._id(headers, pos)
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
        bad = self._untrusted(pos, headers if kind in KEEP_TYPES and not missing else None, block)
        if bad:
            self.stats.outcome("failed", bad[0], rid=rid, example=f"{rid} ({self.uri} @ {self.where(pos)}): {bad[1]}")
            return None
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
                            fields=fields, meta={TEXT_ONLY: True})
        return self._document(rid, headers.get("warc-target-uri", ""), block, pos, fields)

    def _document(self, rid: str, url: str, block: bytes, pos: int, fields: dict) -> Document | None:
        try:
            status, ctype, body = payload(block, self.stats.update, self.max_bytes + 1)
        except BadHttp as exc:
            self.stats.outcome("failed", "bad_http_head", rid=rid, example=f"{rid} ({self.uri} @ {self.where(pos)}): {exc}")
            return None
        if status is not None:
            self.stats.update(f"read.http_status.{status // 100}xx")
        if self.observe:
            self.observe(status=status, content_type=ctype, payload=len(body))
        return Document(id=rid, url=url.strip().strip("<>"), source=self.uri, content_type=ctype, raw=body,
                        fields=fields)

    def _truncated(self, rid: str, pos: int, missing: int, length: int) -> None:
        self.stats.update("read.truncated_records")
        self.stats.note("read.truncated_records", f"{rid} ({self.uri} @ {self.where(pos)}): {missing} of {length} "
                        "bytes missing")
        log.debug("%s: record %s at %s ends %d bytes early (file truncated?); its partial payload is kept and "
                  "counted in read.truncated_records", self.uri, rid, self.where(pos), missing)

    def _id(self, headers: dict, pos: int) -> tuple[str, dict]:
        """The record's document id, and its fields: ``source_id`` when the id had to be made safe."""
        for h in ID_HEADERS:
            value = headers.get(h, "").strip().strip("<>")
            if value:
                break
        else:
            value = self._offset_id(pos)
        rid, source = escaped(value, self.stats, self.uri)
        return rid, ({"source_id": source} if source is not None else {})

    def _offset_id(self, pos: int) -> str:
        return f"{self.name}:{self.s.raw_offset(pos) if self.s.raw_offset(pos) is not None else pos}"

    def _arc_record(self, pos: int, line: bytes) -> Document | None:
        parts = line.decode("utf-8", "replace").split()
        if not _arc_line(line):
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
        self.record_at(pos)
        block, missing = self._block(pos, length)
        rid, fields = escaped(self._offset_id(pos), self.stats, self.uri)
        fields = {"source_id": fields} if fields is not None else {}
        self.stats.update("records")
        if self._claim_gaps(self.s.tell(), pos):
            self.stats.outcome("failed", "corrupt", rid=rid, example=f"{rid}: its gzip member is unreadable")
            return None
        if missing:
            self._truncated(rid, pos, missing, length)
        bad = self._untrusted(pos, None, block)
        if bad:
            self.stats.outcome("failed", bad[0], rid=rid, example=f"{rid} ({self.uri} @ {self.where(pos)}): {bad[1]}")
            return None
        if url.startswith("filedesc:"):
            self.stats.outcome("skipped", "non_response", rid=rid)
            self.stats.update("read.record_type.arc_filedesc")
            return None
        if block is None:
            self.stats.outcome("skipped", "too_large", rid=rid, example=f"{rid} ({self.uri}): {length} bytes > --max-bytes")
            return None
        if not block.startswith(b"HTTP/"):
            return Document(id=rid, url=url, source=self.uri, content_type=ctype, raw=block, fields=fields)
        return self._document(rid, url, block, pos, fields)


def _add_field(headers: dict, line: str, last: str | None) -> str | None:
    """A WARC head line ``Name: value`` into ``headers`` (name lower-cased; the first of a name stays), or the
    continuation of the field before it (``last``, a line starting with a space or tab). Returns the name of the
    field a next continuation line belongs to (None: one that is not kept). Bytes that were not UTF-8 stay
    surrogate escapes only in an id header."""
    if line[:1] in (" ", "\t"):
        if last is not None and line.strip():
            headers[last] = f"{headers[last]} {line.strip()}".strip()
        return last
    name, colon, value = line.partition(":")
    if not colon:
        return None
    name = name.strip().lower()
    if name in headers:
        return None
    if not value.isascii() and name not in ID_HEADERS:
        value = value.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    headers[name] = value.strip()
    return name


def _ascii_fields(text: str) -> dict:
    """The headers of an ASCII head's field lines, as :func:`_add_field` line by line makes them: inline where
    no line continues the one before it (the usual head), else by it."""
    headers: dict = {}
    if "\n " in text or "\n\t" in text or text[:1] in (" ", "\t"):
        last = None
        for line in text.split("\n"):
            last = _add_field(headers, line, last)
        return headers
    for line in text.split("\n"):
        name, colon, value = line.partition(":")
        if colon:
            name = name.strip().lower()
            if name not in headers:
                headers[name] = value.strip()
    return headers


def _arc_line(line: bytes) -> bool:
    """An ARC record line, loosely: five or more fields, the first a URL (or filedesc:)."""
    parts = line.split()
    return bool(parts) and (parts[0].startswith(b"filedesc:") or (len(parts) >= 5 and b":" in parts[0]))


class _Skip(Exception):
    def __init__(self, reason: str, message: str, resync: bool = False, counted: bool = True):
        self.reason, self.message, self.resync, self.counted = reason, message, resync, counted


def read_archive(raw, name: str, uri: str, stats: Stats, max_bytes: int, observe=None, reopen=None) -> Iterator[Document]:
    arc = name.endswith((".arc", ".arc.gz"))
    yield from Archive(raw, name, uri, stats, max_bytes, arc, observe, reopen)
