# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled twins of ``anchor.short_titled`` (the heading search without an ``<h1>``), of the numpy in
``anchor.anchor_columns`` and of ``anchor.may_name`` (the serialised ``<body>`` searched for what names a page)."""
from libc.stdint cimport int64_t, uint16_t, uint32_t
from libc.string cimport memchr

import numpy as np

include "_unicode.pxi"
include "_search.pxi"
include "_bisect.pxi"


cdef extern from "Python.h":
    Py_UCS4 Py_UNICODE_TOLOWER(Py_UCS4 ch)


cdef enum:
    _WORD_BUF = 256  # characters of a word built here; longer ones are sliced and lower-cased by Python


def short_titled(list texts, list link_chars, titled, Py_ssize_t lo, Py_ssize_t hi, double least, words):
    """``anchor.short_titled``: of the blocks under half linked with ``lo``-``hi`` words (``\\w+`` of the
    lower-cased text), the first with the largest share of words in ``titled``, if at least ``least``, and that
    share; (-1, 0.0) when none has one. A block's words stop being read once too many are untitled. A text
    holding U+0130 or U+03A3 (lower-cased to two characters, or by context) is split by ``words``, the reference;
    elsewhere lower-casing maps a character to one character, a word character to a word character (every code
    point checked), so words are found on the text and lower-cased a character at a time."""
    cdef Py_ssize_t n = len(texts), b, i, m, nw, w0, k, missed, best = -1
    cdef double share = 0.0, s
    cdef int kind
    cdef void *data
    cdef Py_UCS4 c
    cdef bint special, inword
    cdef Py_UCS4 buf[_WORD_BUF]
    if len(link_chars) != n:
        raise ValueError("short_titled: one link_chars entry per text")
    for b in range(n):
        t = <str> texts[b]
        m = len(t)
        if <double> link_chars[b] >= 0.5 * m:
            continue
        kind = PyUnicode_KIND(t)
        data = PyUnicode_DATA(t)
        nw = 0
        inword = special = False
        for i in range(m):  # count the words, up to hi + 1
            c = PyUnicode_READ(kind, data, i)
            if c == 0x130 or c == 0x3a3:
                special = True
                break
            if _word_char(c):
                if not inword:
                    nw += 1
                    if nw > hi:
                        break
                    inword = True
            else:
                inword = False
        if special:
            found = words(t)
            nw = len(found)
            if lo <= nw <= hi:
                k = sum([w in titled for w in found])
                s = <double> k / <double> nw
                if s > share and s >= least:
                    best, share = b, s
            continue
        if nw < lo or nw > hi:
            continue
        k = missed = 0
        w0 = 0
        while w0 < m:  # each word, lower-cased: in titled? (until the block can no longer have share and least)
            if not _word_char(PyUnicode_READ(kind, data, w0)):
                w0 += 1
                continue
            i = w0
            while i < m:
                c = PyUnicode_READ(kind, data, i)
                if not _word_char(c):
                    break
                if i - w0 < _WORD_BUF:
                    if 65 <= c <= 90:
                        c = <Py_UCS4> (<unsigned int> c + 32)
                    elif c >= 128:
                        c = Py_UNICODE_TOLOWER(c)
                    buf[i - w0] = c
                i += 1
            word = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, buf, i - w0) if i - w0 <= _WORD_BUF \
                else t[w0:i].lower()
            if word in titled:
                k += 1
            else:
                missed += 1
                s = <double> (nw - missed) / <double> nw  # (its share is at most this: division is monotonic)
                if s < least or s <= share:
                    break
            w0 = i
        s = <double> k / <double> nw
        if s > share and s >= least:
            best, share = b, s
    return best, share


def elements(list tags, long tag):
    """``anchor._elements``: the indices of ``tag`` in ``tags``."""
    cdef Py_ssize_t i
    return [i for i in range(len(tags)) if <long> tags[i] == tag]


def columns(list start, Py_ssize_t h, list up_start, list up_end, double total, log1p):
    """``anchor_columns``' numpy for a page whose heading is block ``h`` (``start``: the blocks' ``Page.start``;
    ``up_start``/``up_end``: the heading's element and its ancestors' characters, innermost first): the same
    operations in the same order, the same values to the bit. ``log1p``: numpy's, as the reference's (not the C
    library's to the bit), over the distances in characters, then 0, 1, 2, ... (distances in blocks, levels)."""
    cdef Py_ssize_t n = len(start), levels = len(up_start), b, k, first, stop
    cdef Py_ssize_t m = n if n > levels + 1 else levels + 1
    cdef double v, share
    cdef int64_t d
    if not 0 <= h < n or len(up_end) != levels:
        raise ValueError("columns: the heading is one of the blocks, and each level has a start and an end")
    starts = np.array(start, dtype=np.int64)
    ups = np.array([up_start, up_end], dtype=np.int64).reshape(2, levels)
    x_arr = np.empty(n + m)
    cdef const int64_t[::1] st = starts
    cdef const int64_t[:, ::1] up = ups
    cdef double[::1] x = x_arr
    with nogil:
        for b in range(n):
            x[b] = <double> (st[b] - st[h] if st[b] >= st[h] else st[h] - st[b])
        for b in range(m):
            x[n + b] = <double> b
    logs_arr = log1p(x_arr)
    out_arr = np.zeros((n, 6))
    cdef const double[::1] logs = logs_arr
    cdef double[:, ::1] out = out_arr
    with nogil:
        for b in range(n):
            out[b, 0] = 1.0
            d = st[b] - st[h]
            v = logs[b]
            out[b, 1] = v if d > 0 else (-v if d < 0 else 0.0 * v)  # np.sign(d) * np.log1p(np.abs(d))
            v = logs[n + (b - h if b >= h else h - b)]
            out[b, 2] = v if b > h else (-v if b < h else 0.0 * v)
            out[b, 4] = 1.0
            out[b, 5] = logs[n + levels]
        out[h, 3] = 1.0
        for k in range(levels - 1, -1, -1):  # outermost first: inner elements overwrite their blocks
            first, stop = bisect_left(st, up[0, k]), bisect_left(st, up[1, k])
            share = <double> (up[1, k] - up[0, k]) / total
            for b in range(first, stop):
                out[b, 4] = share
                out[b, 5] = logs[n + k]
    return out_arr


cdef bint _has(int kind, void *data, Py_ssize_t n, str needle, Py_ssize_t pin):
    """Is ``needle`` (lower-case ASCII) in the text, its letters in either case? Found by its character ``pin``, no
    letter (``find_char``: memchr, SSE2)."""
    cdef Py_ssize_t m = len(needle), i = pin, k
    cdef int nkind = PyUnicode_KIND(needle)
    cdef void *ndata = PyUnicode_DATA(needle)
    cdef Py_UCS4 c, w, p = PyUnicode_READ(nkind, ndata, pin)
    while True:
        i = find_char(kind, data, i, n, p)
        if i < 0:
            return False
        if i + m - pin <= n:
            for k in range(m):
                c = PyUnicode_READ(kind, data, i - pin + k)
                w = PyUnicode_READ(nkind, ndata, k)
                if c != w and not (65 <= c <= 90 and <Py_UCS4> (<unsigned int> c + 32) == w):
                    break
            else:
                return True
        i += 1


def may_name(str markup):
    """``anchor.may_name``: "<meta" and ":title", or "ld+json" (ASCII letters in either case) in ``markup``."""
    cdef int kind = PyUnicode_KIND(markup)
    cdef void *data = PyUnicode_DATA(markup)
    cdef Py_ssize_t n = len(markup)
    return _has(kind, data, n, "ld+json", 2) or _has(kind, data, n, ":title", 0) and contains(kind, data, 0, n, "<meta")
