# The page side (included by _raw.pyx; raw/page.py's PageSide): blocks and elements as blocks.split_python makes
# them, built as elements open and close, and the hint rule's candidates.


cdef int new_el(Reader r, int name, int src, Fmt *f, El *el) except -1:
    """An element as it opens (a candidate of the hint rule noted); not yet on a stack."""
    cdef int v
    r.uid += 1
    r.seq += 1
    el.name, el.e, el.uid, el.total, el.seq, el.links, el.cand = name, -1, r.uid, r.total, r.seq, 0, False
    el.root = (fl(name) & F_NOISE) != 0 or (r.uid < r.n_dropped and r.dropped[r.uid])
    el.noise = r.noise > 0 or el.root
    if r.hints is not None and r.phase == P_BODY and not r.template and not fl(name) & F_NEVER_HINTED \
            and src != SRC_NONE:
        v = verdict_tag(r) if src == SRC_TAG else f.verdict
        if v >= 0:
            r.candidates[el.uid] = [el.seq, None, None, v == 1]
            el.cand = True
    return 0


cdef int end_el(Reader r, El *el) except -1:
    if el.cand:
        c = r.candidates[el.uid]
        c[1], c[2] = r.seq, r.total - el.total
    return 0


cdef Py_ssize_t open_block(Reader r, int name, str names) except -1:
    """A block element opens on the page side (not in noise); its index in the page's element arrays."""
    cdef Py_ssize_t e
    flush(r)
    if r.nblocks >= r.max_depth or r.nblocks >= _MAX_OPEN + 24:
        raise GiveUp("elements deeper than max_depth")
    e = len(r.el_tag)
    r.el_tag.append(_tag_index[name])
    r.el_parent.append(r.cur)
    r.el_depth.append(r.nblocks)
    r.el_names.append(names)
    r.el_start.append(r.chars)
    r.el_end.append(-1)
    r.blocks[r.nblocks] = e
    r.nblocks += 1
    r.cur = e
    return e


cdef int close_block(Reader r, Py_ssize_t e) except -1:
    flush(r)
    r.el_end[e] = r.chars
    r.nblocks -= 1
    r.cur = r.blocks[r.nblocks - 1] if r.nblocks else -1
    return 0


cdef El *push(Reader r, int name, int src, Fmt *f) except NULL:
    cdef El *el
    if r.depth >= _MAX_OPEN:
        raise GiveUp(f"more than {_MAX_OPEN:,} elements open")
    el = &r.st[r.depth]
    new_el(r, name, src, f, el)
    el.mode = _mode_of[name] if name < K and _mode_of[name] else (r.st[r.depth - 1].mode if r.depth else M_BODY)
    if r.logging:
        el.rec = log_open(r, EV_OPEN, name, el.uid, -1)
    if not el.noise:
        if fl(name) & F_BLOCK:
            names = names_tag(r) if src == SRC_TAG and r.nattrs else ""
            el.e = open_block(r, name, names)
            if r.logging:
                r.ev[el.rec].obj = len(r.objs)
                r.objs.append(names)
        elif name == T_A:
            r.in_a = f.href if src == SRC_FMT else (src == SRC_TAG and href_tag(r))
            if r.logging:
                r.ev[el.rec].hi = r.in_a
            r.links += 1
            el.links = r.links
    if el.root:
        r.noise += 1
    if name == T_NOSCRIPT:
        r.noscripts += 1
    r.depth += 1
    return el


cdef int pop(Reader r) except -1:
    """The current node closes; its name."""
    cdef El el
    r.depth -= 1
    el = r.st[r.depth]
    if el.name == T_NOSCRIPT:
        r.noscripts -= 1
    close(r, &el)
    if r.ndet:
        undetach(r, el.uid)
    return el.name


cdef int undetach(Reader r, long uid) except -1:
    """The last element open in a form that left the stack closes: the form ends too."""
    cdef int i, j
    cdef El form
    for i in range(r.ndet):
        if r.det_above[i] == uid:
            form = r.det_form[i]
            for j in range(i, r.ndet - 1):
                r.det_above[j], r.det_form[j] = r.det_above[j + 1], r.det_form[j + 1]
            r.ndet -= 1
            close(r, &form)
            return 0
    return 0


cdef int detach(Reader r, int k) except -1:
    """``</form>`` with elements still open in it: the form leaves the stack at ``k`` (HTML's rule), and ends
    in the tree when the element above it does."""
    if r.ndet >= 16:
        raise GiveUp("compiled: more than 16 forms left open")
    r.det_form[r.ndet] = r.st[k]
    stack_del(r, k)
    r.det_above[r.ndet] = r.st[k].uid
    r.ndet += 1
    return 0


cdef void stack_del(Reader r, int k) noexcept:
    cdef int j
    for j in range(k, r.depth - 1):
        r.st[j] = r.st[j + 1]
    r.depth -= 1


cdef void stack_insert(Reader r, int k, El *el) noexcept:
    cdef int j
    for j in range(r.depth, k, -1):
        r.st[j] = r.st[j - 1]
    r.st[k] = el[0]
    r.depth += 1


cdef int close(Reader r, El *el) except -1:
    end_el(r, el)
    if r.logging:
        log_open(r, EV_CLOSE, el.name, el.uid, el.rec)
    if el.root:
        r.noise -= 1
    if not el.noise:
        if el.e >= 0:
            close_block(r, el.e)
        elif el.name == T_A:
            r.in_a = False
            r.links += 1
    return 0


cdef int void(Reader r, int name, int src) except -1:
    """A void element: ``<br>`` and ``<hr>`` end a block (unless the hint rule drops them)."""
    cdef El el
    new_el(r, name, src, NULL, &el)
    end_el(r, &el)
    if r.logging:
        log_open(r, EV_VOID, name, el.uid, -1)
    if (name == T_BR or name == T_HR) and not el.noise:
        flush(r)
    return 0


cdef int flush(Reader r) except -1:
    if r.buf.n:
        r.texts.append(PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, r.buf.d, r.buf.n))
        r.link_chars.append(r.llen)
        r.owner.append(r.cur)
        r.start.append(r.chars)
        r.chars += r.buf.n
    r.buf.n = r.llen = 0
    r.gap = r.lgap = False
    return 0


cdef int text(Reader r, str t, Py_ssize_t lo, Py_ssize_t hi) except -1:
    """Text of the body (``t[lo:hi]``): counted, and gathered for the block."""
    if hi <= lo or r.phase != P_BODY or r.template:
        return 0
    r.total += hi - lo
    if r.noise:
        if r.noscripts:
            r.noscript_chars += hi - lo
        return 0
    if r.logging:
        log_text(r, t, lo, hi)
    gather(r, PyUnicode_KIND(t), PyUnicode_DATA(t), lo, hi)
    return 0


cdef int gather(Reader r, int kind, void *data, Py_ssize_t lo, Py_ssize_t hi) except -1:
    """Text gathered for the block (whitespace runs as one space, as ``" ".join(t.split())`` over the block's
    pieces), and counted as link text inside a link."""
    cdef Py_ssize_t i, n = r.buf.n, llen = r.llen
    cdef Py_UCS4 c
    cdef Py_UCS4 *d
    cdef bint gap = r.gap, lgap = r.lgap, in_a = r.in_a
    reserve(&r.buf, n + 2 * (hi - lo))  # (a character and the space before it at most)
    d = r.buf.d
    for i in range(lo, hi):
        c = PyUnicode_READ(kind, data, i)
        if Py_UNICODE_ISSPACE(c):
            if n:
                gap = True
            if in_a and llen:
                lgap = True
            continue
        if gap:
            d[n] = u' '
            n += 1
            gap = False
        d[n] = c
        n += 1
        if in_a:
            llen += 1 + lgap
            lgap = False
    r.buf.n, r.llen, r.gap, r.lgap = n, llen, gap, lgap
    return 0


cdef int seen_meta(Reader r) except -1:
    """A ``<meta>`` of the document: one ``anchor.page_head`` reads, kept (``PageSide.seen``; the tag's attributes
    are still in ``r.attrs``; ``raw_content`` reads titles and JSON-LD)."""
    if not r.template and names_meta_tag(r):
        r.named.append(("meta", attrs_dict(r).get))
    return 0


cdef object end_page(Reader r):
    """The page's text ends: the blocks still open end with it."""
    cdef int i
    flush(r)
    for i in range(r.nblocks):
        r.el_end[r.blocks[i]] = r.chars
    r.page.chars = r.chars
    return r.page


cdef object finish(Reader r):
    cdef int i
    for i in range(r.depth):
        end_el(r, &r.st[i])
    for i in range(r.ndet):
        end_el(r, &r.det_form[i])
    return end_page(r)
