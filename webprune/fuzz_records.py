"""Records for the fuzz generator, one framing at a time: WARC responses (with or without digests), ARC records,
WET conversion records and tar members, each broken at the byte level by a named record mutation, and the
packing of a file's records (one gzip member per record, one for the whole file, none, tar).

Mutations come in two kinds: *repairable* ones leave the page itself intact -- a wrong length, junk after the
record, odd HTTP line ends, a missing URI -- so a correct reader writes the page with exactly its text; the
*damaging* ones break the record itself (flipped bytes, a bad version line, a digest that no longer matches),
which a correct reader counts as that record's own failure.
"""
from __future__ import annotations

import base64
import gzip
import hashlib
import io
import random
import tarfile

WARC_MUTATIONS = ("no_uri", "no_type", "no_length", "dup_headers", "long_length", "short_length", "huge_length",
                  "zero_length", "bad_http", "flip_bytes", "flip_member", "junk_after", "bad_ctype", "bad_version",
                  "head_lf", "digest_mismatch")
ARC_MUTATIONS = ("long_length", "short_length", "huge_length", "zero_length", "junk_after", "bad_length_text")
WET_MUTATIONS = ("long_length", "short_length", "zero_length", "junk_after", "bad_version")
REPAIRABLE = {"no_uri", "dup_headers", "long_length", "short_length", "huge_length", "zero_length", "junk_after",
              "head_lf"}
# bytes of a page changed in place, length kept: only a digest can tell (without one it is a page like another)
NEEDS_DIGEST = {"flip_bytes"}


def http(payload: bytes, ctype: str = "text/html; charset=utf-8", head_end: bytes = b"\r\n\r\n") -> bytes:
    head = f"HTTP/1.1 200 OK\r\nContent-Type: {ctype}\r\nContent-Length: {len(payload)}".encode()
    return head + head_end + payload


def _length(true: int, mutation: str | None, rng: random.Random) -> str:
    if mutation == "long_length":
        return str(true + rng.randint(10, 50_000))
    if mutation == "short_length":
        return str(max(true - rng.randint(1, max(true, 1)), 0))
    if mutation == "huge_length":
        return str(10 ** rng.randint(12, 22))
    if mutation == "zero_length":
        return "0"
    return str(true)


def warc_record(rid: str, url: str, payload: bytes, mutation: str | None, rng: random.Random, digests: bool,
                kind: str = "response") -> bytes:
    """One WARC record (uncompressed), broken by ``mutation`` if given."""
    if kind == "response":
        block = http(payload, "application/pdf" if mutation == "bad_ctype" else "text/html; charset=utf-8",
                     b"\n\r\n" if mutation == "head_lf" else b"\r\n\r\n")
        if mutation == "bad_http":
            block = b"HTTP/1.1 200 OK\r\n" + b"X-Junk: " + b"y" * 70_000 + b"\r\n\r\n" + payload
    else:
        block = payload
    headers = [("WARC-Type", kind), ("WARC-Record-ID", f"<urn:uuid:{rid}>"), ("WARC-TREC-ID", rid),
               ("WARC-Target-URI", url), ("Content-Type", "application/http; msgtype=response" if kind == "response"
                                          else "text/plain")]
    if digests:
        headers.append(("WARC-Block-Digest", "sha1:" + base64.b32encode(hashlib.sha1(block).digest()).decode()))
    headers.append(("Content-Length", _length(len(block), mutation, rng)))
    if mutation == "no_uri":
        headers = [h for h in headers if h[0] != "WARC-Target-URI"]
    elif mutation == "no_type":
        headers = [h for h in headers if h[0] != "WARC-Type"]
    elif mutation == "no_length":
        headers = [h for h in headers if h[0] != "Content-Length"]
    elif mutation == "dup_headers":
        headers = headers + [("WARC-TREC-ID", rid + "-dup"), ("Content-Length", "7")]
    if mutation in ("flip_bytes", "digest_mismatch"):  # the block changes after its digest was taken
        b = bytearray(block)
        for _ in range(5):
            i = rng.randrange(len(b) // 2, len(b)) if len(b) > 1 else 0
            b[i] = (b[i] + 1) % 256 if mutation == "digest_mismatch" else b[i] ^ 0xFF
        block = bytes(b)
    version = "WRAC/1.O" if mutation == "bad_version" else "WARC/1.0"
    head = version + "\r\n" + "".join(f"{k}: {v}\r\n" for k, v in headers) + "\r\n"
    out = head.encode() + block + b"\r\n\r\n"
    if mutation == "junk_after":
        out += b"\x00junk " + rng.randbytes(rng.randint(1, 300)).replace(b"<", b"(") + b"\r\n"
    return out


def arc_record(url: str, payload: bytes, mutation: str | None, rng: random.Random, index: int) -> bytes:
    block = http(payload)
    length = "abc" if mutation == "bad_length_text" else _length(len(block), mutation, rng)
    out = f"{url} 10.0.{index // 250 % 250}.{index % 250} 20240101000000 text/html {length}\n".encode() + block + b"\n"
    if mutation == "junk_after":
        out += b"junk " + rng.randbytes(rng.randint(1, 300)).replace(b"<", b"(").replace(b"\n", b" ") + b"\n"
    return out


def arc_filedesc(name: str) -> bytes:
    desc = b"1 0 webprune-fuzz\nURL IP-address Archive-date Content-type Archive-length\n"
    return f"filedesc://{name} 0.0.0.0 20240101000000 text/plain {len(desc)}\n".encode() + desc + b"\n"


def pack(records: list[bytes], framing: str, flip: frozenset = frozenset(), rng: random.Random | None = None) -> bytes:
    """A file's records: one gzip member each (record-gz, arc-gz, wet), one for all (file-gz), or none. The
    members of the records numbered in ``flip`` get bytes of their compressed stream flipped."""
    if framing in ("record-gz", "arc-gz", "wet"):
        members = []
        for i, r in enumerate(records):
            m = gzip.compress(r, compresslevel=1, mtime=0)
            if i in flip:
                b = bytearray(m)
                for _ in range(5):
                    b[rng.randrange(10, len(b))] ^= 0xFF
                m = bytes(b)
            members.append(m)
        return b"".join(members)
    if framing == "file-gz":
        return gzip.compress(b"".join(records), compresslevel=1, mtime=0)
    return b"".join(records)


def pack_tar(members: list[tuple[str, bytes]]) -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        for name, data in members:
            info = tarfile.TarInfo(name)
            info.size, info.mtime = len(data), 0
            tar.addfile(info, io.BytesIO(data))
    return buf.getvalue()
