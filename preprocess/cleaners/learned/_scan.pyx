# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled twin of ``blocks.split_python`` (after ``blocks.body_markup``): one pass over lexbor's ``<body>``.

``scan`` reads the serialisation character by character with exactly the rules
of ``blocks._SPLIT`` (a block-level tag or ``<a>``: ``<``, optional ``/``, a
listed name followed by a space or ``>``, then anything up to the next ``>``)
and of ``dom.fragment_text`` (``<[^>]*>`` removed, entities decoded by
``html.unescape``, whitespace runs to one space), and skips noise elements and
comments itself (``_noise.pxi``); block texts: ``_blocktext.pxi``; searches: ``_search.pxi``. It returns
the lists that make up a ``blocks.Page``; ``tests/test_learned_compiled.py`` checks both paths give
equal pages on gold pages, cut pages and random nestings.
"""
from libc.stdlib cimport free, malloc, realloc
from libc.stdint cimport uint16_t, uint32_t
from libc.string cimport memchr

import html as _html
import re as _re

import numpy as np

include "_unicode.pxi"

include "_blocktext.pxi"

include "_search.pxi"


# block-level tag names packed 6 bits a character (a-z 1-26, 0-9 27-36) -> tag index ("a" -> -1)
cdef unsigned long long _keys[64]
cdef int _values[64]
cdef bint _void[64]
cdef int _n_keys = 0


def set_tags(dict tags, frozenset void_tags):
    """``tags``: block-level tag name -> index, ``"a"`` -> -1; ``void_tags``: the indices of the void ones."""
    global _n_keys
    cdef bytes b
    if len(tags) > 64 or max(tags.values()) >= 64:
        raise ValueError("at most 64 tags")
    _n_keys = 0
    for name, index in tags.items():
        b = name.encode("ascii")
        _keys[_n_keys] = _key(b, len(b))
        _values[_n_keys] = index
        _n_keys += 1
    for i in range(64):
        _void[i] = i in void_tags


cdef unsigned long long _key(const unsigned char *name, Py_ssize_t n):
    cdef unsigned long long k = 0
    cdef Py_ssize_t i
    for i in range(n):
        k = k << 6 | name_code(name[i], False)
    return k


cdef inline unsigned long long _name_key(int kind, void *data, Py_ssize_t lo, Py_ssize_t hi) noexcept:
    """A name's ``_key`` (a-z0-9, up to 10 characters); 0 for any other name."""
    return name_key(kind, data, lo, hi, False)


cdef int _lookup(int kind, void *data, Py_ssize_t lo, Py_ssize_t hi):
    """The tag index of the name ``markup[lo:hi]``; -2 when it is not a listed one."""
    cdef unsigned long long k = _name_key(kind, data, lo, hi)
    cdef Py_ssize_t i
    if not k:
        return -2
    for i in range(_n_keys):
        if _keys[i] == k:
            return _values[i]
    return -2


include "_noise.pxi"
include "_hints.pxi"


def scan(str markup, int max_depth=400, bint skip=True, list drop_starts=None, list drop_ends=None):
    """(texts, link_chars, owner, start, el_tag, el_parent, el_depth, el_names, el_start, el_end, chars) of
    lexbor's ``<body>`` serialisation: the Page fields ``blocks.split_python`` finds after ``blocks.body_markup``
    (noise elements and comments skipped here), for the tags of :func:`set_tags` and :func:`set_noise`.
    None when a noise element's end or a ``<plaintext>`` is ambiguous here (:func:`skip_noise`): scan
    ``body_markup``'s output instead, with ``skip=False`` (nothing skipped: ``split_python``'s twin).
    ``drop_starts``/``drop_ends``: character ranges skipped as if their elements were not in the tree
    (:func:`hint_ranges`)."""
    cdef int kind = PyUnicode_KIND(markup)
    cdef void *data = PyUnicode_DATA(markup)
    cdef Py_ssize_t n = len(markup), i = 0, j, k, name_end, gt
    cdef Py_UCS4 c
    cdef bint slash, in_a = False
    cdef Py_ssize_t cur = -1, chars = 0, e, deep = 0, top = 0, s, tag_end = -1
    cdef int tag, noise
    cdef Buf raw, link
    cdef list texts = [], link_chars = [], owner = [], start = []
    cdef list el_tag = [], el_parent = [], el_depth = [], el_names = [], el_start = [], el_end = []
    cdef Py_ssize_t r = 0, n_drop = len(drop_starts) if drop_starts else 0
    cdef Py_ssize_t[:] drop_start = np.asarray(drop_starts or [0], dtype=np.intp)
    cdef Py_ssize_t[:] drop_end = np.asarray(drop_ends or [0], dtype=np.intp)
    if not _n_keys:
        raise RuntimeError("_scan.set_tags was never called (import preprocess.cleaners.learned.blocks)")
    if max_depth < 0 or n_drop and (len(drop_ends) != n_drop or any(
            not (0 <= drop_start[r] < drop_end[r] <= n and (r == 0 or drop_end[r - 1] <= drop_start[r]))
            for r in range(n_drop))):
        raise ValueError("max_depth < 0, or drop ranges that are not disjoint, sorted and inside the markup")
    r = 0
    cdef Py_ssize_t *stack_el = <Py_ssize_t *> malloc((max_depth + 1) * sizeof(Py_ssize_t))
    cdef int *stack_tag = <int *> malloc((max_depth + 1) * sizeof(int))
    if stack_el == NULL or stack_tag == NULL:
        free(stack_el)
        free(stack_tag)
        raise MemoryError()
    raw.data = link.data = NULL
    raw.n = raw.cap = link.n = link.cap = 0
    try:
        while i < n:
            c = PyUnicode_READ(kind, data, i)
            if c != u'<':  # text up to the next "<"
                k = find_char(kind, data, i, n, u'<')
                if k < 0:
                    k = n
                push_run(&raw, kind, data, i, k)
                if in_a:
                    push_run(&link, kind, data, i, k)
                i = k
                continue
            while r < n_drop and drop_start[r] < i:  # (passed inside a noise element)
                r += 1
            if r < n_drop and drop_start[r] == i:
                i = drop_end[r]
                r += 1
                continue
            j = i + 1
            slash = j < n and PyUnicode_READ(kind, data, j) == u'/'
            if slash:
                j += 1
            k = j
            while k < n and k - j <= 10:
                c = PyUnicode_READ(kind, data, k)
                if c == u' ' or c == u'>':
                    break
                k += 1
            name_end = k
            if skip and not slash and at(kind, data, i, n, "<!--"):  # a comment: out, like blocks._COMMENT
                if i <= tag_end:  # "<!--" in a tag's name: where the regex's match ends is the tree's call
                    return None
                k = find(kind, data, i + 4, n, "-->")
                if k >= 0:
                    i = k + 3
                    continue
            if skip and not slash and name_end < n and _n_noise and i > tag_end:
                if at(kind, data, j, n, "plaintext"):  # the rest is text written as is: the tree decides
                    return None
                noise = _noise_kind(kind, data, j, name_end)
                if noise:
                    gt = find(kind, data, name_end, n, ">")
                    if gt >= 0:
                        i = skip_noise(kind, data, n, gt, noise, _slice(kind, data, j, name_end))
                        if i < 0:
                            return None
                        continue
            tag = _lookup(kind, data, j, name_end) if name_end < n else -2
            gt = name_end
            if tag != -2:
                gt = find_char(kind, data, gt, n, u'>')
                if gt < 0:
                    gt, tag = n, -2
            if tag == -2:  # not a split point: text (inline tags go with it)
                if i > tag_end:  # a "<" inside it is part of its name: no noise element starts there
                    tag_end = find(kind, data, i + 1, n, ">")
                    if tag_end < 0:
                        tag_end = n
                    elif find_char(kind, data, i + 1, tag_end, u'<') < 0:
                        # nothing in it stops the text: fragment_text cuts "<...>" whole, so "<>" does
                        push(&raw, u'<')
                        push(&raw, u'>')
                        if in_a:
                            push(&link, u'<')
                            push(&link, u'>')
                        i = tag_end + 1
                        continue
                push(&raw, u'<')
                if in_a:
                    push(&link, u'<')
                i += 1
                continue
            i = gt + 1
            if tag == -1:  # <a>: a link when it has an href
                in_a = not slash and contains(kind, data, name_end, gt, "href=")
                continue
            if raw.n:
                chars = add_block(&raw, &link, texts, link_chars, owner, start, cur, chars)
            if slash:
                if deep:
                    deep -= 1
                    continue
                s = top - 1
                while s >= 0 and stack_tag[s] != tag:
                    s -= 1
                if s >= 0:  # close it and whatever is still open inside it (never in lexbor's output)
                    while top > s:
                        top -= 1
                        el_end[stack_el[top]] = chars
                    cur = stack_el[top - 1] if top else -1
            elif not _void[tag]:
                if top >= max_depth:
                    deep += 1
                else:
                    e = len(el_tag)
                    el_tag.append(tag)
                    el_parent.append(cur)
                    el_depth.append(top)
                    el_names.append(class_id(kind, data, name_end, gt) if contains(kind, data, name_end, gt, "=")
                                    else "")
                    el_start.append(chars)
                    el_end.append(-1)
                    stack_el[top] = e
                    stack_tag[top] = tag
                    top += 1
                    cur = e
        if raw.n:
            chars = add_block(&raw, &link, texts, link_chars, owner, start, cur, chars)
        for s in range(top):
            el_end[stack_el[s]] = chars
    finally:
        free(raw.data)
        free(link.data)
        free(stack_el)
        free(stack_tag)
    return texts, link_chars, owner, start, el_tag, el_parent, el_depth, el_names, el_start, el_end, chars
