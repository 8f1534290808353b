# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled twin of the class/id tests of ``names.py`` (``_flags``, ``_thread_name``) and of
``features.TokenVocab._mask``: all of a page's values in one call (``Matcher.bits``).

An ASCII value is lower-cased into a buffer between two spaces; the flag words (and " hid ", which on the
padded value is readability's four "hid" alternatives) are substring tests from each position, the words
bucketed by first byte; the tokens are the a-z runs, looked up in the vocabulary's hash table. A value that is
not ASCII, is longer than ``MAX_LEN`` or (for the flags) holds a newline goes to the Python functions, so every
value gets exactly what they give (``tests/test_learned_names.py``).
"""
from cpython.dict cimport PyDict_GetItem
from cpython.object cimport PyObject
from libc.stdint cimport int64_t, uint64_t
from libc.string cimport memcmp

import numpy as np

cdef extern from "Python.h":
    bint PyUnicode_IS_ASCII(object)
    void *PyUnicode_DATA(object)


cdef enum:
    MAX_LEN = 1000  # longer values go to Python
    MAX_WORDS = 128
    MAX_TOKEN_BYTES = 4096

# the flag words: bytes, start, length, bit; indices sorted by first byte, bucket bounds per byte
cdef char _wbuf[MAX_TOKEN_BYTES]
cdef int _wstart[MAX_WORDS]
cdef int _wlen[MAX_WORDS]
cdef int _wbit[MAX_WORDS]
cdef int _lo[256]
cdef int _hi[256]
cdef int _all_bits = 0
# the thread rule: whole tokens, prefixes, and the exceptions to the prefixes
cdef char _tbuf[MAX_TOKEN_BYTES]
cdef int _tstart[MAX_WORDS]
cdef int _tlen[MAX_WORDS]
cdef int _n_exact = 0, _n_prefix = 0, _n_except = 0  # _t*[0:e], [e:e+p], [e+p:e+p+x]
_words_set = False


def set_words(list words, tuple exact, tuple prefixes, tuple exceptions):
    """``words``: (lower-case ASCII word, bit) pairs, a value's flags being the OR of the bits of the words it
    holds (padded with a space each side); a token names a thread if it is one of ``exact``, or starts with one of
    ``prefixes`` and is none of ``exceptions``."""
    global _all_bits, _n_exact, _n_prefix, _n_except, _words_set
    cdef int i, k, pos = 0, c
    ordered = sorted(words, key=lambda wb: wb[0].encode("ascii")[:1])
    if len(ordered) > MAX_WORDS or sum(len(w) for w, _ in ordered) > MAX_TOKEN_BYTES:
        raise ValueError("too many flag words for the compiled class/id matcher")
    for c in range(256):
        _lo[c] = _hi[c] = 0
    _all_bits = 0
    for i, (w, bit) in enumerate(ordered):
        b = w.encode("ascii")
        if not b or b != b.lower():
            raise ValueError(f"flag word {w!r}: the compiled class/id matcher takes non-empty lower-case ASCII words")
        _wstart[i], _wlen[i], _wbit[i] = pos, len(b), bit
        for k in range(len(b)):
            _wbuf[pos + k] = b[k]
        pos += len(b)
        c = b[0]
        if _hi[c] == 0:
            _lo[c] = i
        _hi[c] = i + 1
        _all_bits |= bit
    rule = list(exact) + list(prefixes) + list(exceptions)
    if len(rule) > MAX_WORDS or sum(len(w) for w in rule) > MAX_TOKEN_BYTES:
        raise ValueError("too many thread words for the compiled class/id matcher")
    pos = 0
    for i, w in enumerate(rule):
        b = w.encode("ascii")
        _tstart[i], _tlen[i] = pos, len(b)
        for k in range(len(b)):
            _tbuf[pos + k] = b[k]
        pos += len(b)
    _n_exact, _n_prefix, _n_except = len(exact), len(prefixes), len(exceptions)
    _words_set = True


cdef inline int _flags(const unsigned char *s, Py_ssize_t n) noexcept nogil:
    """OR of the bits of the flag words found in ``s`` (the padded, lower-cased value)."""
    cdef int f = 0, k
    cdef Py_ssize_t i
    for i in range(n):
        for k in range(_lo[s[i]], _hi[s[i]]):
            if _wlen[k] <= n - i and memcmp(s + i, _wbuf + _wstart[k], _wlen[k]) == 0:
                f |= _wbit[k]
        if f == _all_bits:
            break
    return f


cdef inline bint _is(const unsigned char *t, Py_ssize_t n, int k) noexcept nogil:
    return _tlen[k] == n and memcmp(t, _tbuf + _tstart[k], n) == 0


cdef bint _thread(const unsigned char *t, Py_ssize_t n) noexcept nogil:
    cdef int k
    for k in range(_n_exact):
        if _is(t, n, k):
            return True
    for k in range(_n_exact, _n_exact + _n_prefix):
        if _tlen[k] <= n and memcmp(t, _tbuf + _tstart[k], _tlen[k]) == 0:
            break
    else:
        return False
    for k in range(_n_exact + _n_prefix, _n_exact + _n_prefix + _n_except):
        if _is(t, n, k):
            return False
    return True


cdef inline uint64_t _fnv(const unsigned char *t, Py_ssize_t n) noexcept nogil:
    cdef uint64_t h = 14695981039346656037ULL
    cdef Py_ssize_t i
    for i in range(n):
        h = (h ^ t[i]) * 1099511628211ULL
    return h


cdef class Matcher:
    """A vocabulary's class/id matcher: ``bits(values)`` gives each value's flags, thread bit and token bit words
    as the Python functions ``flags_fn``, ``thread_fn`` and ``mask_fn`` (None: no vocabulary) would."""

    cdef bytes _tokens  # the vocabulary's a-z tokens, concatenated
    cdef int64_t[::1] _slot_start, _slot_len, _slot_bit  # open-addressing table; _slot_len -1: empty
    cdef uint64_t _mask
    cdef readonly int width, n_words
    cdef object flags_fn, thread_fn, mask_fn

    def __init__(self, list tokens, flags_fn, thread_fn, mask_fn):
        if not _words_set:
            raise RuntimeError("names.py sets the flag words (set_words) before a Matcher is made")
        self.flags_fn, self.thread_fn, self.mask_fn = flags_fn, thread_fn, mask_fn
        self.width = len(tokens)
        self.n_words = max((self.width + 63) // 64, 1)
        cdef Py_ssize_t size = 16, i, n
        while size < 4 * len(tokens):
            size *= 2
        self._mask = size - 1
        self._slot_start = np.zeros(size, dtype=np.int64)
        self._slot_len = np.full(size, -1, dtype=np.int64)
        self._slot_bit = np.zeros(size, dtype=np.int64)
        # tokens of other characters never equal an a-z run: left out; a repeated token keeps its last bit
        # (as TokenVocab's dict does)
        kept = [(t.encode("ascii"), bit) for bit, t in enumerate(tokens)
                if t and t.isascii() and t.isalpha() and t.islower()]
        self._tokens = b"".join(b for b, _ in kept)
        cdef const unsigned char *buf = self._tokens
        cdef Py_ssize_t pos = 0
        cdef uint64_t s
        for b, bit in kept:
            n = len(b)
            s = _fnv(buf + pos, n) & self._mask
            while self._slot_len[s] >= 0 and not (self._slot_len[s] == n and
                                                   memcmp(buf + self._slot_start[s], buf + pos, n) == 0):
                s = (s + 1) & self._mask
            self._slot_start[s], self._slot_len[s], self._slot_bit[s] = pos, n, bit
            pos += n

    cdef inline int64_t _bit(self, const unsigned char *t, Py_ssize_t n) noexcept:
        cdef const unsigned char *buf = self._tokens
        cdef uint64_t s = _fnv(t, n) & self._mask
        while self._slot_len[s] >= 0:
            if self._slot_len[s] == n and memcmp(buf + self._slot_start[s], t, n) == 0:
                return self._slot_bit[s]
            s = (s + 1) & self._mask
        return -1

    def bits(self, list values, const int64_t[::1] tags=None):
        """(flags int64[n], thread int64[n], token bit words uint64[n + 1, n_words]: bit i of the vocabulary in
        word i // 64, bit i % 64; the last row zero) for ``values`` (str), each distinct value computed once;
        with ``tags`` (each value's element's tag, 0-63) a fourth array: ``features.signature_ids``, each
        (tag, value) pair numbered 0, 1, ... in order of first use."""
        cdef Py_ssize_t n = len(values), e, first, i, j, m, w, nw = self.n_words
        if tags is not None and tags.shape[0] != n:
            raise ValueError("bits: one tag per value")
        flags_arr = np.zeros(n, dtype=np.int64)
        thread_arr = np.zeros(n, dtype=np.int64)
        words_arr = np.zeros((n + 1, nw), dtype=np.uint64)
        first_arr = np.full(n, -1, dtype=np.int64)
        cdef int64_t[::1] flags = flags_arr, thread = thread_arr, firsts = first_arr
        cdef uint64_t[:, ::1] words = words_arr
        cdef unsigned char buf[MAX_LEN + 2]
        cdef const unsigned char *s
        cdef unsigned char c
        cdef int64_t bit
        cdef bint any_thread, newline
        cdef PyObject *row
        seen = {}
        for e in range(n):
            v = values[e]
            if not v:
                continue
            row = PyDict_GetItem(seen, v)
            if row != NULL:
                first = <Py_ssize_t> <object> row
                firsts[e] = first
                flags[e], thread[e] = flags[first], thread[first]
                for w in range(nw):
                    words[e, w] = words[first, w]
                continue
            seen[v] = e
            firsts[e] = e
            m = len(v)
            if not PyUnicode_IS_ASCII(v) or m > MAX_LEN:
                self._python(v, e, flags, thread, words)
                continue
            s = <const unsigned char *> PyUnicode_DATA(v)
            buf[0] = buf[m + 1] = 32
            newline = False
            for i in range(m):
                c = s[i]
                if 65 <= c <= 90:
                    c += 32
                elif c == 10:
                    newline = True
                buf[i + 1] = c
            flags[e] = <int64_t> self.flags_fn(v) if newline else _flags(buf, m + 2)
            any_thread = False
            i = 1
            while i <= m:
                if not (97 <= buf[i] <= 122):
                    i += 1
                    continue
                j = i
                while 97 <= buf[j] <= 122:  # buf[m + 1] is a space
                    j += 1
                if not any_thread and _thread(buf + i, j - i):
                    any_thread = True
                if self.width:
                    bit = self._bit(buf + i, j - i)
                    if bit >= 0:
                        words[e, bit >> 6] |= (<uint64_t> 1) << (bit & 63)
                i = j
            thread[e] = any_thread
        if tags is None:
            return flags_arr, thread_arr, words_arr
        return flags_arr, thread_arr, words_arr, _signatures(firsts, tags)

    cdef _python(self, str v, Py_ssize_t e, int64_t[::1] flags, int64_t[::1] thread, uint64_t[:, ::1] words):
        cdef Py_ssize_t w
        flags[e] = self.flags_fn(v)
        thread[e] = self.thread_fn(v)
        if self.mask_fn is not None:
            mask = self.mask_fn(v)
            for w in range(self.n_words):
                words[e, w] = (mask >> (64 * w)) & 0xFFFFFFFFFFFFFFFF


def _signatures(const int64_t[::1] firsts, const int64_t[::1] tags):
    """Per element: its (tag, value) pair's number in order of first use; ``firsts``: the first element with its
    value (-1: the empty value). An open-addressing table of the pairs as ``(first + 1) * 64 + tag``."""
    cdef Py_ssize_t n = firsts.shape[0], e, size = 16
    cdef uint64_t h, mask
    cdef int64_t key, next_id = 0
    for e in range(n):
        if not 0 <= tags[e] < 64:
            raise ValueError("bits: tags are 0-63")
    while size < 2 * n:
        size *= 2
    mask = size - 1
    keys_arr = np.full(size, -1, dtype=np.int64)
    ids_arr = np.zeros(size, dtype=np.int64)
    out_arr = np.zeros(n, dtype=np.int64)
    cdef int64_t[::1] keys = keys_arr, ids = ids_arr, out = out_arr
    for e in range(n):
        key = (firsts[e] + 1) * 64 + tags[e]
        h = (<uint64_t> key * 11400714819323198485ULL) >> 20 & mask
        while keys[h] >= 0 and keys[h] != key:
            h = (h + 1) & mask
        if keys[h] < 0:
            keys[h] = key
            ids[h] = next_id
            next_id += 1
        out[e] = ids[h]
    return out_arr
