# Included by _scan.pyx: a block's text, gathered in a UCS4 buffer and written as ``dom.fragment_text`` writes it.

_unescape = _html.unescape


cdef struct Buf:
    Py_UCS4 *data
    Py_ssize_t n
    Py_ssize_t cap


cdef inline int push(Buf *b, Py_UCS4 c) except -1:
    cdef Py_UCS4 *grown
    if b.n == b.cap:
        grown = <Py_UCS4 *> realloc(b.data, (2 * b.cap + 64) * sizeof(Py_UCS4))
        if grown == NULL:
            raise MemoryError()
        b.data = grown
        b.cap = 2 * b.cap + 64
    b.data[b.n] = c
    b.n += 1
    return 0


cdef object fragment_text(Buf *raw):
    """``dom.fragment_text`` of the characters in ``raw``, which it reuses as scratch space."""
    cdef Py_ssize_t r = 0, w = 0, j, n = raw.n
    cdef Py_UCS4 *d = raw.data
    cdef Py_UCS4 c
    cdef bint amp = False, gap = False
    while r < n:  # <[^>]*> out, in place
        c = d[r]
        if c == u'<':
            j = r + 1
            while j < n and d[j] != u'>':
                j += 1
            if j < n:
                r = j + 1
                continue
            while r < n:  # no ">" after this "<": the rest is text
                if d[r] == u'&':
                    amp = True
                d[w] = d[r]
                w += 1
                r += 1
            break
        if c == u'&':
            amp = True
        d[w] = c
        w += 1
        r += 1
    if amp:
        n = _decode_entities(d, w)
        if n < 0:  # an entity lexbor does not write in text: html.unescape's rules
            s = _unescape(PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, d, w))
            return " ".join(s.split())
        w = n
    n, r, w = w, 0, 0
    while r < n:  # whitespace runs to one space, ends stripped (str.split's notion of whitespace)
        c = d[r]
        r += 1
        if Py_UNICODE_ISSPACE(c):
            gap = w > 0
            continue
        if gap:
            d[w] = u' '
            w += 1
            gap = False
        d[w] = c
        w += 1
    return PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, d, w)


cdef Py_ssize_t _decode_entities(Py_UCS4 *d, Py_ssize_t n) noexcept:
    """``html.unescape`` of ``d[:n]`` in place when every "&" starts one of the entities lexbor's serialiser
    writes ("&amp;", "&lt;", "&gt;", "&quot;", "&nbsp;": each what unescape makes of it); the new length, or -1
    (``d`` unchanged) for any other "&"."""
    cdef Py_ssize_t r, w = 0, m
    cdef Py_UCS4 c
    for r in range(n):  # check first, so a text left to html.unescape is untouched
        if d[r] == u'&' and _entity(d, r, n, &c) == 0:
            return -1
    r = 0
    while r < n:
        c = d[r]
        if c == u'&':
            m = _entity(d, r, n, &c)
            r += m
        else:
            r += 1
        d[w] = c
        w += 1
    return w


cdef inline Py_ssize_t _entity(const Py_UCS4 *d, Py_ssize_t r, Py_ssize_t n, Py_UCS4 *out) noexcept:
    """Length of the entity at ``d[r]`` ("&") with its character in ``out``; 0 when it is none of the five."""
    if _ascii_at(d, r + 1, n, b"amp;"):
        out[0] = u'&'
        return 5
    if _ascii_at(d, r + 1, n, b"lt;"):
        out[0] = u'<'
        return 4
    if _ascii_at(d, r + 1, n, b"gt;"):
        out[0] = u'>'
        return 4
    if _ascii_at(d, r + 1, n, b"quot;"):
        out[0] = u'"'
        return 6
    if _ascii_at(d, r + 1, n, b"nbsp;"):
        out[0] = 0xa0
        return 6
    return 0


cdef inline bint _ascii_at(const Py_UCS4 *d, Py_ssize_t i, Py_ssize_t n, const char *word) noexcept:
    cdef Py_ssize_t k = 0
    while word[k]:
        if i + k >= n or d[i + k] != <Py_UCS4> <unsigned char> word[k]:
            return False
        k += 1
    return True


cdef Py_ssize_t add_block(Buf *raw, Buf *link, list texts, list link_chars, list owner, list start,
                          Py_ssize_t cur, Py_ssize_t chars) except -1:
    """``blocks._add_block``: the text in ``raw`` (its linked part in ``link``) as a block of ``cur``, unless it is
    only markup or space; both buffers emptied. Returns the page's characters so far."""
    t = fragment_text(raw)
    if t:
        texts.append(t)
        link_chars.append(len(fragment_text(link)) if link.n else 0)
        owner.append(cur)
        start.append(chars)
        chars += len(t)
    raw.n = link.n = 0
    return chars


cdef int push_run(Buf *b, int kind, void *data, Py_ssize_t lo, Py_ssize_t hi) except -1:
    """Append ``markup[lo:hi]``."""
    cdef Py_UCS4 *grown
    cdef Py_ssize_t i, need = b.n + hi - lo
    if need > b.cap:
        grown = <Py_UCS4 *> realloc(b.data, (2 * need + 64) * sizeof(Py_UCS4))
        if grown == NULL:
            raise MemoryError()
        b.data = grown
        b.cap = 2 * need + 64
    for i in range(lo, hi):
        b.data[b.n] = PyUnicode_READ(kind, data, i)
        b.n += 1
    return 0
