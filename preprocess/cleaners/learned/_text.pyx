# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled twin of ``text.text_counts``: per-block counts of characters, words, punctuation, stop words,
capitalised and title words, one pass over each block's characters."""
from libc.string cimport memcmp, memcpy

import numpy as np

include "_unicode.pxi"


# stop words packed 5 bits a letter (a-z 1-26), sorted for a binary search
cdef unsigned long long _stop_keys[512]
cdef Py_ssize_t _n_stop = 0


def set_stop_words(words):
    """The stop-word list of :func:`text_stats`: lower-case a-z words of at most 12 letters."""
    global _n_stop
    keys = sorted(_letters_key(w) for w in words)
    if len(keys) > 512 or any(not (w.isascii() and w.isalpha() and w.islower() and len(w) <= 12) or "k" in w
                              for w in words):
        raise ValueError("stop words: at most 512 lower-case a-z words of 12 letters or fewer, none with a k "
                         "(U+212A lowers to it: text_stats reads a word with it as no stop word)")
    for i, k in enumerate(keys):
        _stop_keys[i] = k
    _n_stop = len(keys)


def _letters_key(str w):
    k = 0
    for c in w:
        k = k << 5 | (ord(c) - 96)
    return k


cdef bint _is_stop(unsigned long long k) noexcept nogil:
    cdef Py_ssize_t lo = 0, hi = _n_stop, mid
    while lo < hi:
        mid = (lo + hi) // 2
        if _stop_keys[mid] < k:
            lo = mid + 1
        else:
            hi = mid
    return lo < _n_stop and _stop_keys[lo] == k


def text_stats(list texts, title_words):
    """Per block (rows): characters, words, commas, full stops, final punctuation, stop words, capitalised words,
    title words: ``text.text_columns``'s counts for single-spaced texts. None when a text is not single-spaced
    or lower-casing changes its word count (the caller then counts in Python)."""
    cdef Py_ssize_t n = len(texts), b, i, m, w0
    cdef int kind
    cdef void *data
    cdef Py_UCS4 c, last
    cdef double nw, commas, stops, n_stop, n_cap, n_title
    cdef bint letters, word_ascii, check_title
    cdef unsigned long long key
    cdef unsigned char lowbuf[64]
    out = np.zeros((n, 8), dtype=np.float64)
    cdef double[:, ::1] o = out
    if not _n_stop:
        raise RuntimeError("_text.set_stop_words was never called (import preprocess.cleaners.learned.features)")
    # the title's ASCII words in one buffer (an ASCII word of the text can equal no other); n_tw -1: too many,
    # each word then looked up in the set
    cdef unsigned char tbuf[2048]
    cdef Py_ssize_t t_at[64]
    cdef Py_ssize_t t_len[64]
    cdef Py_ssize_t pos = 0
    cdef int n_tw = 0, q
    cdef bytes wb
    for w in title_words:
        if isinstance(w, str) and (<str> w).isascii():
            if n_tw == 64 or pos + len(<str> w) > 2048:
                n_tw = -1
                break
            wb = (<str> w).encode("ascii")
            memcpy(tbuf + pos, <const char *> wb, len(wb))
            t_at[n_tw], t_len[n_tw] = pos, len(wb)
            pos += len(wb)
            n_tw += 1
    for b in range(n):
        t = <str> texts[b]
        m = len(t)
        if not m:
            return None
        kind = PyUnicode_KIND(t)
        data = PyUnicode_DATA(t)
        if Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, 0)) or Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, m - 1)):
            return None
        nw = 1
        commas = stops = n_stop = n_cap = n_title = 0
        for i in range(m):
            c = PyUnicode_READ(kind, data, i)
            if c == u' ':
                nw += 1
                if PyUnicode_READ(kind, data, i + 1) == u' ':  # (the last character is no space)
                    return None
            elif c == u',':
                commas += 1
            elif c == u'.' and i + 1 < m and PyUnicode_READ(kind, data, i + 1) == u' ':
                stops += 1
            elif Py_UNICODE_ISSPACE(c):
                return None
        last = PyUnicode_READ(kind, data, m - 1)
        if last == u'.':
            stops += 1
        check_title = title_words and nw < 40
        w0 = 0
        while w0 < m:  # each word: capitalised? stop word? title word?
            c = PyUnicode_READ(kind, data, w0)
            if 65 <= c <= 90:
                n_cap += 1
            elif not _word_char(c):
                i = w0 + 1
                while i < m and PyUnicode_READ(kind, data, i) != u' ' and not _word_char(PyUnicode_READ(kind, data, i)):
                    i += 1
                if i < m and 65 <= PyUnicode_READ(kind, data, i) <= 90:
                    n_cap += 1
            i = w0
            key = 0
            letters = word_ascii = True
            while i < m:
                c = PyUnicode_READ(kind, data, i)
                if c == u' ':
                    break
                if c >= 128:
                    word_ascii = letters = False
                elif word_ascii:
                    if 65 <= c <= 90:
                        c = <Py_UCS4> (<unsigned long long> c + 32)
                    if i - w0 < 64:
                        lowbuf[i - w0] = <unsigned char> c
                    if letters and 97 <= c <= 122 and i - w0 < 12:
                        key = key << 5 | (<unsigned long long> c - 96)
                    else:
                        letters = False
                i += 1
            # a word with a character past ASCII is no stop word: its str.lower() is not all a-z (U+212A, the one
            # character that lowers into ASCII, gives "k", which no stop word has: set_stop_words checks)
            if letters and _is_stop(key):
                n_stop += 1
            # per word, str.lower() is the word of the text's lower(): spaces split both (no character lowers to
            # a space), and the final-sigma rule does not look past a space
            if check_title:
                if word_ascii and i - w0 <= 64 and n_tw >= 0:  # against the title's ASCII words, in C
                    for q in range(n_tw):
                        if t_len[q] == i - w0 and memcmp(tbuf + t_at[q], lowbuf, i - w0) == 0:
                            n_title += 1
                            break
                elif (PyUnicode_FromKindAndData(1, lowbuf, i - w0) if word_ascii and i - w0 <= 64
                      else t[w0:i].lower()) in title_words:
                    n_title += 1
            w0 = i + 1
        o[b, 0] = m
        o[b, 1] = nw
        o[b, 2] = commas
        o[b, 3] = stops
        o[b, 4] = last == u'.' or last == u'!' or last == u'?' or last == u'"' or last == u"'" or last == 0x201d \
            or last == 0x2019 or last == u')'
        o[b, 5] = n_stop
        o[b, 6] = n_cap
        o[b, 7] = n_title
    return out


def text_repeats(list texts):
    """``repeats.text_repeats`` before its ``log1p``: per block, how many blocks have its text lower-cased
    (float64) and whether an earlier block had it (bool); one dict of first occurrences, no per-block arrays."""
    cdef Py_ssize_t n = len(texts), i, j
    cdef dict first = {}
    acc = np.zeros(n, dtype=np.float64)
    counts = np.empty(n, dtype=np.float64)
    seen = np.empty(n, dtype=np.uint8)
    at = np.empty(n, dtype=np.intp)
    cdef double[::1] a = acc, c = counts
    cdef unsigned char[::1] s = seen
    cdef Py_ssize_t[::1] f = at
    for i in range(n):
        j = first.setdefault((<str> texts[i]).lower(), i)
        f[i] = j
        a[j] += 1
    for i in range(n):
        c[i] = a[f[i]]
        s[i] = f[i] != i
    return counts, seen.view(np.bool_)
