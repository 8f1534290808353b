# The rarer rules (included by _raw.pyx): the head's insertion modes (raw/head.py), the adoption agency's cases
# that move nothing (raw/modes.py; its furthest block gives up here), svg/math, <select>, the table modes
# (raw/tables.py).

# ---------------------------------------------------------------------------------------------- the head
cdef int start_body(Reader r, int src) except -1:
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
            seen(r, name, None)
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


# ---------------------------------------------------------------------------------------------- the adoption agency
cdef int adoption(Reader r, int name) except -1:
    """The adoption agency for the end tag of formatting element ``name``, where it moves nothing."""
    cdef int outer, i, fe, pos, k, fb
    cdef El *cur = &r.st[r.depth - 1]
    cdef bint active = False
    for i in range(r.nact):
        if not r.act[i].marker and r.act[i].uid == cur.uid:
            active = True
    if cur.name == name and not active:
        pop(r)
        return 0
    for outer in range(8):
        fe = -1
        for i in range(r.nact - 1, -1, -1):
            if r.act[i].marker:
                break
            if r.act[i].name == name:
                fe = i
                break
        if fe < 0:
            if outer == 0:
                other_end(r, name)
            return 0
        pos = stack_index(r, r.act[fe].uid)
        if pos < 0:
            act_del(r, fe)
            return 0
        for k in range(pos + 1, r.depth):
            if fl(r.st[k].name) & F_SCOPE:
                return 0  # not in scope: ignored
        fb = -1
        for k in range(pos + 1, r.depth):
            if fl(r.st[k].name) & F_SPECIAL:
                fb = k
                break
        if fb < 0:
            while r.depth > pos:
                pop(r)
            act_del(r, fe)
            return 0
        for k in range(pos + 1, fb):
            if fl(r.st[k].name) & F_BLOCK or r.st[k].name == T_A:
                raise GiveUp("a link or a block moved by the adoption agency")
        if fl(r.st[pos - 1].name) & F_FOSTER:
            raise GiveUp("the adoption agency into a table (foster parenting)")
        for k in range(pos, fb):
            if r.st[k].cand:  # (their text would change)
                raise GiveUp("the adoption agency moves elements the hint rule measures")
        if name == T_A and not r.st[pos].noise and r.st[pos].links != r.links:
            raise GiveUp("a link moved by the adoption agency after other links")
        adopt(r, name, fe, r.act[fe].uid, r.st[fb].uid, fb)
    return 0


cdef int act_index(Reader r, long uid) noexcept:
    cdef int i
    for i in range(r.nact):
        if not r.act[i].marker and r.act[i].uid == uid:
            return i
    return -1


cdef int adopt(Reader r, int name, int fe, long uid, long fb_uid, int k) except -1:
    """One round of the algorithm's furthest-block case, on the stack and the list only (``Modes._adopt``)."""
    cdef int bookmark = fe, inner = 0, li, j, fbk
    cdef bint last_is_fb = True, fe_noise = False
    cdef int fe_rec
    cdef El node, clone
    cdef Fmt entry
    while True:
        inner += 1
        k -= 1
        node = r.st[k]
        if node.uid == uid:
            break
        li = act_index(r, node.uid)
        if inner > 3 and li >= 0:
            act_del(r, li)
            bookmark -= li < bookmark
            fe -= li < fe
            li = -1
        if li < 0:
            if r.ndet:
                raise GiveUp("the adoption agency with a form left open")
            stack_del(r, k)  # (it stays in the tree; it leaves the stack)
            continue
        r.uid += 1
        r.act[li].uid = r.uid
        r.st[k].uid, r.st[k].e, r.st[k].root, r.st[k].cand, r.st[k].links = r.uid, -1, False, False, 0
        if r.logging:
            r.st[k].rec = log_open(r, EV_CLONE, node.name, r.uid, node.rec)
        if last_is_fb:
            bookmark = li + 1
        last_is_fb = False
    if r.ndet:
        raise GiveUp("the adoption agency with a form left open")
    entry = r.act[fe]
    j = stack_index(r, uid)
    fe_noise, fe_rec = r.st[j].noise, r.st[j].rec
    act_del(r, fe)
    bookmark -= fe < bookmark
    r.uid += 1
    entry.uid = r.uid
    act_insert(r, bookmark, &entry)
    stack_del(r, j)
    fbk = stack_index(r, fb_uid)
    clone.name, clone.e, clone.noise, clone.root, clone.cand = name, -1, r.st[fbk].noise, False, False
    clone.uid, clone.total, clone.seq, clone.links = r.uid, r.total, r.seq, r.links
    clone.mode = r.st[fbk].mode
    if r.logging:
        clone.rec = log_open(r, EV_CLONE, name, r.uid, r.st[fbk].rec)
        if name == T_A:
            r.ev[log_open(r, EV_LINK_END, name, 0, r.st[fbk].rec)].hi = fe_rec
    stack_insert(r, fbk + 1, &clone)
    if name == T_A and r.st[fbk].noise and not fe_noise:  # (the link ends before the furthest block: noise)
        r.in_a = False
    return 0


cdef int act_insert(Reader r, int i, Fmt *f) except -1:
    cdef int j
    act_add(r)
    for j in range(r.nact - 1, i, -1):
        r.act[j] = r.act[j - 1]
    r.act[i] = f[0]
    return 0


# ---------------------------------------------------------------------------------------------- <template>
cdef Py_ssize_t template_start(Reader r, int name, bint closing, Py_ssize_t p) except -1:
    """Inside a ``<template>`` (``Modes.template_start``): where it ends, and the formatting elements it leaves
    active."""
    cdef unsigned int f = fl(name)
    cdef int i
    if name == T_TEMPLATE:
        push(r, name, SRC_TAG, NULL)
        add_marker(r)
        r.template += 1
    elif f & F_RAW or name == T_SCRIPT:
        return raw_content(r, name, p)
    elif name == T_SVG or name == T_MATH:
        foreign_root(r, name, closing)
    elif name == T_PLAINTEXT or f & F_TABLE_PARTS:
        raise GiveUp(f"<{name_of(r, name)}> in a template")
    elif f & F_FORMATTING:
        if name == T_A:
            for i in range(last_marker(r) + 1, r.nact):
                if r.act[i].name == T_A:
                    raise GiveUp("<a> in <a> in a template")
        if name == T_NOBR and in_scope(r, T_NOBR, 0, F_SCOPE):
            raise GiveUp("<nobr> in <nobr> in a template")
        push_formatting(r, name)
    elif name == T_APPLET or name == T_MARQUEE or name == T_OBJECT:
        push(r, name, SRC_TAG, NULL)
        add_marker(r)
    elif not f & F_VOID and name != T_IMAGE:
        push(r, name, SRC_TAG, NULL)
    return p


cdef int template_end(Reader r, int name) except -1:
    cdef El *cur = &r.st[r.depth - 1]
    cdef int i, entry = -1
    if name == T_TEMPLATE:
        while pop(r) != T_TEMPLATE:
            pass
        clear_to_marker(r)
        r.template -= 1
    elif fl(name) & F_FORMATTING:
        for i in range(r.nact - 1, last_marker(r), -1):
            if r.act[i].name == name:
                entry = i
                break
        if entry < 0 and cur.name == name:
            pop(r)
        elif entry >= 0 and cur.uid == r.act[entry].uid:
            pop(r)
            act_del(r, entry)
        elif entry >= 0 and not on_stack(r, r.act[entry].uid):
            act_del(r, entry)
        elif entry >= 0:
            raise GiveUp(f"</{name_of(r, name)}> misnested in a template")
        else:
            for i in range(r.depth):
                if r.st[i].name == name:
                    raise GiveUp(f"</{name_of(r, name)}> misnested in a template")
    elif name == T_APPLET or name == T_MARQUEE or name == T_OBJECT:
        if cur.name != name:
            raise GiveUp(f"</{name_of(r, name)}> misnested in a template")
        pop(r)
        clear_to_marker(r)
    elif cur.name == name:
        pop(r)
    return 0


# ---------------------------------------------------------------------------------------------- svg/math
cdef int fo_add(Reader r, El *el) except -1:
    cdef El *grown
    if r.nfo == r.fo_cap:
        grown = <El *> realloc(r.fo, (2 * r.fo_cap + 16) * sizeof(El))
        if grown == NULL:
            raise MemoryError()
        r.fo, r.fo_cap = grown, 2 * r.fo_cap + 16
    r.fo[r.nfo] = el[0]
    r.nfo += 1
    return 0


cdef int foreign_root(Reader r, int name, bint closing) except -1:
    cdef El *el = push(r, name, SRC_TAG, NULL)
    if closing:
        pop(r)
    else:
        fo_add(r, el)
    return 0


cdef Py_ssize_t foreign_start(Reader r, int name, bint closing, Py_ssize_t p) except -1:
    cdef El el
    if fl(name) & F_BREAKOUT or name == T_FONT and (find_attr(r, b"color", 5) >= 0 or find_attr(r, b"face", 4) >= 0
                                                   or find_attr(r, b"size", 4) >= 0):
        raise GiveUp("HTML breaking out of svg/math")
    if fl(r.fo[r.nfo - 1].name) & F_INTEGRATION:
        raise GiveUp("markup in an svg/math integration point")
    if name == T_SCRIPT and r.nattrs and type_is(r, LD_JSON):
        raise GiveUp("JSON-LD in svg/math")
    new_el(r, name, SRC_TAG, NULL, &el)
    if closing:
        end_el(r, &el)
    else:
        fo_add(r, &el)
    return p


cdef int foreign_end(Reader r, int name) except -1:
    """An end tag in svg/math closes up to the innermost element of that name (the elements it holds too)."""
    cdef int i = r.nfo - 1
    while i >= 0 and r.fo[i].name != name:
        i -= 1
    if i < 0:
        raise GiveUp("an HTML end tag inside svg/math")
    while r.nfo > i:
        r.nfo -= 1
        if r.nfo:
            end_el(r, &r.fo[r.nfo])
        else:
            pop(r)
    return 0


# ---------------------------------------------------------------------------------------------- <select>
cdef Py_ssize_t select_start(Reader r, int name, Py_ssize_t p) except -1:
    cdef unsigned int f = fl(name)
    if name == T_OPTION or name == T_OPTGROUP:
        implied_ends(r, T_OPTGROUP if name == T_OPTION else -1)
        if in_scope(r, T_OPTION, 0, F_SCOPE) or name == T_OPTGROUP and in_scope(r, T_OPTGROUP, 0, F_SCOPE):
            raise GiveUp(f"<{name_of(r, name)}> with an option open")
        reconstruct(r)
        push(r, name, SRC_TAG, NULL)
    elif name == T_SELECT:
        if not in_scope(r, T_SELECT, 0, F_SCOPE):
            raise GiveUp("<select> in a select out of scope")
        pop_until(r, T_SELECT, 0)
    elif name == T_INPUT or name == T_KEYGEN or name == T_TEXTAREA or name == T_PLAINTEXT or name == T_FORM \
            or name == T_BUTTON or name == T_A or name == T_NOBR or name == T_HR or name == T_LI or name == T_DD \
            or name == T_DT or name == T_TABLE or f & F_TABLE_PARTS:
        raise GiveUp(f"<{name_of(r, name)}> in a select")
    elif (f & (F_CLOSES_P | F_HEADING) or name == T_PRE or name == T_LISTING or name == T_XMP) \
            and in_scope(r, T_P, 0, F_BUTTON_SCOPE):
        raise GiveUp(f"<{name_of(r, name)}> in a select")
    else:
        return body_start(r, name, False, p)
    return p


cdef int select_end(Reader r, int name) except -1:
    cdef int k = -1, mine = -1, i
    cdef unsigned int f = fl(name)
    if name == T_SELECT:
        if not in_scope(r, T_SELECT, 0, F_SCOPE):
            raise GiveUp("</select> out of scope")
        pop_until(r, T_SELECT, 0)
        return 0
    for i in range(r.depth):
        if r.st[i].name == T_SELECT:
            k = i
        if r.st[i].name == name or f & F_HEADING and fl(r.st[i].name) & F_HEADING:
            mine = i
    if -1 < mine < k or name == T_P or name == T_BR or name == T_FORM or name == T_TABLE \
            or f & (F_FORMATTING | F_TABLE_PARTS):
        raise GiveUp(f"</{name_of(r, name)}> in a select")
    if name == T_OPTION or name == T_OPTGROUP:
        return other_end(r, name)
    return body_end(r, name)


# ---------------------------------------------------------------------------------------------- tables
cdef int clear_back(Reader r, int name, unsigned int names) except -1:
    cdef int n
    while r.depth:
        n = r.st[r.depth - 1].name
        if n == name or fl(n) & names or n == T_TABLE or n == T_TEMPLATE or n == T_HTML:
            return 0
        pop(r)
    return 0


cdef int close_cell(Reader r) except -1:
    implied_ends(r, -1)
    pop_until(r, -1, F_CELL)
    clear_to_marker(r)
    return 0


cdef int close_caption(Reader r) except -1:
    implied_ends(r, -1)
    pop_until(r, T_CAPTION, 0)
    clear_to_marker(r)
    return 0


cdef Py_ssize_t table_start(Reader r, int m, int name, bint closing, Py_ssize_t p) except -1:
    cdef El *el
    if m == M_ROW and (name == T_TD or name == T_TH):
        clear_back(r, T_TR, 0)
        push(r, name, SRC_TAG, NULL)
        add_marker(r)
        return p
    if m == M_ROW and (name == T_CAPTION or name == T_COL or name == T_COLGROUP or fl(name) & F_TSECTION
                       or name == T_TR):
        clear_back(r, T_TR, 0)
        pop(r)
        return start_tag(r, name, closing, p)
    if m == M_TBODY:
        if name == T_TR:
            clear_back(r, -1, F_TSECTION)
            push(r, name, SRC_TAG, NULL)
            return p
        if name == T_TD or name == T_TH:
            clear_back(r, -1, F_TSECTION)
            push(r, T_TR, SRC_NONE, NULL)
            return start_tag(r, name, closing, p)
        if name == T_CAPTION or name == T_COL or name == T_COLGROUP or fl(name) & F_TSECTION:
            clear_back(r, -1, F_TSECTION)
            pop(r)
            return start_tag(r, name, closing, p)
    if name == T_CAPTION:
        clear_back(r, T_TABLE, 0)
        add_marker(r)
        push(r, name, SRC_TAG, NULL)
    elif name == T_COLGROUP:
        clear_back(r, T_TABLE, 0)
        push(r, name, SRC_TAG, NULL)
    elif name == T_COL:
        clear_back(r, T_TABLE, 0)
        push(r, T_COLGROUP, SRC_NONE, NULL)
        void(r, name, SRC_TAG)
    elif fl(name) & F_TSECTION:
        clear_back(r, T_TABLE, 0)
        push(r, name, SRC_TAG, NULL)
    elif name == T_TD or name == T_TH or name == T_TR:
        clear_back(r, T_TABLE, 0)
        push(r, T_TBODY, SRC_NONE, NULL)
        return start_tag(r, name, closing, p)
    elif name == T_TABLE:
        pop_until(r, T_TABLE, 0)
        return start_tag(r, name, closing, p)
    elif name == T_STYLE or name == T_SCRIPT:
        push(r, name, SRC_TAG, NULL)
        p = raw_content(r, name, p)
        pop(r)
    elif name == T_INPUT and r.nattrs and type_is(r, "hidden"):
        void(r, name, SRC_TAG)
    elif name == T_FORM:
        if r.form < 0:
            r.form = push(r, name, SRC_TAG, NULL).uid
            pop(r)
    elif name == T_META or name == T_LINK:
        if name == T_META and names_meta_tag(r):
            raise GiveUp("a page name's <meta> in a table (foster parenting)")
        void(r, name, SRC_TAG)
    else:
        raise GiveUp(f"<{name_of(r, name)}> in a table (foster parenting)")
    return p


cdef bint table_end(Reader r, int m, int name) except -1:
    """True when the table modes handled (or ignored) the end tag; False: the in-body rules apply."""
    cdef bint body_html = name == T_BODY or name == T_HTML
    cdef bint cols = name == T_CAPTION or name == T_COL or name == T_COLGROUP
    if m == M_CELL:
        if name == T_TD or name == T_TH:
            if in_scope(r, name, 0, F_TABLE_SCOPE):
                close_cell(r)
            return True
        if name == T_TABLE or fl(name) & F_TSECTION or name == T_TR:
            if in_scope(r, name, 0, F_TABLE_SCOPE):
                close_cell(r)
                end_tag(r, name)
            return True
        return body_html or cols
    if m == M_CAPTION:
        if name == T_CAPTION:
            if in_scope(r, T_CAPTION, 0, F_TABLE_SCOPE):
                close_caption(r)
            return True
        if name == T_TABLE:
            close_caption(r)
            end_tag(r, name)
            return True
        return body_html or fl(name) & F_TABLE_PARTS != 0
    if m == M_COLGROUP:
        if name == T_COLGROUP:
            pop(r)
            return True
        raise GiveUp("colgroup content")
    if m == M_ROW:
        if name == T_TR:
            clear_back(r, T_TR, 0)
            pop(r)
            return True
        if name == T_TABLE or fl(name) & F_TSECTION:
            if name != T_TABLE and not in_scope(r, name, 0, F_TABLE_SCOPE):
                return True
            clear_back(r, T_TR, 0)
            pop(r)
            end_tag(r, name)
            return True
        if body_html or cols or name == T_TD or name == T_TH:
            return True
    if m == M_TBODY:
        if fl(name) & F_TSECTION:
            if in_scope(r, name, 0, F_TABLE_SCOPE):
                clear_back(r, -1, F_TSECTION)
                pop(r)
            return True
        if name == T_TABLE:
            clear_back(r, -1, F_TSECTION)
            pop(r)
            end_tag(r, name)
            return True
        if body_html or cols or name == T_TD or name == T_TH or name == T_TR:
            return True
    if name == T_BR:
        raise GiveUp("</br> in a table (foster parenting)")
    if name == T_TABLE:
        if in_scope(r, T_TABLE, 0, F_TABLE_SCOPE):
            pop_until(r, T_TABLE, 0)
        return True
    if body_html or fl(name) & F_TABLE_PARTS:
        return True
    if name == T_P and not in_scope(r, T_P, 0, F_BUTTON_SCOPE):
        raise GiveUp("</p> without a p (in a table)")
    return False
