# The class/id hint rule on a tag's attributes (included by _raw.pyx; filters/hints.py's rule, as
# raw/page.py's new_el applies it): a verdict per element, in C where the values allow.

import re as _re

# The hint rule's words in C, so that a class/id value needs no str unless it holds a reference (or, for the
# exemption, a non-ASCII character): a word set sorted by first letter, ``first[c]`` the index of the first word
# starting with ``c`` and ``nfirst[c]`` how many; ``n`` -1 when the words are not plain lower-case ASCII.
cdef struct Words:
    unsigned char w[64][32]
    int len[64]
    int first[128]
    int nfirst[128]
    unsigned char pair[128][16]   # bit set: some word starts with these two letters (a one-letter word: any)
    int n

cdef Words _unlikely, _maybe
cdef tuple _rule = (None, None)   # the (unlikely, maybe) the sets were made from (``Reader.__init__``)


cdef _set_words(Words *ws, words):
    cdef int i, k, c
    ws.n = -1
    if words is None or len(words) > 64 or any(not w or len(w) > 31 or not w.isascii() or w != w.lower()
                                               for w in words):
        return
    for c in range(128):
        ws.first[c] = ws.nfirst[c] = 0
        for k in range(16):
            ws.pair[c][k] = 0
    for i, w in enumerate(sorted(words)):
        b = w.encode("ascii")
        for k in range(len(b)):
            ws.w[i][k] = b[k]
        ws.len[i] = len(b)
        for c in (range(128) if len(b) == 1 else (b[1],)):
            ws.pair[b[0]][c >> 3] |= 1 << (c & 7)
        if not ws.nfirst[b[0]]:
            ws.first[b[0]] = i
        ws.nfirst[b[0]] += 1
    ws.n = len(words)


cdef _set_rule(Reader r):
    """The word sets of the rule: ``unlikely`` (words) and ``maybe`` (a regex: only a case-insensitive
    alternation of plain words is read here; any other pattern leaves the exemption to it)."""
    global _rule
    _rule = (r.unlikely, r.maybe)
    _set_words(&_unlikely, tuple(r.unlikely))
    pattern, flags = getattr(r.maybe, "pattern", None), getattr(r.maybe, "flags", 0)
    words = pattern.split("|") if isinstance(pattern, str) and flags & _re.IGNORECASE else None
    _set_words(&_maybe, tuple(w.lower() for w in words) if words and all(w.isalpha() for w in words) else None)


cdef bint holds(Words *ws, Reader r, Py_ssize_t lo, Py_ssize_t hi) noexcept:
    """Does ``s[lo:hi]`` hold one of the words, ASCII case aside (``_has_word``)?"""
    cdef Py_ssize_t i, k
    cdef int w, m
    cdef Py_UCS4 c
    cdef unsigned int c2
    for i in range(lo, hi):
        c = lower(PyUnicode_READ(r.kind, r.data, i))
        if c >= 128 or not ws.nfirst[c]:
            continue
        c2 = <unsigned int> lower(PyUnicode_READ(r.kind, r.data, i + 1)) if i + 1 < hi else 0
        if c2 >= 128:
            c2 = 0  # (no word goes on with it: only a word of one letter can match here)
        if not ws.pair[c][c2 >> 3] & (1 << (c2 & 7)):
            continue  # (no word starts with these two letters; a word of one letter sets every pair)
        for w in range(ws.first[c], ws.first[c] + ws.nfirst[c]):
            m = ws.len[w]
            if i + m > hi:
                continue
            k = 1
            while k < m and lower(PyUnicode_READ(r.kind, r.data, i + k)) == ws.w[w][k]:
                k += 1
            if k == m:
                return True
    return False


cdef int verdict_c(Reader r, int ci, int ii) except -3:
    """The verdict read off the spans, or -2 where Python must decide (a reference in a value, a rule not in
    plain words, or an exemption to test on non-ASCII text)."""
    cdef int i, v = -1
    cdef Py_ssize_t k
    if _unlikely.n < 0:
        return -2
    for i in (ci, ii):
        if i >= 0 and r.attrs[i].v_lo >= 0:
            if has_char(r, r.attrs[i].v_lo, r.attrs[i].v_hi, u'&'):
                return -2
            if holds(&_unlikely, r, r.attrs[i].v_lo, r.attrs[i].v_hi):
                v = 0
    if v < 0:
        return -1
    if _maybe.n < 0:
        return -2
    for i in (ci, ii):
        if i >= 0 and r.attrs[i].v_lo >= 0:
            for k in range(r.attrs[i].v_lo, r.attrs[i].v_hi):
                if PyUnicode_READ(r.kind, r.data, k) >= 128:
                    return -2
            if holds(&_maybe, r, r.attrs[i].v_lo, r.attrs[i].v_hi):
                return 1
    return 0


cdef int verdict_tag(Reader r) except -2:
    """The hint rule on the tag's class and id: -1 no candidate, 0 a candidate, 1 an exempt one."""
    cdef int ci = find_attr(r, b"class", 5), ii = find_attr(r, b"id", 2), v
    if ci < 0 and ii < 0:
        return -1
    v = verdict_c(r, ci, ii)
    if v != -2:
        return v
    got = _verdict(value(r, ci) if ci >= 0 else None, value(r, ii) if ii >= 0 else None, r.hints)
    return -1 if got is None else int(got)
