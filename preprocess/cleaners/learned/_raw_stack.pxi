# The stack of open elements and the list of active formatting elements (included by _raw.pyx; raw/tree.py's
# in_scope, pop_until, implied_ends, reconstruct, push_formatting, other_end ...).


cdef bint in_scope(Reader r, int name, unsigned int names, unsigned int scope) noexcept:
    """Is an element named ``name`` (or with a flag of ``names``) in the scope ``scope``?"""
    cdef int k, n
    for k in range(r.depth - 1, -1, -1):
        n = r.st[k].name
        if n == name or fl(n) & names:
            return True
        if fl(n) & scope:
            return False
    return False


cdef int pop_until(Reader r, int name, unsigned int names) except -1:
    cdef int n
    while r.depth:
        n = pop(r)
        if n == name or fl(n) & names:
            return 0
    raise GiveUp("the whole stack popped")


cdef int implied_ends(Reader r, int but) except -1:
    while r.depth and fl(r.st[r.depth - 1].name) & F_IMPLIED and r.st[r.depth - 1].name != but:
        pop(r)
    return 0


cdef int close_p(Reader r) except -1:
    if in_scope(r, T_P, 0, F_BUTTON_SCOPE):
        implied_ends(r, T_P)
        pop_until(r, T_P, 0)
    return 0


cdef inline int mode(Reader r) noexcept:
    """The mode of the nearest open element that decides one (each element holds it: no walk down the stack;
    the elements that leave the stack from inside it, ``adopt``'s and a form, decide none)."""
    return r.st[r.depth - 1].mode if r.depth else M_BODY


cdef bint on_stack(Reader r, long uid) noexcept:
    cdef int k
    for k in range(r.depth - 1, -1, -1):
        if r.st[k].uid == uid:
            return True
    return False


cdef int stack_index(Reader r, long uid) noexcept:
    cdef int k
    for k in range(r.depth - 1, -1, -1):
        if r.st[k].uid == uid:
            return k
    return -1


cdef Fmt *act_add(Reader r) except NULL:
    """A new entry at the end of the list of active formatting elements."""
    cdef Fmt *grown
    if r.nact == r.act_cap:
        grown = <Fmt *> realloc(r.act, (2 * r.act_cap + 16) * sizeof(Fmt))
        if grown == NULL:
            raise MemoryError()
        r.act, r.act_cap = grown, 2 * r.act_cap + 16
    r.nact += 1
    return &r.act[r.nact - 1]


cdef void act_del(Reader r, int i) noexcept:
    cdef int j
    for j in range(i, r.nact - 1):
        r.act[j] = r.act[j + 1]
    r.nact -= 1


cdef int add_marker(Reader r) except -1:
    cdef Fmt *f = act_add(r)
    f.marker, f.uid, f.name = True, -1, -1
    return 0


cdef int last_marker(Reader r) noexcept:
    cdef int i
    for i in range(r.nact - 1, -1, -1):
        if r.act[i].marker:
            return i
    return -1


cdef int reconstruct(Reader r) except -1:
    """Reopen the formatting elements closed while still active (their clones: same name, same attributes)."""
    cdef int i, j
    if not r.nact or r.act[r.nact - 1].marker or on_stack(r, r.act[r.nact - 1].uid):
        return 0
    i = r.nact - 1
    while i > 0 and not r.act[i - 1].marker and not on_stack(r, r.act[i - 1].uid):
        i -= 1
    for j in range(i, r.nact):
        r.act[j].uid = push(r, r.act[j].name, SRC_FMT, &r.act[j]).uid
    return 0


cdef int clear_to_marker(Reader r) except -1:
    while r.nact:
        r.nact -= 1
        if r.act[r.nact].marker:
            return 0
    return 0


cdef int push_formatting(Reader r, int name) except -1:
    cdef long uid = push(r, name, SRC_TAG, NULL).uid
    cdef unsigned long long h = ahash_tag(r)
    cdef int i, same = 0, earliest = -1
    for i in range(r.nact - 1, -1, -1):
        if r.act[i].marker:
            break
        if r.act[i].name == name and r.act[i].ahash == h:
            same += 1
            earliest = i
    if same >= 3:  # (Noah's ark: three of a kind at most)
        act_del(r, earliest)
    cdef Fmt *f = act_add(r)
    f.marker, f.uid, f.name, f.ahash = False, uid, name, h
    f.href = href_tag(r) if name == T_A else False
    f.verdict = verdict_tag(r) if r.hints is not None else -1
    return 0


cdef int other_end(Reader r, int name) except -1:
    """"Any other end tag": close up to the element of that name unless a special element comes first."""
    cdef int k, n
    for k in range(r.depth - 1, -1, -1):
        n = r.st[k].name
        if n == name:
            implied_ends(r, name)
            while r.depth > k:
                pop(r)
            return 0
        if fl(n) & F_SPECIAL:
            return 0
    return 0
