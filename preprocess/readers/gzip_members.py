"""Gzip members read by hand: the header parsed, the deflate data inflated raw, the CRC-32 and size checked
against the trailer by webprune (zlib would raise at a bad check and drop what it had inflated), and the raw
bytes kept in a buffer that is consumed by an offset."""
from __future__ import annotations

import bisect
import struct
from dataclasses import dataclass

try:  # Intel ISA-L's inflate: the same bytes out, ~1.6x faster than zlib's on these files
    from isal import isal_zlib as zlib
except ImportError:  # pragma: no cover
    import zlib

CHUNK = 1 << 20
MAX_HEADER = 1 << 16    # a gzip header (with its name, comment and extra field) longer than this is not one
KEEP = 32 << 20         # raw bytes of the member being read kept for a rescan should it fail (a whole-file member
                        # grows past this and is not kept: nothing follows it to be swallowed)
GZIP_MAGIC = b"\x1f\x8b\x08"


@dataclass
class Member:
    raw_start: int
    pos: int                  # decompressed position of its first byte
    end: int | None = None    # decompressed end, once reached
    status: str = "open"      # open | ok | crc | error | truncated
    last_size: int | None = None  # truncated: the file's last 4 bytes as a trailer's size field (a damaged
                                  # member that ran to the end of the file still ends with its trailer)


@dataclass
class Gap:
    pos: int          # decompressed position where reading stopped
    raw_start: int    # raw offset of the member that failed (or of the junk)
    raw_end: int      # raw offset reading went on from (the file's end if none)
    error: str
    member: bool = True  # a gzip member that failed (a record lost), not junk between members
    more: int = 0        # further members passed over that start like gzip but do not inflate


def header_length(b: bytes) -> int | None:
    """Length of the gzip header at the start of ``b``; None if ``b`` is too short to tell; ValueError if not one."""
    if b[:3] != GZIP_MAGIC[:len(b[:3])]:
        raise ValueError("no gzip magic")
    if len(b) < 10:
        return None
    flags = b[3]
    if flags & 0xE0:
        raise ValueError("reserved gzip flags set")
    i = 10
    if flags & 4:  # FEXTRA
        if len(b) < i + 2:
            return None
        i += 2 + (b[i] | b[i + 1] << 8)
    for bit in (8, 16):  # FNAME, FCOMMENT: zero-terminated
        if flags & bit:
            j = b.find(b"\0", i, MAX_HEADER)
            if j < 0:
                if len(b) >= MAX_HEADER:
                    raise ValueError("gzip header without an end")
                return None
            i = j + 1
    if flags & 2:  # FHCRC
        i += 2
    return i if len(b) >= i else None


def inflate_member(read, start: bytes = b"") -> str:
    """Status of the gzip member whose bytes ``start`` and then ``read(n)`` give: ok, crc, error or truncated."""
    buf = start
    while True:
        try:
            n = header_length(buf)
        except ValueError:
            return "error"
        if n is not None:
            break
        more = read(CHUNK)
        if not more:
            return "truncated"
        buf += more
    dec, crc, size, data = zlib.decompressobj(-zlib.MAX_WBITS), 0, 0, buf[n:]
    while True:
        if not data:
            data = read(CHUNK)
            if not data:
                return "truncated"
        try:
            out = dec.decompress(data)
        except zlib.error:
            return "error"
        crc, size = zlib.crc32(out, crc), size + len(out)
        if dec.eof:
            tail = dec.unused_data
            while len(tail) < 8:
                more = read(CHUNK)
                if not more:
                    return "truncated"
                tail += more
            want_crc, want_size = struct.unpack("<II", tail[:8])
            return "ok" if (want_crc, want_size) == (crc, size & 0xFFFFFFFF) else "crc"
        data = b""


class RawBuffer:
    """Raw bytes read but not yet used, consumed by moving an offset (never by copying what is left). Bytes from
    ``mark`` on (a raw offset) are kept after they are consumed, up to :data:`KEEP` of them, so that reading can
    go back there (:meth:`rewind`)."""

    def __init__(self, raw):
        self.raw, self.data, self.off, self.pos, self.eof = raw, b"", 0, 0, False  # pos: raw offset of data[off]
        self.mark: int | None = None

    def __len__(self) -> int:
        return len(self.data) - self.off

    def need(self, n: int) -> bool:
        """At least ``n`` bytes here; False if the file ends first."""
        if len(self.data) - self.off >= n:
            return True
        while len(self) < n:
            more = b"" if self.eof else (self.raw.read(max(CHUNK, n - len(self))) or b"")
            if not more:
                self.eof = True
                return False
            keep = self.off
            if self.mark is not None:
                back = self.pos - self.mark
                if back > KEEP or back > self.off:
                    self.mark = None
                else:
                    keep -= back
            self.data, self.off = self.data[keep:] + more, self.off - keep
        return True

    def held(self, start: int) -> bool:
        """Whether raw offset ``start`` (at or before ``pos``) is still held."""
        return self.pos - self.off <= start <= self.pos

    def rewind(self, to: int) -> None:
        """Go back to raw offset ``to``, which :meth:`held` says is still here."""
        self.off -= self.pos - to
        self.pos = to

    def bytes_at(self, start: int):
        """A ``read(n)`` over the raw bytes from raw offset ``start`` (held, or not read yet), consuming nothing."""
        at = start

        def read(n: int) -> bytes:
            nonlocal at
            i = at - self.pos
            self.need(i + n)
            out = self.get(i, i + n)
            at += len(out)
            return out
        return read

    def get(self, i: int, j: int) -> bytes:
        return self.data[self.off + i:self.off + j]

    def view(self, i: int, j: int) -> memoryview:
        """``get`` without copying (what is inflated is read in place)."""
        return memoryview(self.data)[self.off + i:self.off + j]

    def find(self, sub: bytes, i: int = 0) -> int:
        k = self.data.find(sub, self.off + i)
        return k - self.off if k >= 0 else -1

    def consume(self, n: int) -> None:
        n = min(n, len(self.data) - self.off)
        self.off += n
        self.pos += n


class MemberIndex:
    """Where things are: the gzip members (``members``, their decompressed starts in ``_starts``) by position."""

    members: list[Member]
    _starts: list[int]

    def raw_offset(self, pos: int) -> int | None:
        """The raw offset of the member starting exactly at ``pos`` (None inside a member)."""
        i = bisect.bisect_left(self._starts, pos)
        while i < len(self._starts) and self._starts[i] == pos:
            m = self.members[i]
            if m.end is None or m.end > m.pos:  # an empty member shares its start with the next one
                return m.raw_start
            i += 1
        return None

    def members_over(self, lo: int, hi: int) -> list[Member]:
        """The members holding bytes of the decompressed range [lo, hi)."""
        i = max(bisect.bisect_right(self._starts, lo) - 1, 0)
        out = []
        while i < len(self.members) and self.members[i].pos < max(hi, lo + 1):
            m = self.members[i]
            if m.end is None or m.end > lo:
                out.append(m)
            i += 1
        return out

    def starts_in(self, lo: int, hi: int) -> list[int]:
        """Decompressed positions in [lo, hi) where a gzip member starts."""
        i = bisect.bisect_left(self._starts, lo)
        j = bisect.bisect_left(self._starts, hi)
        return self._starts[i:j]

    def member_of(self, pos: int) -> int | None:
        """Raw offset of the member that holds decompressed position ``pos`` (None if not gzipped)."""
        over = self.members_over(pos, pos + 1)
        return over[0].raw_start if over else None
