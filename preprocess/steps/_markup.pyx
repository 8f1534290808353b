# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""Decode's counts over a payload: compiled twins of ``decode.markup_counts_python`` and
``decode.nesting_depth_python``."""
from libc.string cimport memchr

from preprocess.html.vocabulary import NOT_NESTING

cdef extern from "string.h" nogil:
    void *memmem(const void *haystack, size_t haystacklen, const void *needle, size_t needlelen)

cdef extern from "_markup_count.h" nogil:
    void count_two_bytes(const unsigned char *p, size_t n, unsigned char a, unsigned char b,
                         size_t *count_a, size_t *count_b)


def markup_counts(const unsigned char[::1] data):
    """(``<`` bytes, UTF-8 encoded U+FFFD (EF BF BD), whether ``<noscript`` occurs) of ``data``."""
    cdef size_t n = data.shape[0], tags = 0, leads = 0, replaced = 0
    cdef const unsigned char *p
    cdef const unsigned char *q
    cdef const unsigned char *end
    if n == 0:
        return 0, 0, False
    p = &data[0]
    end = p + n
    count_two_bytes(p, n, 60, 0xEF, &tags, &leads)  # "<" and the lead byte of U+FFFD
    if leads:
        q = <const unsigned char *> memchr(p, 0xEF, n)
        while q != NULL:
            if q + 3 <= end and q[1] == 0xBF and q[2] == 0xBD:
                replaced += 1
            q = <const unsigned char *> memchr(q + 1, 0xEF, end - q - 1) if q + 1 < end else NULL
    return tags, replaced, memmem(p, n, b"<noscript", 9) != NULL


# vocabulary.NOT_NESTING, each name at most 8 bytes, as the little-endian number of its bytes
cdef list _NOT_NESTING = sorted(int.from_bytes(name.encode(), "little") for name in NOT_NESTING)
cdef unsigned long long _not_nesting[32]
cdef Py_ssize_t _n_not_nesting = len(_NOT_NESTING)
assert _n_not_nesting <= 32
for _k, _v in enumerate(_NOT_NESTING):
    _not_nesting[_k] = _v


cdef inline bint _letter(unsigned char c) noexcept nogil:
    return (65 <= c <= 90) or (97 <= c <= 122)


cdef inline bint _alnum(unsigned char c) noexcept nogil:
    return _letter(c) or (48 <= c <= 57)


cdef inline bint _nests(const unsigned char *name, Py_ssize_t n) noexcept nogil:
    """Whether a tag name (ASCII letters and digits, lower-cased here) is not one of ``_NOT_NESTING``."""
    cdef unsigned long long key = 0
    cdef Py_ssize_t k
    if n > 8:
        return True
    for k in range(n):
        key |= (<unsigned long long> (name[k] + 32 if 65 <= name[k] <= 90 else name[k])) << (8 * k)
    for k in range(_n_not_nesting):
        if _not_nesting[k] == key:
            return False
    return True


def nesting_depth(const unsigned char[::1] data, Py_ssize_t stop):
    """``decode.nesting_depth_python`` over ``data``: every match of its ``_TAG`` pattern, in order, found as
    ``re.finditer`` finds them (a ``<``, ``/`` or not, a letter and up to 15 letters or digits as the name, then
    the first ``>`` before any ``<``, self-closing when ``/`` is just before it), the same count."""
    cdef Py_ssize_t n = data.shape[0], i = 0, j, p, name_at, name_end, depth = 0, deepest = 0
    cdef const unsigned char *s
    cdef const unsigned char *q
    cdef bint closing, self_closing
    if n == 0:
        return 0
    s = &data[0]
    while i < n:
        q = <const unsigned char *> memchr(s + i, 60, n - i)  # "<"
        if q == NULL:
            break
        i = q - s
        j = i + 1
        closing = j < n and s[j] == 47  # "/"
        if closing:
            j += 1
        if j >= n or not _letter(s[j]):
            i += 1
            continue
        name_at = j
        j += 1
        while j < n and j - name_at < 16 and _alnum(s[j]):
            j += 1
        name_end = j
        p = j  # the lazy run up to ">", "/>" taken first
        while p < n and s[p] != 62 and s[p] != 60 and not (s[p] == 47 and p + 1 < n and s[p + 1] == 62):
            p += 1
        if p >= n or s[p] == 60:  # no ">" before the next "<" (or the end): no match here
            i = p
            continue
        self_closing = s[p] == 47
        i = p + 2 if self_closing else p + 1
        if self_closing or not _nests(s + name_at, name_end - name_at):
            continue
        depth += -1 if closing else 1
        if depth > deepest:
            deepest = depth
            if deepest > stop:
                break
        elif depth < 0:
            depth = 0
    return deepest


cdef extern from "Python.h":
    object PyUnicode_FromKindAndData(int kind, const void *buffer, Py_ssize_t size)
    int PyUnicode_KIND(object o)
    void *PyUnicode_DATA(object o)
    Py_UCS4 PyUnicode_READ(int kind, void *data, Py_ssize_t index)
    void *PyMem_Malloc(size_t n)
    void PyMem_Free(void *p)


def decode_table(const unsigned char[::1] data, str table):
    """``data`` decoded by a single-byte codec's 256-character ``decoding_table`` (U+FFFE: the byte is undefined),
    as ``codecs.charmap_decode(data, "strict", table)`` decodes it; None where that raises (an undefined byte) or
    the table holds a character past U+FFFF: the caller then asks the codec."""
    cdef Py_ssize_t n = data.shape[0], i
    cdef unsigned short t[256]
    cdef unsigned short c
    cdef unsigned short *out
    if len(table) != 256 or PyUnicode_KIND(table) > 2:
        return None
    cdef int kind = PyUnicode_KIND(table)
    cdef void *tdata = PyUnicode_DATA(table)
    for i in range(256):
        t[i] = <unsigned short> PyUnicode_READ(kind, tdata, i)
    out = <unsigned short *> PyMem_Malloc(2 * n + 2)
    if out == NULL:
        raise MemoryError()
    try:
        for i in range(n):
            c = t[data[i]]
            if c == 0xFFFE:
                return None
            out[i] = c
        return PyUnicode_FromKindAndData(2, out, n)  # (the narrowest str that holds them, as the codec's)
    finally:
        PyMem_Free(out)
