# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled twin of ``scan.py`` (read that first: the rules are its rules, function for function).

Differences of form only: the page is read character by character (tags and their attribute values
by a small state machine equal to ``tokens.TAG``), element classes are bit flags from ``names.py``, and
the text goes straight into a character buffer through ``dom.tidy_lines``'s rules (odd spaces to
spaces, runs of spaces to one, lines stripped, empty lines dropped), so :func:`scan` returns the tidied
text where ``scan.scan`` returns it untidied. ``tests/test_stream_scan.py`` checks both give equal
output on every shared page and on random and cut pages.
"""
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memchr, memcpy, memmove

import html as _html
from sys import intern as _intern

from preprocess.steps.stream import names as N
from preprocess.steps.stream import scan as _py

from preprocess.core._ucs cimport (Py_UNICODE_ISSPACE, PyUnicode_1BYTE_KIND, PyUnicode_4BYTE_KIND, PyUnicode_DATA,
                                   PyUnicode_FindChar, PyUnicode_FromKindAndData, PyUnicode_KIND, PyUnicode_READ)

_unescape = _html.unescape
cdef dict _HTML5 = _html._html5  # html.unescape's own tables: the entity decoding below is its
cdef dict _INVALID_CHARREFS = _html._invalid_charrefs  # _replace_charref, without the regex and callbacks
cdef frozenset _INVALID_CODEPOINTS = frozenset(_html._invalid_codepoints)

include "_flags.pxi"


cdef inline bint _ws(Py_UCS4 c) noexcept:  # the tokenizer's whitespace (CR already a newline there)
    return c == 9 or c == 10 or c == 12 or c == 13 or c == 32


cdef inline bint _alpha(Py_UCS4 c) noexcept:
    return (65 <= c <= 90) or (97 <= c <= 122)


cdef inline bint _text_space(Py_UCS4 c) noexcept:
    """A character ``text_char`` makes a space outside ``<pre>`` (tab, LF, VT, FF, CR, space)."""
    return c == 32 or 9 <= c <= 13


cdef inline bint _plain(Py_UCS4 c) noexcept:
    """Inside a line with nothing pending, ``text_char`` outputs the character as it is (tidy's spaces apart)."""
    return not (_text_space(c) or c == 0xa0 or c == 0x200b or c == 0x3000)


cdef extern from "Python.h":
    unsigned int PyUnicode_CHECK_INTERNED(object)


cdef inline bint _eq(str a, str b) noexcept:
    """``a == b`` for two element names: two interned strings are equal only if they are one object (the names of
    the name cache and the flag table are interned), so most tests end at the identity."""
    if a is b:
        return True
    if PyUnicode_CHECK_INTERNED(a) and PyUnicode_CHECK_INTERNED(b):
        return False
    return a == b


cdef inline Py_UCS4 _low(Py_UCS4 c) noexcept:
    cdef unsigned int x = c
    return <Py_UCS4> (x + 32 if 65 <= x <= 90 else x)


cdef str _lower(str name):
    return name.lower() if name.isascii() else name.translate(_ASCII_LOWER)


_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


cdef class Scanner:
    cdef str s
    cdef int kind
    cdef void *data
    cdef Py_ssize_t n
    # output: tidied text
    cdef Py_UCS4 *buf
    cdef Py_ssize_t len, cap, line
    cdef bint pending, need_nl
    # open elements: their names, and their flags in a C array beside them (``fl[k]`` is ``names[k]``'s)
    cdef list names
    cdef int *fl
    cdef Py_ssize_t fl_cap
    cdef int skip, pre, foreign, select, noscript
    cdef bint in_head, keep_noscript
    cdef object title
    cdef Py_ssize_t ns_chars, body_chars
    # the last tag read
    cdef Py_ssize_t name_end
    cdef bint closing
    cdef int name_flags  # (scan_name) the flags of the name it returned

    def __cinit__(self):
        self.buf = NULL
        self.fl = NULL

    def __dealloc__(self):
        free(self.buf)
        free(self.fl)

    cdef int setup(self, str s, bint keep_noscript) except -1:
        self.s = s
        self.kind = PyUnicode_KIND(s)
        self.data = PyUnicode_DATA(s)
        self.n = len(s)
        self.cap = self.n // 4 + 64
        self.buf = <Py_UCS4 *> malloc(self.cap * sizeof(Py_UCS4))
        if self.buf == NULL:
            raise MemoryError()
        self.len = self.line = 0
        self.pending = self.need_nl = False
        self.names = []
        self.fl_cap = 64
        self.fl = <int *> malloc(self.fl_cap * sizeof(int))
        if self.fl == NULL:
            raise MemoryError()
        self.skip = self.pre = self.foreign = self.select = self.noscript = 0
        self.in_head, self.keep_noscript = True, keep_noscript
        self.title = None
        self.ns_chars = self.body_chars = 0
        return 0

    cdef inline Py_UCS4 at(self, Py_ssize_t i) noexcept:
        return PyUnicode_READ(self.kind, self.data, i)

    cdef inline Py_ssize_t find_ascii(self, char ch, Py_ssize_t i, Py_ssize_t end) except -2:
        """The first index of ``ch`` (ASCII) in ``s[i:end]``, or -1: ``memchr`` on a one-byte page."""
        cdef const char *d
        cdef const char *hit
        if i >= end:
            return -1
        if self.kind == PyUnicode_1BYTE_KIND:
            d = <const char *> self.data
            hit = <const char *> memchr(d + i, ch, end - i)
            return -1 if hit == NULL else hit - d
        return PyUnicode_FindChar(self.s, <Py_UCS4> <unsigned char> ch, i, end, 1)

    # ------------------------------------------------------------------ output (dom.tidy_lines inline)
    cdef inline int put(self, Py_UCS4 c) except -1:
        if self.len == self.cap:
            scan_reserve(self, 1)
        self.buf[self.len] = c
        self.len += 1
        return 0

    cdef int end_line(self) except -1:
        while self.len > self.line and Py_UNICODE_ISSPACE(self.buf[self.len - 1]):
            self.len -= 1
        if self.len > self.line:
            self.need_nl = True
        self.line = self.len
        self.pending = False
        return 0

    cdef int tidy(self, Py_UCS4 c) except -1:
        if c == 9 or c == 0xa0 or c == 0x200b or c == 0x3000:
            c = 32
        if c == 32:
            if self.len > self.line:
                self.pending = True
            return 0
        if c == 10:
            return self.end_line()
        if self.len == self.line:
            if Py_UNICODE_ISSPACE(c):
                return 0
            if self.need_nl:
                self.put(10)
                self.line = self.len
                self.need_nl = False
        elif self.pending:
            self.put(32)
        self.pending = False
        return self.put(c)

    cdef inline int text_char(self, Py_UCS4 c) except -1:
        if c == 9 or c == 11 or c == 12:
            c = 32
        elif c == 13:
            c = 10 if self.pre else 32
        elif c == 10 and not self.pre:
            c = 32
        return self.tidy(c)

    cdef int emit_str(self, str t) except -1:
        cdef int kind = PyUnicode_KIND(t)
        cdef void *data = PyUnicode_DATA(t)
        cdef Py_ssize_t i
        for i in range(len(t)):
            self.text_char(PyUnicode_READ(kind, data, i))
        return 0

    cdef int text(self, Py_ssize_t i, Py_ssize_t j, bint decode) except -1:
        """``_State.text`` of ``s[i:j]``."""
        cdef Py_ssize_t k
        cdef Py_UCS4 c
        if j <= i:
            return 0
        if self.in_head:
            for k in range(i, j):
                if not _ws(self.at(k)):
                    break
            else:
                return 0
            self.in_head = False
        self.body_chars += j - i
        if self.skip:
            if self.noscript:
                self.ns_chars += j - i
            return 0
        k = i
        if not self.pre:  # (markup's indentation: spaces alone are one space to ``tidy``, no reference to look for)
            while k < j and _text_space(self.at(k)):
                k += 1
            if k == j:
                return self.tidy(32)
            if k > i:
                self.tidy(32)
        if decode and self.find_ascii(c'&', k, j) >= 0:
            return scan_unescape(self, k, j)
        while k < j:
            c = self.at(k)
            if _plain(c) and not self.pending and self.len > self.line:
                k = scan_plain_run(self, k, j)
            elif _text_space(c) and not self.pre:  # a run of them is one space to ``tidy``
                k += 1
                while k < j:
                    c = self.at(k)
                    if not _text_space(c):
                        break
                    k += 1
                self.tidy(32)
            else:
                self.text_char(c)
                k += 1
        return 0

    cdef inline int newline(self) except -1:
        if self.skip == 0:
            self.tidy(10)
        return 0

    # ------------------------------------------------------------------ open elements
    cdef inline bint skips(self, int f) noexcept:
        return (f & F_SKIP) and not ((f & F_NOSCRIPT) and self.keep_noscript)

    cdef int push(self, str name, int f) except -1:
        cdef Py_ssize_t top = len(self.names)
        cdef int *grown
        if top == self.fl_cap:
            grown = <int *> realloc(self.fl, 2 * self.fl_cap * sizeof(int))
            if grown == NULL:
                raise MemoryError()
            self.fl, self.fl_cap = grown, 2 * self.fl_cap
        self.names.append(name)
        self.fl[top] = f
        if f & F_FOREIGN:
            self.foreign += 1
        elif f & F_SELECT:
            self.select += 1
        elif f & F_NOSCRIPT:
            self.noscript += 1
        if f & F_PRE:
            self.pre += 1
        if self.skips(f) or f & F_FOREIGN:
            self.skip += 1
        elif self.skip == 0:
            if f & F_BLOCK:
                self.tidy(10)
            elif f & F_CELL:
                self.tidy(32)
        return 0

    cdef int pop(self) except -1:
        self.names.pop()
        cdef int f = self.fl[len(self.names)]
        if f & F_FOREIGN:
            self.foreign -= 1
        elif f & F_SELECT:
            self.select -= 1
        elif f & F_NOSCRIPT:
            self.noscript -= 1
        if f & F_PRE:
            self.pre -= 1
        if self.skips(f) or f & F_FOREIGN:
            self.skip -= 1
        elif self.skip == 0 and f & (F_BLOCK | F_CELL):
            self.tidy(10 if f & F_BLOCK else 32)
        return 0

    cdef int pop_to(self, Py_ssize_t k) except -1:
        while k >= 0 and len(self.names) > k:
            self.pop()
        return 0

    cdef Py_ssize_t find(self, int targets, str name, int stops) except -2:
        """``_State.find``: the topmost element with a flag in ``targets`` or named ``name``."""
        cdef Py_ssize_t k
        cdef int f
        cdef Py_ssize_t top = len(self.names)
        for k in range(top - 1, max(top - MAX_SEARCH, 0) - 1, -1):
            f = self.fl[k]
            if (f & targets) or (name is not None and _eq(<str> self.names[k], name)):
                return k
            if f & stops:
                return -1
        return -1

    cdef bint special_above(self, Py_ssize_t k) except -1:
        cdef Py_ssize_t m
        for m in range(k + 1, len(self.names)):
            if self.fl[m] & F_SPECIAL:
                return True
        return False

    cdef int adopt(self, str name) except -1:
        cdef Py_ssize_t k = self.find(0, name, F_SCOPE)
        if k < 0:
            return 0
        if self.special_above(k):
            del self.names[k]
            memmove(&self.fl[k], &self.fl[k + 1], (len(self.names) - k) * sizeof(int))
        else:
            self.pop_to(k)
        return 0

include "_entities.pxi"
include "_tokenizer.pxi"
include "_rules.pxi"
include "_output.pxi"
include "_run.pxi"


def scan(str s, bint keep_noscript=False):
    """(tidied text, title, characters inside ``<noscript>`` in the body, characters in the body)."""
    cdef Scanner sc = Scanner()
    sc.setup(s, keep_noscript)
    scan_run(sc)
    return PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, sc.buf, sc.len), sc.title, sc.ns_chars, sc.body_chars
