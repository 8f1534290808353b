"""Exact and near-duplicate pages of a crawl sample, found from 136 bytes per page.

A worker computes per page, from its normalised lines (:func:`signature`):

* ``exact``: an 8-byte BLAKE2b of the page's lines;
* ``page`` and ``kept``: 64-byte MinHash sketches (Broder 1997; b-bit minwise hashing, Li & König 2010:
  the lowest byte of each of 64 minima) of all the page's lines and of the lines its cleaner kept, over
  distinct ``shingle``-token shingles. The 64 hash functions are fixed (no random state): the same page
  gives the same bytes on any machine and run. Text with fewer than ``MIN_SHINGLES`` shingles gets 64
  bytes of its BLAKE2b instead (two such sketches agree only when the texts are equal).

The driver (:func:`duplicates`) puts pages with equal ``exact``, or whose ``page`` and ``kept``
sketches both agree in at least ``resemblance`` of their 64 bytes (estimated Jaccard resemblance of the
shingle sets, 0.9 by default), in one cluster (transitively); the first page of a cluster in input
order stays, the others are duplicates. Both texts, because on template-heavy sites two different
posts are near-duplicate pages (the shared cleaning pages hold posterous posts of five lines among 98
template lines) while their kept lines differ; a re-crawl with a new comment, date or breadcrumb stays
close in both. Candidates: pages equal in one of 16 bands of 4 bytes (LSH). SimHash (Charikar 2002,
8 bytes) was tried first: one added line moved real news pages of ~300 shingles by 1-6 of 64 bits,
so a fixed bit distance missed or merged pages by their length. No text leaves the worker.
"""
from __future__ import annotations

import hashlib
import zlib

import numpy as np

from preprocess.train_crawl.dedup_options import DedupOptions
from preprocess.core.hashing import hash64

MIN_SHINGLES = 8
K, BAND = 64, 4
_SEEDS, _ODD = (np.frombuffer(b"".join(hashlib.blake2b(f"webprune minhash {w} {i}".encode(), digest_size=64).digest()
                                       for i in range(K // 8)), dtype="<u8") | np.uint64(w == "odd")
                for w in ("seed", "odd"))
_MIX = (np.uint64(0x9E3779B97F4A7C15), np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB))


def _mix(x: np.ndarray) -> np.ndarray:
    """SplitMix64's finaliser, elementwise."""
    with np.errstate(over="ignore"):
        x = (x ^ (x >> np.uint64(30))) * _MIX[1]
        x = (x ^ (x >> np.uint64(27))) * _MIX[2]
        return x ^ (x >> np.uint64(31))


def _sketches(sh: np.ndarray, lengths: list[int], texts: list[list[str]]) -> bytes:
    """The sketches of the first ``n`` shingles for each ``n`` in ``lengths`` (one pass over the shingles):
    per hash function k, the minimum of ``(x ^ seed_k) * odd_k`` over the shingles x, one byte of it kept."""
    with np.errstate(over="ignore"):
        values = (sh[:, None] ^ _SEEDS[None, :]) * _ODD[None, :] if len(sh) else None
    out = b""
    for n, text in zip(lengths, texts):
        if n >= MIN_SHINGLES:
            out += ((values[:n].min(axis=0) >> np.uint64(32)) & np.uint64(255)).astype(np.uint8).tobytes()
        else:
            out += hashlib.blake2b("\n".join(text).encode("utf-8", "surrogatepass"), digest_size=K).digest()
    return out


def shingles(tokens: list[str], shingle: int = 3) -> np.ndarray:
    """64-bit hashes of the token ``shingle``-grams (CRC-32 per token, mixed in order: deterministic)."""
    n = len(tokens) - shingle + 1
    if n < 1:
        return np.zeros(0, dtype=np.uint64)
    table = {t: zlib.crc32(t.encode("utf-8", "surrogatepass")) for t in set(tokens)}
    th = _mix(np.fromiter((table[t] for t in tokens), dtype=np.uint64, count=len(tokens)))
    sh = np.zeros(n, dtype=np.uint64)
    with np.errstate(over="ignore"):
        for k in range(shingle):
            sh = _mix(sh ^ (th[k:n + k] + _MIX[0] * np.uint64(k + 1)))
    return sh


def minhash(lines: list[str], shingle: int = 3) -> bytes:
    """The 64-byte sketch of normalised lines (see the module's docstring)."""
    sh = shingles(" ".join(lines).split(), shingle)
    return _sketches(sh, [len(sh)], [lines])


def signature(kept: list[str], removed: list[str], shingle: int = 3) -> tuple[int, bytes]:
    """(exact hash of the page, its page sketch + kept sketch: 128 bytes)."""
    head, tail = " ".join(kept).split(), " ".join(removed).split()
    sh = shingles(head + tail, shingle)  # the kept lines come first: their shingles are a prefix
    return (hash64("\n".join(kept) + "\n\n" + "\n".join(removed)),
            _sketches(sh, [len(sh), max(len(head) - shingle + 1, 0)], [kept + removed, kept]))


def signatures(pages: list[tuple[list[str], list[str]]], shingle: int = 3) -> tuple[np.ndarray, np.ndarray]:
    """(exact hashes ``(n,)`` uint64, sketches ``(n, 128)`` uint8) of ``(kept, removed)`` pages."""
    sig = [signature(k, r, shingle) for k, r in pages]
    return (np.array([s[0] for s in sig], dtype=np.uint64),
            np.frombuffer(b"".join(s[1] for s in sig), dtype=np.uint8).reshape(len(sig), 2 * K))


def duplicates(exact: np.ndarray, sketches: np.ndarray, opts: DedupOptions) -> tuple[np.ndarray, dict]:
    """A boolean mask of duplicate pages (all but the first of each cluster) and counts for the card."""
    n = len(exact)
    parent = list(range(n))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    def union(i: int, j: int) -> None:
        a, b = find(i), find(j)
        if a != b:
            parent[max(a, b)] = min(a, b)  # the earlier page is the root: it stays

    if opts.mode == "off" or not n:
        return np.zeros(n, dtype=bool), {"pages": n, "duplicates": 0, "exact": 0, "near": 0}
    first: dict[int, int] = {}
    for i, e in enumerate(exact.tolist()):
        union(first.setdefault(e, i), i)
    n_exact = n - len(first)
    if opts.mode == "near":
        reps = np.array(sorted(first.values()), dtype=np.int64)  # one page per exact text
        sk = sketches[reps]
        need = int(np.ceil(opts.resemblance * K))
        done: set[tuple[int, int]] = set()
        for b in range(K // BAND):
            keys = np.ascontiguousarray(sk[:, b * BAND:(b + 1) * BAND]).view("<u4").ravel()
            order = np.argsort(keys, kind="stable")
            for group in np.split(order, np.flatnonzero(np.diff(keys[order])) + 1):
                for x in range(len(group) - 1):  # one page against the rest of its band group
                    rest = group[x + 1:]
                    same = sk[rest] == sk[group[x]]
                    close = (same[:, :K].sum(axis=1) >= need) & (same[:, K:].sum(axis=1) >= need)
                    for y in rest[close].tolist():
                        pair = (int(group[x]), y)
                        if pair not in done:
                            done.add(pair)
                            union(int(reps[pair[0]]), int(reps[pair[1]]))
    dup = np.array([find(i) != i for i in range(n)], dtype=bool)
    return dup, {"pages": n, "duplicates": int(dup.sum()), "exact": n_exact, "near": int(dup.sum()) - n_exact}
