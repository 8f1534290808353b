# (included by _scan.pyx and _anchor.pyx) Searching the markup: a word at a place, a character or word from a
# place, class/id values.

cdef bint at(int kind, void *data, Py_ssize_t i, Py_ssize_t end, str word):
    """Does ``word`` start at ``i`` (and end before ``end``)?"""
    cdef Py_ssize_t k, m = len(word)
    cdef int wkind
    cdef void *wdata
    if i + m > end:
        return False
    wkind, wdata = PyUnicode_KIND(word), PyUnicode_DATA(word)
    for k in range(m):
        if PyUnicode_READ(kind, data, i + k) != PyUnicode_READ(wkind, wdata, k):
            return False
    return True


cdef str class_id(int kind, void *data, Py_ssize_t lo, Py_ssize_t hi):
    """``" ".join(_CLASS_ID.findall(attrs))`` for the attributes ``markup[lo:hi]``."""
    cdef Py_ssize_t i = lo, q, m
    cdef Py_UCS4 c
    values = []
    while i < hi:
        m = 0
        c = PyUnicode_READ(kind, data, i)  # (only "class" and "id" can start here: test the cheap part first)
        if (c == u'c' or c == u'i') and (i == lo or not _word_char(PyUnicode_READ(kind, data, i - 1))):
            if at(kind, data, i, hi, 'class="'):
                m = 7
            elif at(kind, data, i, hi, 'id="'):
                m = 4
        if m:
            q = i + m
            while q < hi and PyUnicode_READ(kind, data, q) != u'"':
                q += 1
            if q < hi:
                values.append(_slice(kind, data, i + m, q))
                i = q + 1
                continue
        i += 1
    return " ".join(values)


cdef str _slice(int kind, void *data, Py_ssize_t lo, Py_ssize_t hi):
    cdef Py_ssize_t size = 1 if kind == 1 else (2 if kind == 2 else 4)
    return PyUnicode_FromKindAndData(kind, <char *> data + lo * size, hi - lo)


cdef extern from "_find_wide.h":
    Py_ssize_t find_u16(const uint16_t *d, Py_ssize_t lo, Py_ssize_t n, uint32_t c) noexcept
    Py_ssize_t find_u32(const uint32_t *d, Py_ssize_t lo, Py_ssize_t n, uint32_t c) noexcept


cdef inline Py_ssize_t find_char(int kind, void *data, Py_ssize_t lo, Py_ssize_t n, Py_UCS4 c) noexcept:
    """Index of the first ``c`` in ``[lo, n)``; -1 when there is none (memchr on 1-byte strings, SSE2 or
    wmemchr on wider ones: ``_find_wide.h``)."""
    cdef const char *hit
    if lo >= n:
        return -1
    if kind == 1:
        if c >= 256:
            return -1
        hit = <const char *> memchr(<const char *> data + lo, <int> c, n - lo)
        return -1 if hit == NULL else hit - <const char *> data
    if kind == 2:
        return find_u16(<const uint16_t *> data, lo, n, c)
    return find_u32(<const uint32_t *> data, lo, n, c)


def find_in(str s, str c, Py_ssize_t lo, Py_ssize_t hi):
    """``find_char`` on ``s[lo:hi]`` (for tests: ``s.find(c, lo, hi)``, bounds clamped as ``str.find`` does)."""
    if len(c) != 1:
        raise ValueError("find_in: give one character to find")
    lo, hi = max(lo, 0), min(hi, len(s))
    return find_char(PyUnicode_KIND(s), PyUnicode_DATA(s), lo, hi, c[0])


cdef Py_ssize_t find(int kind, void *data, Py_ssize_t lo, Py_ssize_t n, str word):
    """Index of the first ``word`` that starts at or after ``lo`` and ends by ``n``; -1 when there is none."""
    cdef Py_UCS4 first = word[0]
    cdef Py_ssize_t i = lo, m = len(word)
    if m == 1:
        return find_char(kind, data, lo, n, first)
    while True:
        i = find_char(kind, data, i, n - m + 1, first)
        if i < 0 or at(kind, data, i, n, word):
            return i
        i += 1


cdef inline bint contains(int kind, void *data, Py_ssize_t lo, Py_ssize_t hi, str word):
    return find(kind, data, lo, hi, word) >= 0
