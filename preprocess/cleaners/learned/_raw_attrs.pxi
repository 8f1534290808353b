# A tag's attributes as spans of the page (included by _raw.pyx): the tokenizer's reading of them
# (``tokens.Tokenizer.attributes``), and what the rules read off them, decoded only then: class/id values as
# lexbor writes them (``tokens.names_of``), a link's href, the hint rule's verdict, a formatting element's
# attributes (as a hash: the list of active formatting elements compares them), a meta's as a dict.

import re as _re

LD_JSON = "application/ld+json"


cdef inline Py_UCS4 ch(Reader r, Py_ssize_t i) noexcept:
    return PyUnicode_READ(r.kind, r.data, i) if i < r.n else 0


cdef inline Py_UCS4 lower(Py_UCS4 c) noexcept:
    return <Py_UCS4> (<unsigned int> c + 32) if 65 <= c <= 90 else c


cdef Py_ssize_t attributes(Reader r, Py_ssize_t p, bint *closing, bint store) except -2:
    """Where the tag whose attributes start at ``p`` ends (``closing``: self-closing); its attributes to
    ``r.attrs`` when ``store``."""
    cdef Py_ssize_t q, t, k, name_lo, name_hi, v_lo, v_hi, end, n = r.n
    cdef Py_UCS4 c, quote
    cdef int i
    if store:
        r.nattrs = 0
    while True:
        q = p
        while q < n and (is_ws(ch(r, q)) or ch(r, q) == u'/'):
            q += 1
        if q < n and ch(r, q) == u'>':
            closing[0] = q - 1 >= p and ch(r, q - 1) == u'/'
            return q + 1
        if q >= n:
            raise GiveUp("a tag to the end")
        name_lo = q
        q += 1
        while q < n:
            c = ch(r, q)
            if is_ws(c) or c == u'/' or c == u'>' or c == u'=':
                break
            q += 1
        name_hi = q
        v_lo = v_hi = -1
        t = q
        while t < n and is_ws(ch(r, t)):
            t += 1
        end = q
        if t < n and ch(r, t) == u'=':
            t += 1
            while t < n and is_ws(ch(r, t)):
                t += 1
            quote = ch(r, t) if t < n else 0
            k = find_char(r.kind, r.data, t + 1, n, quote) if quote == u'"' or quote == u"'" else -1
            if k >= 0:
                v_lo, v_hi, end = t + 1, k, k + 1
            else:
                v_lo = t
                while t < n and not is_ws(ch(r, t)) and ch(r, t) != u'>':
                    t += 1
                v_hi = end = t
                if v_hi > v_lo and (quote == u'"' or quote == u"'"):
                    raise GiveUp("an attribute value's quote not closed")
        if end == p or end >= n:
            raise GiveUp("a tag to the end")
        for k in range(name_lo, name_hi - 1):
            if ch(r, k) == u'<' and ch(r, k + 1) == u'!':
                raise GiveUp("an attribute name holding <!")
        if store:
            if r.nattrs >= MAX_ATTRS:
                raise GiveUp(f"compiled: more than {MAX_ATTRS} attributes on a tag")
            i = r.nattrs
            r.attrs[i].n_lo, r.attrs[i].n_hi, r.attrs[i].v_lo, r.attrs[i].v_hi = name_lo, name_hi, v_lo, v_hi
            r.attrs[i].first = True
            for k in range(i):
                if r.attrs[k].first and same_name(r, k, name_lo, name_hi):
                    r.attrs[i].first = False
                    break
            r.nattrs += 1
        p = end


cdef bint same_name(Reader r, int i, Py_ssize_t lo, Py_ssize_t hi) noexcept:
    cdef Py_ssize_t k, m = r.attrs[i].n_hi - r.attrs[i].n_lo
    if hi - lo != m:
        return False
    for k in range(m):
        if lower(ch(r, r.attrs[i].n_lo + k)) != lower(ch(r, lo + k)):
            return False
    return True


cdef bint name_ends(Reader r, int i, const char *word, Py_ssize_t m, bint whole) noexcept:
    """Does attribute ``i``'s name (lower-cased) end with ``word`` (``m`` letters), or equal it (``whole``)?"""
    cdef Py_ssize_t lo = r.attrs[i].n_lo, hi = r.attrs[i].n_hi, k
    if hi - lo < m or whole and hi - lo != m:
        return False
    for k in range(m):
        if lower(ch(r, hi - m + k)) != <Py_UCS4> <unsigned char> word[k]:
            return False
    return True


cdef int find_attr(Reader r, const char *word, Py_ssize_t m) noexcept:
    cdef int i
    for i in range(r.nattrs):
        if r.attrs[i].first and name_ends(r, i, word, m, True):
            return i
    return -1


cdef bint has_char(Reader r, Py_ssize_t lo, Py_ssize_t hi, Py_UCS4 c) noexcept:
    return lo < hi and find_char(r.kind, r.data, lo, hi, c) >= 0


cdef str value(Reader r, int i):
    """Attribute ``i``'s value, decoded ("" when it has none)."""
    cdef Py_ssize_t lo = r.attrs[i].v_lo, hi = r.attrs[i].v_hi
    if lo < 0:
        return ""
    if not has_char(r, lo, hi, u'&'):
        return _slice(r.kind, r.data, lo, hi)
    v = decode_fast(r.kind, r.data, lo, hi)
    return v if v is not None else decode_value(_slice(r.kind, r.data, lo, hi))


cdef object value_of(Reader r, const char *word, Py_ssize_t m):
    cdef int i = find_attr(r, word, m)
    return None if i < 0 else value(r, i)


cdef str names_tag(Reader r):
    """``tokens.names_of`` of the tag's attributes: the values of those named ``class`` or ``id`` after no word
    character (``_CLASS_ID``'s ``\\b``), as lexbor writes them."""
    cdef int i
    cdef Py_ssize_t lo, hi
    cdef list found = None
    for i in range(r.nattrs):  # (a name holding '"' or a value ending in "=": the regex may match across them)
        lo, hi = r.attrs[i].v_lo, r.attrs[i].v_hi
        if has_char(r, r.attrs[i].n_lo, r.attrs[i].n_hi, u'"') or hi > lo and ch(r, hi - 1) == u'=' \
                or has_char(r, lo, hi, u'&') and value(r, i).endswith("="):
            return _names_of(attrs_dict(r))
    for i in range(r.nattrs):
        if not r.attrs[i].first:
            continue
        lo, hi = r.attrs[i].n_lo, r.attrs[i].n_hi
        if not ((name_ends(r, i, b"class", 5, False) and (hi - lo == 5 or not _word_char(lower(ch(r, hi - 6)))))
                or (name_ends(r, i, b"id", 2, False) and (hi - lo == 2 or not _word_char(lower(ch(r, hi - 3)))))):
            continue
        if found is None:
            found = []
        found.append(serial_span(r, i))
    return " ".join(found) if found is not None else ""


cdef str serial_span(Reader r, int i):
    """``serial_value`` of attribute ``i``'s value: the span itself where it holds nothing to decode or escape."""
    cdef Py_ssize_t k, lo = r.attrs[i].v_lo, hi = r.attrs[i].v_hi
    cdef Py_UCS4 c
    if lo < 0:
        return ""
    for k in range(lo, hi):
        c = PyUnicode_READ(r.kind, r.data, k)
        if c == u'&' or c == u'"' or c == u'<' or c == u'>' or c == 0xA0:
            return serial_value(value(r, i))
    return _slice(r.kind, r.data, lo, hi)


cdef bint href_tag(Reader r) except -1:
    """``"href=" in serial_attrs(attrs)``: a name ending in "href", or a value holding "href="."""
    cdef int i
    for i in range(r.nattrs):
        if r.attrs[i].first and name_ends(r, i, b"href", 4, False):
            return True
    for i in range(r.nattrs):
        if r.attrs[i].first and r.attrs[i].v_lo >= 0 and \
                find(r.kind, r.data, r.attrs[i].v_lo, r.attrs[i].v_hi, "href") >= 0 and "href=" in value(r, i):
            return True
    return False


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
cdef object _rule = None   # the (unlikely, maybe) the sets were made from


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
    if (r.unlikely, r.maybe) != _rule:
        _set_rule(r)
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


cdef dict _verdicts = {}
cdef tuple _verdict_rule = ()


cdef bint _has_word(str value, tuple words):
    cdef str low = value.lower() if value.isascii() else "".join(
        chr(ord(c) + 32) if "A" <= c <= "Z" else c for c in value)
    for w in words:
        if w in low:
            return True
    return False


cdef int verdict_tag(Reader r) except -2:
    """The hint rule on the tag's class and id: -1 no candidate, 0 a candidate, 1 an exempt one."""
    global _verdict_rule
    cdef int ci = find_attr(r, b"class", 5), ii = find_attr(r, b"id", 2), v
    if ci < 0 and ii < 0:
        return -1
    v = verdict_c(r, ci, ii)
    if v != -2:
        return v
    cls = value(r, ci) if ci >= 0 else None
    ident = value(r, ii) if ii >= 0 else None
    if len(_verdict_rule) != 2 or r.unlikely is not _verdict_rule[0] or r.maybe is not _verdict_rule[1] \
            or len(_verdicts) > 50_000:
        _verdicts.clear()
        _verdict_rule = (r.unlikely, r.maybe)
    key = (cls, ident)
    v = _verdicts.get(key, 2)
    if v == 2:
        v = -1
        if (cls and _has_word(cls, r.unlikely)) or (ident and _has_word(ident, r.unlikely)):
            v = 1 if r.maybe.search(f"{cls or ''} {ident or ''}") else 0
        _verdicts[key] = v
    return v


cdef inline unsigned long long _mix(unsigned long long h) noexcept:
    h ^= h >> 31
    h *= 0x7FB5D329728EA185ULL
    h ^= h >> 27
    h *= 0x81DADEF4BC2DD44DULL
    return h ^ (h >> 33)


cdef unsigned long long ahash_tag(Reader r) except? 0:
    """The tag's attributes (first of each name, values decoded) as one hash, whatever their order."""
    cdef unsigned long long total = <unsigned long long> r.nattrs, h
    cdef int i, kind
    cdef void *data
    cdef Py_ssize_t k, lo, hi
    for i in range(r.nattrs):
        if not r.attrs[i].first:
            continue
        h = 1469598103934665603ULL
        for k in range(r.attrs[i].n_lo, r.attrs[i].n_hi):
            h = (h ^ <unsigned long long> lower(ch(r, k))) * 1099511628211ULL
        h = (h ^ 0x110000) * 1099511628211ULL
        lo, hi = r.attrs[i].v_lo, r.attrs[i].v_hi
        if lo >= 0 and has_char(r, lo, hi, u'&'):
            v = value(r, i)
            kind, data, lo, hi = PyUnicode_KIND(v), PyUnicode_DATA(v), 0, len(v)
            for k in range(lo, hi):
                h = (h ^ <unsigned long long> PyUnicode_READ(kind, data, k)) * 1099511628211ULL
        elif lo >= 0:
            for k in range(lo, hi):
                h = (h ^ <unsigned long long> ch(r, k)) * 1099511628211ULL
        total += _mix(h)
    return total


cdef dict attrs_dict(Reader r):
    cdef int i
    cdef dict d = {}
    for i in range(r.nattrs):
        if r.attrs[i].first:
            d[_slice(r.kind, r.data, r.attrs[i].n_lo, r.attrs[i].n_hi).translate(_ASCII_LOWER)] = value(r, i)
    return d


_ASCII_LOWER = {c: c + 32 for c in range(65, 91)}


cdef bint names_meta_tag(Reader r) except -1:
    """``page.names_meta``: ``content`` and a ``name`` or ``property`` ending in ":title"."""
    if find_attr(r, b"content", 7) < 0:
        return False
    for word, m in ((b"name", 4), (b"property", 8)):
        v = value_of(r, word, m)
        if v and v.translate(_ASCII_LOWER).endswith(":title"):
            return True
    return False


cdef bint type_is(Reader r, str what) except -1:
    v = value_of(r, b"type", 4)
    return v is not None and v.translate(_ASCII_LOWER) == what
