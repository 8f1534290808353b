# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled twins of the normaliser's last steps (``normalize.tokens_python``): every run of decimal digits
becomes ``0``, then the tokens (``\\w+`` or one other non-space character) are joined by single spaces.

The character classes are ``re``'s own for str patterns: ``\\d`` is ``Py_UNICODE_ISDECIMAL``, ``\\w`` is
``Py_UNICODE_ISALNUM`` or ``_``, ``\\s`` is ``Py_UNICODE_ISSPACE``. A digit run inside a word stays in that
word (``a12b`` -> ``a0b``), as the regex pass gives. ``tests/test_lm.py`` checks both on real and random text.
"""
from libc.stdlib cimport free, malloc

from preprocess.core._ucs cimport (Py_UNICODE_ISDECIMAL, Py_UNICODE_ISSPACE, PyUnicode_4BYTE_KIND, PyUnicode_DATA,
                                   PyUnicode_FromKindAndData, PyUnicode_KIND, PyUnicode_READ, is_alnum)


def tokens(str text):
    """The tokens of ``text`` joined by single spaces: :func:`tokens_lines`' lines, the empty ones left out."""
    return " ".join([line for line in tokens_lines(text, False) if line])


cdef inline bint is_decimal(Py_UCS4 c) noexcept:
    """``Py_UNICODE_ISDECIMAL``, ASCII answered without its table lookup (there: 0-9)."""
    if c < 128:
        return 48 <= c <= 57
    return Py_UNICODE_ISDECIMAL(c)


cdef inline bint is_cjk(Py_UCS4 c):
    """``normalize._CJK``: Han, iteration marks, hiragana, katakana (split into one token each)."""
    return (0x3005 <= c <= 0x3007 or 0x3041 <= c <= 0x3096 or 0x309d <= c <= 0x309f or 0x30a1 <= c <= 0x30fa
            or 0x30fc <= c <= 0x30ff or 0x31f0 <= c <= 0x31ff or 0x3400 <= c <= 0x4dbf or 0x4e00 <= c <= 0x9fff
            or 0xf900 <= c <= 0xfaff or 0x20000 <= c <= 0x2fa1f)


def tokens_lines(str text, bint cjk):
    """``[tokens(p) for p in (split_cjk(text) if cjk else text).split("\\n")]`` in one pass: each line's
    tokens, a Chinese/Japanese character (``cjk``) a token of its own."""
    cdef Py_ssize_t n = len(text), i = 0, w = 0, start = 0
    cdef int kind = PyUnicode_KIND(text)
    cdef void *data = PyUnicode_DATA(text)
    cdef Py_UCS4 c
    cdef bint word = False, digits = False, alone
    cdef list out = []
    cdef Py_UCS4 *buf = <Py_UCS4 *> malloc((2 * n + 1) * sizeof(Py_UCS4))  # each character and a space at most
    if buf == NULL:
        raise MemoryError()
    try:
        while i < n:
            c = PyUnicode_READ(kind, data, i)
            i += 1
            if c == 10:  # a line ends: its tokens
                out.append(PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, buf + start, w - start))
                start = w
                word = digits = False
                continue
            if Py_UNICODE_ISSPACE(c):
                word = False
                continue
            alone = cjk and c >= 0x3005 and is_cjk(c)
            if alone:
                word = False
            if c == 95 or is_alnum(c):
                if is_decimal(c):
                    if word and digits:
                        continue  # the run is already one 0
                    c = 48
                    digits = True
                else:
                    digits = False
                if not word:
                    if w > start:
                        buf[w] = 32
                        w += 1
                    word = True
                buf[w] = c
                w += 1
                if alone:
                    word = digits = False
                continue
            word = digits = False
            if w > start:
                buf[w] = 32
                w += 1
            buf[w] = c
            w += 1
        out.append(PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, buf + start, w - start))
        return out
    finally:
        free(buf)
