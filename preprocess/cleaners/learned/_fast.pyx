# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled twins of ``blocks.split_python`` and ``BlockModel``'s tree walk: the same output, one C loop.

``scan`` reads lexbor's ``<body>`` serialisation character by character with
exactly the rules of ``blocks._SPLIT`` (a block-level tag or ``<a>``: ``<``,
optional ``/``, a listed name followed by a space or ``>``, then anything up to
the next ``>``) and of ``dom.fragment_text`` (``<[^>]*>`` removed, entities
decoded by ``html.unescape``, whitespace runs to one space). It returns the
lists that make up a ``blocks.Page``; ``tests/test_learned.py`` checks both
implementations give equal pages on every gold page and on broken markup.
"""
from libc.stdlib cimport free, malloc, realloc

import html as _html

import numpy as np

cdef extern from "Python.h":
    int PyUnicode_KIND(object)
    void *PyUnicode_DATA(object)
    Py_UCS4 PyUnicode_READ(int kind, void *data, Py_ssize_t index)
    object PyUnicode_FromKindAndData(int kind, const void *buffer, Py_ssize_t size)
    bint Py_UNICODE_ISSPACE(Py_UCS4 ch)
    bint Py_UNICODE_ISALNUM(Py_UCS4 ch)
    int PyUnicode_4BYTE_KIND

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
        s = _unescape(PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, d, w))
        return " ".join(s.split())
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


cdef bint at(int kind, void *data, Py_ssize_t i, Py_ssize_t end, str word):
    """Does ``word`` start at ``i`` (and end before ``end``)?"""
    cdef Py_ssize_t k, m = len(word)
    if i + m > end:
        return False
    for k in range(m):
        if PyUnicode_READ(kind, data, i + k) != word[k]:
            return False
    return True


cdef str class_id(int kind, void *data, Py_ssize_t lo, Py_ssize_t hi):
    """``" ".join(_CLASS_ID.findall(attrs))`` for the attributes ``markup[lo:hi]``."""
    cdef Py_ssize_t i = lo, q, m
    values = []
    while i < hi:
        m = 0
        if i == lo or not (Py_UNICODE_ISALNUM(PyUnicode_READ(kind, data, i - 1))
                           or PyUnicode_READ(kind, data, i - 1) == u'_'):
            if at(kind, data, i, hi, 'class="'):
                m = 7
            elif at(kind, data, i, hi, 'id="'):
                m = 4
        if m:
            q = i + m
            while q < hi and PyUnicode_READ(kind, data, q) != u'"':
                q += 1
            if q < hi:
                values.append(_slice(kind, data, i + m, q))
                i = q + 1
                continue
        i += 1
    return " ".join(values)


cdef str _slice(int kind, void *data, Py_ssize_t lo, Py_ssize_t hi):
    cdef Py_ssize_t size = 1 if kind == 1 else (2 if kind == 2 else 4)
    return PyUnicode_FromKindAndData(kind, <char *> data + lo * size, hi - lo)


cdef bint contains(int kind, void *data, Py_ssize_t lo, Py_ssize_t hi, str word):
    cdef Py_ssize_t i
    for i in range(lo, hi):
        if at(kind, data, i, hi, word):
            return True
    return False


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
        k = k << 6 | _code(name[i])
    return k


cdef inline unsigned long long _code(Py_UCS4 c) noexcept nogil:
    if 97 <= c <= 122:  # a-z
        return <unsigned long long> c - 96
    if 48 <= c <= 57:  # 0-9
        return <unsigned long long> c - 21
    return 0


cdef int _lookup(int kind, void *data, Py_ssize_t lo, Py_ssize_t hi):
    """The tag index of the name ``markup[lo:hi]``; -2 when it is not a listed one."""
    cdef unsigned long long k = 0, c
    cdef Py_ssize_t i
    if hi - lo > 10 or hi == lo:
        return -2
    for i in range(lo, hi):
        c = _code(PyUnicode_READ(kind, data, i))
        if not c:
            return -2
        k = k << 6 | c
    for i in range(_n_keys):
        if _keys[i] == k:
            return _values[i]
    return -2


# elements whose content is never text, skipped with everything inside (``blocks.NOISE``): kind 1 void,
# 2 raw text (content written literally: ends at the first "</name>"), 3 other (nesting counted)
cdef unsigned long long _noise_keys[32]
cdef int _noise_kinds[32]
cdef int _n_noise = 0
_RAW_INSIDE = frozenset(("script", "style", "xmp", "iframe", "noembed", "noframes", "plaintext"))


def set_noise(dict kinds):
    """``kinds``: element name -> 1 (void), 2 (raw text) or 3 (other)."""
    global _n_noise
    cdef bytes b
    if len(kinds) > 32:
        raise ValueError("at most 32 noise elements")
    _n_noise = 0
    for name, kind in kinds.items():
        b = name.encode("ascii")
        _noise_keys[_n_noise] = _key(b, len(b))
        _noise_kinds[_n_noise] = kind
        _n_noise += 1


cdef int _noise_kind(int kind, void *data, Py_ssize_t lo, Py_ssize_t hi):
    cdef unsigned long long k = 0, c
    cdef Py_ssize_t i
    if hi - lo > 10 or hi == lo:
        return 0
    for i in range(lo, hi):
        c = _code(PyUnicode_READ(kind, data, i))
        if not c:
            return 0
        k = k << 6 | c
    for i in range(_n_noise):
        if _noise_keys[i] == k:
            return _noise_kinds[i]
    return 0


cdef Py_ssize_t find(int kind, void *data, Py_ssize_t lo, Py_ssize_t n, str word):
    """Index of the first ``word`` at or after ``lo``; -1 when there is none."""
    cdef Py_UCS4 first = word[0]
    cdef Py_ssize_t i
    for i in range(lo, n - len(word) + 1):
        if PyUnicode_READ(kind, data, i) == first and at(kind, data, i, n, word):
            return i
    return -1


cdef Py_ssize_t skip_noise(int kind, void *data, Py_ssize_t n, Py_ssize_t gt, int noise, str name):
    """The index just past the noise element ``name`` whose start tag ends at ``gt`` (the end of the markup when
    it is never closed), or -1 when that is not certain from the markup alone: a comment or a raw-text element
    inside (their text is written as is and may hold "</name>"), or a script :func:`skip_raw` cannot end.
    Elsewhere inside, every "<" starts a tag (lexbor escapes text and attribute values), so counting the
    start and end tags of ``name`` finds its end."""
    cdef Py_ssize_t q, p, j, k, depth = 1
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
            return -1
        close = at(kind, data, q + 1, n, "/")
        j = k = q + 1 + close
        while k < n:
            c = PyUnicode_READ(kind, data, k)
            if c == u' ' or c == u'>':
                break
            if c == u'<':  # an element named "y<svg": not for counting
                return -1
            k += 1
        p = q + 1
        if k == n or k == j:
            continue
        gt = find(kind, data, k, n, ">")
        if gt < 0:
            return n
        tag = _slice(kind, data, j, k)
        if tag == name:
            depth += -1 if close else 1
            p = gt + 1
            if not depth:
                return p
        elif not close and tag in _RAW_INSIDE:
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
    states (WHATWG 13.2.5.4-13.2.5.26): inside "<!--" (escaped) a "<script" makes it double escaped, where
    "</script" only returns to escaped; "-->" returns to plain script data. -1 when the text never ends."""
    cdef int state = 0  # 0 script data, 1 escaped, 2 double escaped
    cdef int dashes = 0  # "-" just before, in states 1 and 2 (two of them and ">" leave the escape)
    cdef Py_UCS4 c
    while i < n:
        c = PyUnicode_READ(kind, data, i)
        if state == 0:
            if c == u'<':
                if at(kind, data, i + 1, n, "/") and _script_word(kind, data, i + 2, n):
                    return i
                if at(kind, data, i + 1, n, "!--"):
                    state, dashes = 1, 2
                    i += 4
                    continue
            i += 1
        elif c == u'-':
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
                    state = 1
                    i += 9  # "</script" and the character after it
                    continue
            elif state == 1 and _script_word(kind, data, i + 1, n):
                state = 2
                i += 8  # "<script" and the character after it
                continue
            i += 1
        else:
            dashes = 0
            i += 1
    return -1


def scan(str markup, int max_depth=400, bint skip=True):
    """(texts, link_chars, owner, start, el_tag, el_parent, el_depth, el_names, el_start, el_end, chars) of
    lexbor's ``<body>`` serialisation: the Page fields ``blocks.split_python`` finds after ``blocks.body_markup``
    (noise elements and comments skipped here), for the tags of :func:`set_tags` and :func:`set_noise`. None when
    a noise element's end or a ``<plaintext>`` is ambiguous here (:func:`skip_noise`): scan ``body_markup``'s output instead, with ``skip=False``
    (nothing skipped: ``split_python``'s twin)."""
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
    cdef Py_ssize_t *stack_el = <Py_ssize_t *> malloc((max_depth + 1) * sizeof(Py_ssize_t))
    cdef int *stack_tag = <int *> malloc((max_depth + 1) * sizeof(int))
    if stack_el == NULL or stack_tag == NULL:
        free(stack_el)
        free(stack_tag)
        raise MemoryError()
    if not _n_keys:
        raise RuntimeError("_fast.set_tags was never called")
    raw.data = link.data = NULL
    raw.n = raw.cap = link.n = link.cap = 0
    try:
        while i < n:
            c = PyUnicode_READ(kind, data, i)
            if c != u'<':
                push(&raw, c)
                if in_a:
                    push(&link, c)
                i += 1
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
                while gt < n and PyUnicode_READ(kind, data, gt) != u'>':
                    gt += 1
                if gt == n:
                    tag = -2
            if tag == -2:  # not a split point: text (inline tags go with it)
                if i > tag_end:  # a "<" inside it is part of its name: no noise element starts there
                    tag_end = find(kind, data, i + 1, n, ">")
                    if tag_end < 0:
                        tag_end = n
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
                t = fragment_text(&raw)
                if t:
                    texts.append(t)
                    link_chars.append(len(fragment_text(&link)) if link.n else 0)
                    owner.append(cur)
                    start.append(chars)
                    chars += len(t)
                raw.n = link.n = 0
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
            t = fragment_text(&raw)
            if t:
                texts.append(t)
                link_chars.append(len(fragment_text(&link)) if link.n else 0)
                owner.append(cur)
                start.append(chars)
                chars += len(t)
        for s in range(top):
            el_end[stack_el[s]] = chars
    finally:
        free(raw.data)
        free(link.data)
        free(stack_el)
        free(stack_tag)
    return texts, link_chars, owner, start, el_tag, el_parent, el_depth, el_names, el_start, el_end, chars


def leaf_values(const float[:, ::1] X, const long[::1] feature, const double[::1] limit, const long[::1] left,
                const double[::1] value, Py_ssize_t n_trees, Py_ssize_t width, int depth):
    """(rows x trees) leaf value each row reaches in each tree: ``BlockModel.margin``'s walk, summed by numpy."""
    cdef Py_ssize_t n = X.shape[0], r, t, node
    cdef int d
    out = np.empty((n, n_trees), dtype=np.float64)
    cdef double[:, ::1] o = out
    with nogil:
        for r in range(n):
            for t in range(n_trees):
                node = t * width
                for d in range(depth):
                    node = left[node] + (X[r, feature[node]] > limit[node])
                o[r, t] = value[node]
    return out


# stop words packed 5 bits a letter (a-z 1-26), sorted for a binary search
cdef unsigned long long _stop_keys[512]
cdef Py_ssize_t _n_stop = 0


def set_stop_words(words):
    """The stop-word list of :func:`text_stats`: lower-case a-z words of at most 12 letters."""
    global _n_stop
    keys = sorted(_letters_key(w) for w in words)
    if len(keys) > 512 or any(not (w.isascii() and w.isalpha() and w.islower() and len(w) <= 12) for w in words):
        raise ValueError("stop words: at most 512 lower-case a-z words of 12 letters or fewer")
    for i, k in enumerate(keys):
        _stop_keys[i] = k
    _n_stop = len(keys)
    global _STOP
    _STOP = frozenset(words)


_STOP = frozenset()


def _letters_key(str w):
    k = 0
    for c in w:
        k = k << 5 | (ord(c) - 96)
    return k


cdef bint _is_stop(unsigned long long k) noexcept nogil:
    cdef Py_ssize_t lo = 0, hi = _n_stop, mid
    while lo < hi:
        mid = (lo + hi) // 2
        if _stop_keys[mid] < k:
            lo = mid + 1
        else:
            hi = mid
    return lo < _n_stop and _stop_keys[lo] == k


cdef inline bint _word_char(Py_UCS4 c) noexcept:
    return c == 95 or Py_UNICODE_ISALNUM(c)  # re's \w


def text_stats(list texts, title_words):
    """Per block (rows): characters, words, commas, full stops, final punctuation, stop words, capitalised words,
    title words: ``features.text_columns``'s counts for single-spaced texts. None when a text is not single-spaced
    or lower-casing changes its word count (the caller then counts in Python)."""
    cdef Py_ssize_t n = len(texts), b, i, m, w0
    cdef int kind
    cdef void *data
    cdef Py_UCS4 c, last
    cdef double nw, commas, stops, n_stop, n_cap, n_title
    cdef bint ascii, letters, check_title
    cdef unsigned long long key
    cdef unsigned char lowbuf[64]
    out = np.zeros((n, 8), dtype=np.float64)
    cdef double[:, ::1] o = out
    if not _n_stop:
        raise RuntimeError("_fast.set_stop_words was never called")
    for b in range(n):
        t = <str> texts[b]
        m = len(t)
        if not m:
            return None
        kind = PyUnicode_KIND(t)
        data = PyUnicode_DATA(t)
        ascii = kind == 1 and t.isascii()
        if Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, 0)) or Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, m - 1)):
            return None
        nw = 1
        commas = stops = n_stop = n_cap = n_title = 0
        for i in range(m):
            c = PyUnicode_READ(kind, data, i)
            if c == u' ':
                nw += 1
                if PyUnicode_READ(kind, data, i + 1) == u' ':  # (the last character is no space)
                    return None
            elif c == u',':
                commas += 1
            elif c == u'.' and i + 1 < m and PyUnicode_READ(kind, data, i + 1) == u' ':
                stops += 1
            elif Py_UNICODE_ISSPACE(c):
                return None
        last = PyUnicode_READ(kind, data, m - 1)
        if last == u'.':
            stops += 1
        check_title = title_words and nw < 40
        if not ascii:
            low = t.lower().split()
            if len(low) != nw:
                return None
            for word in low:
                if word in _STOP:
                    n_stop += 1
                if check_title and word in title_words:
                    n_title += 1
        w0 = 0
        while w0 < m:  # each word: capitalised? and, ASCII texts, stop word? title word?
            c = PyUnicode_READ(kind, data, w0)
            if 65 <= c <= 90:
                n_cap += 1
            elif not _word_char(c):
                i = w0 + 1
                while i < m and PyUnicode_READ(kind, data, i) != u' ' and not _word_char(PyUnicode_READ(kind, data, i)):
                    i += 1
                if i < m and 65 <= PyUnicode_READ(kind, data, i) <= 90:
                    n_cap += 1
            i = w0
            key = 0
            letters = True
            while i < m:
                c = PyUnicode_READ(kind, data, i)
                if c == u' ':
                    break
                if ascii:
                    if 65 <= c <= 90:
                        c = <Py_UCS4> (<unsigned long long> c + 32)
                    if i - w0 < 64:
                        lowbuf[i - w0] = <unsigned char> c
                    if letters and 97 <= c <= 122 and i - w0 < 12:
                        key = key << 5 | (<unsigned long long> c - 96)
                    else:
                        letters = False
                i += 1
            if ascii:
                if letters and _is_stop(key):
                    n_stop += 1
                if check_title and (PyUnicode_FromKindAndData(1, lowbuf, i - w0) if i - w0 <= 64
                                    else t[w0:i].lower()) in title_words:
                    n_title += 1
            w0 = i + 1
        o[b, 0] = m
        o[b, 1] = nw
        o[b, 2] = commas
        o[b, 3] = stops
        o[b, 4] = last == u'.' or last == u'!' or last == u'?' or last == u'"' or last == u"'" or last == 0x201d \
            or last == 0x2019 or last == u')'
        o[b, 5] = n_stop
        o[b, 6] = n_cap
        o[b, 7] = n_title
    return out


def path_or(const long[::1] parent, unsigned long long[:, ::1] rows):
    """OR each element's row of bit words into its descendants' rows, in place (parents come before children)."""
    cdef Py_ssize_t e, w, p, width = rows.shape[1]
    with nogil:
        for e in range(parent.shape[0]):
            p = parent[e]
            if p >= 0:
                for w in range(width):
                    rows[e, w] |= rows[p, w]


cdef extern from "math.h" nogil:
    double log1p(double x)


def numeric(const double[:, ::1] counts, const double[::1] link, const long[::1] owner, const long[::1] start,
            const long[::1] el_tag, const long[::1] el_parent, const long[::1] el_depth, const long[::1] el_start,
            const long[::1] el_end, const double[::1] sig, const long[::1] flags, const double[::1] tag_prior,
            long page_chars, int window):
    """``features.numeric_columns`` in one pass: the TEXT, POSITION, STRUCTURE, neighbour and ``context.NAMES``
    columns (blocks x 56), from ``text_counts``' rows, the page's block and element arrays, the elements' signature
    counts and class/id flags. Every value is computed as the numpy code computes it (same operations, same
    order), so the two agree to the bit (``tests/test_learned_compiled.py``)."""
    cdef Py_ssize_t n = counts.shape[0], n_el = el_tag.shape[0], b, e, k, o, lo, hi, node, kid, top
    cdef Py_ssize_t own, par, grand, tp, first_top = 0, stop_top = 0, first_tp = 0, stop_tp = 0, first_d, stop_d
    cdef double total = page_chars if page_chars > 1 else 1, ctotal = 0, lsum = 0, linked = 0, longest = 0
    cdef double best = 0, top_share = 0, v, ch, nw, oc, pc, gc, dens, best_dens, long_blocks = 0
    cdef bint have_top = False
    cdef int c
    cdef long f
    out = np.zeros((n, 56), dtype=np.float64)
    cdef double[:, ::1] X = out
    ld_arr = np.empty(n)
    cum_arr = np.empty((3, n + 1))
    cdef double[::1] ld = ld_arr
    cdef double[:, ::1] cum = cum_arr  # prefix sums: characters, link characters, and (window means) scratch
    el_arrays = np.zeros((7, max(n_el, 1)))
    cdef double[:, ::1] E = el_arrays  # 0 chars (blocks), 1 link density, 2 par score, 3 grand score, 4 cand,
    #                                    5 subtree size, 6 chars (el_end - el_start)
    ints = np.zeros((5, max(n_el, 1)), dtype=np.int64)
    cdef long[:, ::1] I = ints  # 0 first block, 1 block stop, 2 scored, 3 path flags, 4 same-owner count
    own_count = np.zeros(max(n_el, 1), dtype=np.int64)
    cdef long[::1] same = own_count

    # text columns (features.text_columns)
    for b in range(n):
        ch, nw = counts[b, 0], counts[b, 1]
        v = link[b] / ch
        if v > 1.0:
            v = 1.0
        X[b, 0] = log1p(ch)
        X[b, 1] = log1p(nw)
        X[b, 2] = v
        X[b, 3] = ch / nw
        X[b, 4] = counts[b, 2] / nw
        X[b, 5] = counts[b, 3] / nw
        X[b, 6] = counts[b, 4]
        X[b, 7] = counts[b, 5] / nw
        X[b, 8] = counts[b, 6] / nw
        X[b, 9] = counts[b, 7] / nw if nw < 40 else 0.0
        X[b, 10] = v > 0.99
    # position (features.page_features)
    for b in range(n):
        X[b, 11] = <double> b / n
        X[b, 12] = start[b] / total
        X[b, 13] = log1p(total)
        X[b, 14] = log1p(<double> n)
    # structure: own element, parent, grandparent (blocks without an element count as element 0's in same_owner)
    for e in range(n_el):
        E[6, e] = <double> el_end[e] - <double> el_start[e]
    for b in range(n):
        same[owner[b] if owner[b] >= 0 else 0] += 1
    for b in range(n):
        own = owner[b]
        par = el_parent[own] if own >= 0 and n_el else -1
        grand = el_parent[par] if par >= 0 else -1
        oc = E[6, own] if own >= 0 and n_el else total
        pc = E[6, par] if par >= 0 else total
        gc = E[6, grand] if grand >= 0 else total
        X[b, 15] = log1p(<double> el_depth[own] if own >= 0 and n_el else 0.0)
        X[b, 16] = oc / total
        X[b, 17] = pc / total
        X[b, 18] = gc / total
        X[b, 19] = log1p(oc)
        X[b, 20] = log1p(pc)
        X[b, 21] = log1p(gc)
        X[b, 22] = log1p(<double> same[own if own >= 0 else 0])
        X[b, 23] = log1p(sig[own] if own >= 0 and n_el else 0.0)
    # neighbours: log chars, link density, stop words of the blocks at -2, -1, +1, +2; window means
    k = 24
    for o in (-2, -1, 1, 2):
        for c in (0, 2, 7):
            for b in range(n):
                X[b, k] = X[b + o, c] if 0 <= b + o < n else 0.0
            k += 1
    for c in (0, 2):
        cum[2, 0] = 0.0
        for b in range(n):
            cum[2, b + 1] = cum[2, b] + X[b, c]
        for b in range(n):
            lo = b - window if b - window > 0 else 0
            hi = b + window + 1 if b + window + 1 < n else n
            X[b, k] = (cum[2, hi] - cum[2, lo]) / (hi - lo)
        k += 1
    # page context (context.page_context), columns 38-55
    for b in range(n):
        ctotal += counts[b, 0]
    if ctotal < 1.0:
        ctotal = 1.0
    cum[0, 0] = cum[1, 0] = 0.0
    for b in range(n):
        ch = counts[b, 0]
        ld[b] = link[b] / (ch if ch > 1 else 1)
        lsum += link[b]
        if ld[b] > 0.5:
            linked += ch
        if ch > longest or b == 0:
            longest = ch
        if ch >= 200:
            long_blocks += 1
        cum[0, b + 1] = cum[0, b] + ch
        cum[1, b + 1] = cum[1, b] + link[b]
    for b in range(n):
        X[b, 38] = lsum / ctotal
        X[b, 39] = linked / ctotal
        X[b, 40] = longest / ctotal
        X[b, 41] = log1p(long_blocks)
    if not n_el:
        return out
    for e in range(n_el):  # blocks of each element: [first, stop) by the characters before them
        I[0, e] = _search(start, el_start[e])
        I[1, e] = _search(start, el_end[e])
        E[0, e] = cum[0, I[1, e]] - cum[0, I[0, e]]
        E[1, e] = (cum[1, I[1, e]] - cum[1, I[0, e]]) / (E[0, e] if E[0, e] > 1 else 1)
    # readability: paragraph scores to the element above the block's own, half to the one above that
    for b in range(n):
        own = owner[b]
        par = el_parent[own] if own >= 0 else -1
        if counts[b, 0] >= 25 and par >= 0:
            v = counts[b, 0] / 100
            E[2, par] += 1 + counts[b, 2] + (v if v < 3 else 3)
            I[2, par] = 1
    for b in range(n):
        own = owner[b]
        par = el_parent[own] if own >= 0 else -1
        grand = el_parent[par] if par >= 0 else -1
        if counts[b, 0] >= 25 and par >= 0 and grand >= 0:
            v = counts[b, 0] / 100
            E[3, grand] += (1 + counts[b, 2] + (v if v < 3 else 3)) / 2
            I[2, grand] = 1
    top = 0
    for e in range(n_el):
        if I[2, e]:
            E[4, e] = (E[2, e] + E[3, e] + (tag_prior[el_tag[e]] + 25.0 * ((flags[e] >> 1 & 1) - (flags[e] & 1)))) \
                * (1 - E[1, e])
            if not have_top or E[4, e] > E[4, top]:
                top, have_top = e, True
    if have_top and E[4, top] > 0:
        best = E[4, top]
        tp = el_parent[top]
        first_top, stop_top = I[0, top], I[1, top]
        if tp >= 0:
            first_tp, stop_tp = I[0, tp], I[1, tp]
        else:
            first_tp, stop_tp = 0, n
        top_share = E[0, top] / ctotal
    else:
        have_top = False
    for b in range(n):
        own = owner[b]
        par = el_parent[own] if own >= 0 else -1
        grand = el_parent[par] if par >= 0 else -1
        if have_top:
            X[b, 42] = first_top <= b < stop_top
            X[b, 43] = first_tp <= b < stop_tp
            X[b, 44] = top_share
            X[b, 45] = E[4, par] / best if par >= 0 and I[2, par] else 0.0
            X[b, 46] = E[4, grand] / best if grand >= 0 and I[2, grand] else 0.0
            v = (<double> start[b] + counts[b, 0] - <double> el_end[top]) / ctotal
            X[b, 51] = v if v > 0 else 0.0
            v = (<double> el_start[top] - <double> start[b]) / ctotal
            X[b, 52] = v if v > 0 else 0.0
        X[b, 47] = E[1, own] if own >= 0 else ld[b]
        X[b, 48] = E[1, par] if par >= 0 else X[b, 47]
    # Baisa: from element 0, into the child with the most characters per element while it holds over half
    for e in range(n_el):
        E[5, e] = 1
    for e in range(n_el - 1, -1, -1):  # children come after their parents: sizes add up from the last
        if el_parent[e] >= 0:
            E[5, el_parent[e]] += E[5, e]
    node = 0
    for _ in range(100):
        kid = -1
        for e in range(node + 1, n_el):
            if el_parent[e] == node:
                dens = E[0, e] / E[5, e]
                if kid < 0 or dens > best_dens:
                    kid, best_dens = e, dens
        if kid < 0 or E[0, kid] * 2 <= E[0, node]:
            break
        node = kid
    first_d, stop_d = I[0, node], I[1, node]
    # class/id flags of the element and every ancestor
    for e in range(n_el):
        I[3, e] = flags[e] | (I[3, el_parent[e]] if el_parent[e] >= 0 else 0)
    for b in range(n):
        X[b, 49] = first_d <= b < stop_d
        X[b, 50] = E[0, node] / ctotal
        f = I[3, owner[b]] if owner[b] >= 0 else 0
        X[b, 53] = f & 1
        X[b, 54] = f >> 1 & 1
        X[b, 55] = f >> 2 & 1
    return out


cdef Py_ssize_t _search(const long[::1] sorted_values, long value):
    """np.searchsorted(sorted_values, value, "left")."""
    cdef Py_ssize_t lo = 0, hi = sorted_values.shape[0], mid
    while lo < hi:
        mid = (lo + hi) // 2
        if sorted_values[mid] < value:
            lo = mid + 1
        else:
            hi = mid
    return lo
