"""WARC record digests: ``WARC-Block-Digest`` over the record's block, ``WARC-Payload-Digest`` over its payload.

Values are ``ALGORITHM:VALUE`` with the value in base32 (Heritrix, Common Crawl), hex or base64. A record
passes when its block digest matches, or when its payload digest matches the payload (the page is intact even
if the HTTP head was edited): the body after the HTTP head as sent or without its chunking, or (ClueWeb09's
writer) the whole block. It fails when it carries a digest and none matches. Unknown algorithms are not checked.
"""
from __future__ import annotations

import base64
import binascii
import hashlib
import re

from preprocess.readers.http import BadHttp, dechunk, split_head

ALGORITHMS = {"sha1": "sha1", "sha-1": "sha1", "sha256": "sha256", "sha-256": "sha256", "md5": "md5",
              "sha512": "sha512", "sha-512": "sha512"}
_SIZES = {name: hashlib.new(name).digest_size for name in set(ALGORITHMS.values())}


_B32_TO_INT = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", "0123456789ABCDEFGHIJKLMNOPQRSTUV")
_SHA1_B32 = re.compile(r"[A-Za-z2-7]{32}")


def _expected(value: str) -> tuple[str, bytes] | None:
    """(hashlib name, digest bytes) of a header value; None if it cannot be read."""
    alg, colon, text = value.strip().partition(":")
    if alg == "sha1" and _SHA1_B32.fullmatch(text):  # the usual one: 32 base32 letters, 160 bits exactly
        return "sha1", int(text.upper().translate(_B32_TO_INT), 32).to_bytes(20, "big")
    return _expected_any(alg, colon, text)


def _expected_any(alg: str, colon: str, text: str) -> tuple[str, bytes] | None:
    name = ALGORITHMS.get(alg.strip().lower())
    if not colon or name is None:
        return None
    text = text.strip()
    size = _SIZES[name]
    for decode in (lambda t: base64.b32decode(t.upper() + "=" * (-len(t) % 8)), bytes.fromhex,
                   lambda t: base64.b64decode(t, validate=True)):
        try:
            raw = decode(text)
        except (ValueError, binascii.Error):
            continue
        if len(raw) == size:
            return name, raw
    return None


def check(headers: dict, block: bytes, payloads=lambda: ()) -> str:
    """``ok`` when a digest of the record verifies its payload (the block digest, or failing that the payload
    digest), ``mismatch`` when one is there and none verifies, ``unchecked`` when there is none to read."""
    want = _expected(headers.get("warc-block-digest") or "")
    if want is not None and want[0] == "sha1" and hashlib.sha1(block).digest() == want[1]:
        return "ok"  # the usual answer, asked directly (the loop below gives it too)
    verdicts = []
    for name, candidates in (("warc-block-digest", lambda: (block,)),
                             ("warc-payload-digest", lambda: (*payloads(), block))):
        want = _expected(headers.get(name) or "")
        if want is not None:
            alg, value = want
            ok = any((hashlib.sha1(c) if alg == "sha1" else hashlib.new(alg, c)).digest() == value
                     for c in candidates())
            if ok:
                return "ok"
            verdicts.append(ok)
    return "mismatch" if verdicts else "unchecked"


def payloads(block: bytes) -> tuple[bytes, ...]:
    """The payload a WARC-Payload-Digest may cover: the body after the HTTP head, as sent and de-chunked."""
    try:
        _, headers, body = split_head(block)
    except BadHttp:
        return ()
    if "chunked" in headers.get("transfer-encoding", "").lower():
        try:
            return body, dechunk(body)
        except ValueError:
            pass
    return (body,)
