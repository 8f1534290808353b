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
