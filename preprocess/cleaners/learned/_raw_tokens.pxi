# The tokenizer (included by _raw.pyx; raw/tokens.py's Tokenizer): text, tags, comments and the doctype, raw text
# and RCDATA, the script data states.


cdef int name_id(Reader r, Py_ssize_t lo, Py_ssize_t hi) except -1:
    """The id of the tag name ``s[lo:hi]`` (lower-cased as the tokenizer does)."""
    cdef unsigned long long k = _key6(r.kind, r.data, lo, hi)
    cdef Py_ssize_t h
    if k:
        h = _slot(k)
        while _hkeys[h]:
            if _hkeys[h] == k:
                return _hids[h]
            h = (h + 1) & (HSIZE - 1)
    name = _slice(r.kind, r.data, lo, hi).translate(_ASCII_LOWER)
    i = _KNOWN.get(name)
    if i is not None:
        return i
    i = r.unknown.get(name)
    if i is None:
        i = K + len(r.unknown_names)
        r.unknown[name] = i
        r.unknown_names.append(name)
    return i


cdef int tokens(Reader r) except -1:
    cdef Py_ssize_t p = 0, lt, n = r.n
    while p < n:
        lt = find_char(r.kind, r.data, p, n, u'<')
        if lt < 0:
            lt = n
        if lt > p:
            characters(r, r.s, p, lt)
        if lt >= n:
            break
        p = markup(r, lt)
    return 0


cdef Py_ssize_t name_end(Reader r, Py_ssize_t p) noexcept:
    cdef Py_UCS4 c
    while p < r.n:
        c = ch(r, p)
        if is_ws(c) or c == u'/' or c == u'>':
            break
        p += 1
    return p


cdef bint ascii_at(Reader r, Py_ssize_t i, const char *word) noexcept:
    """Does ``word`` (lower-case ASCII) start at ``i``, ASCII case aside?"""
    cdef Py_ssize_t k = 0
    while word[k]:
        if i + k >= r.n or lower(ch(r, i + k)) != <Py_UCS4> <unsigned char> word[k]:
            return False
        k += 1
    return True


cdef Py_ssize_t markup(Reader r, Py_ssize_t lt) except -1:
    cdef Py_UCS4 nxt = ch(r, lt + 1), c
    cdef Py_ssize_t e, p, a, b
    cdef bint closing = False
    cdef int name
    if is_alpha(nxt):
        e = name_end(r, lt + 1)
        if has_char(r, lt + 1, e, u'<'):
            raise GiveUp("a tag name holding <")
        p = attributes(r, e, &closing, True)
        if r.phase == P_INITIAL:
            r.phase = P_BEFORE_HTML
        return start_tag(r, name_id(r, lt + 1, e), closing, p)
    if nxt == u'/':
        c = ch(r, lt + 2)
        if is_alpha(c):
            e = name_end(r, lt + 2)
            name = name_id(r, lt + 2, e)
            p = attributes(r, e, &closing, False)
            if r.phase == P_INITIAL:
                r.phase = P_BEFORE_HTML
            end_tag(r, name)
            return p
        return lt + 3 if c == u'>' else skip_to_gt(r, lt + 2)
    if nxt == u'!' and ch(r, lt + 2) == u'-' and ch(r, lt + 3) == u'-':
        if ch(r, lt + 4) == u'>':
            return lt + 5
        if ch(r, lt + 4) == u'-' and ch(r, lt + 5) == u'>':
            return lt + 6
        a = find(r.kind, r.data, lt + 4, r.n, "-->")  # ("--!>" only before it: no search to the end per comment)
        b = find(r.kind, r.data, lt + 4, a + 3 if a >= 0 else r.n, "--!>")
        if a < 0 and b < 0:
            raise GiveUp("a comment to the end")
        return b + 4 if b >= 0 and (a < 0 or b < a) else a + 3
    if nxt == u'!':
        if r.nfo and at(r.kind, r.data, lt + 2, r.n, "[CDATA["):
            raise GiveUp("CDATA")
        if ascii_at(r, lt + 2, b"doctype"):
            e = skip_to_gt(r, lt + 2)
            if r.phase == P_INITIAL:
                q = _quirks(_slice(r.kind, r.data, min(lt + 9, e - 1), e - 1))
                r.quirks = -1 if q is None else (1 if q else 0)
                r.phase = P_BEFORE_HTML
            return e
        return skip_to_gt(r, lt + 2)
    if nxt == u'?':
        return skip_to_gt(r, lt + 1)
    characters(r, "<", 0, 1)
    return lt + 1


cdef Py_ssize_t skip_to_gt(Reader r, Py_ssize_t p) except -1:
    cdef Py_ssize_t q = find_char(r.kind, r.data, p, r.n, u'>')
    if q < 0:
        raise GiveUp("markup to the end")
    return q + 1


cdef int characters(Reader r, str t, Py_ssize_t lo, Py_ssize_t hi) except -1:
    cdef Py_ssize_t i
    cdef int m, kind = PyUnicode_KIND(t)
    cdef void *data = PyUnicode_DATA(t)
    if r.template and not r.nfo:
        return 0
    if find_char(kind, data, lo, hi, u'&') >= 0:
        d = decode_fast(kind, data, lo, hi)
        t = d if d is not None else decode_text(PyUnicode_FromKindAndData(kind, <char *> data + lo * kind, hi - lo))
        kind, data, lo, hi = PyUnicode_KIND(t), PyUnicode_DATA(t), 0, len(t)
    if r.skip_lf:
        r.skip_lf = False
        if lo < hi and PyUnicode_READ(kind, data, lo) == u'\n':
            lo += 1
    if r.phase != P_BODY:
        while lo < hi and is_ws(PyUnicode_READ(kind, data, lo)):
            lo += 1
        if lo >= hi:
            return 0
        start_body(r, SRC_NONE)
    if r.nfo:
        r.total += hi - lo
        return 0
    m = mode(r)
    if m == M_TABLE or m == M_TBODY or m == M_ROW or m == M_COLGROUP:
        for i in range(lo, hi):
            if not is_ws(PyUnicode_READ(kind, data, i)):
                raise GiveUp("text in a table (foster parenting)")
        text(r, t, lo, hi)
        return 0
    reconstruct(r)
    text(r, t, lo, hi)
    return 0


cdef Py_ssize_t end_tag_at(Reader r, Py_ssize_t p, const char *name) noexcept:
    """Where the first ``</name`` followed by ``[\\t\\n\\f />]`` (ASCII case aside) from ``p`` starts; -1: none."""
    cdef Py_ssize_t i = p, m = 0
    while name[m]:
        m += 1
    while True:
        i = find_char(r.kind, r.data, i, r.n, u'<')
        if i < 0:
            return -1
        if ch(r, i + 1) == u'/' and ascii_at(r, i + 2, name):
            c = ch(r, i + 2 + m)
            if is_ws(c) or c == u'/' or c == u'>':
                return i
        i += 1


cdef Py_ssize_t script_end(Reader r, Py_ssize_t p) noexcept:
    """``tokens.script_end``: where the ``</script`` ending a script whose text starts at ``p`` starts; -1."""
    cdef int state = 0
    cdef Py_ssize_t i = p
    cdef Py_UCS4 c
    while True:
        if state == 0:  # script data: "</script" or "<!--"
            i = find_char(r.kind, r.data, i, r.n, u'<')
            if i < 0:
                return -1
            if ch(r, i + 1) == u'!' and ch(r, i + 2) == u'-' and ch(r, i + 3) == u'-':
                state, i = 1, i + 2
                continue
            if ch(r, i + 1) == u'/' and ascii_at(r, i + 2, b"script"):
                c = ch(r, i + 8)
                if is_ws(c) or c == u'/' or c == u'>':
                    return i
            i += 1
            continue
        # escaped (1) or double escaped (2): "-->", "</script", and in 1 "<script"
        while i < r.n:
            c = ch(r, i)
            if c == u'-' and ch(r, i + 1) == u'-' and ch(r, i + 2) == u'>':
                break
            if c == u'<':
                if ch(r, i + 1) == u'/' and ascii_at(r, i + 2, b"script") and _script_delim(ch(r, i + 8)):
                    break
                if state == 1 and ascii_at(r, i + 1, b"script") and _script_delim(ch(r, i + 7)):
                    break
            i += 1
        if i >= r.n:
            return -1
        if ch(r, i) == u'-':
            state, i = 0, i + 3
        elif ch(r, i + 1) == u'/':
            if state < 2:
                return i
            state, i = 1, i + 9
        else:
            state, i = 2, i + 8


cdef inline bint _script_delim(Py_UCS4 c) noexcept:
    return is_ws(c) or c == u'/' or c == u'>'


cdef const char *raw_end_name(int name) noexcept:
    if name == T_SCRIPT:
        return b"script"
    if name == T_STYLE:
        return b"style"
    if name == T_XMP:
        return b"xmp"
    if name == T_IFRAME:
        return b"iframe"
    if name == T_NOEMBED:
        return b"noembed"
    if name == T_NOFRAMES:
        return b"noframes"
    if name == T_TITLE:
        return b"title"
    if name == T_TEXTAREA:
        return b"textarea"
    return NULL


cdef Py_ssize_t raw_content(Reader r, int name, Py_ssize_t p) except -1:
    """The text of a script, style, title ... starting at ``p`` to ``text`` (and to ``seen``); where its end tag
    ends. The tag's attributes are still in ``r.attrs``."""
    cdef Py_ssize_t end, m, inside
    cdef bint closing
    cdef const char *word = raw_end_name(name)
    if word == NULL:
        raise GiveUp(f"compiled: raw text of <{name_of(r, name)}>")
    end = script_end(r, p) if name == T_SCRIPT else end_tag_at(r, p, word)
    if end < 0:
        raise GiveUp(f"<{name_of(r, name)}> to the end")
    m = 0
    while word[m]:
        m += 1
    if fl(name) & F_RCDATA:
        body = decode_fast(r.kind, r.data, p, end) if has_char(r, p, end, u'&') else _slice(r.kind, r.data, p, end)
        if body is None:
            body = decode_text(_slice(r.kind, r.data, p, end))
        if name == T_TEXTAREA and body.startswith("\n"):
            body = body[1:]
        if name == T_TITLE and r.title is None and not r.template:
            r.title = body
        text(r, body, 0, len(body))
    else:
        if name == T_SCRIPT and r.nattrs and not r.template and type_is(r, LD_JSON):
            r.named.append(("ld", _slice(r.kind, r.data, p, end)))
        inside = r.noscript_chars
        text(r, r.s, p, end)
        if (name == T_SCRIPT or name == T_STYLE) and r.phase == P_BODY and not r.template:
            r.hidden_chars += end - p  # (no one's text, inside <noscript> or out: NOSCRIPT_SHARE)
            r.noscript_chars = inside
    return attributes(r, end + 2 + m, &closing, False)
