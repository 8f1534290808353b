"""Decode step: keep HTML payloads only and turn their bytes into Unicode.

Payloads are sniffed first: binary formats (PDF, images, archives ...) served as
HTML are skipped as ``binary``. Charset order: byte-order mark, HTTP ``Content-Type``
charset, ``<meta charset>`` (or ``http-equiv``) in the first 4 KiB, UTF-8 when the
whole payload is valid UTF-8, then resiliparse's detector. Labels are mapped with the
WHATWG table (``iso-8859-1`` means windows-1252, as browsers do). A UTF-16 label
without a byte-order mark is used only when the bytes can be UTF-16 (WHATWG: a
``<meta>`` that says UTF-16 means UTF-8; the markup was readable as ASCII). A
declared charset that does not decode strictly is treated as a mislabel and the next
candidate is tried. When nothing decodes strictly, the first charset the page
declared (else the detector's) decodes with replacement.
"""
from __future__ import annotations

import codecs
import functools
import os
import re
import sys
from typing import Iterator

from resiliparse.parse.encoding import detect_encoding, map_encoding_to_html5

from preprocess.core.document import Document
from preprocess.html.vocabulary import NOT_NESTING
from preprocess.config.options import DEFAULT_MAX_BYTES
from preprocess.steps.base import BuildContext, Step
from preprocess.steps.sniff import binary_kind, looks_utf16

HTML_TYPES = {"text/html", "application/xhtml+xml", "application/xml+xhtml"}
# Content types that say nothing: the payload is sniffed instead.
UNKNOWN_TYPES = {"", "application/octet-stream", "unknown/unknown", "www/unknown", "application/unknown",
                 "text/x-server-parsed-html", "no-type", "none"}
_META_CHARSET = re.compile(rb"<meta[^>]{0,300}?charset\s*=\s*[\"']?\s*([A-Za-z0-9_:.+-]{1,40})", re.I)
_HEADER_CHARSET = re.compile(r"charset\s*=\s*[\"']?\s*([A-Za-z0-9_:.+-]{1,40})", re.I)
_HTML_SNIFF = re.compile(rb"<(!doctype\s+html|html|head|body|title|meta|div|p|table|a\s)[\s>/]", re.I)
UTF8_PROBE = "valid-utf-8"  # the source name of the undeclared-UTF-8 candidate
DETECTOR_BYTES = 65536  # how much of the payload resiliparse's detector reads
_BOMS = ((codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))


_TAG = re.compile(rb"<(/?)([A-Za-z][A-Za-z0-9]{0,15})[^<>]*?(/?)>")
_NOT_NESTING = frozenset(name.encode() for name in NOT_NESTING)


def nesting_depth_python(payload: bytes, stop: int) -> int:
    """An estimate of how deep the page's elements nest (open minus closed tags, void and self-closing ones
    left out); stops counting once past ``stop``. Only run on pages with more than ``stop`` tags. The reference
    of the compiled ``_markup.nesting_depth``, which finds the pattern's matches without the regex engine."""
    depth = deepest = 0
    for m in _TAG.finditer(payload):
        if m.group(3) or m.group(2).lower() in _NOT_NESTING:
            continue
        depth += -1 if m.group(1) else 1
        if depth > deepest:
            deepest = depth
            if deepest > stop:
                break
        elif depth < 0:
            depth = 0
    return deepest


def markup_counts_python(payload: bytes) -> tuple[int, int, bool]:
    """``<`` bytes, UTF-8 encoded U+FFFD (EF BF BD, which cannot overlap itself) and whether ``<noscript``
    occurs: ``_markup.markup_counts`` in Python, the reference."""
    return payload.count(b"<"), payload.count(b"\xef\xbf\xbd"), b"<noscript" in payload


try:
    from preprocess.steps._markup import decode_table, markup_counts, nesting_depth
except ImportError:  # not built (no C compiler): the same counts in three passes, the depth by the pattern
    markup_counts, nesting_depth, decode_table = markup_counts_python, nesting_depth_python, None
if os.environ.get("WEBPRUNE_PURE_PYTHON"):
    markup_counts, nesting_depth, decode_table = markup_counts_python, nesting_depth_python, None


def mime_type(content_type: str) -> str:
    return content_type.split(";", 1)[0].strip().lower()


def looks_like_html(payload: bytes) -> bool:
    return _HTML_SNIFF.search(payload[:2048]) is not None


@functools.lru_cache(maxsize=1024)  # labels repeat from page to page ("utf-8", "iso-8859-1"): one lookup each
def _codec(label: str | bytes | None) -> str | None:
    if not label:
        return None
    try:
        label = label.decode("ascii", "replace") if isinstance(label, bytes) else label
        name = map_encoding_to_html5(label, fallback_utf8=False)
        return codecs.lookup(name).name if name else None
    except (LookupError, UnicodeError):
        return None


def charset_candidates(payload: bytes, content_type: str, utf8_check: bool = True) -> Iterator[tuple[str, str]]:
    """(source, codec) pairs in the order they are tried; the detector only runs when reached. ``utf8_check``
    off: the order before the UTF-8 check (``scripts/studies/charset_check.py`` counts what the check changes)."""
    for bom, name in _BOMS:
        if payload.startswith(bom):
            yield "bom", name
    m = _HEADER_CHARSET.search(content_type or "")
    if m and (c := _codec(m.group(1))) and (not c.startswith("utf-16") or looks_utf16(payload)):
        yield "header", c
    m = _META_CHARSET.search(payload[:4096])
    if m and (c := _codec(m.group(1))):
        yield "meta", "utf-8" if c.startswith("utf-16") and not looks_utf16(payload) else c
    # no declared charset decodes: valid UTF-8 is UTF-8 (a single-byte codec reads its multibyte sequences as
    # mojibake, "fÃ¼r"; other text is valid UTF-8 only by chance). The detector reads 64 KiB of a page whose
    # non-ASCII bytes may all come later.
    if utf8_check:
        yield UTF8_PROBE, "utf-8"
    yield "detector", _codec(detect_encoding(payload[:DETECTOR_BYTES])) or "utf-8"


@functools.lru_cache(maxsize=256)
def decoding_table(name: str) -> str | None:
    """The 256-character table of codec ``name`` where it is a single-byte table codec (``charmap``: every byte
    decodes on its own, to its character in the table, U+FFFE: undefined), else None."""
    try:
        codec = codecs.lookup(name).decode.__self__
    except (LookupError, AttributeError):
        return None
    table = getattr(sys.modules.get(type(codec).__module__), "decoding_table", None)
    return table if isinstance(table, str) and len(table) == 256 else None


_ASCII = "".join(map(chr, range(128)))


def decode_as(payload: bytes, name: str) -> str:
    """``payload.decode(name)``, the same string: for a table codec (:func:`decoding_table`) that maps bytes 0-127
    to U+0000-U+007F, an ASCII payload by the ASCII codec (which copies the bytes), and its other payloads by the
    compiled ``_markup.decode_table`` (one lookup a byte, where the codec's loop does more); else by the codec."""
    table = decoding_table(name)
    if table is None:  # (UTF-8 and the multibyte codecs: the codec)
        return payload.decode(name)
    if table.startswith(_ASCII) and payload.isascii():
        return payload.decode("ascii")
    text = decode_table(payload, table) if decode_table is not None else None
    return payload.decode(name) if text is None else text


def decode_payload(payload: bytes, content_type: str = "", utf8_check: bool = True) -> tuple[str, str, str]:
    """Return (text, codec, source); source is bom/header/meta/valid-utf-8/detector or '<x>+replace'."""
    first, failed = None, set()
    for source, name in charset_candidates(payload, content_type, utf8_check):
        if source != UTF8_PROBE:  # the replacement fallback is a charset the page or the detector named
            first = first or (source, name)
        if name in failed:
            continue
        try:
            return decode_as(payload, name), name, source
        except (UnicodeDecodeError, LookupError):
            failed.add(name)
    source, name = first
    return payload.decode(name, errors="replace"), name, source + "+replace"


class Decode(Step):
    """Drops non-HTML, empty and oversized payloads; sets ``doc.html`` and ``doc.encoding``."""

    name = "decode"

    def __init__(self, max_bytes: int = DEFAULT_MAX_BYTES, max_garbage: float = 0.1, max_nodes: int = 1_000_000,
                 max_depth: int = 20_000):
        super().__init__()
        self.max_bytes = max_bytes
        self.max_garbage = max_garbage
        self.max_nodes, self.max_depth = max_nodes, max_depth

    @classmethod
    def build(cls, ctx: BuildContext) -> "Decode":
        o = ctx.opts
        return cls(max_bytes=o.max_bytes, max_nodes=o.max_nodes, max_depth=o.max_depth)

    def process(self, doc: Document) -> Document | None:
        payload = doc.raw or b""
        mime = mime_type(doc.content_type)
        if not payload or payload.isspace():  # (not payload.strip(): the same test without a copy of the page)
            return self.drop(doc, "empty_payload", "no payload bytes")
        if mime not in HTML_TYPES and not (mime in UNKNOWN_TYPES and looks_like_html(payload)):
            return self.drop(doc, "non_html", f"Content-Type {mime or 'missing'!r}")
        kind = binary_kind(payload)
        if kind:
            self.stat_update(f"binary.{kind}")
            return self.drop(doc, "binary", f"{kind} bytes served as {mime or 'no type'}")
        if len(payload) > self.max_bytes:
            return self.drop(doc, "too_large", f"{len(payload)} bytes > --max-bytes {self.max_bytes}")
        tags, replaced, noscript = markup_counts(payload)
        if tags > self.max_nodes:
            return self.drop(doc, "too_many_nodes", f"{tags} tags > --max-nodes {self.max_nodes}")
        if tags > self.max_depth and nesting_depth(payload, self.max_depth) > self.max_depth:
            return self.drop(doc, "too_deep", f"elements nested deeper than --max-depth {self.max_depth}")
        text, codec, source = decode_payload(payload, doc.content_type)
        if "utf-16" in (doc.content_type or "").lower() and not codec.startswith("utf-16"):
            self.stat_update("charset_label_ignored.utf-16")
        clean = not source.endswith("+replace") and b"\x00" not in payload
        nuls = 0 if clean else text.count("\x00")
        # a strict UTF-8 decode: the text's U+FFFD and "<noscript" are the bytes' (counted above, one pass)
        utf8 = clean and codec == "utf-8"
        garbage = ((replaced if utf8 else text.count("\ufffd")) + nuls) / max(len(text), 1)
        if garbage > self.max_garbage:
            return self.drop(doc, "decode_error", f"{garbage:.0%} undecodable characters as {codec}; binary payload?")
        self.stat_update(f"charset_from.{source}")
        doc.html, doc.encoding = (text.replace("\x00", "") if nuls else text), codec
        if clean:  # the parser reads the str; raw stays only where lexbor's own decoder recovers more
            doc.raw = None
        if utf8:
            doc.meta["noscript"] = noscript  # Parse's test, already answered
        return doc
