# (included by _scan.pyx) The tree rules for start and end tags (scan.py's _start, _raw, _end).

cdef Py_ssize_t scan_start(Scanner self, str name, int f, bint closing, Py_ssize_t i) except -2:
    """A start tag ``name`` (its flags ``f``, as ``_FLAGS`` gives them) ending before ``i``."""
    cdef Py_ssize_t k
    if self.foreign:
        if not f & F_BREAKOUT:
            if not closing:
                self.push(name, f)
            return i
        while self.foreign:
            self.pop()
    if self.in_head and not f & F_HEAD_OK:
        self.in_head = False
    if f & F_ROOT:
        return i
    if f & F_NOSCRIPT and self.in_head:
        return i
    if self.select:
        if not f & F_SELECT_KEEPS:
            return i
        if f & F_SELECT or _eq(name, "input") or _eq(name, "keygen") or _eq(name, "textarea") \
                or f & F_TABLE_STOP or f & (F_CELL | F_TR | F_TSECTION | F_CAPTION):
            self.pop_to(self.find(F_SELECT, None, 0))
            if f & F_SELECT:
                return i
        elif _eq(name, "option") or _eq(name, "optgroup"):
            if self.names and (_eq(<str> self.names[len(self.names) - 1], "option") or (_eq(name, "optgroup") and _eq(<str> self.names[len(self.names) - 1], "optgroup"))):
                self.pop()
    if f & F_RAW:
        return scan_raw(self, name, f, i)
    if f & F_CLOSES_P:
        k = self.find(F_P, None, F_SCOPE | F_BUTTON)
        if k >= 0:
            self.pop_to(k)
        if f & F_HEADING and self.names and self.fl[len(self.names) - 1] & F_HEADING:
            self.pop()
    k = -2
    if f & F_LI:
        k = self.find(F_LI, None, F_LI_STOP)
    elif f & F_DDDT:
        k = self.find(F_DDDT, None, F_LI_STOP)
    elif f & F_CELL:
        k = self.find(F_CELL, None, F_TABLE_STOP | F_TR)
    elif f & F_TR:
        k = self.find(F_TR | F_CELL, None, F_TABLE_STOP | F_TSECTION)
    elif f & F_TSECTION:
        k = self.find(F_TSECTION | F_TR | F_CELL | F_CAPTION, None, F_TABLE_STOP)
    elif f & F_CAPTION:
        k = self.find(F_CAPTION | F_TR | F_CELL, None, F_TABLE_STOP)
    elif f & F_BUTTON:
        k = self.find(F_BUTTON, None, F_SCOPE)
    elif _eq(name, "a") or _eq(name, "nobr"):
        self.adopt(name)
    if k >= 0:
        self.pop_to(k)
    if k != -2 and f & F_CELL and self.find(F_TR, None, F_TABLE_STOP) < 0 and self.find(F_TABLE, None, 0) >= 0:
        self.push("tr", _FLAGS["tr"])
    if f & F_VOID:
        if f & F_BR:
            self.newline()
        return i
    if closing and f & F_FOREIGN:
        return i
    self.push(name, f)
    return i

cdef Py_ssize_t scan_raw(Scanner self, str name, int f, Py_ssize_t i) except -2:
    cdef Py_ssize_t j, e
    if _eq(name, "plaintext"):
        self.text(i, self.n, False)
        return self.n
    j = scan_script_end(self, i) if _eq(name, "script") else scan_raw_end(self, i, name)
    if _eq(name, "title"):
        t = self.s[i:j]
        if "&" in t:
            t = _unescape(t)
        if self.title is None:
            self.title = t
        if not self.in_head:
            self.body_chars += len(t)
            if not self.skip:
                self.emit_str(t)
            elif self.noscript:
                self.ns_chars += len(t)
    elif _eq(name, "xmp") or _eq(name, "noembed") or (_eq(name, "noframes") and not self.in_head):
        self.text(i, j, False)
    elif _eq(name, "textarea"):
        if not self.in_head:
            t = self.s[i:j]
            self.body_chars += len(_unescape(t) if "&" in t else t)
    elif not self.in_head and name != "script" and name != "style":  # (not the page's text: NOSCRIPT_SHARE)
        self.body_chars += j - i
    if j >= self.n:
        return self.n
    e = scan_tag(self, j + 2)
    return self.n if e < 0 else e

cdef int scan_end(Scanner self, str name, int f) except -1:
    cdef Py_ssize_t k
    if self.foreign:
        for k in range(len(self.names) - 1, max(<Py_ssize_t> len(self.names) - MAX_SEARCH, 0) - 1, -1):
            if _eq(<str> self.names[k], name):
                self.pop_to(k)
                return 0
            if self.fl[k] & F_FOREIGN:
                break
        if self.foreign:
            return 0
    if f & F_ROOT:
        return 0
    if _eq(name, "br"):
        return self.newline()
    if self.select:
        if f & F_SELECT:
            self.pop_to(self.find(F_SELECT, None, 0))
        elif (_eq(name, "option") or _eq(name, "optgroup")) and self.names and _eq(<str> self.names[len(self.names) - 1], name):
            self.pop()
        return 0
    if f & F_P:
        k = self.find(F_P, None, F_SCOPE | F_BUTTON)
        if k < 0:
            return self.newline()
    elif f & F_HEADING:
        k = self.find(F_HEADING, None, F_SCOPE)
    elif f & F_LI:
        k = self.find(F_LI, None, F_SCOPE | F_LIST)
    elif f & (F_CELL | F_TR | F_TSECTION | F_TABLE | F_CAPTION):
        k = self.find(0, name, F_TABLE_STOP)
    elif f & F_FORMATTING:
        return self.adopt(name)
    elif f & F_BLOCK_END:
        k = self.find(0, name, F_SCOPE)
    else:
        k = self.find(0, name, F_SPECIAL)
    if k >= 0:
        self.pop_to(k)
    return 0
