# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled twin of ``segment.sentence_columns_python``: the sentences of a page's lines as two lists (line
numbers, sentences), without a generator, the per-line ``strip`` and the ASCII test done on the string's own
characters (``str.strip`` strips ``Py_UNICODE_ISSPACE``), ``merge_pieces``' tests on the pieces' last
characters; sentencex itself and the enumerator regex are called as the twin calls them. ``_MAY_SPLIT`` and
``_CJK_END`` are written out here (``tests/test_segment_lines.py`` checks them against segment.py's) and the
test holds the two equal on every shared page's lines and on odd ones."""
from preprocess.core._ucs cimport Py_UNICODE_ISSPACE, PyUnicode_DATA, PyUnicode_KIND, PyUnicode_READ

cdef extern from "Python.h":
    bint PyUnicode_IS_ASCII(object)


cdef inline bint ascii_may_split(str line, Py_ssize_t n) noexcept:
    """``_MAY_SPLIT.search(line)`` on an ASCII line: any of ``. ! ? )`` or a newline."""
    cdef const unsigned char *p = <const unsigned char *> PyUnicode_DATA(line)
    cdef Py_ssize_t i
    cdef unsigned char c
    for i in range(n):
        c = p[i]
        if c == 46 or c == 33 or c == 63 or c == 41 or c == 10:
            return True
    return False


cdef str stripped(str s):
    """``s.strip()``."""
    cdef Py_ssize_t n = len(s), a = 0, b
    cdef int kind = PyUnicode_KIND(s)
    cdef void *data = PyUnicode_DATA(s)
    while a < n and Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, a)):
        a += 1
    b = n
    while b > a and Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, b - 1)):
        b -= 1
    if a == 0 and b == n:
        return s
    return s[a:b]


cdef inline bint all_space(str s) noexcept:
    """``not s.strip()``."""
    cdef Py_ssize_t i, n = len(s)
    cdef int kind = PyUnicode_KIND(s)
    cdef void *data = PyUnicode_DATA(s)
    for i in range(n):
        if not Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, i)):
            return False
    return True


cdef inline bint is_cjk_end(Py_UCS4 c) noexcept:
    """``segment._CJK_END``: 。！？」』）"""
    return c == 0x3002 or c == 0xff01 or c == 0xff1f or c == 0x300d or c == 0x300f or c == 0xff09


cdef bint glued(str prev, str piece, bint first, enum_match) except -1:
    """``merge_pieces``' test: ``piece`` joins ``prev`` (the first piece kept when ``first``)."""
    cdef Py_ssize_t n = len(prev)
    cdef Py_UCS4 last
    cdef str s
    if all_space(piece):
        return True
    if n == 0:  # (an empty piece: "" is neither space nor CJK punctuation)
        return True
    last = PyUnicode_READ(PyUnicode_KIND(prev), PyUnicode_DATA(prev), n - 1)
    if not Py_UNICODE_ISSPACE(last) and not is_cjk_end(last):
        return True
    if not first:
        return False
    s = stripped(prev)
    if not s:
        return False
    last = PyUnicode_READ(PyUnicode_KIND(s), PyUnicode_DATA(s), len(s) - 1)
    return (last == 46 or last == 41) and enum_match(s.rstrip(".)")) is not None


cdef list merge(list pieces, enum_match):
    """``segment.merge_pieces``."""
    cdef list out = []
    cdef str piece
    cdef Py_ssize_t k
    for piece in pieces:
        k = len(out) - 1
        if k >= 0 and glued(<str> out[k], piece, k == 0, enum_match):
            out[k] = <str> out[k] + piece
            continue
        out.append(piece)
    return out


def sentence_columns(list texts, segment, enum_match, Py_ssize_t max_chars):
    """(line numbers, sentences): each non-empty line's stripped sentences, ``segment`` (``segment.segment_line``)
    called on pieces of ``max_chars`` where a line may split; None where a line or a piece is not exactly a ``str`` (a
    subclass may change what its methods do: the twin runs instead)."""
    cdef list nos = [], sents = []
    cdef Py_ssize_t i = -1, n, start
    cdef object line, pieces, p
    cdef str s, piece
    for line in texts:
        i += 1
        if type(line) is not str:
            return None
        s = stripped(<str> line)
        if not s:
            continue
        n = len(<str> line)
        if PyUnicode_IS_ASCII(line) and n <= max_chars and not ascii_may_split(<str> line, n):  # (one piece: no call)
            nos.append(i)
            sents.append(s)
            continue
        for start in range(0, n, max_chars):
            piece = (<str> line)[start:start + max_chars] if n > max_chars else <str> line
            pieces = segment("en", piece)  # (segment.segment_line: the piece whole where sentencex cannot split it)
            if type(pieces) is not list:
                pieces = list(pieces)
            for p in <list> pieces:
                if type(p) is not str:
                    return None
            if len(<list> pieces) > 1:
                pieces = merge(<list> pieces, enum_match)
            for p in <list> pieces:
                s = stripped(<str> p)
                if s:
                    nos.append(i)
                    sents.append(s)
    return nos, sents
