"""The byte-level machinery of ``density_counts``' shadow: numpy over a string's code points.

Tag names of up to 8 characters packed big-endian into a uint64 and looked up in a collision-free hash
(``_NAMES``, ``_FLAGS``: void, foreign/template, raw text, noise, structural, plaintext), 8-character
windows after every ``<`` gathered as unaligned words, SWAR byte comparisons (``_ge``), bracket runs paired
into tags (``_tags``) and masks of stretches (``_stretches``). Moved out of ``density_counts`` unchanged.
"""
from __future__ import annotations

import numpy as np

from preprocess.html.dom import NOISE_TAGS

STRUCTURAL_TAGS = ("div", "p", "table", "tbody", "thead", "tr", "td", "th", "ul", "ol", "li", "dl", "dt", "dd",
                   "h1", "h2", "h3", "h4", "h5", "h6", "section", "article", "aside", "nav", "header", "footer",
                   "main", "blockquote", "pre", "form", "fieldset", "center", "br")

_VOID = ("area", "base", "basefont", "bgsound", "br", "col", "embed", "frame", "hr", "img", "input", "keygen",
         "link", "meta", "param", "source", "track", "wbr")  # lexbor writes no end tag for these (HTML namespace)
_BLOB = ("svg", "math", "template")  # foreign content (void names get end tags there), template contents
_RAW = ("script", "style", "iframe", "xmp", "noembed", "noframes")  # contents written unescaped
_F_VOID, _F_BLOB, _F_RAW, _F_NOISE, _F_STRUCT, _F_PLAIN = 1, 2, 4, 8, 16, 32
_NAME_FLAGS: dict[str, int] = {}
for _names, _flag in ((_VOID, _F_VOID), (_BLOB, _F_BLOB), (_RAW, _F_RAW), (NOISE_TAGS, _F_NOISE),
                      (STRUCTURAL_TAGS, _F_STRUCT), (("plaintext",), _F_PLAIN)):
    for _n in _names:
        _NAME_FLAGS[_n] = _NAME_FLAGS.get(_n, 0) | _flag


def _pack(name: str) -> int:
    return int.from_bytes(name.encode().ljust(8, b"\0"), "big")


def _name_hash():
    """Names of up to 8 characters, packed big-endian into a uint64, and a collision-free hash of them."""
    names = [n for n in _NAME_FLAGS if len(n) <= 8]
    codes = np.array([_pack(n) for n in names] + [2 ** 64 - 1], dtype=np.uint64)  # last: matches nothing
    lens = np.array([len(n) for n in names] + [-1], dtype=np.int64)
    flags = np.array([_NAME_FLAGS[n] for n in names] + [0], dtype=np.int64)
    rng = np.random.default_rng(1)
    while True:
        mult = np.uint64(int(rng.integers(1, 2 ** 63)) * 2 + 1)
        slots = (codes[:-1] * mult) >> np.uint64(64 - 9)
        if len(set(slots.tolist())) == len(names):
            table = np.full(512, len(names), dtype=np.int64)
            table[slots.astype(np.int64)] = np.arange(len(names))
            return names, codes, lens, flags, mult, table


_NAMES, _CODES, _LENS, _FLAGS, _MULT, _SLOTS = _name_hash()
_SHIFT = np.uint64(64 - 9)
_MASKS = np.array([0] + [(2 ** 64 - 1) ^ (2 ** (64 - 8 * k) - 1) for k in range(1, 9)], dtype=np.uint64)
_STRUCT_END = np.zeros(256, dtype=bool)  # what may follow a structural tag name: [\s>/] (ASCII)
_STRUCT_END[[9, 10, 11, 12, 13, 28, 29, 30, 31, 32, ord(">"), ord("/")]] = True


def _units(html: str) -> np.ndarray:
    """The code points of ``html`` as a numpy array, index i = html[i]."""
    if html.isascii():
        return np.frombuffer(html.encode("ascii"), dtype=np.uint8)
    try:
        return np.frombuffer(html.encode("latin-1"), dtype=np.uint8)
    except UnicodeEncodeError:
        pass
    u16 = html.encode("utf-16-le")
    if len(u16) == 2 * len(html):  # no surrogate pairs
        return np.frombuffer(u16, dtype=np.uint16)
    return np.frombuffer(html.encode("utf-32-le"), dtype=np.uint32)


def _window(a: np.ndarray, first: np.ndarray) -> np.ndarray:
    """``a[first[i]:first[i] + 8]`` for every i as an (n, 8) uint8 array, clamped to 128, zero past the end.

    Each row is gathered as unaligned 8-byte words of ``a``'s buffer, not character by character.
    """
    k = a.itemsize
    span = 8 * k
    if a.nbytes < span:
        out = np.zeros((len(first), 8), dtype=a.dtype)
        for r, p in enumerate(first.tolist()):
            row = a[p:p + 8]
            out[r, :len(row)] = row
    else:
        view = np.ndarray(shape=(a.nbytes - 7,), dtype=np.uint64, buffer=a, strides=(1,))
        at = first * k
        clamped = np.minimum(at, a.nbytes - span)
        if k == 1:
            out = view[clamped].view(np.uint8).reshape(-1, 8)
        else:
            got = np.empty((len(first), k), dtype=np.uint64)
            for j in range(k):
                got[:, j] = view[clamped + 8 * j]
            out = got.view(a.dtype).reshape(-1, 8)
        tail = np.flatnonzero(at > a.nbytes - span)
        for r in tail.tolist():  # the last few "<" of the string
            p = int(first[r])
            row = a[p:p + 8]
            out[r] = 0
            out[r, :len(row)] = row
    if k > 1:
        return np.minimum(out, 128).astype(np.uint8)
    return out


_B7F, _B80, _B5F = np.uint64(0x7F7F7F7F7F7F7F7F), np.uint64(0x8080808080808080), np.uint64(0x5F5F5F5F5F5F5F5F)


def _ge(h: np.ndarray, c: int) -> np.ndarray:
    """High bit of each byte of ``h`` (bytes below 128) set where the byte is >= c."""
    return h + np.uint64((0x80 - c) * 0x0101010101010101)


_BLOCKQUO, _PLAINTEX = np.uint64(_pack("blockquo")), np.uint64(_pack("plaintex"))


def _tags(brackets: np.ndarray, opening: np.ndarray):
    """Tags in a run of brackets: the first "<" after a ">" (or at the start) opens one, the next ">" closes it.

    Returns the indices (into ``brackets``) of the opening "<"s, the positions of the closing ">"s, and
    whether a ">" closed nothing or a "<" was left open.
    """
    prev = np.empty_like(opening)
    prev[0] = False
    prev[1:] = opening[:-1]
    opens = opening & ~prev
    closes = prev & ~opening
    n_close = int(np.count_nonzero(closes))
    n_gt = len(opening) - int(np.count_nonzero(opening))
    stray = n_close != n_gt or int(np.count_nonzero(opens)) != n_close
    return opens.nonzero()[0][:n_close], brackets[closes], stray


def _stretches(starts: np.ndarray, ends: np.ndarray, size: int) -> np.ndarray:
    """A bool array of ``size``: False inside the sorted, disjoint stretches [starts[i], ends[i]), else True."""
    m = len(starts)
    lengths = np.empty(2 * m + 1, dtype=np.int64)
    lengths[0] = starts[0]
    lengths[1::2] = ends - starts
    lengths[2:-1:2] = starts[1:] - ends[:-1]
    lengths[-1] = size - ends[-1]
    outside = np.zeros(2 * m + 1, dtype=bool)
    outside[0::2] = True
    return np.repeat(outside, lengths)
