# Noise elements and comments in lexbor's <body> serialisation: where they end (included by _scan.pyx).

# HTML elements lexbor writes as a start tag alone, and those whose text it writes as is (ended by "</name>")
_HTML_VOID = frozenset(("area", "base", "br", "col", "embed", "hr", "img", "input", "keygen", "link", "meta", "param",
                        "source", "track", "wbr", "basefont", "bgsound", "frame"))
_RAW_TEXT = frozenset(("script", "style", "xmp", "iframe", "noembed", "noframes"))
_RAW_INSIDE = _RAW_TEXT | {"plaintext"}

# elements whose content is never text, skipped with everything inside (``blocks.NOISE``): kind 1 void,
# 2 raw text, 3 other (nesting counted)
cdef unsigned long long _noise_keys[32]
cdef int _noise_kinds[32]
cdef int _n_noise = 0


def set_noise(names):
    """The noise elements: names of HTML elements."""
    global _n_noise
    cdef bytes b
    if len(names) > 32:
        raise ValueError("at most 32 noise elements")
    _n_noise = 0
    for name in names:
        b = name.encode("ascii")
        _noise_keys[_n_noise] = _key(b, len(b))
        _noise_kinds[_n_noise] = 1 if name in _HTML_VOID else 2 if name in _RAW_TEXT else 3
        _n_noise += 1


cdef int _noise_kind(int kind, void *data, Py_ssize_t lo, Py_ssize_t hi):
    cdef unsigned long long k = _name_key(kind, data, lo, hi)
    cdef Py_ssize_t i
    if not k:
        return 0
    for i in range(_n_noise):
        if _noise_keys[i] == k:
            return _noise_kinds[i]
    return 0


cdef Py_ssize_t skip_noise(int kind, void *data, Py_ssize_t n, Py_ssize_t gt, int noise, str name):
    """The index just past the noise element ``name`` whose start tag ends at ``gt`` (the end of the markup when
    it is never closed), or -1 when that is not certain from the markup alone. Inside, every "<" starts a
    comment or a tag that ends at the next ">" (lexbor escapes text and attribute values), so counting the
    start and end tags of ``name`` finds its end once comments and raw-text elements (whose text is written
    as is and may hold "</name>") are stepped over whole. Unsure: a raw-text name inside SVG or MathML (parsed
    as markup there), ``<plaintext>``, a script :func:`skip_raw` cannot end."""
    cdef Py_ssize_t q, p, j, k, depth = 1, foreign = name == "svg" or name == "math"
    cdef Py_UCS4 c
    cdef bint close
    if noise == 1:
        return gt + 1
    if noise == 2:
        return skip_raw(kind, data, n, gt, name)
    p = gt + 1
    while p < n:
        q = find(kind, data, p, n, "<")
        if q < 0:
            return n
        if at(kind, data, q, n, "<!--"):
            k = find(kind, data, q + 4, n, "-->")
            if k < 0:
                return -1
            p = k + 3
            continue
        close = at(kind, data, q + 1, n, "/")
        j = k = q + 1 + close
        while k < n:
            c = PyUnicode_READ(kind, data, k)
            if c == u' ' or c == u'>':
                break
            k += 1
        gt = find(kind, data, k, n, ">")
        if gt < 0:
            return n
        p = gt + 1
        if k == j:
            continue
        tag = _slice(kind, data, j, k)
        if tag == "svg" or tag == "math":
            foreign += -1 if close else 1
        if tag == name:
            depth += -1 if close else 1
            if not depth:
                return p
        elif not close and tag in _RAW_INSIDE:
            if foreign or tag == "plaintext":
                return -1
            p = skip_raw(kind, data, n, gt, tag)
            if p < 0:
                return -1
    return n


cdef Py_ssize_t skip_raw(int kind, void *data, Py_ssize_t n, Py_ssize_t gt, str name):
    """The index just past the raw-text element ``name`` whose start tag ends at ``gt`` (lexbor writes its text as
    is, then "</name>"): for a script where the tokenizer ended it (:func:`script_end`; -1 when it never does),
    else its first "</name>" (its text cannot hold one; the end of the markup when there is none)."""
    cdef Py_ssize_t q
    if name == "script":
        q = script_end(kind, data, gt + 1, n)
        if q < 0:  # ran to the end: lexbor's "</script>" went into an escape, so where the text ended is unsure
            return -1
    else:
        q = find(kind, data, gt + 1, n, "</" + name + ">")
        if q < 0:
            return n
    q = find(kind, data, q, n, ">")
    return n if q < 0 else q + 1


cdef inline Py_UCS4 _lower(Py_UCS4 c) noexcept:
    return <Py_UCS4> (<unsigned long long> c + 32) if 65 <= c <= 90 else c


cdef inline bint _ends_tag_name(Py_UCS4 c) noexcept:
    return c == 9 or c == 10 or c == 12 or c == 32 or c == 47 or c == 62  # \t \n \f space / >


cdef bint _script_word(int kind, void *data, Py_ssize_t i, Py_ssize_t n):
    """"script" (any case) at ``i``, then a character that ends a tag name."""
    cdef Py_ssize_t k
    if i + 6 >= n:
        return False
    for k in range(6):
        if _lower(PyUnicode_READ(kind, data, i + k)) != "script"[k]:
            return False
    return _ends_tag_name(PyUnicode_READ(kind, data, i + 6))


cdef Py_ssize_t script_end(int kind, void *data, Py_ssize_t i, Py_ssize_t n):
    """Where the "</script" that ends a script's text from ``i`` starts, by the HTML tokenizer's script data
    states (WHATWG 13.2.5.4-13.2.5.26): inside "<!--" (escaped) a "<script" makes it double escaped; "-->"
    returns to plain script data. -1 when the text never ends or a "</script" comes while double escaped."""
    cdef int state = 0  # 0 script data, 1 escaped, 2 double escaped
    cdef int dashes = 0  # "-" just before, in states 1 and 2 (two of them and ">" leave the escape)
    cdef Py_UCS4 c
    while i < n:
        if state == 0:
            i = find_char(kind, data, i, n, u'<')  # (nothing but "<" matters in script data)
            if i < 0:
                return -1
            if at(kind, data, i + 1, n, "/") and _script_word(kind, data, i + 2, n):
                return i
            if at(kind, data, i + 1, n, "!--"):
                state, dashes = 1, 2
                i += 4
                continue
            i += 1
            continue
        c = PyUnicode_READ(kind, data, i)
        if c == u'-':
            dashes = 2 if dashes else 1
            i += 1
        elif c == u'>' and dashes == 2:
            state, dashes = 0, 0
            i += 1
        elif c == u'<':
            dashes = 0
            if at(kind, data, i + 1, n, "/"):
                if _script_word(kind, data, i + 2, n):
                    if state == 1:
                        return i
                    # double escaped: the text's own "</script>", or lexbor's after a text that ran to the end
                    # of its page in that state (it then closed the script)? Only the tree knows
                    return -1
            elif state == 1 and _script_word(kind, data, i + 1, n):
                state = 2
                i += 8  # "<script" and the character after it
                continue
            i += 1
        else:
            dashes = 0
            i += 1
    return -1
