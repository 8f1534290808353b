# The tree builder in <body> (included by _raw.pyx; raw/tree.py's Reader): start and end tags dispatched by
# insertion mode, the in-body rules.


cdef Py_ssize_t start_tag(Reader r, int name, bint closing, Py_ssize_t p) except -1:
    cdef int m
    r.skip_lf = False
    if r.nfo:
        return foreign_start(r, name, closing, p)
    if name == T_TEMPLATE or r.template:
        return template_start(r, name, closing, p)
    if r.phase != P_BODY and not head_start(r, name):
        return head_tag(r, name, p) if fl(name) & F_HEAD_TAGS else p
    if name == T_IMAGE:
        name = T_IMG
    m = mode(r)
    if m == M_SELECT:
        return select_start(r, name, p)
    if m == M_COLGROUP:
        if name == T_COL:
            void(r, name, SRC_TAG)
            return p
        pop(r)
        return start_tag(r, name, closing, p)
    if m == M_TABLE or m == M_TBODY or m == M_ROW:
        return table_start(r, m, name, closing, p)
    if (m == M_CELL or m == M_CAPTION) and fl(name) & F_TABLE_PARTS:
        if m == M_CELL:
            close_cell(r)
        else:
            close_caption(r)
        return start_tag(r, name, closing, p)
    return body_start(r, name, closing, p)


cdef Py_ssize_t body_start(Reader r, int name, bint closing, Py_ssize_t p) except -1:
    cdef unsigned int f = fl(name)
    cdef int k, n
    if f & F_CLOSES_P:
        close_p(r)
        push(r, name, SRC_TAG, NULL)
    elif f & F_HEADING:
        close_p(r)
        if fl(r.st[r.depth - 1].name) & F_HEADING:
            pop(r)
        push(r, name, SRC_TAG, NULL)
    elif name == T_PRE or name == T_LISTING:
        close_p(r)
        push(r, name, SRC_TAG, NULL)
        r.skip_lf = True
    elif name == T_FORM:
        if r.form < 0:
            close_p(r)
            r.form = push(r, name, SRC_TAG, NULL).uid
    elif name == T_LI or name == T_DD or name == T_DT:
        for k in range(r.depth - 1, -1, -1):
            n = r.st[k].name
            if (name == T_LI and n == T_LI) or (name != T_LI and fl(n) & F_DDDT):
                implied_ends(r, n)
                pop_until(r, n, 0)
                break
            if fl(n) & F_SPECIAL and n != T_ADDRESS and n != T_DIV and n != T_P:
                break
        close_p(r)
        push(r, name, SRC_TAG, NULL)
    elif name == T_BUTTON:
        if in_scope(r, T_BUTTON, 0, F_SCOPE):
            implied_ends(r, -1)
            pop_until(r, T_BUTTON, 0)
        reconstruct(r)
        push(r, name, SRC_TAG, NULL)
    elif name == T_A:
        link_in_link(r)
        reconstruct(r)
        push_formatting(r, name)
    elif f & F_FORMATTING:
        reconstruct(r)
        if name == T_NOBR and in_scope(r, T_NOBR, 0, F_SCOPE):
            raise GiveUp("<nobr> in <nobr>")
        push_formatting(r, name)
    elif name == T_APPLET or name == T_MARQUEE or name == T_OBJECT:
        reconstruct(r)
        push(r, name, SRC_TAG, NULL)
        add_marker(r)
    elif name == T_TABLE:
        if in_scope(r, T_P, 0, F_BUTTON_SCOPE):
            if r.quirks < 0:
                raise GiveUp("a table in a p, quirks mode unknown")
            if not r.quirks:
                close_p(r)
        push(r, name, SRC_TAG, NULL)
    elif name == T_AREA or name == T_BR or name == T_EMBED or name == T_IMG or name == T_KEYGEN \
            or name == T_WBR or name == T_INPUT:
        reconstruct(r)
        void(r, name, SRC_TAG)
    elif name == T_PARAM or name == T_SOURCE or name == T_TRACK:
        void(r, name, SRC_TAG)
    elif name == T_HR:
        close_p(r)
        void(r, name, SRC_TAG)
    elif name == T_TEXTAREA or name == T_XMP or name == T_IFRAME or name == T_NOEMBED or name == T_NOFRAMES \
            or name == T_STYLE or name == T_SCRIPT:
        if name == T_XMP:
            close_p(r)
            reconstruct(r)
        push(r, name, SRC_TAG, NULL)
        p = raw_content(r, name, p)
        pop(r)
    elif name == T_SELECT:
        reconstruct(r)
        push(r, name, SRC_TAG, NULL)
    elif name == T_OPTGROUP or name == T_OPTION:
        if r.st[r.depth - 1].name == T_OPTION:
            pop(r)
        reconstruct(r)
        push(r, name, SRC_TAG, NULL)
    elif name == T_RB or name == T_RTC or name == T_RP or name == T_RT:
        if in_scope(r, T_RUBY, 0, F_SCOPE):
            raise GiveUp("ruby annotations")
        push(r, name, SRC_TAG, NULL)
    elif name == T_SVG or name == T_MATH:
        reconstruct(r)
        foreign_root(r, name, closing)
    elif f & F_TABLE_PARTS or name == T_FRAME or name == T_HEAD or name == T_HTML:
        pass
    elif name == T_BODY:
        if r.depth < 2 or r.st[1].name != T_BODY:
            raise GiveUp("<body> with no body open")
        if r.nattrs:
            merge_body(r)
    elif f & F_HEAD_VOID or name == T_TITLE:
        return head_tag(r, name, p)
    elif name == T_FRAMESET or name == T_PLAINTEXT or name == T_ISINDEX:
        raise GiveUp(f"<{name_of(r, name)}>")
    else:
        reconstruct(r)
        push(r, name, SRC_TAG, NULL)
    return p


cdef int link_in_link(Reader r) except -1:
    """An ``<a>`` while a link is still active: the adoption agency closes it, and it leaves both lists."""
    cdef int i, k
    cdef long uid
    for i in range(r.nact - 1, -1, -1):
        if r.act[i].marker:
            return 0
        if r.act[i].name == T_A:
            uid = r.act[i].uid
            adoption(r, T_A)
            for k in range(r.nact):
                if not r.act[k].marker and r.act[k].uid == uid:
                    act_del(r, k)
                    break
            k = stack_index(r, uid)
            if k >= 0:
                if k != r.depth - 1:
                    raise GiveUp("a link left open inside a link")
                pop(r)
            return 0
    return 0


cdef int end_tag(Reader r, int name) except -1:
    cdef int m
    r.skip_lf = False
    if r.nfo:
        return foreign_end(r, name)
    if r.template:
        return template_end(r, name)
    if name == T_TEMPLATE:
        return 0
    if r.phase != P_BODY:
        return head_end(r, name)
    m = mode(r)
    if m == M_SELECT:
        return select_end(r, name)
    if m != M_BODY and table_end(r, m, name):
        return 0
    return body_end(r, name)


cdef int body_end(Reader r, int name) except -1:
    cdef unsigned int f = fl(name)
    cdef int k
    cdef long uid
    if name == T_BODY or name == T_HTML:
        return 0
    if name == T_BR:
        reconstruct(r)
        void(r, T_BR, SRC_NONE)
    elif name == T_P:
        if not in_scope(r, T_P, 0, F_BUTTON_SCOPE):
            push(r, T_P, SRC_NONE, NULL)
        close_p(r)
    elif name == T_LI:
        if in_scope(r, T_LI, 0, F_LIST_SCOPE):
            implied_ends(r, T_LI)
            pop_until(r, T_LI, 0)
    elif name == T_DD or name == T_DT:
        if in_scope(r, name, 0, F_SCOPE):
            implied_ends(r, name)
            pop_until(r, name, 0)
    elif f & F_HEADING:
        if in_scope(r, -1, F_HEADING, F_SCOPE):
            implied_ends(r, -1)
            pop_until(r, -1, F_HEADING)
    elif name == T_FORM:
        uid, r.form = r.form, -1
        for k in range(r.depth - 1, -1, -1):
            if r.st[k].uid == uid or fl(r.st[k].name) & F_SCOPE:
                break
        else:
            k = -1
        if k >= 0 and r.st[k].uid == uid:
            implied_ends(r, -1)
            if r.st[r.depth - 1].uid == uid:
                pop(r)
            else:  # the form leaves the stack; in the tree it holds what is still open, until that closes
                detach(r, k)
    elif f & F_FORMATTING:
        adoption(r, name)
    elif name == T_APPLET or name == T_MARQUEE or name == T_OBJECT:
        if in_scope(r, name, 0, F_SCOPE):
            implied_ends(r, -1)
            pop_until(r, name, 0)
            clear_to_marker(r)
    elif f & F_CLOSES_P or name == T_BUTTON or name == T_PRE or name == T_LISTING:
        if in_scope(r, name, 0, F_SCOPE):
            implied_ends(r, -1)
            pop_until(r, name, 0)
    else:
        other_end(r, name)
    return 0



cdef int merge_body(Reader r) except -1:
    """A second ``<body>``: its attributes the first one lacks are added to it."""
    cdef dict new = {k: v for k, v in attrs_dict(r).items() if k not in r.body_attrs}
    if new:
        r.body_attrs.update(new)
        r.el_names[0] = _names_of(r.body_attrs)
        if r.logging and r.ev[r.st[1].rec].obj >= 0:  # (a replay writes the names as they are now)
            r.objs[r.ev[r.st[1].rec].obj] = r.el_names[0]
    return 0
