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


cdef bint _class_id_ranges(int kind, void *data, Py_ssize_t lo, Py_ssize_t hi, Py_ssize_t *v_lo,
                           Py_ssize_t *v_hi) noexcept:
    """Where the ``class`` (0) and ``id`` (1) values of the attributes ``markup[lo:hi]`` sit, the first of each
    (``v_lo[q]`` -1 when absent): lexbor writes each as `` name="value"`` with ``"`` and ``&`` escaped. False when
    a value's quote is not closed."""
    cdef Py_ssize_t i = lo, j, k
    cdef int q
    v_lo[0] = v_lo[1] = -1
    while i < hi:
        while i < hi and PyUnicode_READ(kind, data, i) == u' ':
            i += 1
        j = i + 1  # a name may start with "=" (``<div =class="x">`` has an attribute named "=class")
        while j < hi and PyUnicode_READ(kind, data, j) != u'=' and PyUnicode_READ(kind, data, j) != u' ':
            j += 1
        if j + 1 < hi and PyUnicode_READ(kind, data, j) == u'=' and PyUnicode_READ(kind, data, j + 1) == u'"':
            k = find_char(kind, data, j + 2, hi, u'"')
            if k < 0:
                return False
            q = 0 if j - i == 5 and at(kind, data, i, hi, "class") else (
                1 if j - i == 2 and at(kind, data, i, hi, "id") else -1)
            if q >= 0 and v_lo[q] < 0:
                v_lo[q], v_hi[q] = j + 2, k
            i = k + 1
        else:
            i = j + 1
    return True


cdef tuple _class_and_id(int kind, void *data, Py_ssize_t lo, Py_ssize_t hi):
    """The ``class`` and ``id`` attribute values (None when absent) of the attributes ``markup[lo:hi]``, unescaped;
    None when a value's quote is not closed."""
    cdef Py_ssize_t v_lo[2]
    cdef Py_ssize_t v_hi[2]
    if not _class_id_ranges(kind, data, lo, hi, v_lo, v_hi):
        return None
    return (None if v_lo[0] < 0 else _unescaped(_slice(kind, data, v_lo[0], v_hi[0])),
            None if v_lo[1] < 0 else _unescaped(_slice(kind, data, v_lo[1], v_hi[1])))


cdef extern from *:
    int __builtin_ctzll(unsigned long long) nogil


# The rule's words in C, for the verdict on the serialised values themselves: most elements' class and id hold none
# of the unlikely words, and a candidate's ASCII values are tested for the "maybe" words in C too; neither needs a
# Python string, tuple or verdict lookup. A value holding "&" (escaped in the markup), or a candidate's value
# outside ASCII (``re.I`` folds some non-ASCII letters: U+017F matches "s"), goes the exact way (_class_and_id,
# _verdict).
cdef struct Words:
    Py_UCS4 chars[2048]
    Py_ssize_t at[64]
    Py_ssize_t len[64]
    unsigned long long first[128]  # per ASCII character: the words (bits) that start with it
    int n  # -1: no test in C (the words do not fit, or the regex is not a plain alternation)

cdef Words _unlikely_words, _maybe_words
_unlikely_words.n = _maybe_words.n = -1
cdef object _unlikely_of = None, _maybe_of = None


cdef int _fill(Words *ws, words) except -1:
    """``ws`` holds ``words`` (lower-case ASCII, at most 64), else ``ws.n`` is -1."""
    cdef int n = 0
    cdef Py_ssize_t pos = 0
    ws.n = -1
    for n in range(128):
        ws.first[n] = 0
    n = 0
    for w in words:
        if not isinstance(w, str) or not w or not w.isascii() or w != w.lower() or n == 64 or pos + len(w) > 2048:
            return 0
        ws.first[ord(w[0])] |= 1ULL << n
        ws.at[n], ws.len[n] = pos, len(w)
        for c in w:
            ws.chars[pos] = ord(c)
            pos += 1
        n += 1
    ws.n = n
    return 0


cdef int _set_words(tuple unlikely, maybe) except -1:
    global _unlikely_of, _maybe_of
    if unlikely is not _unlikely_of:
        _unlikely_of = unlikely
        _fill(&_unlikely_words, unlikely)
    if maybe is not _maybe_of:
        _maybe_of = maybe
        _maybe_words.n = -1
        pattern = getattr(maybe, "pattern", None)
        if isinstance(pattern, str) and getattr(maybe, "flags", 0) & _re.IGNORECASE \
                and _re.fullmatch(r"[a-z]+(\|[a-z]+)*", pattern):  # a plain alternation of words
            _fill(&_maybe_words, pattern.split("|"))
    return 0


cdef inline Py_UCS4 _ascii_low(Py_UCS4 c) noexcept:  # what _has_word's lower-casing does: A-Z only
    cdef unsigned int x = c
    return <Py_UCS4> (x + 32 if 65 <= x <= 90 else x)


cdef int _value_words(Words *ws, int kind, void *data, Py_ssize_t lo, Py_ssize_t hi) noexcept:
    """-1 when ``markup[lo:hi]`` holds "&" (it is not the attribute's value as written), else 1 when it holds one
    of the words (A-Z lower-cased, as ``_has_word``), else 0."""
    cdef Py_ssize_t i, q, m, w0
    cdef int w, found = 0
    cdef Py_UCS4 c
    cdef unsigned long long bits
    for i in range(lo, hi):
        c = _ascii_low(PyUnicode_READ(kind, data, i))
        if c == u'&':
            return -1
        bits = ws.first[c] if c < 128 and not found else 0
        while bits:
            w = __builtin_ctzll(bits)
            bits &= bits - 1
            w0, m = ws.at[w], ws.len[w]
            if i + m > hi:
                continue
            for q in range(1, m):
                if _ascii_low(PyUnicode_READ(kind, data, i + q)) != ws.chars[w0 + q]:
                    break
            else:
                found = 1
                break
    return found


cdef bint _ascii_range(int kind, void *data, Py_ssize_t lo, Py_ssize_t hi) noexcept:
    cdef Py_ssize_t i
    if kind == 1:
        for i in range(lo, hi):
            if (<unsigned char *> data)[i] >= 128:
                return False
        return True
    for i in range(lo, hi):
        if PyUnicode_READ(kind, data, i) >= 128:
            return False
    return True


cdef int _c_verdict(int kind, void *data, Py_ssize_t lo, Py_ssize_t hi) noexcept:
    """The hint rule for the element whose attributes are ``markup[lo:hi]`` (its ``class`` and ``id`` as
    ``_class_id_ranges`` finds them): -1 no unlikely word (no candidate), 0 a candidate, 1 exempt (a "maybe" word);
    -2 unsure, ask the exact way (``_class_and_id``, ``_verdict``)."""
    cdef Py_ssize_t v_lo[2]
    cdef Py_ssize_t v_hi[2]
    cdef int q, r
    cdef bint word = False
    if _unlikely_words.n < 0 or not _class_id_ranges(kind, data, lo, hi, v_lo, v_hi):
        return -2
    for q in range(2):
        if v_lo[q] >= 0:
            r = _value_words(&_unlikely_words, kind, data, v_lo[q], v_hi[q])
            if r < 0:
                return -2
            word = word or r == 1
    if not word:
        return -1
    if _maybe_words.n < 0:
        return -2
    for q in range(2):
        if v_lo[q] >= 0 and not _ascii_range(kind, data, v_lo[q], v_hi[q]):
            return -2
    for q in range(2):
        if v_lo[q] >= 0 and _value_words(&_maybe_words, kind, data, v_lo[q], v_hi[q]) == 1:
            return 1
    return 0


cdef unsigned long long _K(str name):
    b = name.encode("ascii")
    return _key(b, len(b))


# the void and raw-text names' keys in C arrays: a tag's test is a few integer compares, no Python int and set lookup
cdef unsigned long long _VOID_KEYS[32]
cdef unsigned long long _RAW_KEYS[32]
cdef int _n_void = 0, _n_raw = 0
if len(_HTML_VOID) > 32 or len(_RAW_TEXT) > 32:  # the arrays above hold 32 keys each
    raise ImportError("learned scan: more than 32 void or raw-text names; enlarge _VOID_KEYS/_RAW_KEYS")
for _t in sorted(_HTML_VOID):
    _VOID_KEYS[_n_void] = _K(_t)
    _n_void += 1
for _t in sorted(_RAW_TEXT):
    _RAW_KEYS[_n_raw] = _K(_t)
    _n_raw += 1


cdef inline bint _among(unsigned long long key, unsigned long long *keys, int n) noexcept:
    cdef int q
    for q in range(n):
        if keys[q] == key:
            return True
    return False
cdef unsigned long long _SVG = _K("svg"), _MATH = _K("math"), _A = _K("a"), _TEMPLATE = _K("template")
cdef unsigned long long _PLAINTEXT = _K("plaintext")


cdef struct Open:
    Py_ssize_t name, name_len, start, text
    int cand  # -1 no unlikely word, 0 a candidate, 1 exempt (a "maybe" word)


def hint_ranges(str markup, tuple unlikely, maybe, double max_share):
    """``(starts, ends, dropped, kept_large)``: the character ranges of the elements ``HintFilter`` drops from the
    ``<body>`` serialised in ``markup`` (outermost first, document order) and its two counts; None when the
    markup holds something this reading is not sure of (plaintext, an unclosed script escape, a raw-text name or
    a template inside SVG or MathML, end tags that do not match): the tree filter then runs. A template is
    one element to it (its content is a fragment of its own), skipped whole here. ``unlikely``:
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
    _set_words(unlikely, maybe)
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
            if key == _PLAINTEXT or key == _TEMPLATE and foreign:  # (in SVG or MathML a "template" has children)
                return None
            cand = -1
            if top and key != _A and contains(kind, data, k, gt, "="):
                cand = _c_verdict(kind, data, k, gt)
                if cand == -2:  # the exact way
                    attrs = _class_and_id(kind, data, k, gt)
                    if attrs is None:
                        return None
                    cand = -1
                    if attrs[0] is not None or attrs[1] is not None:
                        v = _verdict(attrs[0], attrs[1], unlikely, maybe)
                        cand = -1 if v is None else v
            if key == _TEMPLATE:  # its content is a fragment of its own: no text and no element the tree's query finds
                end = skip_noise(kind, data, n, gt, 3, "template")
                if end < 0 or end == n:
                    return None
                if cand >= 0:
                    cands.append((i, end, 0, cand == 1))
                i = end
                continue
            if key and _among(key, _VOID_KEYS, _n_void):
                if cand >= 0:
                    cands.append((i, gt + 1, 0, cand == 1))
                i = gt + 1
                continue
            if key and _among(key, _RAW_KEYS, _n_raw):
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
