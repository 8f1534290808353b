"""Where records start: WARC and ARC record headers recognised in raw bytes.

A record's ``Content-Length`` (or ARC length) is checked against what follows its block: the separator, then
the next record's header or the end of the file. When they disagree, :func:`next_start` finds where the next
record really starts. A header counts only when it parses: a ``WARC/x.y`` line followed by header fields that
name a record (``WARC-Type``, ``WARC-Record-ID``), or an ARC line with a URL, a 14-digit date and a length.
"""
from __future__ import annotations

import re

_WARC_VERSION = re.compile(rb"WARC/\d+\.\d+[ \t]*\r?\n")
_FIELD = re.compile(rb"([!#$%&'*+.^_`|~0-9A-Za-z-]{1,100})[ \t]*:[^\r\n]*\r?\n")
_NAMING = (b"warc-type", b"warc-record-id")
_ARC = re.compile(rb"(\S{1,8000}) (\S{1,100}) (\d{8,18}) (\S{0,200}) (?:\S+ ){0,5}(\S{1,40})\r?\n")  # length: may be bad
_ARC_URL = (b"filedesc:", b"dns:", b"http:", b"https:", b"ftp:")
_SPACE = b"\r\n"


_WHOLE_HEAD = re.compile(_WARC_VERSION.pattern + rb"(?:" + _FIELD.pattern.replace(b"(", b"(?:", 1) + rb")*\r?\n")
_NAMING_FIELD = re.compile(rb"\n(?:warc-type|warc-record-id)[ \t]*:", re.I)


def warc_header_at(b: bytes, i: int = 0) -> bool:
    """Whether ``b[i:]`` starts with a WARC version line and fields naming a record (to the blank line, or to
    the end of ``b`` after two fields)."""
    whole = _WHOLE_HEAD.match(b, i)  # the usual case in one match: fields to the blank line
    if whole:
        return _NAMING_FIELD.search(b, i, whole.end()) is not None
    return _warc_header_fields(b, i)


def _warc_header_fields(b: bytes, i: int) -> bool:
    """:func:`warc_header_at` field by field (a head cut by the end of ``b``, or not a head)."""
    m = _WARC_VERSION.match(b, i)
    if not m:
        return False
    j, named, fields = m.end(), False, 0
    while j < len(b):
        if b[j:j + 1] == b"\n" or b[j:j + 2] == b"\r\n":
            return named
        f = _FIELD.match(b, j)
        if not f:
            return named and fields >= 2 and b.find(b"\n", j) < 0  # a field cut by the end of ``b``
        named = named or f.group(1).lower() in _NAMING
        fields += 1
        j = f.end()
    return named and fields >= 2


def arc_header_at(b: bytes, i: int = 0) -> bool:
    """Whether ``b[i:]`` starts with an ARC record line (v1 or v2): URL, IP, 8-18 digit date, type, length."""
    m = _ARC.match(b, i)
    return bool(m) and m.group(1).lower().startswith(_ARC_URL)


def header_at(b: bytes, i: int, arc: bool) -> bool:
    return arc_header_at(b, i) if arc else warc_header_at(b, i)


def next_start(b: bytes, lo: int, arc: bool) -> int | None:
    """The first record header at a line start in ``b[lo:]``."""
    if arc:
        i = lo
        if i > 0 and b[i - 1:i] != b"\n":
            i = b.find(b"\n", i) + 1
            if i == 0:
                return None
        while i < len(b):
            if arc_header_at(b, i):
                return i
            i = b.find(b"\n", i) + 1
            if i == 0:
                return None
        return None
    i = b.find(b"WARC/", lo)
    while i >= 0:
        if (i == 0 or b[i - 1:i] == b"\n") and warc_header_at(b, i):
            return i
        i = b.find(b"WARC/", i + 1)
    return None


def damaged_start(b: bytes, lo: int) -> int | None:
    """The first WARC record in ``b[lo:]`` whose header is damaged (its version line broken): a separator, one
    line, then fields with ``WARC-Type`` or ``WARC-Record-ID`` among them."""
    best = None
    for name in (b"\nWARC-Type:", b"\nWARC-Record-ID:"):
        i = b.find(name, lo)
        while i >= 0 and (best is None or i < best):
            sep = max(b.rfind(b"\r\n\r\n", lo, i), b.rfind(b"\n\n", lo, i))
            start = sep + (4 if b[sep:sep + 4] == b"\r\n\r\n" else 2) if sep >= 0 else -1
            if start >= 0 and damaged_header(b"\r\n\r\n" + b[start:i + 400], False):
                best = start if best is None else min(best, start)
                break
            i = b.find(name, i + 1)
    return best


def boundary(b: bytes, lo: int, arc: bool) -> int | None:
    """Where the next record starts in ``b[lo:]``: a sound header, or (WARC) a damaged one."""
    r = next_start(b, lo, arc)
    d = None if arc else damaged_start(b, lo)
    return r if d is None or (r is not None and r <= d) else d


def block_end(b: bytes, r: int, arc: bool) -> int:
    """Where the block before a record starting at ``r`` ends: the separator (CRLF CRLF; LF for ARC) left out."""
    for sep in ((b"\n",) if arc else (b"\r\n\r\n", b"\n\n", b"\r\n", b"\n")):
        if b[max(r - len(sep), 0):r] == sep:
            return r - len(sep)
    return r


def framed(after: bytes, arc: bool, at_eof: bool) -> bool:
    """Whether the bytes after a block are its separator and then the next record, or the end of the file."""
    rest = after.lstrip(_SPACE)
    if len(after) - len(rest) > 8:
        return False
    if not rest:
        return at_eof
    return header_at(rest, 0, arc)


def damaged_header(after: bytes, arc: bool) -> bool:
    """Whether the bytes after a block look like the next record's header with a broken first line: the
    separator, then (WARC) two fields among the first lines before any sound record, one a WARC field."""
    if arc or not after.startswith((b"\r\n\r\n", b"\n\n")):
        return False
    rest = after.lstrip(_SPACE)
    rest = rest[:next_start(rest, 1, arc) or len(rest)]  # a sound record after it is not its header
    lines = rest.split(b"\n", 8)[:8]
    fields = [f for f in (_FIELD.match(line + b"\n") for line in lines) if f]
    return len(fields) >= 2 and any(f.group(1).lower().startswith(b"warc-") for f in fields)
