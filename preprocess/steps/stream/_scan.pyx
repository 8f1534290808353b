# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled twin of ``scan.py`` (read that first: the rules are its rules, function for function).

Differences of form only: the page is read character by character (tags and their attribute values
by a small state machine equal to ``scan._TAG``), element classes are bit flags from ``names.py``, and
the text goes straight into a character buffer through ``dom.tidy_lines``'s rules (odd spaces to
spaces, runs of spaces to one, lines stripped, empty lines dropped), so :func:`scan` returns the tidied
text where ``scan.scan`` returns it untidied. ``tests/test_stream_scan.py`` checks both give equal
output on every shared page and on random and cut pages.
"""
from libc.stdlib cimport free, malloc, realloc

import html as _html

from preprocess.steps.stream import names as N
from preprocess.steps.stream import scan as _py

cdef extern from "Python.h":
    int PyUnicode_KIND(object)
    void *PyUnicode_DATA(object)
    Py_UCS4 PyUnicode_READ(int kind, void *data, Py_ssize_t index)
    object PyUnicode_FromKindAndData(int kind, const void *buffer, Py_ssize_t size)
    bint Py_UNICODE_ISSPACE(Py_UCS4 ch)
    Py_ssize_t PyUnicode_FindChar(object s, Py_UCS4 ch, Py_ssize_t start, Py_ssize_t end, int direction) except -2
    int PyUnicode_4BYTE_KIND

_unescape = _html.unescape
cdef dict _HTML5 = _html._html5  # html.unescape's own tables: the entity decoding below is its
cdef dict _INVALID_CHARREFS = _html._invalid_charrefs  # _replace_charref, without the regex and callbacks
cdef frozenset _INVALID_CODEPOINTS = frozenset(_html._invalid_codepoints)

cdef enum:
    F_SPECIAL = 1 << 0
    F_FORMATTING = 1 << 1
    F_VOID = 1 << 2
    F_SCOPE = 1 << 3
    F_CLOSES_P = 1 << 4
    F_HEADING = 1 << 5
    F_BREAKOUT = 1 << 6
    F_HEAD_OK = 1 << 7
    F_TABLE_STOP = 1 << 8
    F_SKIP = 1 << 9
    F_BLOCK = 1 << 10
    F_CELL = 1 << 11
    F_FOREIGN = 1 << 12
    F_BLOCK_END = 1 << 13
    F_BUTTON = 1 << 14
    F_LIST = 1 << 15
    F_LI_STOP = 1 << 16
    F_TR = 1 << 17
    F_TSECTION = 1 << 18
    F_DDDT = 1 << 19
    F_RAW = 1 << 20
    F_SELECT_KEEPS = 1 << 21
    F_CAPTION = 1 << 22
    F_NOSCRIPT = 1 << 23
    F_SELECT = 1 << 24
    F_PRE = 1 << 25
    F_TABLE = 1 << 26
    F_ROOT = 1 << 27
    F_LI = 1 << 28
    F_P = 1 << 29
    F_BR = 1 << 30

cdef dict _FLAGS = {}
cdef Py_ssize_t MAX_SEARCH = _py.MAX_SEARCH


def _flag(names, int bit):
    for name in names:
        _FLAGS[name] = _FLAGS.get(name, 0) | bit


_flag(N.SPECIAL, F_SPECIAL)
_flag(N.FORMATTING, F_FORMATTING)
_flag(N.VOID, F_VOID)
_flag(N.SCOPE, F_SCOPE)
_flag(N.CLOSES_P, F_CLOSES_P)
_flag(N.HEADINGS, F_HEADING)
_flag(N.BREAKOUT, F_BREAKOUT)
_flag(N.HEAD_OK, F_HEAD_OK)
_flag(N.TABLE_STOP, F_TABLE_STOP)
_flag(N.SKIP, F_SKIP)
_flag(N.BLOCK, F_BLOCK)
_flag(N.CELL, F_CELL)
_flag(N.FOREIGN, F_FOREIGN)
_flag(N.BLOCK_END, F_BLOCK_END)
_flag(("button",), F_BUTTON)
_flag(("ol", "ul"), F_LIST)
_flag(N.SPECIAL - {"address", "div", "p"}, F_LI_STOP)
_flag(("tr",), F_TR)
_flag(("tbody", "thead", "tfoot"), F_TSECTION)
_flag(("dd", "dt"), F_DDDT)
_flag(N.RAW_HIDDEN | N.RCDATA | N.RAW_SHOWN | {"plaintext"}, F_RAW)
_flag(("option", "optgroup", "select", "input", "keygen", "textarea", "script", "style", "template", "caption", "table",
       "tbody", "tfoot", "thead", "tr", "td", "th"), F_SELECT_KEEPS)
_flag(("caption",), F_CAPTION)
_flag(("noscript",), F_NOSCRIPT)
_flag(("select",), F_SELECT)
_flag(("pre",), F_PRE)
_flag(("table",), F_TABLE)
_flag(("html", "head", "body"), F_ROOT)
_flag(("li",), F_LI)
_flag(("p",), F_P)
_flag(("br", "hr"), F_BR)


cdef inline bint _ws(Py_UCS4 c) noexcept:  # the tokenizer's whitespace (CR already a newline there)
    return c == 9 or c == 10 or c == 12 or c == 13 or c == 32


cdef inline bint _alpha(Py_UCS4 c) noexcept:
    return (65 <= c <= 90) or (97 <= c <= 122)


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
    # open elements
    cdef list names
    cdef list flags
    cdef int skip, pre, foreign, select, noscript
    cdef bint in_head, keep_noscript
    cdef object title
    cdef Py_ssize_t ns_chars, body_chars
    # the last tag read
    cdef Py_ssize_t name_end
    cdef bint closing

    def __cinit__(self):
        self.buf = NULL

    def __dealloc__(self):
        free(self.buf)

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
        self.names, self.flags = [], []
        self.skip = self.pre = self.foreign = self.select = self.noscript = 0
        self.in_head, self.keep_noscript = True, keep_noscript
        self.title = None
        self.ns_chars = self.body_chars = 0
        return 0

    cdef inline Py_UCS4 at(self, Py_ssize_t i) noexcept:
        return PyUnicode_READ(self.kind, self.data, i)

    # ------------------------------------------------------------------ output (dom.tidy_lines inline)
    cdef inline int put(self, Py_UCS4 c) except -1:
        cdef Py_UCS4 *grown
        if self.len == self.cap:
            grown = <Py_UCS4 *> realloc(self.buf, (2 * self.cap + 64) * sizeof(Py_UCS4))
            if grown == NULL:
                raise MemoryError()
            self.buf = grown
            self.cap = 2 * self.cap + 64
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
        cdef bint amp = False
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
        if decode and PyUnicode_FindChar(self.s, u'&', i, j, 1) >= 0:
            return self.unescape(i, j)
        for k in range(i, j):
            self.text_char(self.at(k))
        return 0

    cdef int unescape(self, Py_ssize_t i, Py_ssize_t j) except -1:
        """``s[i:j]`` with character references decoded as ``html.unescape`` decodes them, to the output."""
        cdef Py_ssize_t k = i, e, x
        cdef Py_UCS4 c
        cdef unsigned long num
        cdef unsigned int d
        cdef bint hexa
        while k < j:
            c = self.at(k)
            if c != u'&' or k + 1 >= j:
                self.text_char(c)
                k += 1
                continue
            c = self.at(k + 1)
            if c == u'#':  # &#[0-9]+;? or &#[xX][0-9a-fA-F]+;?
                e = k + 2
                hexa = e < j and (self.at(e) == u'x' or self.at(e) == u'X')
                if hexa:
                    e += 1
                x, num = e, 0
                while e < j:
                    d = self.at(e)
                    if 48 <= d <= 57:
                        num = num * (16 if hexa else 10) + (d - 48)
                    elif hexa and (97 <= d <= 102 or 65 <= d <= 70):
                        num = num * 16 + (d - 87 if d >= 97 else d - 55)
                    else:
                        break
                    if num > 0x10FFFF:
                        num = 0x110000  # (stays out of range: every table key is smaller)
                    e += 1
                if e == x:  # no digits: the "&" is text
                    self.text_char(u'&')
                    k += 1
                    continue
                if e < j and self.at(e) == u';':
                    e += 1
                k = e
                if num in _INVALID_CHARREFS:
                    self.emit_str(_INVALID_CHARREFS[num])
                elif 0xD800 <= num <= 0xDFFF or num > 0x10FFFF:
                    self.text_char(0xFFFD)
                elif num not in _INVALID_CODEPOINTS:
                    self.text_char(<Py_UCS4> num)
                continue
            e = k + 1  # a name: up to 32 of [^\t\n\f <&#;], then an optional ";"
            while e < j and e - k - 1 < 32:
                c = self.at(e)
                if c == 9 or c == 10 or c == 12 or c == 32 or c == u'<' or c == u'&' or c == u'#' or c == u';':
                    break
                e += 1
            if e == k + 1:
                self.text_char(u'&')
                k += 1
                continue
            if e < j and self.at(e) == u';':
                e += 1
            name = self.s[k + 1:e]
            k = e
            value = _HTML5.get(name)
            if value is not None:
                self.emit_str(value)
                continue
            for x in range(len(name) - 1, 1, -1):
                value = _HTML5.get(name[:x])
                if value is not None:
                    self.emit_str(value)
                    self.emit_str(name[x:])
                    break
            else:
                self.text_char(u'&')
                self.emit_str(name)
        return 0

    cdef inline int newline(self) except -1:
        if self.skip == 0:
            self.tidy(10)
        return 0

    # ------------------------------------------------------------------ open elements
    cdef inline bint skips(self, int f) noexcept:
        return (f & F_SKIP) and not ((f & F_NOSCRIPT) and self.keep_noscript)

    cdef int push(self, str name, int f) except -1:
        self.names.append(name)
        self.flags.append(f)
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
        cdef int f = self.flags.pop()
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
            f = self.flags[k]
            if (f & targets) or (name is not None and self.names[k] == name):
                return k
            if f & stops:
                return -1
        return -1

    cdef bint special_above(self, Py_ssize_t k) except -1:
        cdef Py_ssize_t m
        for m in range(k + 1, len(self.names)):
            if <int> self.flags[m] & F_SPECIAL:
                return True
        return False

    cdef int adopt(self, str name) except -1:
        cdef Py_ssize_t k = self.find(0, name, F_SCOPE)
        if k < 0:
            return 0
        if self.special_above(k):
            del self.names[k]
            del self.flags[k]
        else:
            self.pop_to(k)
        return 0

    # ------------------------------------------------------------------ tokenizer
    cdef Py_ssize_t tag(self, Py_ssize_t j) except -2:
        """``scan._TAG`` from ``j`` (a letter): sets ``name_end`` and ``closing``; the index after ``>``, or -1
        when the page ends first."""
        cdef Py_ssize_t k = j, n = self.n, m
        cdef Py_UCS4 c, q
        while k < n:
            c = self.at(k)
            if _ws(c) or c == u'/' or c == u'>':
                break
            k += 1
        self.name_end = k
        while True:
            if k >= n:
                return -1
            c = self.at(k)
            if c == u'>':
                self.closing = k > self.name_end and self.at(k - 1) == u'/'
                return k + 1
            if _ws(c) or c == u'/':
                k += 1
                continue
            k += 1  # an attribute name
            while k < n:
                c = self.at(k)
                if _ws(c) or c == u'/' or c == u'=' or c == u'>':
                    break
                k += 1
            m = k
            while m < n and _ws(self.at(m)):
                m += 1
            if m < n and self.at(m) == u'=':
                m += 1
                while m < n and _ws(self.at(m)):
                    m += 1
                if m >= n:
                    return -1
                q = self.at(m)
                if q == u'"' or q == u"'":
                    m += 1
                    while m < n and self.at(m) != q:
                        m += 1
                    if m >= n:
                        return -1
                    k = m + 1
                else:
                    while m < n:
                        c = self.at(m)
                        if _ws(c) or c == u'>':
                            break
                        m += 1
                    k = m

    cdef bint closes(self, Py_ssize_t j, str name) except -1:
        cdef Py_ssize_t m = len(name), k = j + 2 + m, x
        if k >= self.n or self.at(j) != u'<' or self.at(j + 1) != u'/':
            return False
        for x in range(m):
            if _low(self.at(j + 2 + x)) != <Py_UCS4> name[x]:
                return False
        c = self.at(k)
        return _ws(c) or c == u'/' or c == u'>'

    cdef inline Py_ssize_t find_char(self, Py_UCS4 ch, Py_ssize_t i) except -2:
        if i >= self.n:
            return -1
        return PyUnicode_FindChar(self.s, ch, i, self.n, 1)

    cdef str name(self, Py_ssize_t i, Py_ssize_t j):
        """``scan.lower(s[i:j])`` (a slice, lower-cased only where it has capitals)."""
        cdef Py_ssize_t k
        cdef Py_UCS4 c
        cdef bint upper = False
        for k in range(i, j):
            c = self.at(k)
            if 65 <= c <= 90:
                upper = True
            elif c > 127:
                return _lower(self.s[i:j])
        return self.s[i:j].lower() if upper else self.s[i:j]

    cdef Py_ssize_t raw_end(self, Py_ssize_t i, str name) except -2:
        cdef Py_ssize_t j = i
        while True:
            j = self.find_char(u'<', j)
            if j < 0:
                return self.n
            if self.closes(j, name):
                return j
            j += 1

    cdef bint starts(self, Py_ssize_t j, str w) except -1:
        cdef Py_ssize_t x, m = len(w)
        if j + m > self.n:
            return False
        for x in range(m):
            if self.at(j + x) != <Py_UCS4> w[x]:
                return False
        return True

    cdef Py_ssize_t script_end(self, Py_ssize_t i) except -2:
        cdef Py_ssize_t end = self.raw_end(i, "script"), j, n = self.n, x
        cdef int state = 0, dashes = 0
        cdef bint esc = False
        cdef Py_UCS4 c
        for j in range(i, end):
            if self.at(j) == u'<' and self.starts(j, "<!--"):
                esc = True
                break
        if not esc:
            return end
        j = i
        while j < n:
            c = self.at(j)
            if state == 0:
                if c == u'<':
                    if self.closes(j, "script"):
                        return j
                    if self.starts(j, "<!--"):
                        state, dashes, j = 1, 2, j + 4
                        continue
                j += 1
                continue
            if c == u'-':
                dashes += 1
                j += 1
                continue
            if c == u'>' and dashes >= 2:
                state = dashes = 0
                j += 1
                continue
            dashes = 0
            if c == u'<':
                if state == 1:
                    if self.closes(j, "script"):
                        return j
                    if j + 7 < n and _low(self.at(j + 1)) == u's' and _low(self.at(j + 2)) == u'c' \
                            and _low(self.at(j + 3)) == u'r' and _low(self.at(j + 4)) == u'i' \
                            and _low(self.at(j + 5)) == u'p' and _low(self.at(j + 6)) == u't':
                        c = self.at(j + 7)
                        if _ws(c) or c == u'/' or c == u'>':
                            state, j = 2, j + 7
                            continue
                elif self.closes(j, "script"):
                    state, j = 1, j + 8
                    continue
            j += 1
        return n

    cdef Py_ssize_t comment_end(self, Py_ssize_t j) except -2:
        cdef Py_ssize_t n = self.n, k
        if j < n and self.at(j) == u'>':
            return j + 1
        if j + 1 < n and self.at(j) == u'-' and self.at(j + 1) == u'>':
            return j + 2
        k = j
        while k < n:
            if self.at(k) == u'-' and k + 2 < n and self.at(k + 1) == u'-':
                if self.at(k + 2) == u'>':
                    return k + 3
                if self.at(k + 2) == u'!' and k + 3 < n and self.at(k + 3) == u'>':
                    return k + 4
            k += 1
        return n

    # ------------------------------------------------------------------ tree rules
    cdef Py_ssize_t start(self, str name, bint closing, Py_ssize_t i) except -2:
        cdef int f = _FLAGS.get(name, 0)
        cdef Py_ssize_t k
        if self.foreign:
            if not f & F_BREAKOUT:
                if not closing:
                    self.push(name, f)
                return i
            while self.foreign:
                self.pop()
        if self.in_head and not f & F_HEAD_OK:
            self.in_head = False
        if f & F_ROOT:
            return i
        if f & F_NOSCRIPT and self.in_head:
            return i
        if self.select:
            if not f & F_SELECT_KEEPS:
                return i
            if f & F_SELECT or name == "input" or name == "keygen" or name == "textarea" \
                    or f & F_TABLE_STOP or f & (F_CELL | F_TR | F_TSECTION | F_CAPTION):
                self.pop_to(self.find(F_SELECT, None, 0))
                if f & F_SELECT:
                    return i
            elif name == "option" or name == "optgroup":
                if self.names[len(self.names) - 1] == "option" or (name == "optgroup" and self.names[len(self.names) - 1] == "optgroup"):
                    self.pop()
        if f & F_RAW:
            return self.raw(name, f, i)
        if f & F_CLOSES_P:
            k = self.find(F_P, None, F_SCOPE | F_BUTTON)
            if k >= 0:
                self.pop_to(k)
            if f & F_HEADING and self.flags and <int> self.flags[len(self.flags) - 1] & F_HEADING:
                self.pop()
        k = -2
        if f & F_LI:
            k = self.find(F_LI, None, F_LI_STOP)
        elif f & F_DDDT:
            k = self.find(F_DDDT, None, F_LI_STOP)
        elif f & F_CELL:
            k = self.find(F_CELL, None, F_TABLE_STOP | F_TR)
        elif f & F_TR:
            k = self.find(F_TR | F_CELL, None, F_TABLE_STOP | F_TSECTION)
        elif f & F_TSECTION:
            k = self.find(F_TSECTION | F_TR | F_CELL | F_CAPTION, None, F_TABLE_STOP)
        elif f & F_CAPTION:
            k = self.find(F_CAPTION | F_TR | F_CELL, None, F_TABLE_STOP)
        elif f & F_BUTTON:
            k = self.find(F_BUTTON, None, F_SCOPE)
        elif name == "a" or name == "nobr":
            self.adopt(name)
        if k >= 0:
            self.pop_to(k)
        if k != -2 and f & F_CELL and self.find(F_TR, None, F_TABLE_STOP) < 0 and self.find(F_TABLE, None, 0) >= 0:
            self.push("tr", _FLAGS["tr"])
        if f & F_VOID:
            if f & F_BR:
                self.newline()
            return i
        if closing and f & F_FOREIGN:
            return i
        self.push(name, f)
        return i

    cdef Py_ssize_t raw(self, str name, int f, Py_ssize_t i) except -2:
        cdef Py_ssize_t j, e
        if name == "plaintext":
            self.text(i, self.n, False)
            return self.n
        j = self.script_end(i) if name == "script" else self.raw_end(i, name)
        if name == "title":
            t = self.s[i:j]
            if "&" in t:
                t = _unescape(t)
            if self.title is None:
                self.title = t
            if not self.in_head:
                self.body_chars += len(t)
                if not self.skip:
                    self.emit_str(t)
                elif self.noscript:
                    self.ns_chars += len(t)
        elif name == "xmp" or name == "noembed" or (name == "noframes" and not self.in_head):
            self.text(i, j, False)
        elif name == "textarea":
            if not self.in_head:
                t = self.s[i:j]
                self.body_chars += len(_unescape(t) if "&" in t else t)
        elif not self.in_head:
            self.body_chars += j - i
        if j >= self.n:
            return self.n
        e = self.tag(j + 2)
        return self.n if e < 0 else e

    cdef int end(self, str name) except -1:
        cdef int f = _FLAGS.get(name, 0)
        cdef Py_ssize_t k
        if self.foreign:
            for k in range(len(self.names) - 1, max(<Py_ssize_t> len(self.names) - MAX_SEARCH, 0) - 1, -1):
                if self.names[k] == name:
                    self.pop_to(k)
                    return 0
                if <int> self.flags[k] & F_FOREIGN:
                    break
            if self.foreign:
                return 0
        if f & F_ROOT:
            return 0
        if name == "br":
            return self.newline()
        if self.select:
            if f & F_SELECT:
                self.pop_to(self.find(F_SELECT, None, 0))
            elif (name == "option" or name == "optgroup") and self.names[len(self.names) - 1] == name:
                self.pop()
            return 0
        if f & F_P:
            k = self.find(F_P, None, F_SCOPE | F_BUTTON)
            if k < 0:
                return self.newline()
        elif f & F_HEADING:
            k = self.find(F_HEADING, None, F_SCOPE)
        elif f & F_LI:
            k = self.find(F_LI, None, F_SCOPE | F_LIST)
        elif f & (F_CELL | F_TR | F_TSECTION | F_TABLE | F_CAPTION):
            k = self.find(0, name, F_TABLE_STOP)
        elif f & F_FORMATTING:
            return self.adopt(name)
        elif f & F_BLOCK_END:
            k = self.find(0, name, F_SCOPE)
        else:
            k = self.find(0, name, F_SPECIAL)
        if k >= 0:
            self.pop_to(k)
        return 0

    cdef int run(self) except -1:
        cdef Py_ssize_t i = 0, j, k, n = self.n
        cdef Py_UCS4 c, c2
        while i < n:
            j = self.find_char(u'<', i)
            if j < 0:
                self.text(i, n, True)
                break
            self.text(i, j, True)
            c = self.at(j + 1) if j + 1 < n else 0
            if _alpha(c):
                k = self.tag(j + 1)
                if k < 0:
                    break
                i = self.start(self.name(j + 1, self.name_end), self.closing, k)
            elif c == u'/':
                c2 = self.at(j + 2) if j + 2 < n else 0
                if _alpha(c2):
                    k = self.tag(j + 2)
                    if k < 0:
                        break
                    self.end(self.name(j + 2, self.name_end))
                    i = k
                elif c2 == u'>':
                    i = j + 3
                elif j + 2 >= n:
                    self.text(j, n, True)
                    break
                else:
                    k = self.find_char(u'>', j + 2)
                    i = n if k < 0 else k + 1
            elif c == u'!':
                if j + 3 < n and self.at(j + 2) == u'-' and self.at(j + 3) == u'-':
                    i = self.comment_end(j + 4)
                else:
                    k = self.find_char(u'>', j + 2)
                    i = n if k < 0 else k + 1
            elif c == u'?':
                k = self.find_char(u'>', j + 1)
                i = n if k < 0 else k + 1
            else:
                self.text(j, j + 1, True)
                i = j + 1
        title = self.title
        self.pop_to(0)
        self.end_line()
        return 0


def scan(str s, bint keep_noscript=False):
    """(tidied text, title, characters inside ``<noscript>`` in the body, characters in the body)."""
    cdef Scanner sc = Scanner()
    sc.setup(s, keep_noscript)
    sc.run()
    return PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, sc.buf, sc.len), sc.title, sc.ns_chars, sc.body_chars
