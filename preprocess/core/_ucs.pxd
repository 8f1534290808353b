# CPython's str internals and the character classes the compiled readers share (cimported by the learned cleaner's
# scanners, the streaming tag remover and the normaliser's tokens): ASCII answered without CPython's table lookups.

cdef extern from "Python.h":
    int PyUnicode_KIND(object)
    void *PyUnicode_DATA(object)
    Py_UCS4 PyUnicode_READ(int kind, void *data, Py_ssize_t index)
    object PyUnicode_FromKindAndData(int kind, const void *buffer, Py_ssize_t size)
    Py_ssize_t PyUnicode_FindChar(object s, Py_UCS4 ch, Py_ssize_t start, Py_ssize_t end, int direction) except -2
    bint Py_UNICODE_ISSPACE(Py_UCS4 ch)
    bint Py_UNICODE_ISALNUM(Py_UCS4 ch)
    bint Py_UNICODE_ISDECIMAL(Py_UCS4 ch)
    int PyUnicode_1BYTE_KIND
    int PyUnicode_4BYTE_KIND


cdef inline bint is_alnum(Py_UCS4 c) noexcept:
    """``Py_UNICODE_ISALNUM`` (ASCII: 0-9, A-Z, a-z)."""
    if c < 128:
        return 48 <= c <= 57 or 65 <= c <= 90 or 97 <= c <= 122
    return Py_UNICODE_ISALNUM(c)


cdef inline bint is_word(Py_UCS4 c) noexcept:
    """re's ``\\w`` for str patterns."""
    return c == 95 or is_alnum(c)


cdef inline unsigned long long name_code(Py_UCS4 c, bint fold) noexcept nogil:
    """A tag name's character in 6 bits (a-z 1-26, 0-9 27-36; A-Z as a-z where ``fold``), 0 for any other."""
    if 97 <= c <= 122:
        return <unsigned long long> c - 96
    if fold and 65 <= c <= 90:
        return <unsigned long long> c - 64
    if 48 <= c <= 57:
        return <unsigned long long> c - 21
    return 0


cdef inline unsigned long long name_key(int kind, void *data, Py_ssize_t lo, Py_ssize_t hi, bint fold) noexcept:
    """The name ``s[lo:hi]`` packed 6 bits a character (up to 10 of them); 0 for any other name."""
    cdef unsigned long long k = 0, c
    cdef Py_ssize_t i
    if hi - lo > 10:
        return 0
    for i in range(lo, hi):
        c = name_code(PyUnicode_READ(kind, data, i), fold)
        if not c:
            return 0
        k = k << 6 | c
    return k
