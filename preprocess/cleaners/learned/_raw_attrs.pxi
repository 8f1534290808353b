# A tag's attributes as spans of the page (included by _raw.pyx): the tokenizer's reading of them
# (``tokens.Tokenizer.attributes``), and what the rules read off them, decoded only then: class/id values as
# lexbor writes them (``tokens.names_of``), a link's href, the hint rule's verdict, a formatting element's
# attributes (as a hash: the list of active formatting elements compares them), a meta's as a dict.

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
        # (the reference decodes the first value of each name, of end tags too, and gives up on a control
        # character's reference; an end tag's repeated names are not told apart here: given up on too)
        if v_lo >= 0 and (not store or r.attrs[r.nattrs - 1].first) and control_ref(r, v_lo, v_hi):
            raise GiveUp("a reference to a control character")
        p = end


cdef bint control_ref(Reader r, Py_ssize_t lo, Py_ssize_t hi) noexcept:
    """Does ``s[lo:hi]`` hold a numeric reference to a code point ``tokens.decode_text`` gives up on
    (``tokens._NUMREF``'s: "&#" then digits, or "x" and hex digits, however many)?"""
    cdef Py_ssize_t i = find_char(r.kind, r.data, lo, hi, u'&'), k, start
    cdef long v
    cdef int d
    cdef bint hexa
    while 0 <= i < hi:
        if i + 2 < hi and ch(r, i + 1) == u'#':
            k = i + 2
            hexa = ch(r, k) == u'x' or ch(r, k) == u'X'
            k += hexa
            while k < hi and ch(r, k) == u'0':  # (leading zeros: "&#0001" is 1)
                k += 1
            start, v = k, 0
            while k < hi:
                d = _digit(ch(r, k), hexa)
                if d < 0:
                    break
                if k - start < 8:
                    v = v * (16 if hexa else 10) + d
                k += 1
            if k - start <= 7 and _dropped(v):
                return True
        i = find_char(r.kind, r.data, i + 1, hi, u'&')
    return False


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
        if not r.attrs[i].first:
            continue
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
    for i in range(r.nattrs):  # (a reference may spell it: "&#104;ref=")
        if r.attrs[i].first and r.attrs[i].v_lo >= 0 and \
                (has_char(r, r.attrs[i].v_lo, r.attrs[i].v_hi, u'&')
                 or find(r.kind, r.data, r.attrs[i].v_lo, r.attrs[i].v_hi, "href") >= 0) and "href=" in value(r, i):
            return True
    return False


cdef inline unsigned long long _mix(unsigned long long h) noexcept:
    h ^= h >> 31
    h *= 0x7FB5D329728EA185ULL
    h ^= h >> 27
    h *= 0x81DADEF4BC2DD44DULL
    return h ^ (h >> 33)


cdef unsigned long long ahash_tag(Reader r) except? 0:
    """The tag's attributes (first of each name, values decoded) as one hash, whatever their order."""
    cdef unsigned long long total = 0, h
    cdef int i, kind
    cdef void *data
    cdef Py_ssize_t k, lo, hi
    for i in range(r.nattrs):
        if not r.attrs[i].first:
            continue
        total += 0x9E3779B97F4A7C15ULL  # (the count of names, as the dict's length)
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
