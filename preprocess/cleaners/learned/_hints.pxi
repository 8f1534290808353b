# The class/id hint filter (filters/hints.py) read off lexbor's <body> serialisation (included by _scan.pyx):
# which elements HintFilter would decompose, as character ranges for scan() to skip, without a Python node
# per match (the CSS query and its node wrappers cost more than the whole learned cleaner).

cdef bint _has_word(str value, tuple words):
    """Does ``value`` contain one of ``words`` (lower-case ASCII), ASCII case-insensitively (CSS's ``i``)?"""
    cdef str low = value.lower() if value.isascii() else "".join(
        chr(ord(c) + 32) if "A" <= c <= "Z" else c for c in value)
    for w in words:
        if w in low:
            return True
    return False


cdef str _unescaped(str value):
    return _html.unescape(value) if "&" in value else value


cdef dict _verdicts = {}  # (class, id) -> None (no unlikely word), False (dropped if small), True (exempt)
cdef tuple _verdict_rule = ()


cdef object _verdict(cls, ident, tuple unlikely, maybe):
    """The hint rule for one element's class and id values, computed once per distinct pair."""
    global _verdict_rule
    key = (cls, ident)
    if len(_verdict_rule) != 2 or unlikely is not _verdict_rule[0] or maybe is not _verdict_rule[1] \
            or len(_verdicts) > 50_000:
        _verdicts.clear()
        _verdict_rule = (unlikely, maybe)
    try:
        return _verdicts[key]
    except KeyError:
        pass
    v = None
    if (cls and _has_word(cls, unlikely)) or (ident and _has_word(ident, unlikely)):
        v = bool(maybe.search(f"{cls or ''} {ident or ''}"))  # exempt?
    _verdicts[key] = v
    return v


cdef tuple _class_and_id(int kind, void *data, Py_ssize_t lo, Py_ssize_t hi):
    """The ``class`` and ``id`` attribute values (None when absent) of the attributes ``markup[lo:hi]``:
    lexbor writes each as `` name="value"`` with ``"`` and ``&`` escaped."""
    cdef Py_ssize_t i = lo, j
    cls = ident = None
    while i < hi:
        while i < hi and PyUnicode_READ(kind, data, i) == u' ':
            i += 1
        j = i + 1  # a name may start with "=" (``<div =class="x">`` has an attribute named "=class")
        while j < hi and PyUnicode_READ(kind, data, j) != u'=' and PyUnicode_READ(kind, data, j) != u' ':
            j += 1
        if j + 1 < hi and PyUnicode_READ(kind, data, j) == u'=' and PyUnicode_READ(kind, data, j + 1) == u'"':
            k = find(kind, data, j + 2, hi, '"')
            if k < 0:
                return None
            if j - i == 5 and at(kind, data, i, hi, "class") and cls is None:
                cls = _unescaped(_slice(kind, data, j + 2, k))
            elif j - i == 2 and at(kind, data, i, hi, "id") and ident is None:
                ident = _unescaped(_slice(kind, data, j + 2, k))
            i = k + 1
        else:
            i = j + 1
    return cls, ident


cdef unsigned long long _K(str name):
    b = name.encode("ascii")
    return _key(b, len(b))


cdef set _VOID_KEYS = {_K(t) for t in _HTML_VOID}
cdef set _RAW_KEYS = {_K(t) for t in _RAW_TEXT}
cdef unsigned long long _SVG = _K("svg"), _MATH = _K("math"), _A = _K("a"), _TEMPLATE = _K("template")
cdef unsigned long long _PLAINTEXT = _K("plaintext")


cdef struct Open:
    Py_ssize_t name, name_len, start, text
    int cand  # -1 no unlikely word, 0 a candidate, 1 exempt (a "maybe" word)


def hint_ranges(str markup, tuple unlikely, maybe, double max_share):
    """``(starts, ends, dropped, kept_large)``: the character ranges of the elements ``HintFilter`` drops from the
    ``<body>`` serialised in ``markup`` (outermost first, document order) and its two counts; None when the
    markup holds something this reading is not sure of (a template, plaintext, an unclosed script escape, a
    raw-text name inside SVG or MathML, end tags that do not match): the tree filter then runs. ``unlikely``:
    the words, lower-case; ``maybe``: the exemption regex (searched in "class id"). Element text is lexbor's
    text content: text nodes only (script and style text too, no comments, no template content),
    ``&amp; &lt; &gt; &nbsp;`` one character each."""
    cdef int kind = PyUnicode_KIND(markup)
    cdef void *data = PyUnicode_DATA(markup)
    cdef Py_ssize_t n = len(markup), i = 0, j, k, gt, end, text = 0, foreign = 0, top = 0, cap = 64, q
    cdef Py_UCS4 c
    cdef unsigned long long key
    cdef int cand
    cdef Open *stack = <Open *> malloc(cap * sizeof(Open))
    cdef Open *grown
    cdef list cands = []  # (start, end, text, exempt)
    if stack == NULL:
        raise MemoryError()
    try:
        while i < n:
            c = PyUnicode_READ(kind, data, i)
            if c != u'<':  # text up to the next "<": a character each, an entity one in all
                q = find_char(kind, data, i, n, u'<')
                if q < 0:
                    q = n
                text += q - i
                j = find_char(kind, data, i, q, u'&')
                while j >= 0:
                    if at(kind, data, j, q, "&amp;"):
                        text -= 4
                    elif at(kind, data, j, q, "&lt;") or at(kind, data, j, q, "&gt;"):
                        text -= 3
                    elif at(kind, data, j, q, "&nbsp;"):
                        text -= 5
                    j = find_char(kind, data, j + 1, q, u'&')
                i = q
                continue
            if at(kind, data, i, n, "<!--"):
                k = find(kind, data, i + 4, n, "-->")
                if k < 0:
                    return None
                i = k + 3
                continue
            j = i + 1 + (i + 1 < n and PyUnicode_READ(kind, data, i + 1) == u'/')
            k = j
            while k < n and PyUnicode_READ(kind, data, k) != u' ' and PyUnicode_READ(kind, data, k) != u'>':
                k += 1
            gt = find(kind, data, k, n, ">")
            if gt < 0 or k == j:
                return None
            key = _name_key(kind, data, j, k)
            if j == i + 2:  # an end tag: the name of the element on top
                if not top or stack[top - 1].name_len != k - j:
                    return None
                for q in range(k - j):
                    if PyUnicode_READ(kind, data, j + q) != PyUnicode_READ(kind, data, stack[top - 1].name + q):
                        return None
                top -= 1
                if stack[top].cand >= 0:
                    cands.append((stack[top].start, gt + 1, text - stack[top].text, stack[top].cand == 1))
                if key == _SVG or key == _MATH:
                    foreign -= 1
                i = gt + 1
                continue
            if key == _TEMPLATE or key == _PLAINTEXT:
                return None
            cand = -1
            if top and key != _A and contains(kind, data, k, gt, "="):
                attrs = _class_and_id(kind, data, k, gt)
                if attrs is None:
                    return None
                if attrs[0] is not None or attrs[1] is not None:
                    v = _verdict(attrs[0], attrs[1], unlikely, maybe)
                    cand = -1 if v is None else v
            if key and key in _VOID_KEYS:
                if cand >= 0:
                    cands.append((i, gt + 1, 0, cand == 1))
                i = gt + 1
                continue
            if key and key in _RAW_KEYS:
                if foreign:  # in SVG or MathML a "script" is parsed as markup, not as raw text: the tree decides
                    return None
                name = _slice(kind, data, j, k)
                end = skip_raw(kind, data, n, gt, name)
                if end < 0 or end == n:
                    return None
                text += end - gt - 1 - (len(name) + 3)  # its text, written as is
                if cand >= 0:
                    cands.append((i, end, end - gt - 1 - (len(name) + 3), cand == 1))
                i = end
                continue
            if top == cap:
                grown = <Open *> realloc(stack, 2 * cap * sizeof(Open))
                if grown == NULL:
                    raise MemoryError()
                stack, cap = grown, 2 * cap
            stack[top].name, stack[top].name_len, stack[top].start = j, k - j, i
            stack[top].text, stack[top].cand = text, cand
            top += 1
            if key == _SVG or key == _MATH:
                foreign += 1
            i = gt + 1
        if top:
            return None
    finally:
        free(stack)
    cands.sort()
    limit = max_share * text
    starts, ends = [], []
    dropped = kept_large = 0
    last_end = -1
    for start, end, size, exempt in cands:
        if start < last_end or exempt:
            continue
        if size > limit:
            kept_large += 1
            continue
        starts.append(start)
        ends.append(end)
        dropped += 1
        last_end = end
    return starts, ends, dropped, kept_large
