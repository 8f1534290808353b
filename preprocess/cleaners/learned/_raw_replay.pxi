# A reading's page side replayed with the hint rule's drops (included by _raw.pyx). The reference reads the page a
# second time with the elements to drop (``raw.read_raw``); the tree's elements, their order and text are the same
# in both readings, and a drop only makes more of them noise. So the first reading logs what the page side saw
# (elements opening and closing, text not in noise, ``adopt``'s clones) and ``replay`` builds the page from that
# log: the same page as the second reading's (``tests/test_learned_raw.py``), for a part of its cost.

cdef enum:
    EV_OPEN, EV_VOID, EV_CLOSE, EV_CLONE, EV_TEXT, EV_LINK_END


cdef int log_open(Reader r, int kind, int name, long uid, int src) except -1:
    """An event; its index (an element's ``rec``)."""
    cdef Ev *grown
    cdef Ev *e
    if r.nev == r.ev_cap:
        grown = <Ev *> realloc(r.ev, (2 * r.ev_cap + 256) * sizeof(Ev))
        if grown == NULL:
            raise MemoryError()
        r.ev, r.ev_cap = grown, 2 * r.ev_cap + 256
    e = &r.ev[r.nev]
    e.kind, e.name, e.uid, e.src, e.obj, e.lo, e.hi = kind, name, uid, src, -1, 0, 0
    r.nev += 1
    return r.nev - 1


cdef int log_text(Reader r, str t, Py_ssize_t lo, Py_ssize_t hi) except -1:
    cdef int i = log_open(r, EV_TEXT, -1, 0, -1)
    r.ev[i].lo, r.ev[i].hi = lo, hi
    if t is not r.s:
        r.ev[i].obj = len(r.objs)
        r.objs.append(t)
    return 0


cdef object replay(Reader r, drop):
    """The page of a second reading that drops the elements (uids) ``drop``, from the first reading's log."""
    cdef int i, j, count = 0
    cdef Ev *e
    cdef bint *nz = <bint *> malloc((r.nev + 1) * sizeof(bint))
    cdef bint *root = <bint *> malloc((r.nev + 1) * sizeof(bint))
    cdef Py_ssize_t *el = <Py_ssize_t *> malloc((r.nev + 1) * sizeof(Py_ssize_t))
    cdef set dropped = set(drop)
    cdef str t
    if not r.logging:
        free(nz)
        free(root)
        free(el)
        raise RuntimeError("replay: the reading was not logged (no hint rule, or a second reading)")
    if nz == NULL or root == NULL or el == NULL:
        free(nz)
        free(root)
        free(el)
        raise MemoryError()
    r.page = Page()
    p = r.page
    r.texts, r.link_chars, r.owner, r.start = p.texts, p.link_chars, p.owner, p.start
    r.el_tag, r.el_parent, r.el_depth, r.el_names = p.el_tag, p.el_parent, p.el_depth, p.el_names
    r.el_start, r.el_end = p.el_start, p.el_end
    r.nblocks, r.chars, r.cur, r.in_a = 0, 0, -1, False
    r.buf.n = r.llen = 0
    r.gap = r.lgap = False
    try:
        for i in range(r.nev):
            e = &r.ev[i]
            if e.kind == EV_OPEN or e.kind == EV_VOID:
                root[i] = (fl(e.name) & F_NOISE) != 0 or e.uid in dropped
                nz[i] = count > 0 or root[i]
                el[i] = -1
                if e.kind == EV_VOID:
                    if (e.name == T_BR or e.name == T_HR) and not nz[i]:
                        flush(r)
                    continue
                if not nz[i]:
                    if fl(e.name) & F_BLOCK:
                        el[i] = open_block(r, e.name, r.objs[e.obj])
                    elif e.name == T_A:
                        r.in_a = e.hi != 0
                if root[i]:
                    count += 1
            elif e.kind == EV_CLONE:
                root[i], nz[i], el[i] = False, nz[e.src], -1
            elif e.kind == EV_CLOSE:
                j = e.src
                if root[j]:
                    count -= 1
                if not nz[j]:
                    if el[j] >= 0:
                        close_block(r, el[j])
                    elif e.name == T_A:
                        r.in_a = False
            elif e.kind == EV_TEXT:
                if not count:
                    t = r.s if e.obj < 0 else r.objs[e.obj]
                    gather(r, PyUnicode_KIND(t), PyUnicode_DATA(t), e.lo, e.hi)
            elif e.kind == EV_LINK_END:
                if nz[e.src] and not nz[e.hi]:
                    r.in_a = False
        return end_page(r)
    finally:
        free(nz)
        free(root)
        free(el)
