# The table modes (included by _raw.pyx; raw/tables.py): in table, in table body, in row, in cell, in caption,
# in column group; content HTML would foster-parent out of the table gives up.

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
