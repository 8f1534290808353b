"""Where records are in an archive's decompressed bytes, and what the bytes between them cost.

:class:`Framer` checks each record's length against what follows its block -- the separator, then the next
record's header (sound, or damaged: its version line broken) or the end of the file -- whether the file is
gzipped per record, gzipped whole or not at all. A length that disagrees is repaired at the next record
(``read.bad_length``), so a wrong ``Content-Length`` never swallows the records after it nor cuts its own page
short. Bytes that are not a record are skipped to the next header, counting the records they held (gzip
members that do not inflate, damaged WARC headers) or noting them as left-overs; every count goes through
:meth:`Framer.fail` and :meth:`Framer.note`. A gzip member start counts as a record start whatever precedes it.

While every record of a gzipped file has begun a gzip member (record-at-a-time compression, what WARC writers
do), every member start is a record start, whether or not its header reads, and a record that begins a member
which fails its check ends where that member ends: a damaged member's inflated bytes copy earlier text, record
headers included, so nothing inside it is taken for the start of another record
(:meth:`Framer._damaged_member_end`); that record is the one counted. A record met inside a member (one member
for the whole file, or several records a member) turns this off for the rest of the file.
"""
from __future__ import annotations

import logging
import re

from preprocess.readers import digest
from preprocess.readers.record_starts import block_end, boundary, damaged_header, framed, header_at, next_start
from preprocess.readers.member_stream import MemberStream
from preprocess.core.stats import Stats

log = logging.getLogger("webprune.preprocess")
MAX_HEADER_BYTES = 1 << 16
SCAN = 1 << 20   # bytes looked at per step when skipping a block or scanning for the next record
PEEK = 1 << 12   # bytes looked at after a block to check that the next record starts there
_MARKUP = re.compile(rb"<(?:!doctype|html|head|body|div|p|span|a|script|meta|/[a-z]+)[\s>]", re.I)


class Framer:
    """The framing and accounting half of an archive reader (:class:`preprocess.readers.archive.Archive`)."""

    def __init__(self, raw, name: str, uri: str, stats: Stats, max_bytes: int, arc: bool, reopen=None,
                 observe=None):
        self.s = MemberStream(raw, reopen)
        self.observe = observe  # called with the facts of each record (webprune inspect)
        self.name, self.uri, self.stats, self.max_bytes, self.arc = name, uri, stats, max_bytes, arc
        self.claimed_gaps = 0
        self.members_are_records = self.s.gzipped  # until a record is met inside a member
        self._counted: set[int] = set()  # raw offsets of the members a record was counted in (members are records)
        self._checked = 0  # members before this index were checked for holding a record
        self._headed = False  # the line that failed to start a record carried WARC headers

    def where(self, pos: int) -> str:
        raw = self.s.raw_offset(pos)
        return f"offset {raw}" if raw is not None else f"byte {pos} (decompressed)"

    def fail(self, reason: str, pos: int, message: str, records: int = 1, gap: bool = False) -> None:
        """Count ``records`` failed at ``pos`` (``gap``: lost in a gap of the stream, not the record at ``pos``)."""
        if records and not gap:
            self._count_in(pos)
        for _ in range(records):
            self.stats.update("records")
            self.stats.outcome("failed", reason, rid=f"@{self.where(pos)}")
            if self.observe:  # a record whose head never read: seen as unreadable
                self.observe(kind=f"unreadable ({reason})")
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
            # length running past the record's intact member) is a record lost of its own.
            if record_pos is not None and gap.pos > record_pos and not cut \
                    and gap.raw_start <= (self.s.member_of(record_pos) or 0):
                cut = True
                if gap.more:
                    self.fail("corrupt", gap.pos, f"{gap.more} gzip member(s) after raw offset {gap.raw_start} "
                              f"unreadable ({gap.error})", records=gap.more, gap=True)
                continue
            counted = self.members_are_records and gap.raw_start in self._counted  # its record was counted
            self._counted.add(gap.raw_start)
            if gap.more or not counted:
                self.fail("corrupt", gap.pos, f"gzip member at raw offset {gap.raw_start} unreadable ({gap.error}); "
                          f"reading went on at raw offset {gap.raw_end}", records=(not counted) + gap.more, gap=True)
        self._claim_empty_members(upto)
        return cut

    def _count_in(self, pos: int) -> None:
        """A record was counted at ``pos``: its gzip member holds one."""
        if self.members_are_records:
            member = self.s.member_of(pos)
            if member is not None:
                self._counted.add(member)

    def _claim_empty_members(self, upto: int) -> None:
        """While members are records, a member that failed its check and ended before ``upto`` with no record
        counted in it is a record lost (its bytes held no head that reads, or only blank lines)."""
        members = self.s.members
        while self._checked < len(members):
            m = members[self._checked]
            if m.end is None or m.end > upto:
                return
            self._checked += 1
            if self.members_are_records and m.status in ("crc", "error") and m.raw_start not in self._counted:
                self._counted.add(m.raw_start)
                self.fail("corrupt", m.pos, f"gzip member at raw offset {m.raw_start} fails its check and holds no "
                          "record that reads", gap=True)

    def record_at(self, pos: int) -> None:
        """A record starts at ``pos``: one inside a gzip member means members are not records in this file."""
        if self.members_are_records and self.s.raw_offset(pos) is None:
            self.members_are_records = False
        self._count_in(pos)

    def _damaged_member_end(self, pos: int, whole: int | None = None) -> int | None:
        """Where the record at ``pos`` ends when it begins a gzip member that fails its check, members are records
        and the file holds other members: that member's end (decompressed). None otherwise, or when the member
        inflates past what one record may hold. A member that runs to the end of the file is damaged, not cut
        short, when the file ends with its trailer (the size field there is the record's) or it inflates to more
        than its record (``whole``: the record's size as its head declares it, separator included)."""
        if not self.members_are_records or self.s.raw_offset(pos) is None:
            return None
        over = self.s.members_over(pos, pos + 1)
        if not over or self.s.verify(over[0]) not in ("crc", "error", "truncated"):
            return None
        member, cap = over[0], self.max_bytes + 2 * MAX_HEADER_BYTES
        want = PEEK
        while member.end is None and want <= cap:
            if len(self.s.peek(want)) < want:
                break
            want *= 2
        if member.end is None or member.end - pos > cap:
            return None
        self.s.peek(member.end - self.s.tell() + 1)  # the next member, if any, is started
        if len(self.s.members) < 2:  # the whole file in one member: its records are framed by their headers
            return None
        if member.status == "truncated":
            if whole is None or (member.last_size != whole & 0xFFFFFFFF and member.end - pos <= whole):
                return None  # a file cut short: its record keeps what it holds (read.truncated_records)
            self.s.damaged(member)  # it ends with its trailer, or holds more than its record: damaged
        return member.end

    def _resync(self, pos: int, why: str, count: bool = True) -> None:
        """Skip to the next record header, counting the records the skipped bytes held: one per gzip member
        that starts there and per damaged WARC header in them. The record at ``pos`` is among them when it
        begins a member or carried WARC headers, unless ``count`` is off (it was counted already); bytes that
        held no record were left-overs of the record before."""
        end = self._damaged_member_end(pos)
        if end is not None:  # the damaged member is one record, whatever its bytes look like
            skipped = len(self.s.read(max(end - self.s.tell(), 0)))
            self.stats.update("read.resync")
            self.stats.update("read.garbage_bytes", skipped)
            if count:
                self.fail("corrupt", pos, f"{why}; its gzip member fails its check: {skipped} bytes skipped to "
                          "the member's end")
            return
        headers = [0, 0]

        def census(data: bytes) -> None:  # damaged records still carry their WARC-Type and Record-ID lines
            headers[0] += data.count(b"\nWARC-Type:") + data.startswith(b"WARC-Type:")
            headers[1] += data.count(b"\nWARC-Record-ID:") + data.startswith(b"WARC-Record-ID:")

        skipped = self._advance(None, keep=False, prev=b"\n", census=None if self.arc else census)[1]
        end = self.s.tell()
        self.stats.update("read.resync")
        self.stats.update("read.garbage_bytes", skipped)
        if count:
            members = sum(1 for m in self.s.members_over(pos, end) if pos <= m.pos < end and m.end != m.pos)
            lost = max(members, max(headers), 1 if self._headed else 0)
        else:  # the record at ``pos`` failed on its own (its headers were read): only what came after it
            lost = max(sum(1 for m in self.s.members_over(pos, end) if pos < m.pos < end and m.end != m.pos),
                       max(headers))
        if lost:
            self.fail("corrupt", pos, f"{why}; {skipped} bytes skipped to the next record ({lost} record(s) "
                      "lost in them)", records=lost)
        elif count:
            self.note("read.leftover_bytes_skipped", f"{self.uri} @ {self.where(pos)}: {why} ({skipped} bytes)")

    def _advance(self, limit: int | None, keep: bool, prev: bytes, census=None,
                 damaged: bool = False) -> tuple[bytes | None, int, bool]:
        """Consume bytes up to the next record header at a line start (with ``damaged``, a damaged header too),
        ``limit`` bytes, or the end of the file: (the bytes if ``keep``, how many, whether a header was found).
        ``prev`` is the byte before; ``census`` sees every consumed chunk."""
        find = boundary if damaged else next_start
        kept, done = (bytearray() if keep else None), 0
        while limit is None or done < limit:
            want = SCAN if limit is None else min(SCAN, limit - done)
            window = self.s.peek(want + PEEK)
            if not window:
                break
            r = self._record_in(prev + window, self.s.tell() - 1, 1, find)
            found = r is not None and r - 1 < want
            data = self.s.read(r - 1 if found else min(want, len(window)))
            done += len(data)
            if census is not None:
                census(data)
            if keep:
                kept += data
            if found:
                return kept, done, True
            if len(window) < want:
                break
            prev = data[-1:] or prev
        return kept, done, False

    def _record_in(self, buf: bytes, at: int, lo: int, find) -> int | None:
        """The first record start in ``buf[lo:]`` (``buf[0]`` is at decompressed position ``at``): a header at a
        line start, or one at the start of a gzip member (its own record whatever the bytes before it)."""
        r = find(buf, lo, self.arc)
        for p in self.s.starts_in(at + lo, at + (r if r is not None else len(buf))):
            i = p - at
            if i >= lo and (self.members_are_records or header_at(buf, i, self.arc) or (
                    find is boundary and not self.arc and damaged_header(b"\r\n\r\n" + buf[i:i + PEEK], False))):
                return i
        return r

    def _block(self, pos: int, length: int, headers: dict | None = None) -> tuple[bytes | None, int]:
        """The record's block (None when larger than --max-bytes allows) and the bytes missing at the end of the
        file. Its end is checked against what follows; a length that disagrees is repaired (read.bad_length)."""
        cap = self.max_bytes + MAX_HEADER_BYTES
        if length > cap:
            return self._skip(pos, length)
        block = self.s.read(length)
        after = self.s.peek(PEEK)
        if len(block) == length and framed(after, self.arc, len(after) < PEEK) and not (
                len(after) < PEEK and self.s.truncated_member):  # at the end of a cut (or damaged) member
            return block, 0
        end = self._damaged_member_end(pos, self.s.tell() - len(block) - pos + length + (1 if self.arc else 4))
        if end is not None:  # its member is damaged: the block is the rest of the member
            return self._member_block(block, end, length, pos), 0
        if len(block) < length:  # the file ends first: a length too long at the last record, or a cut file
            r = self._record_in(block, self.s.tell() - len(block), 0, boundary)
            if r is None:
                return block, length - len(block)
            self.s.unread(block[r:])
            return self._repaired(pos, length, block[:block_end(block, r, self.arc)]), 0
        after = self.s.peek(PEEK)
        r = self._record_in(block + after, self.s.tell() - len(block), 0, boundary)
        if r is not None and r < len(block):  # the next record starts inside the block: the length is too long
            self.s.unread(block[r:])
            return self._repaired(pos, length, block[:block_end(block, r, self.arc)]), 0
        if self._length_right(block, after, headers):  # what follows is junk or a broken record, not this page
            return block, 0
        more, _, found = self._advance(cap - len(block), keep=True, prev=block[-1:] or b"\n", damaged=True)
        whole = block + bytes(more)
        if not found and len(whole) >= cap and self.s.peek(1):  # longer than --max-bytes: skip the rest
            self._advance(None, keep=False, prev=whole[-1:], damaged=True)
            self._repaired(pos, length, b"")
            return None, 0
        return self._repaired(pos, length, whole[:block_end(whole, len(whole), self.arc)]), 0

    def _member_block(self, block: bytes, end: int, length: int, pos: int) -> bytes | None:
        """The block of a record whose damaged member ends at ``end``: the member's bytes after its head (read
        so far: ``block``), the separator left out; its declared ``length`` where that ends at the separator."""
        start = self.s.tell() - len(block)
        if self.s.tell() > end:
            self.s.unread(block[end - start:])
            rest = block[:end - start]
        else:
            rest = block + self.s.read(end - self.s.tell())
        if len(rest) >= length and not rest[length:].strip(b"\r\n") and len(rest) - length <= 8:
            return rest[:length]
        block = rest[:block_end(rest, len(rest), self.arc)]
        self._repaired(pos, length, block)
        return block if len(block) <= self.max_bytes + MAX_HEADER_BYTES else None

    def _length_right(self, block: bytes, after: bytes, headers: dict | None) -> bool:
        """Whether a block that is not followed by a record still has the right length: its digest says so, or
        it ends at the separator and what follows is a broken record header, or junk with no markup in it
        (a length too short would leave the rest of its page there)."""
        if headers is not None and digest.check(headers, block, lambda: digest.payloads(block)) == "ok":
            return True
        if damaged_header(after, self.arc):
            return True
        sep = b"\n" if self.arc else b"\r\n\r\n"
        if not after.startswith(sep):
            return False
        return _MARKUP.search(after, 0, next_start(after, len(sep), self.arc) or len(after)) is None

    def _skip(self, pos: int, length: int) -> tuple[bytes | None, int]:
        """A block whose length is past what --max-bytes allows: kept if the next record in fact starts within
        that limit (a wrong length), else skipped without being held. Stops at a record header met on the way
        (a wrong, too long length must not swallow the next records). Returns (block or None, bytes missing)."""
        cap = self.max_bytes + MAX_HEADER_BYTES
        head, got, found = self._advance(cap, keep=True, prev=b"\n", damaged=True)
        if found:
            return self._repaired(pos, length, bytes(head)[:block_end(head, len(head), self.arc)]), 0
        if not self.s.peek(1):  # the file ends first
            return bytes(head), length - got
        _, more, found = self._advance(length - got, keep=False, prev=head[-1:], damaged=True)
        got += more
        if found:
            self._repaired(pos, length, None, got)
            return None, 0
        if got < length:
            return None, length - got
        after = self.s.peek(PEEK)
        if not framed(after, self.arc, len(after) < PEEK) and not damaged_header(after, self.arc):
            self._advance(None, keep=False, prev=b"\n", damaged=True)
            self._repaired(pos, length, None, got)
        return None, 0

    def _repaired(self, pos: int, length: int, block: bytes | None, size: int | None = None) -> bytes | None:
        size = len(block) if size is None and block is not None else size
        self.note("read.bad_length", f"{self.uri} @ {self.where(pos)}: length {length} disagrees with where the "
                  f"next record starts; block taken as {size if size is not None else 'too large'} bytes")
        return block
