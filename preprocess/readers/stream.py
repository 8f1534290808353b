"""A decompressed view of an archive file that knows its gzip members and where it could not be read.

WARC files are gzipped one member per record, so a member boundary is a place
where reading can start again. :class:`MemberStream` reads a raw stream (gzipped or
not, detected by the magic bytes) and serves the decompressed bytes through
``readline``/``read``/``unread``, recording

* ``starts``: the decompressed position of each member with its raw offset;
* ``gaps``: members it could not decompress. Reading goes on from the next gzip
  magic after the failed member's first byte (the last two raw chunks are kept for
  that search), so the rest of the file is still read; the parser above counts
  each gap as a record lost.

Decompression is streamed: memory stays bounded whatever the file (a whole-file
gzip of 10 GB is read the same way). Positions are decompressed offsets.
"""
from __future__ import annotations

import bisect
from dataclasses import dataclass

try:  # Intel ISA-L's inflate: the same bytes out, ~1.6x faster than zlib's on these files
    from isal import isal_zlib as zlib
except ImportError:  # pragma: no cover
    import zlib

CHUNK = 1 << 20
GZIP_MAGIC = b"\x1f\x8b\x08"


@dataclass
class Gap:
    pos: int          # decompressed position where reading stopped
    raw_start: int    # raw offset of the member that failed
    raw_end: int      # raw offset reading went on from (the file's end if none)
    error: str
    member: bool = True  # a gzip member that failed (a record lost), not junk between members


class MemberStream:
    def __init__(self, raw):
        self.raw = raw
        self.buf = bytearray()       # decompressed bytes; those before ``head`` are consumed
        self.head = 0
        self.pos = 0                 # decompressed position of buf[head]
        self.decomp_end = 0          # decompressed bytes produced so far
        self.raw_pos = 0             # raw offset of pending[0]
        self.pending = b""           # raw bytes read but not yet decompressed
        self.window, self.window_start = b"", 0  # the last raw bytes read, for resynchronising
        self.eof_raw = False
        self.starts: list[tuple[int, int]] = []  # (decompressed pos, raw offset) of each member
        self.gaps: list[Gap] = []
        self.truncated_member = False  # the file ends inside a member (cut mid-record)
        self.pending = self._read_raw(CHUNK)
        self.gzipped = self.pending.startswith(GZIP_MAGIC[:2])
        self.dec = None
        if self.gzipped:
            self._new_member()

    # -- raw side --------------------------------------------------------------------------------------------
    def _read_raw(self, n: int) -> bytes:
        data = self.raw.read(n) or b""
        if not data:
            self.eof_raw = True
            return b""
        start = self.window_start + len(self.window)
        self.window = self.window[-CHUNK:] + data
        self.window_start = start + len(data) - len(self.window)
        return data

    def _new_member(self) -> None:
        self.dec = zlib.decompressobj(16 + zlib.MAX_WBITS)
        self.starts.append((self.decomp_end, self.raw_pos))

    def _emit(self, data: bytes) -> None:
        if data:
            if self.head > len(self.buf) // 2:  # drop what was consumed now and then, not on every take
                del self.buf[:self.head]
                self.head = 0
            self.buf += data
            self.decomp_end += len(data)

    def _fill(self) -> bool:
        """Decompress more into ``buf``; False once nothing more can come."""
        if not self.pending:
            self.pending = b"" if self.eof_raw else self._read_raw(CHUNK)
            if not self.pending:
                if self.gzipped and self.dec is not None and not self.dec.eof:
                    self._emit(self.dec.flush())
                    self.truncated_member = self.raw_pos > self.starts[-1][1]
                    self.dec = None
                return False
        data, start = self.pending, self.raw_pos
        self.pending = b""
        if not self.gzipped:
            self.raw_pos += len(data)
            self._emit(data)
            return True
        if self.dec is None:
            return False
        try:
            out = self.dec.decompress(data)
        except zlib.error as exc:
            return self._resync(f"corrupt gzip member: {exc}", self.starts[-1][1])
        self._emit(out)
        if not self.dec.eof:
            self.raw_pos = start + len(data)
            return True
        rest = self.dec.unused_data
        self.raw_pos = start + len(data) - len(rest)
        self.pending = rest or (b"" if self.eof_raw else self._read_raw(CHUNK))
        if not self.pending:
            self.dec = None  # the last member ended cleanly
        elif self.pending.startswith(GZIP_MAGIC):
            self._new_member()
        else:
            return self._resync("bytes after a gzip member that are not gzip", self.raw_pos, is_member=False)
        return True

    def _resync(self, error: str, member: int, is_member: bool = True) -> bool:
        """Go on from the next gzip magic after ``member`` (the raw offset of what failed)."""
        base, window = self.window_start, self.window
        i = window.find(GZIP_MAGIC, max(member + 1 - base, 0))
        while i < 0:
            more = b"" if self.eof_raw else self.raw.read(CHUNK) or b""
            if not more:
                self.eof_raw = True
                self.gaps.append(Gap(self.decomp_end, member, base + len(window), error, is_member))
                self.dec, self.pending, self.raw_pos = None, b"", base + len(window)
                return False
            base += len(window) - 2
            window = window[-2:] + more  # a magic may span two chunks
            i = window.find(GZIP_MAGIC)
        self.window, self.window_start = window, base
        found = base + i
        self.gaps.append(Gap(self.decomp_end, member, found, error, is_member))
        self.raw_pos, self.pending = found, window[i:]
        self._new_member()
        return True

    # -- decompressed side -----------------------------------------------------------------------------------
    def tell(self) -> int:
        return self.pos

    def _avail(self) -> int:
        return len(self.buf) - self.head

    def _ensure(self, n: int) -> None:
        while self._avail() < n and self._fill():
            pass

    def readline(self, limit: int = 1 << 16) -> bytes:
        """One line (with its newline) of at most ``limit`` bytes; b"" at the end."""
        start = self.head
        while True:
            i = self.buf.find(b"\n", start, self.head + limit)
            if i >= 0:
                return self._take(i + 1 - self.head)
            if self._avail() >= limit:
                return self._take(limit)
            start = len(self.buf)
            avail = self._avail()
            self._ensure(avail + 1)
            if self._avail() == avail:
                return self._take(avail)
            start = self.head + avail

    def read(self, n: int) -> bytes:
        self._ensure(n)
        return self._take(min(n, self._avail()))

    def skip(self, n: int) -> int:
        """Consume up to ``n`` bytes without keeping them; returns how many were there."""
        done = 0
        while done < n:
            if not self._avail():
                self._ensure(1)
                if not self._avail():
                    break
            k = min(self._avail(), n - done)
            self.head += k
            self.pos += k
            done += k
        return done

    def unread(self, data: bytes) -> None:
        if self.head >= len(data):
            self.head -= len(data)
            self.buf[self.head:self.head + len(data)] = data
        else:
            self.buf[:self.head] = data
            self.head = 0
        self.pos -= len(data)

    def _take(self, n: int) -> bytes:
        out = bytes(self.buf[self.head:self.head + n])
        self.head += n
        self.pos += n
        return out

    # -- where things are ------------------------------------------------------------------------------------
    def raw_offset(self, pos: int) -> int | None:
        """The raw offset of the member starting exactly at ``pos`` (None inside a member)."""
        i = bisect.bisect_left(self.starts, (pos, -1))
        return self.starts[i][1] if i < len(self.starts) and self.starts[i][0] == pos else None

    def member_of(self, pos: int) -> int | None:
        """Raw offset of the member that holds decompressed position ``pos`` (None if not gzipped)."""
        i = bisect.bisect_right(self.starts, (pos, float("inf"))) - 1
        return self.starts[i][1] if i >= 0 else None

    def member_starts_in(self, lo: int, hi: int) -> list[int]:
        """Decompressed positions of members that start in (lo, hi)."""
        i = bisect.bisect_right(self.starts, (lo, float("inf")))
        out = []
        while i < len(self.starts) and self.starts[i][0] < hi:
            out.append(self.starts[i][0])
            i += 1
        return out
