# (included by _scan.pyx) The tokenizer: tags, end tags of raw text, script data, comments (tokens.py's twins).

cdef Py_ssize_t scan_tag(Scanner self, Py_ssize_t j) except -2:
    """``tokens.TAG`` from ``j`` (a letter): sets ``name_end`` and ``closing``; the index after ``>``, or -1
    when the page ends first."""
    cdef Py_ssize_t k = j, n = self.n, m
    cdef Py_UCS4 c, q
    while k < n:
        c = self.at(k)
        if _ws(c) or c == u'/' or c == u'>':
            break
        k += 1
    self.name_end = k
    while True:
        if k >= n:
            return -1
        c = self.at(k)
        if c == u'>':
            self.closing = k > self.name_end and self.at(k - 1) == u'/'
            return k + 1
        if _ws(c) or c == u'/':
            k += 1
            continue
        k += 1  # an attribute name
        while k < n:
            c = self.at(k)
            if _ws(c) or c == u'/' or c == u'=' or c == u'>':
                break
            k += 1
        m = k
        while m < n and _ws(self.at(m)):
            m += 1
        if m < n and self.at(m) == u'=':
            m += 1
            while m < n and _ws(self.at(m)):
                m += 1
            if m >= n:
                return -1
            q = self.at(m)
            if q == u'"' or q == u"'":
                m = scan_find_char(self, q, m + 1)
                if m < 0:
                    return -1
                k = m + 1
            else:
                while m < n:
                    c = self.at(m)
                    if _ws(c) or c == u'>':
                        break
                    m += 1
                k = m

cdef bint scan_closes(Scanner self, Py_ssize_t j, str name) except -1:
    cdef Py_ssize_t m = len(name), k = j + 2 + m, x
    if k >= self.n or self.at(j) != u'<' or self.at(j + 1) != u'/':
        return False
    for x in range(m):
        if _low(self.at(j + 2 + x)) != <Py_UCS4> name[x]:
            return False
    c = self.at(k)
    return _ws(c) or c == u'/' or c == u'>'

cdef inline Py_ssize_t scan_find_char(Scanner self, Py_UCS4 ch, Py_ssize_t i) except -2:
    return self.find_ascii(<char> ch, i, self.n)

cdef enum:
    NAME_SLOTS = 512  # a power of two
    NAME_LONGEST = 16

cdef unsigned char _name_len[NAME_SLOTS]
cdef char _name_key[NAME_SLOTS][NAME_LONGEST]
cdef int _name_flags[NAME_SLOTS]
cdef list _name_str = [None] * NAME_SLOTS


cdef str scan_name(Scanner self, Py_ssize_t i, Py_ssize_t j):
    """``scan.lower(s[i:j])`` (a slice, lower-cased only where it has capitals), its ``_FLAGS`` in ``name_flags``.
    An ASCII name of up to 16 characters comes from a small cache keyed by its lower-cased characters, with its
    flags: the same interned string object each time, so comparisons (``_eq``) end at the identity."""
    cdef Py_ssize_t k, n = j - i
    cdef Py_UCS4 c
    cdef char key[NAME_LONGEST]
    cdef unsigned int h = 2166136261u
    cdef unsigned int slot, x
    cdef str name
    if n > NAME_LONGEST or n <= 0:
        return _flagged_name(self, _name_of(self, i, j))
    for k in range(n):
        c = self.at(i + k)
        if c > 127:
            return _flagged_name(self, _name_of(self, i, j))
        x = <unsigned int> c + 32 if 65 <= c <= 90 else <unsigned int> c
        key[k] = <char> x
        h = (h ^ x) * 16777619u
    slot = h & (NAME_SLOTS - 1)
    if _name_len[slot] == n:
        k = 0
        while k < n and _name_key[slot][k] == key[k]:
            k += 1
        if k == n:
            self.name_flags = _name_flags[slot]
            return <str> _name_str[slot]
    name = _intern(_name_of(self, i, j))  # (_FLAGS's own key for a known name: its keys are interned)
    memcpy(_name_key[slot], key, n)
    _name_len[slot] = <unsigned char> n
    _name_str[slot] = name
    _name_flags[slot] = self.name_flags = _FLAGS.get(name, 0)
    return name


cdef str _flagged_name(Scanner self, str name):
    self.name_flags = _FLAGS.get(name, 0)
    return name


cdef str _name_of(Scanner self, Py_ssize_t i, Py_ssize_t j):
    cdef Py_ssize_t k
    cdef Py_UCS4 c
    cdef bint upper = False
    for k in range(i, j):
        c = self.at(k)
        if 65 <= c <= 90:
            upper = True
        elif c > 127:
            return _lower(self.s[i:j])
    return self.s[i:j].lower() if upper else self.s[i:j]

cdef Py_ssize_t scan_raw_end(Scanner self, Py_ssize_t i, str name) except -2:
    cdef Py_ssize_t j = i
    while True:
        j = scan_find_char(self, u'<', j)
        if j < 0:
            return self.n
        if scan_closes(self, j, name):
            return j
        j += 1

cdef bint scan_starts(Scanner self, Py_ssize_t j, str w) except -1:
    cdef Py_ssize_t x, m = len(w)
    if j + m > self.n:
        return False
    for x in range(m):
        if self.at(j + x) != <Py_UCS4> w[x]:
            return False
    return True

cdef Py_ssize_t scan_script_end(Scanner self, Py_ssize_t i) except -2:
    cdef Py_ssize_t end = scan_raw_end(self, i, "script"), j, n = self.n, x
    cdef int state = 0, dashes = 0
    cdef bint esc = False
    cdef Py_UCS4 c
    j = i
    while j < end:
        j = self.find_ascii(c'<', j, end)
        if j < 0:
            break
        if scan_starts(self, j, "<!--"):
            esc = True
            break
        j += 1
    if not esc:
        return end
    j = i
    while j < n:
        c = self.at(j)
        if state == 0:
            if c == u'<':
                if scan_closes(self, j, "script"):
                    return j
                if scan_starts(self, j, "<!--"):
                    state, dashes, j = 1, 2, j + 4
                    continue
            j += 1
            continue
        if c == u'-':
            dashes += 1
            j += 1
            continue
        if c == u'>' and dashes >= 2:
            state = dashes = 0
            j += 1
            continue
        dashes = 0
        if c == u'<':
            if state == 1:
                if scan_closes(self, j, "script"):
                    return j
                if j + 7 < n and _low(self.at(j + 1)) == u's' and _low(self.at(j + 2)) == u'c' \
                        and _low(self.at(j + 3)) == u'r' and _low(self.at(j + 4)) == u'i' \
                        and _low(self.at(j + 5)) == u'p' and _low(self.at(j + 6)) == u't':
                    c = self.at(j + 7)
                    if _ws(c) or c == u'/' or c == u'>':
                        state, j = 2, j + 7
                        continue
            elif scan_closes(self, j, "script"):
                state, j = 1, j + 8
                continue
        j += 1
    return n

cdef Py_ssize_t scan_comment_end(Scanner self, Py_ssize_t j) except -2:
    cdef Py_ssize_t n = self.n, k
    if j < n and self.at(j) == u'>':
        return j + 1
    if j + 1 < n and self.at(j) == u'-' and self.at(j + 1) == u'>':
        return j + 2
    k = j
    while k < n:
        k = scan_find_char(self, u'-', k)
        if k < 0:
            return n
        if k + 2 < n and self.at(k + 1) == u'-':
            if self.at(k + 2) == u'>':
                return k + 3
            if self.at(k + 2) == u'!' and k + 3 < n and self.at(k + 3) == u'>':
                return k + 4
        k += 1
    return n
