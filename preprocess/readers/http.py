"""The HTTP message inside a response record: status, headers, and the payload with its encodings removed.

Lenient where crawls are sloppy (``\\n`` line ends, a missing blank line, a header
without a colon) and strict where guessing would corrupt a page: a chunked body
that does not parse, or a gzip body that does not inflate, is kept as it came and
counted, never silently dropped. Content-encodings: gzip, deflate, br, zstd, and
several of them (``gzip, gzip``), undone in the reverse of the order they were applied.
"""
from __future__ import annotations

import zlib

MAX_HEAD = 1 << 16


class BadHttp(ValueError):
    """The block starts like an HTTP message but its head cannot be read."""


def split_head(block: bytes) -> tuple[int | None, dict[str, str], bytes]:
    """(status, headers with lower-case names, body) of an HTTP response block. The head ends at its first
    empty line, whatever its line ends (``\r\n\r\n``, ``\n\n``, ``\n\r\n``)."""
    end, sep = -1, 0
    for marker in (b"\n\r\n", b"\n\n"):
        i = block.find(marker, 0, MAX_HEAD if end < 0 else end)  # (only an earlier one would count)
        if i >= 0 and (end < 0 or i < end):
            end, sep = i + 1, len(marker) - 1  # the head keeps its last line's end
    if end < 0:
        if len(block) < MAX_HEAD and b"\n" not in block.rstrip(b"\r\n"):
            end, sep = len(block), 0  # a head with no body at all
        else:
            raise BadHttp("no end of the HTTP head in its first 64 KiB")
    lines = block[:end].decode("latin-1").replace("\r\n", "\n").split("\n")
    status_line = lines[0].split(None, 2)
    status = None
    if len(status_line) >= 2 and status_line[1].isdigit():
        status = int(status_line[1])
    elif not lines[0].startswith("HTTP/"):
        raise BadHttp(f"not an HTTP status line: {lines[0][:80]!r}")
    headers: dict[str, str] = {}
    last = None
    for line in lines[1:]:
        if line[:1] in (" ", "\t") and last:  # folded header
            headers[last] += " " + line.strip()
            continue
        name, colon, value = line.partition(":")
        if not colon:
            continue
        last = name.strip().lower()
        headers.setdefault(last, value.strip())
    return status, headers, block[end + sep:]


def dechunk(body: bytes) -> bytes:
    """A chunked transfer-encoded body; ValueError if it is not one."""
    out, pos = [], 0
    while True:
        nl = body.find(b"\n", pos)
        if nl < 0:
            raise ValueError("a chunk size line without its end")
        size_text = body[pos:nl].split(b";", 1)[0].strip()
        size = int(size_text, 16)  # ValueError on junk
        if size == 0:
            return b"".join(out)
        start = nl + 1
        if start + size > len(body):
            raise ValueError("a chunk longer than what is left")
        out.append(body[start:start + size])
        pos = start + size
        if body[pos:pos + 2] == b"\r\n":
            pos += 2
        elif body[pos:pos + 1] == b"\n":
            pos += 1
        elif pos < len(body):
            raise ValueError("a chunk not followed by its line end")
        if pos >= len(body):
            return b"".join(out)  # no final zero chunk: what came is all there is


def _inflate_all(body: bytes, wbits: int, limit: int) -> tuple[bytes, bool]:
    """Every member of a gzip (or zlib/raw deflate) body, and whether the last one ended (False: cut short).
    Stops at ``limit`` bytes of output (a body that inflates without end is cut there, and said so)."""
    out, data, complete = [], body, True
    size = 0
    while data:
        d = zlib.decompressobj(wbits)
        out.append(d.decompress(data, limit - size + 1))
        size += len(out[-1])
        if size > limit:
            return b"".join(out)[:limit], False
        if not d.eof:
            return b"".join(out), False
        data = d.unused_data.lstrip(b"\x00\r\n ")  # padding some servers leave after a member
        if data and not (wbits > 16 and data.startswith(b"\x1f\x8b")):
            break  # trailing bytes that are not another member: ignored
    return b"".join(out), complete


ZSTD_FEED = 1 << 10  # input bytes a zstd call gets: its output stays bounded (a frame's ratio can be ~32,000)


def _unzstd(body: bytes, limit: int) -> tuple[bytes, bool]:
    """Every frame of a zstd body (``zstandard``), and whether the last one ended; at most ``limit`` bytes."""
    import zstandard

    out, size, data = [], 0, body
    while data:
        d, pos = zstandard.ZstdDecompressor().decompressobj(), 0
        try:
            while not d.eof and pos < len(data):
                out.append(d.decompress(data[pos:pos + ZSTD_FEED]))
                pos += ZSTD_FEED
                size += len(out[-1])
                if size > limit:
                    return b"".join(out)[:limit], False
        except zstandard.ZstdError as exc:
            if not out:
                raise ValueError(f"zstd: {exc}") from None
            return b"".join(out), False
        if not d.eof:
            return b"".join(out), False
        data = (d.unused_data + data[pos:]).lstrip(b"\x00\r\n ")
        if data and not data.startswith(b"\x28\xb5\x2f\xfd"):  # trailing bytes that are not another frame
            break
    return b"".join(out), True


def decode_content(body: bytes, encoding: str, limit: int = 1 << 30) -> tuple[bytes, bool]:
    """The content-encodings of ``encoding`` removed (``gzip, br``: br undone first, as it was applied last;
    gzip, deflate, br, zstd), and whether the body was whole (False: it ends early); ValueError if it does not
    decode at all."""
    codings = [c.strip().lower() for c in encoding.split(",") if c.strip().lower() not in ("", "identity")]
    whole = True
    for enc in reversed(codings):
        body, done = _decode_one(body, enc, limit)
        whole = whole and done
    return body, whole


def _decode_one(body: bytes, enc: str, limit: int) -> tuple[bytes, bool]:
    if enc == "zstd":
        return _unzstd(body, limit)
    if enc in ("gzip", "x-gzip"):
        try:
            return _inflate_all(body, 16 + zlib.MAX_WBITS, limit)
        except zlib.error as exc:
            raise ValueError(f"gzip: {exc}") from None
    if enc == "deflate":
        for wbits in (zlib.MAX_WBITS, -zlib.MAX_WBITS):
            try:
                return _inflate_all(body, wbits, limit)
            except zlib.error:
                continue
        raise ValueError("deflate: does not inflate")
    if enc == "br":
        try:
            import brotli
        except ImportError:
            raise ValueError("br: no brotli decoder installed") from None
        try:
            d = brotli.Decompressor()
            out = d.process(body)
            return out, d.is_finished()
        except Exception as exc:  # noqa: BLE001
            raise ValueError(f"br: {exc}") from None
    raise ValueError(f"unknown content-encoding {enc!r}")


def payload(block: bytes, note, limit: int = 1 << 30) -> tuple[int | None, str, bytes]:
    """(status, content type, payload) of a response block; ``note(counter)`` counts what was repaired or is
    cut short. A gzip body served without its Content-Encoding is inflated too (it is not a page as it is)."""
    if not block.startswith(b"HTTP/"):
        note("read.http_without_head")
        return None, "", block
    status, headers, body = split_head(block)
    if not block.endswith(b"\r\n\r\n", 0, len(block) - len(body)):
        note("read.http_head_bare_line_ends")
    if "chunked" in headers.get("transfer-encoding", "").lower():
        try:
            body = dechunk(body)
        except ValueError:
            note("read.bad_chunking_kept_raw")
    encoding = headers.get("content-encoding", "")
    if encoding.lower() in ("identity", "none", "utf-8", "") and body.startswith(b"\x1f\x8b\x08"):
        encoding = "gzip"
        note("read.undeclared_gzip_body")
    if encoding and encoding.lower() not in ("identity", "none", "utf-8"):
        try:
            body, whole = decode_content(body, encoding, limit)
            if not whole:
                note("read.content_encoding_cut_short")
        except ValueError:
            note("read.bad_content_encoding_kept_raw")
    return status, headers.get("content-type", ""), body
