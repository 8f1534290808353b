# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled twins of ``text.text_counts`` (per-block counts of characters, words, punctuation, stop words,
capitalised and title words, one pass over each block's characters) and of ``repeats.text_repeats``."""
from libc.string cimport memcmp, memcpy

import numpy as np

include "_unicode.pxi"


# stop words packed 5 bits a letter (a-z 1-26; 0 is no word), in an open-addressing table: one probe for most
# words (a binary search's unpredictable branches cost more than the rest of the count)
cdef enum:
    _SLOTS = 2048
cdef unsigned long long _stop_table[_SLOTS]
cdef Py_ssize_t _n_stop = 0


def set_stop_words(words):
    """The stop-word list of :func:`text_stats`: lower-case a-z words of at most 12 letters."""
    global _n_stop
    keys = sorted(set(_letters_key(w) for w in words))
    if len(keys) > 512 or any(not (w.isascii() and w.isalpha() and w.islower() and len(w) <= 12) or "k" in w
                              for w in words):
        raise ValueError("stop words: at most 512 lower-case a-z words of 12 letters or fewer, none with a k "
                         "(U+212A lowers to it: text_stats reads a word with it as no stop word)")
    for i in range(_SLOTS):
        _stop_table[i] = 0
    for k in keys:
        i = _slot(k)
        while _stop_table[i]:
            i = (i + 1) & (_SLOTS - 1)
        _stop_table[i] = k
    _n_stop = len(keys)


def _letters_key(str w):
    k = 0
    for c in w:
        k = k << 5 | (ord(c) - 96)
    return k


cdef inline Py_ssize_t _slot(unsigned long long k) noexcept nogil:
    return <Py_ssize_t> ((k * 0x9E3779B97F4A7C15ULL) >> 53)  # (64 - 11 bits: _SLOTS)


cdef bint _is_stop(unsigned long long k) noexcept nogil:
    cdef Py_ssize_t i = _slot(k)
    while _stop_table[i]:  # (at most 512 of 2048 slots taken: an empty one comes)
        if _stop_table[i] == k:
            return True
        i = (i + 1) & (_SLOTS - 1)
    return False


ctypedef fused uchar_t:  # the three widths of a str's characters: one loop compiled for each
    unsigned char
    unsigned short
    unsigned int


cdef int _block_stats(const uchar_t *s, Py_ssize_t m, double *row, str t, title_words, bint check_title, int n_tw,
                      const unsigned char *tbuf, const Py_ssize_t *t_at, const Py_ssize_t *t_len) except -2:
    """One block's row of :func:`text_stats` (``m`` characters at ``s``); -1 when it is not single-spaced."""
    cdef Py_ssize_t i, w0
    cdef unsigned int c, last
    cdef double nw = 1, commas = 0, stops = 0, n_stop = 0, n_cap = 0, n_title = 0
    cdef bint letters, word_ascii
    cdef unsigned long long key
    cdef unsigned char lowbuf[64]
    cdef int q
    if Py_UNICODE_ISSPACE(s[0]) or Py_UNICODE_ISSPACE(s[m - 1]):
        return -1
    for i in range(m):
        c = s[i]
        if c == 32:
            nw += 1
            if s[i + 1] == 32:  # (the last character is no space)
                return -1
        elif c == 44:
            commas += 1
        elif c == 46 and i + 1 < m and s[i + 1] == 32:
            stops += 1
        elif Py_UNICODE_ISSPACE(c):
            return -1
    last = s[m - 1]
    if last == 46:
        stops += 1
    check_title = check_title and nw < 40
    w0 = 0
    while w0 < m:  # each word: capitalised? stop word? title word?
        c = s[w0]
        if 65 <= c <= 90:
            n_cap += 1
        elif not _word_char(c):
            i = w0 + 1
            while i < m and s[i] != 32 and not _word_char(s[i]):
                i += 1
            if i < m and 65 <= s[i] <= 90:
                n_cap += 1
        i = w0
        key = 0
        letters = word_ascii = True
        while i < m:
            c = s[i]
            if c == 32:
                break
            if c >= 128:
                word_ascii = letters = False
            elif word_ascii:
                if 65 <= c <= 90:
                    c += 32
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
    row[0] = m
    row[1] = nw
    row[2] = commas
    row[3] = stops
    row[4] = last == 46 or last == 33 or last == 63 or last == 34 or last == 39 or last == 0x201d \
        or last == 0x2019 or last == 41  # . ! ? " ' ” ’ )
    row[5] = n_stop
    row[6] = n_cap
    row[7] = n_title
    return 0


def text_stats(list texts, title_words):
    """Per block (rows): characters, words, commas, full stops, final punctuation, stop words, capitalised words,
    title words: ``text.text_columns``'s counts for single-spaced texts. None when a text is empty or not
    single-spaced (the caller then counts in Python)."""
    cdef Py_ssize_t n = len(texts), b, m
    cdef int kind, r
    cdef void *data
    cdef bint check_title = bool(title_words)
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
    cdef int n_tw = 0
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
        if kind == 1:
            r = _block_stats(<const unsigned char *> data, m, &o[b, 0], t, title_words, check_title, n_tw, tbuf,
                             t_at, t_len)
        elif kind == 2:
            r = _block_stats(<const unsigned short *> data, m, &o[b, 0], t, title_words, check_title, n_tw, tbuf,
                             t_at, t_len)
        else:
            r = _block_stats(<const unsigned int *> data, m, &o[b, 0], t, title_words, check_title, n_tw, tbuf,
                             t_at, t_len)
        if r < 0:
            return None
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
