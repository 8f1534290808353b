# CPython's str internals the compiled twins read characters with (included by _scan.pyx, _text.pyx and _anchor.pyx).

cdef extern from "Python.h":
    int PyUnicode_KIND(object)
    void *PyUnicode_DATA(object)
    Py_UCS4 PyUnicode_READ(int kind, void *data, Py_ssize_t index)
    object PyUnicode_FromKindAndData(int kind, const void *buffer, Py_ssize_t size)
    bint Py_UNICODE_ISSPACE(Py_UCS4 ch)
    bint Py_UNICODE_ISALNUM(Py_UCS4 ch)
    int PyUnicode_4BYTE_KIND


cdef inline bint _word_char(Py_UCS4 c) noexcept:
    if c < 128:  # (ASCII: what Py_UNICODE_ISALNUM says, without its table lookups)
        return 97 <= c <= 122 or 65 <= c <= 90 or 48 <= c <= 57 or c == 95
    return Py_UNICODE_ISALNUM(c)  # re's \w
