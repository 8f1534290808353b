# The adoption agency (included by _raw.pyx; raw/modes.py's adoption and _adopt): misnested formatting
# elements, the furthest block's case on the stack and the list only.

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
