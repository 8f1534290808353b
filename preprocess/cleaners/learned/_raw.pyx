# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled twin of ``raw.tree.Reader`` (the learned cleaner's blocks read off the raw markup by HTML's tree
construction rules): the same ``blocks.Page``, title, names and hint-rule candidates, or :class:`GiveUp`.

It follows the Python reference rule for rule, with tag names as ids (``_raw_names.pxi``), the stacks as C
arrays and attributes as spans of the page, decoded only where a rule reads them (``_raw_attrs.pxi``). Where
the reference follows a rule this twin does not (more than 256 attributes on a tag, more than 16 forms left open)
it gives up too
("compiled: ..."): the page goes the tree's way. ``tests/test_learned_raw.py`` holds it to the reference on every
gold page and on random pages.
"""
from libc.stdlib cimport free, malloc, realloc
from libc.stdint cimport uint16_t, uint32_t
from libc.string cimport memchr, memcpy, memset

from preprocess.cleaners.learned.blocks import Page
from preprocess.cleaners.learned.raw.page import MAX_OPEN as _MAX_OPEN, verdict as _verdict
from preprocess.cleaners.learned.raw.tokens import (GiveUp, decode_text, decode_value, names_of as _names_of,
                                                    quirks as _quirks, serial_value)

include "_unicode.pxi"
include "_search.pxi"

cdef extern from "Python.h":
    object PyUnicode_New(Py_ssize_t size, Py_UCS4 maxchar)
    Py_UCS4 PyUnicode_MAX_CHAR_VALUE(object)
    void PyUnicode_WRITE(int kind, void *data, Py_ssize_t index, Py_UCS4 value)


cdef str fold_cr(str html):
    """``html`` with each "\\r\\n", then each "\\r", as "\\n" (HTML's newlines), in one pass."""
    cdef int kind = PyUnicode_KIND(html)
    cdef char *src = <char *> PyUnicode_DATA(html)
    cdef char *dst
    cdef Py_ssize_t n = len(html), k, pairs = 0, start = 0, w = 0
    k = find_char(kind, src, 0, n, u'\r')
    if k < 0:
        return html
    while k >= 0:
        pairs += k + 1 < n and PyUnicode_READ(kind, src, k + 1) == u'\n'
        k = find_char(kind, src, k + 1, n, u'\r')
    out = PyUnicode_New(n - pairs, PyUnicode_MAX_CHAR_VALUE(html))
    dst = <char *> PyUnicode_DATA(out)
    k = find_char(kind, src, 0, n, u'\r')
    while k >= 0:
        memcpy(dst + w * kind, src + start * kind, (k - start) * kind)
        w += k - start
        PyUnicode_WRITE(kind, dst, w, u'\n')
        w += 1
        start = k + 2 if k + 1 < n and PyUnicode_READ(kind, src, k + 1) == u'\n' else k + 1
        k = find_char(kind, src, start, n, u'\r')
    memcpy(dst + w * kind, src + start * kind, (n - start) * kind)
    return out


cdef struct El:
    int name
    Py_ssize_t e        # its page element (-1: none)
    bint noise          # inside (or being) a noise element or a dropped one
    bint root           # one itself
    bint cand           # a candidate of the hint rule
    long uid
    Py_ssize_t total    # the body's text characters before it
    long seq            # elements before it
    long links          # for an <a>: the page's link starts and ends so far
    int rec             # its opening in the reading's log (``_raw_replay.pxi``)
    int mode            # the insertion mode it puts the builder in: its own, or the one below it's (``mode``)

cdef struct Fmt:        # an entry of the list of active formatting elements
    bint marker
    long uid
    int name
    unsigned long long ahash   # its attributes (names and decoded values), order aside
    bint href
    int verdict          # the hint rule's: -1 no candidate, 0 a candidate, 1 an exempt one

cdef struct Ev:         # a page-side event of a reading (``_raw_replay.pxi``)
    int kind
    int name
    long uid
    int src             # EV_CLOSE: its opening; EV_CLONE, EV_LINK_END: the element(s) whose noise decides
    int obj             # EV_OPEN: its class/id values in ``objs``; EV_TEXT: the str (-1: the page)
    Py_ssize_t lo, hi   # EV_TEXT: the span; EV_OPEN: hi, the link's href; EV_LINK_END: hi, the other element

cdef struct Attr:
    Py_ssize_t n_lo, n_hi, v_lo, v_hi   # name and value (v_lo -1: none) in the page
    bint first                         # the first of its name (the one the tree keeps)

cdef enum:  # the insertion mode before <body> (``phase``)
    P_INITIAL, P_BEFORE_HTML, P_IN_HEAD, P_HEAD_NOSCRIPT, P_AFTER_HEAD, P_BODY

cdef enum:  # where a pushed element's attributes come from
    SRC_NONE, SRC_TAG, SRC_FMT

DEF MAX_ATTRS = 256  # (names compared pairwise: a bound)


cdef inline bint is_ws(Py_UCS4 c) noexcept:  # HTML's "\t\n\f " (the tokenizer's, after CR was folded)
    return c == 32 or c == 9 or c == 10 or c == 12


cdef inline bint is_alpha(Py_UCS4 c) noexcept:
    return 97 <= c <= 122 or 65 <= c <= 90


cdef struct TBuf:
    Py_UCS4 *d
    Py_ssize_t n, cap


cdef int reserve(TBuf *b, Py_ssize_t size) except -1:
    cdef Py_UCS4 *grown
    if size > b.cap:
        grown = <Py_UCS4 *> realloc(b.d, (size + b.cap + 256) * sizeof(Py_UCS4))
        if grown == NULL:
            raise MemoryError()
        b.d, b.cap = grown, size + b.cap + 256
    return 0


cdef inline int tpush(TBuf *b, Py_UCS4 c) except -1:
    cdef Py_UCS4 *grown
    if b.n == b.cap:
        grown = <Py_UCS4 *> realloc(b.d, (2 * b.cap + 256) * sizeof(Py_UCS4))
        if grown == NULL:
            raise MemoryError()
        b.d, b.cap = grown, 2 * b.cap + 256
    b.d[b.n] = c
    b.n += 1
    return 0


cdef class Reader:
    """One page read raw: ``Reader(html, max_depth, hints, drop).read()`` is the :class:`blocks.Page` the tree's
    way gives, or raises :class:`GiveUp`; then ``title``, ``named``, ``candidates``, ``total`` and
    ``noscript_chars`` as the reference's (``page.hint_drops`` decides over the candidates)."""

    cdef str s
    cdef int kind
    cdef void *data
    cdef Py_ssize_t n
    cdef int max_depth, phase, quirks
    cdef object hints, unlikely, maybe
    cdef unsigned char *dropped
    cdef long n_dropped
    cdef object page
    cdef list texts, link_chars, owner, start, el_tag, el_parent, el_depth, el_names, el_start, el_end
    cdef El *st
    cdef int depth
    cdef El *fo           # svg/math elements open (the first is also on the stack)
    cdef int nfo, fo_cap
    cdef Fmt *act
    cdef int nact, act_cap
    cdef Py_ssize_t *blocks
    cdef int nblocks
    cdef int noise, noscripts, template
    cdef dict body_attrs
    cdef long det_above[16]   # forms left open (``PageSide.detach``): the element above each, and the form
    cdef El det_form[16]
    cdef int ndet
    cdef long uid, seq, links, form
    cdef public Py_ssize_t total, noscript_chars, hidden_chars
    cdef Py_ssize_t chars, cur
    cdef bint in_a, skip_lf
    cdef TBuf buf
    cdef bint gap, lgap
    cdef Py_ssize_t llen
    cdef public dict candidates
    cdef public object title
    cdef public list named
    cdef dict unknown
    cdef list unknown_names
    cdef Attr attrs[MAX_ATTRS]
    cdef int nattrs
    cdef bint logging     # the page side's events logged, for a replay with the hint rule's drops
    cdef Ev *ev
    cdef int nev, ev_cap
    cdef list objs

    def __cinit__(self):
        self.st = <El *> malloc((_MAX_OPEN + 8) * sizeof(El))
        self.blocks = <Py_ssize_t *> malloc((_MAX_OPEN + 32) * sizeof(Py_ssize_t))  # (open ones, and forms
        # left open: push bounds them)
        self.fo = self.act = NULL
        self.ev = NULL
        self.dropped = NULL
        self.buf.d = NULL
        self.buf.n = self.buf.cap = 0
        if self.st == NULL or self.blocks == NULL:
            raise MemoryError()

    def __dealloc__(self):
        free(self.st)
        free(self.blocks)
        free(self.fo)
        free(self.act)
        free(self.dropped)
        free(self.buf.d)
        free(self.ev)

    def __init__(self, str html, int max_depth=400, hints=None, drop=frozenset()):
        cdef long u
        cdef int kind = PyUnicode_KIND(html)
        cdef void *data = PyUnicode_DATA(html)
        if find_char(kind, data, 0, len(html), 0) >= 0:  # (the decode step leaves NULs only where lexbor
            raise GiveUp("a NUL character")               # decodes the bytes itself)
        self.s = fold_cr(html)
        self.kind, self.data, self.n = PyUnicode_KIND(self.s), PyUnicode_DATA(self.s), len(self.s)
        self.max_depth, self.hints = max_depth, hints
        self.unlikely = hints.unlikely if hints is not None else None
        self.maybe = hints.maybe if hints is not None else None
        if hints is not None and (self.unlikely is not _rule[0] or self.maybe is not _rule[1]):
            _set_rule(self)  # (the rule's words in C, made once for every reading with this rule)
        self.n_dropped = max(drop) + 1 if drop else 0
        if self.n_dropped:
            self.dropped = <unsigned char *> malloc(self.n_dropped)
            memset(self.dropped, 0, self.n_dropped)
            for u in drop:
                self.dropped[u] = 1
        self.phase, self.quirks = P_INITIAL, 1
        self.page = Page()
        p = self.page
        self.texts, self.link_chars, self.owner, self.start = p.texts, p.link_chars, p.owner, p.start
        self.el_tag, self.el_parent, self.el_depth, self.el_names = p.el_tag, p.el_parent, p.el_depth, p.el_names
        self.el_start, self.el_end = p.el_start, p.el_end
        self.depth = self.nfo = self.fo_cap = self.nact = self.act_cap = self.nblocks = 0
        self.noise = self.noscripts = self.template = self.ndet = 0
        self.body_attrs = {}
        self.uid = self.seq = self.links = 0
        self.form = -1
        self.total = self.noscript_chars = self.hidden_chars = self.chars = 0
        self.cur = -1
        self.in_a = self.skip_lf = self.gap = self.lgap = False
        self.llen = 0
        self.candidates, self.title, self.named = {}, None, []
        self.unknown, self.unknown_names = {}, []
        self.nattrs = 0
        self.logging = hints is not None and not drop
        self.nev = self.ev_cap = 0
        self.objs = []

    def read(self):
        tokens(self)
        if self.phase != P_BODY:
            start_body(self, SRC_NONE)
        if self.nfo or self.template:
            raise GiveUp("ends inside svg/math or a template")
        return finish(self)

    def replay(self, drop):
        """The page a second reading dropping the elements ``drop`` (uids) gives (``_raw_replay.pxi``)."""
        return replay(self, drop)


include "_raw_names.pxi"
include "_raw_refs.pxi"
include "_raw_attrs.pxi"
include "_raw_page.pxi"
include "_raw_tokens.pxi"
include "_raw_hints.pxi"
include "_raw_stack.pxi"
include "_raw_tree.pxi"
include "_raw_head.pxi"
include "_raw_adoption.pxi"
include "_raw_modes.pxi"
include "_raw_tables.pxi"
include "_raw_replay.pxi"


def fold_newlines(str s):
    """``fold_cr`` (for tests: ``s.replace("\\r\\n", "\\n").replace("\\r", "\\n")``)."""
    return fold_cr(s)
