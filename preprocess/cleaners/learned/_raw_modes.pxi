# The rarer rules (included by _raw.pyx; raw/modes.py): <template>, svg/math and <select>.

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
