# Character references decoded in C where they are plain (included by _raw.pyx): ``&name;`` with a name HTML
# knows, ``&#n;`` and ``&#xh;`` to an ordinary code point, and an "&" that starts no reference. Anything else
# (a legacy name without ";", a control or out-of-range number ...) returns None: the reference's
# ``tokens.decode_text`` / ``decode_value`` decide then, as they decide every case in the Python twin.

from html.entities import html5 as _html5

_LEGACY = frozenset(k for k in _html5 if not k.endswith(";"))  # (names html.unescape takes without ";")
cdef TBuf _scratch


cdef inline bint _ref_stop(Py_UCS4 c) noexcept:  # what ends a name in ``tokens._CHARREF``
    return c == 9 or c == 10 or c == 12 or c == 32 or c == u'<' or c == u'&' or c == u'#' or c == u';'


cdef inline int _digit(Py_UCS4 ch, bint hexa) noexcept:
    cdef int c = <int> ch
    if 48 <= c <= 57:
        return c - 48
    if hexa and 97 <= c <= 102:
        return c - 87
    if hexa and 65 <= c <= 70:
        return c - 55
    return -1


cdef inline bint _dropped(long v) noexcept:  # (tokens._DROPPED: controls and noncharacters)
    return 1 <= v <= 8 or v == 11 or 14 <= v <= 31 or v == 127 or 0xFDD0 <= v <= 0xFDEF \
        or v <= 0x10FFFF and (v & 0xFFFE) == 0xFFFE


cdef inline bint _plain_code(long v) noexcept:
    """A code point html.unescape gives as itself (not 0, CR, windows-1252's C1 mapping, a surrogate or past
    U+10FFFF) and the reference does not give up on (not ``_dropped``)."""
    return 0 < v <= 0x10FFFF and v != 0xD and not 0x80 <= v <= 0x9F and not 0xD800 <= v <= 0xDFFF \
        and not _dropped(v)


cdef object decode_fast(int kind, void *data, Py_ssize_t lo, Py_ssize_t hi):
    """The text ``[lo, hi)`` with its references decoded, or None when one is not plain (see above)."""
    cdef Py_ssize_t i = lo, j, k, start
    cdef Py_UCS4 c
    cdef long v
    cdef int d, x
    cdef bint hexa
    _scratch.n = 0
    while i < hi:
        c = PyUnicode_READ(kind, data, i)
        if c != u'&':
            tpush(&_scratch, c)
            i += 1
            continue
        j = i + 1
        if j >= hi or _ref_stop(PyUnicode_READ(kind, data, j)) and PyUnicode_READ(kind, data, j) != u'#':
            tpush(&_scratch, c)  # (no reference: "&" as it is)
            i += 1
            continue
        if PyUnicode_READ(kind, data, j) == u'#':
            k = j + 1
            hexa = k < hi and (PyUnicode_READ(kind, data, k) == u'x' or PyUnicode_READ(kind, data, k) == u'X')
            k += hexa
            start, v = k, 0
            while k < hi:
                d = _digit(PyUnicode_READ(kind, data, k), hexa)
                if d < 0:
                    break
                v = v * (16 if hexa else 10) + d
                k += 1
                if k - start > 7:
                    return None
            if k == start:
                tpush(&_scratch, c)  # ("&#" with no digits: as it is)
                i += 1
                continue
            if not _plain_code(v):
                return None
            if k < hi and PyUnicode_READ(kind, data, k) == u';':
                k += 1
            tpush(&_scratch, <Py_UCS4> v)
            i = k
            continue
        k = j
        while k < hi and k - j < 32 and not _ref_stop(PyUnicode_READ(kind, data, k)):
            k += 1
        if k < hi and PyUnicode_READ(kind, data, k) == u';':
            name = PyUnicode_FromKindAndData(kind, <char *> data + j * kind, k + 1 - j)
            got = _html5.get(name)
            if got is not None:
                for x in range(len(<str> got)):
                    tpush(&_scratch, (<str> got)[x])
                i = k + 1
                continue
        for x in range(2, min(k - j, 7) + 1):  # (a legacy name as a prefix: the reference's rules)
            if PyUnicode_FromKindAndData(kind, <char *> data + j * kind, x) in _LEGACY:
                return None
        tpush(&_scratch, c)  # (no reference: as it is)
        i += 1
    return PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, _scratch.d, _scratch.n)
