# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""Decode's counts over a payload: compiled twin of ``decode.markup_counts_python``."""
from libc.string cimport memchr

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
