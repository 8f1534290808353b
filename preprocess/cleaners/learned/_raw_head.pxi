# The head's insertion modes (included by _raw.pyx; raw/head.py): initial, before html, in head, in head
# noscript, after head, and where the body starts.

# ---------------------------------------------------------------------------------------------- the head
cdef int start_body(Reader r, int src) except -1:
    if r.template:  # (text in a template's svg before <body>: the stack would empty under the body)
        raise GiveUp("the body starting inside a template")
    if not r.depth:
        push(r, T_HTML, SRC_NONE, NULL)
    r.phase = P_BODY
    push(r, T_BODY, src, NULL)
    r.body_attrs = attrs_dict(r) if src == SRC_TAG else {}
    return 0


cdef bint head_start(Reader r, int name) except -1:
    """A start tag before ``<body>``: False when it stays in the head, True when the body starts."""
    cdef unsigned int f = fl(name)
    if name == T_HTML:
        if not r.depth:
            push(r, T_HTML, SRC_NONE, NULL)
        return False
    if r.phase == P_INITIAL or r.phase == P_BEFORE_HTML:
        if not r.depth:
            push(r, T_HTML, SRC_NONE, NULL)
        r.phase = P_IN_HEAD
        if name == T_HEAD:
            return False
    if r.phase == P_HEAD_NOSCRIPT:
        if name == T_NOSCRIPT or name == T_HEAD or name == T_STYLE or name == T_NOFRAMES or name == T_LINK \
                or name == T_META or name == T_BASEFONT or name == T_BGSOUND:
            return False
        r.phase = P_IN_HEAD
    if r.phase == P_IN_HEAD:
        if name == T_NOSCRIPT:
            r.phase = P_HEAD_NOSCRIPT
            return False
        if f & F_HEAD_TAGS or name == T_HEAD:
            return False
        r.phase = P_AFTER_HEAD
    if f & F_HEAD_TAGS or name == T_HEAD:
        return False
    if name == T_FRAMESET:
        raise GiveUp("<frameset>")
    start_body(r, SRC_TAG if name == T_BODY else SRC_NONE)
    return name != T_BODY


cdef int head_end(Reader r, int name) except -1:
    if r.phase == P_HEAD_NOSCRIPT:
        if name == T_NOSCRIPT:
            r.phase = P_IN_HEAD
        elif name == T_BR:
            start_body(r, SRC_NONE)
            body_end(r, name)
        return 0
    if name == T_HEAD and r.phase != P_AFTER_HEAD:
        r.phase = P_AFTER_HEAD
    elif name == T_BODY or name == T_HTML or name == T_BR:
        start_body(r, SRC_NONE)
        if name == T_BR:
            body_end(r, name)
    return 0


cdef Py_ssize_t head_tag(Reader r, int name, Py_ssize_t p) except -1:
    """``<meta>``, ``<title>``, ``<script>`` ... by the in-head rules, before ``<body>`` or in it."""
    cdef bint in_body = r.phase == P_BODY
    cdef Py_ssize_t q
    if fl(name) & F_HEAD_VOID:
        if name == T_META:
            seen_meta(r)
        if in_body:
            void(r, name, SRC_TAG)
        return p
    if name == T_TITLE or name == T_STYLE or name == T_NOFRAMES or name == T_SCRIPT:
        if not in_body:
            return raw_content(r, name, p)
        push(r, name, SRC_TAG, NULL)
        q = raw_content(r, name, p)
        pop(r)
        return q
    raise GiveUp(f"<{name_of(r, name)}> in the head")
