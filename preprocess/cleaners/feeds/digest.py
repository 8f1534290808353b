"""Feed items as digests: what the feeds pass ships from a feed's worker to a page's worker, never the text.

:func:`match_item` only asks whether a run of an item's normalised words (glued, as
``_norm`` glues the page's text) occurs in a page's or an element's normalised text.
A polynomial rolling hash answers that without the text: an item travels as
:class:`ItemDigest` -- per word boundary its character offset and the prefix hash of
the glued words, so the hash of any run of words is two look-ups -- and a page's
text is a :class:`Haystack` whose windows of a needle's length are hashed at once
(numpy). Two 31-bit primes: a false hit needs a 62-bit collision at one window.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

PRIMES = (2147483647, 2147483629)
BASES = (911382323, 972663749)
_POW = [np.ones(1, dtype=np.int64), np.ones(1, dtype=np.int64)]  # B^0 .. B^(n-1) mod P, grown on demand


def _powers(n: int) -> list[np.ndarray]:
    while len(_POW[0]) < n:
        k = len(_POW[0])
        for i, (b, p) in enumerate(zip(BASES, PRIMES)):
            _POW[i] = np.concatenate([_POW[i], _POW[i] * pow(b, k, p) % p])
    return [pw[:n] for pw in _POW]


def prefix_hashes(text: str) -> list[np.ndarray]:
    """Per prime, ``R[i] = sum(c_j * B^j for j < i) mod P`` over the code points of ``text`` (n + 1 values)."""
    codes = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype="<u4").astype(np.int64)
    out = []
    for pw, p in zip(_powers(len(codes)), PRIMES):
        r = np.zeros(len(codes) + 1, dtype=np.int64)
        np.cumsum(codes * pw % p, out=r[1:])  # < n * 2^31: no overflow below 2^32 characters
        out.append(r % p)
    return out


@dataclass(frozen=True, slots=True)
class Needle:
    """A string known by its length and its hash (``sum(c_j * B^j) mod P`` per prime)."""

    chars: int
    h1: int
    h2: int


class Haystack:
    """A normalised text that answers ``needle in haystack`` for :class:`Needle` (and ``str``)."""

    __slots__ = ("text", "_r")

    def __init__(self, text: str):
        self.text = text
        self._r = None

    def __contains__(self, needle) -> bool:
        if isinstance(needle, str):
            return needle in self.text
        n, size = len(self.text), needle.chars
        if size == 0:
            return True
        if size > n:
            return False
        if self._r is None:
            self._r = prefix_hashes(self.text)
        r1, r2 = self._r
        pw1, pw2 = _powers(n - size + 1)
        hits = np.flatnonzero((r1[size:] - r1[:-size]) % PRIMES[0] == needle.h1 * pw1 % PRIMES[0])
        if not len(hits):
            return False
        return bool(((r2[hits + size] - r2[hits]) % PRIMES[1] == needle.h2 * pw2[hits] % PRIMES[1]).any())


@dataclass(frozen=True, slots=True)
class WordsDigest:
    """Normalised words known by their boundaries: character offsets and prefix hashes (uint32 bytes)."""

    offsets: bytes
    r1: bytes
    r2: bytes

    @classmethod
    def of(cls, words: list[str]) -> "WordsDigest":
        r1, r2 = prefix_hashes("".join(words))
        at = np.zeros(len(words) + 1, dtype=np.int64)
        np.cumsum([len(w) for w in words], out=at[1:])
        return cls(at.astype("<u4").tobytes(), r1[at].astype("<u4").tobytes(), r2[at].astype("<u4").tobytes())

    def __len__(self) -> int:
        return len(self.offsets) // 4 - 1

    def _at(self, field: bytes, i: int) -> int:
        return int.from_bytes(field[4 * i:4 * i + 4], "little")

    def chars(self, a: int, b: int) -> int:
        return self._at(self.offsets, b) - self._at(self.offsets, a)

    def needle(self, a: int, b: int) -> Needle:
        """Words ``a..b`` glued, as a needle."""
        start = self._at(self.offsets, a)
        h = [(self._at(r, b) - self._at(r, a)) * pow(base, -start, p) % p
             for r, base, p in ((self.r1, BASES[0], PRIMES[0]), (self.r2, BASES[1], PRIMES[1]))]
        return Needle(self.chars(a, b), *h)


@dataclass(frozen=True, slots=True)
class ItemDigest:
    """What :func:`match_item` needs of a feed item: its content and title words and its author, hashed."""

    content: WordsDigest
    title: WordsDigest
    author: Needle

    @staticmethod
    def hay(text: str) -> Haystack:
        return Haystack(text)


def item_digest(item) -> ItemDigest:
    """The digest of a :class:`FeedItem`."""
    from preprocess.cleaners.feeds.match import _norm, _words

    name = WordsDigest.of([_norm(item.author)]) if item.author else WordsDigest.of([])
    return ItemDigest(WordsDigest.of(_words(item.content)), WordsDigest.of(_words(item.title)), name.needle(0, len(name)))
