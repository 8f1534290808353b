"""A decompressed view of an archive file that knows its gzip members, whether each passed its check, and where
it could not be read.

:class:`MemberStream` reads a raw stream (gzipped or not, told by the magic bytes) and serves the decompressed
bytes through ``readline``/``read``/``peek``/``unread``. For a gzipped file it parses each member's header itself,
inflates the raw deflate stream and checks the member's CRC-32 and size against its trailer, so a member that
fails its check still yields every byte it holds, flagged:

* ``members``: each member's raw offset, decompressed span and status (``ok``, ``crc`` when the check failed,
  ``error`` when inflating stopped, ``truncated`` when the file ends inside it, ``open`` while being read);
* ``gaps``: stretches that could not be read -- the rest of a member that stopped inflating, or junk between
  members. Reading goes on at the next *valid* member (a gzip header that inflates), so one bad member never
  costs its neighbours, and a stray magic number inside compressed bytes is not taken for a member.

A damaged member's deflate data can go on "inflating" into the raw bytes of the members after it (zeros and
flipped bits are often valid deflate codes) until it errs, ends with a bad CRC or reaches the end of the file.
So when a member fails, its raw bytes (kept while it is read) are searched for a member that starts inside them
and inflates whole with a good CRC: reading goes back there (:meth:`MemberStream._swallowed`), and the members
it passed over that do not inflate are records lost (one each).

:meth:`MemberStream.verify` checks a member that is still being read (one gzip member for a whole file of
records) by inflating it to its end from a second handle on the file, so a record is never trusted before its
member's check is known. Decompression is streamed: memory stays bounded whatever the file.
"""
from __future__ import annotations

import struct

try:  # Intel ISA-L's inflate: the same bytes out, ~1.6x faster than zlib's on these files
    from isal import isal_zlib as zlib
except ImportError:  # pragma: no cover
    import zlib

from preprocess.readers.gzip_members import CHUNK, GZIP_MAGIC, MAX_HEADER, Gap, Member, MemberIndex, RawBuffer, \
    header_length, inflate_member

FEED = 1 << 16          # raw bytes per inflate call: a member that stops inflating loses at most one call's output
TRIAL = 1 << 12         # raw bytes a candidate member must inflate without error to count as one
_TRAILER = struct.Struct("<II")  # a gzip member's CRC-32 and size


class MemberStream(MemberIndex):
    def __init__(self, raw, reopen=None):
        self.reopen = reopen
        self.raw = RawBuffer(raw)    # raw bytes read but not yet used
        self.buf = bytearray()       # decompressed bytes; those before ``head`` are consumed
        self.head = 0
        self.pos = 0                 # decompressed position of buf[head]
        self.decomp_end = 0          # decompressed bytes produced so far
        self.members: list[Member] = []
        self._starts: list[int] = []  # decompressed start of each member (bisect)
        self.gaps: list[Gap] = []
        self.truncated_member = False  # the file ends inside a member (cut mid-record)
        self._verified: dict[int, str] = {}
        self.raw.need(2)
        self.gzipped = self.raw.get(0, 2) == GZIP_MAGIC[:2]
        self.member: Member | None = None
        self.dec = None
        if self.gzipped:
            self._start_member_here()

    # -- raw side --------------------------------------------------------------------------------------------
    def _emit(self, data: bytes) -> None:
        if data:
            if self.head > len(self.buf) // 2:  # drop what was consumed now and then, not on every take
                del self.buf[:self.head]
                self.head = 0
            self.buf += data
            self.decomp_end += len(data)

    # -- members ---------------------------------------------------------------------------------------------
    def _member_at(self, i: int) -> str:
        """What the raw bytes at ``i`` start: ``member`` (a gzip header that parses and a start that inflates),
        ``broken`` (a header that parses, then deflate data that does not) or ``none``."""
        self.raw.need(i + TRIAL)
        b = self.raw.get(i, i + MAX_HEADER)
        try:
            n = header_length(b)
        except ValueError:
            return "none"
        if n is None:
            return "none"
        try:
            zlib.decompressobj(-zlib.MAX_WBITS).decompress(self.raw.get(i + n, i + n + TRIAL))
        except zlib.error:
            return "broken"
        return "member"

    def _start_member_here(self) -> bool:
        """Begin the member at the next raw byte (after checking it is one); False if it is not one."""
        raw = self.raw
        raw.need(1024)
        data, off = raw.data, raw.off
        if data[off + 3:off + 4] == b"\0" and len(data) - off >= 10 and data[off:off + 3] == GZIP_MAGIC:
            n = 10  # no name, comment or extra field (what header_length says, asked less)
        else:
            n = self._header_here()
        if n is None:
            return False
        self.member = Member(raw.pos, self.decomp_end)
        self.members.append(self.member)
        self._starts.append(self.decomp_end)
        raw.mark = raw.pos  # kept while it is read: a rescan if it fails (_swallowed)
        raw.consume(n)
        self.dec, self.crc, self.size = zlib.decompressobj(-zlib.MAX_WBITS), 0, 0
        return True

    def _header_here(self) -> int | None:
        """Length of the gzip header at the next raw byte; None if there is none."""
        try:
            n = header_length(self.raw.get(0, 1024))  # a name or extra field may make it longer
            if n is None and (self.raw.need(MAX_HEADER) or True):
                n = header_length(self.raw.get(0, MAX_HEADER))
        except ValueError:
            n = None
        return n

    def _end_member(self, status: str, read_to: int | None = None, error: str = "") -> bool:
        """End the member being read with ``status``. A failed one whose raw bytes (to ``read_to``, else to where
        reading is) hold an intact member it swallowed goes back there and returns True: it is damaged (status
        ``error``), a gap holds the members passed over, and the stream reads on from that member."""
        failed = self.member
        self.member, self.dec = None, None
        found = None if status == "ok" else self._swallowed(failed, self.raw.pos if read_to is None else read_to)
        self.raw.mark = None
        if found is not None and status == "truncated":  # it ran into other members: damaged, not cut short
            status = "error"
        failed.status, failed.end = status, self.decomp_end
        self._verified[failed.raw_start] = status
        if found is None:
            if status in ("crc", "truncated") and failed.end == failed.pos:  # no byte to frame: a record lost
                # (a member that errs gets its gap where reading skips to the next member)
                self.gaps.append(Gap(self.decomp_end, failed.raw_start, self.raw.pos,
                                     error or f"corrupt gzip member ({status}) that inflates to nothing"))
            return False
        at, broken = found
        self.raw.rewind(at)
        if broken or status == "error":  # the failed member's own record stands for the gap; broken: more lost
            self.gaps.append(Gap(self.decomp_end, failed.raw_start, at, error or f"corrupt gzip member ({status})",
                                 True, broken))
        return True

    def _last_size(self) -> int | None:
        """The file's last 4 bytes (its end reached) read as a gzip trailer's size field."""
        data = self.raw.data
        return struct.unpack_from("<I", data, len(data) - 4)[0] if len(data) >= 4 else None

    def damaged(self, member: Member) -> None:
        """``member`` is known to be damaged (a reader's finding): status ``error``."""
        member.status = self._verified[member.raw_start] = "error"

    def _swallowed(self, failed: Member, read_to: int) -> tuple[int, int] | None:
        """(raw offset, broken members before it) of the first member that starts inside the raw bytes ``failed``
        was inflated from (to ``read_to``) and inflates whole with a good CRC; None when there is none, or when
        those bytes are no longer kept."""
        raw = self.raw
        if raw.mark != failed.raw_start or not raw.held(failed.raw_start + 1):
            return None
        base = raw.pos - raw.off  # raw offset of raw.data[0]
        broken, k = 0, failed.raw_start + 1 - base
        while True:
            k = raw.data.find(GZIP_MAGIC, k)
            if k < 0 or base + k >= read_to:
                return None
            try:
                header = header_length(raw.data[k:k + MAX_HEADER])
            except ValueError:
                header = None
            if header is not None:
                at = base + k
                if inflate_member(raw.bytes_at(at)) == "ok":
                    return at, broken
                broken += 1  # a member of its own that does not inflate: a record lost
                base = raw.pos - raw.off  # reading it may have moved the buffer
                k = at - base
            k += 1

    def _skip_to_member(self, start: int, error: str, is_member: bool) -> bool:
        """Go on from the first valid member at raw offset >= ``start``, noting a gap (with the broken members
        passed over on the way); False at the file's end."""
        gap = Gap(self.decomp_end, self.members[-1].raw_start if is_member else self.raw.pos, 0, error, is_member)
        i = max(start - self.raw.pos, 0)
        while True:
            j = self.raw.find(GZIP_MAGIC, i)
            if j < 0:
                keep = min(len(GZIP_MAGIC) - 1, len(self.raw))
                self.raw.consume(len(self.raw) - keep)
                if not self.raw.need(keep + 1):
                    self.raw.consume(len(self.raw))
                    gap.raw_end = self.raw.pos
                    self.gaps.append(gap)
                    return False
                i = 0
                continue
            found = self._member_at(j)
            if found == "member":
                self.raw.consume(j)
                gap.raw_end = self.raw.pos
                self.gaps.append(gap)
                return self._start_member_here()
            if found == "broken":  # a member of its own whose deflate data is damaged: a record lost too
                if gap.member:
                    gap.more += 1
                else:
                    gap.member = True
            i = j + 1

    def _fill(self) -> bool:
        """Decompress more into ``buf``; False once nothing more can come."""
        raw = self.raw
        if not self.gzipped:
            if not raw.need(1):
                return False
            data = raw.get(0, len(raw))
            raw.consume(len(data))
            self._emit(data)
            return True
        while True:
            if self.member is None:  # between members
                if not raw.need(1):
                    return False
                raw.need(len(GZIP_MAGIC))
                if raw.data.startswith(GZIP_MAGIC, raw.off) and self._start_member_here():
                    continue
                if not self._skip_to_member(raw.pos + 1, "bytes after a gzip member that are not gzip", False):
                    return False
                continue
            if not raw.need(1):  # the file ends inside the member
                try:
                    self._emit(self.dec.flush())
                except zlib.error:
                    pass
                self.member.last_size = self._last_size()
                if self._end_member("truncated"):
                    continue
                self.truncated_member = True
                return False
            data = raw.view(0, FEED)
            try:
                out = self.dec.decompress(data)
            except zlib.error as exc:
                failed = self.member
                if not self._end_member("error", raw.pos + len(data), f"corrupt gzip member: {exc}"):
                    self._skip_to_member(max(failed.raw_start + 1, raw.pos), f"corrupt gzip member: {exc}", True)
                return True
            self.crc, self.size = zlib.crc32(out, self.crc), self.size + len(out)
            self._emit(out)
            if not self.dec.eof:
                raw.consume(len(data))
                if out:
                    return True
                continue
            raw.consume(len(data) - len(self.dec.unused_data))
            if not raw.need(8):
                self.member.last_size = self._last_size()
                raw.consume(len(raw))
                if self._end_member("truncated"):
                    continue
                self.truncated_member = True
                return bool(out)
            want = _TRAILER.unpack_from(raw.data, raw.off)
            raw.consume(8)
            self._end_member("ok" if want == (self.crc, self.size & 0xFFFFFFFF) else "crc")
            if out:
                return True

    def verify(self, member: Member) -> str:
        """The status of ``member``; one still being read is inflated to its end from a second handle on the file."""
        if member.status != "open":
            return member.status
        if member.raw_start not in self._verified:
            status = "open"
            if self.reopen is not None:
                raw = self.reopen()
                try:
                    if hasattr(raw, "seek"):
                        raw.seek(member.raw_start)
                    else:
                        left = member.raw_start
                        while left > 0:
                            left -= len(raw.read(min(CHUNK, left)) or b"") or left
                    status = inflate_member(lambda n: raw.read(n) or b"")
                finally:
                    raw.close()
            self._verified[member.raw_start] = status
        return self._verified[member.raw_start]

    # -- decompressed side -----------------------------------------------------------------------------------
    def tell(self) -> int:
        return self.pos

    def _avail(self) -> int:
        return len(self.buf) - self.head

    def _ensure(self, n: int) -> None:
        while self._avail() < n and self._fill():
            pass

    def readline(self, limit: int = 1 << 16, members: bool = False) -> bytes:
        """One line (with its newline) of at most ``limit`` bytes; b"" at the end. With ``members``, a line
        also ends where a gzip member starts (a record's head never runs into the next member's)."""
        start = self.head
        while True:
            i = self.buf.find(b"\n", start, self.head + limit)
            if i >= 0:
                return self._take(self._to_member(i + 1 - self.head) if members else i + 1 - self.head)
            if self._avail() >= limit:
                return self._take(self._to_member(limit) if members else limit)
            avail = self._avail()
            self._ensure(avail + 1)
            if self._avail() == avail:
                return self._take(self._to_member(avail) if members else avail)
            start = self.head + avail

    def _to_member(self, n: int) -> int:
        """``n``, or fewer: up to the first gzip member that starts after the next byte and within ``n``."""
        starts = self.starts_in(self.pos + 1, self.pos + n)
        return starts[0] - self.pos if starts else n

    def at_member_start(self) -> bool:
        self._ensure(1)  # a member that starts here is started once its first byte is
        return self.raw_offset(self.pos) is not None

    def read(self, n: int) -> bytes:
        self._ensure(n)
        return self._take(min(n, self._avail()))

    def peek(self, n: int) -> bytes:
        """Up to ``n`` bytes ahead, not consumed (fewer only at the end of the file)."""
        self._ensure(n)
        with memoryview(self.buf) as view:
            return bytes(view[self.head:self.head + n])

    def unread(self, data: bytes) -> None:
        if self.head >= len(data):
            self.head -= len(data)
            self.buf[self.head:self.head + len(data)] = data
        else:
            self.buf[:self.head] = data
            self.head = 0
        self.pos -= len(data)

    def buffered_head(self, limit: int) -> tuple[int, bytes] | None:
        """A record head already in the buffer, not consumed: (how many CR LF / LF blank-line bytes come first,
        the bytes after them to the first CR LF CR LF inclusive), when that ends within ``limit`` bytes; else None.
        Never reads more (the careful line-by-line path takes over where this answers None)."""
        buf, i = self.buf, self.head
        while True:
            if buf.startswith(b"\r\n", i):
                i += 2
            elif buf.startswith(b"\n", i):
                i += 1
            else:
                break
        j = buf.find(b"\r\n\r\n", i, i + limit)
        if j < 0:
            return None
        return i - self.head, bytes(buf[i:j + 4])

    def skip(self, n: int) -> None:
        """Consume ``n`` buffered bytes."""
        self.head += n
        self.pos += n

    def _take(self, n: int) -> bytes:
        with memoryview(self.buf) as view:  # one copy (a bytearray slice would be a second)
            out = bytes(view[self.head:self.head + n])
        self.head += n
        self.pos += n
        return out
