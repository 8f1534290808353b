# (included by _scan.pyx) The text's fast path: runs of plain characters straight to the output buffer.

cdef Py_ssize_t scan_plain_run(Scanner self, Py_ssize_t k, Py_ssize_t j) except -1:
    """Inside a line, nothing pending: ``_plain`` characters, and single spaces between them, go to the output
    as they are (what ``text_char`` would do, one output character each); the index after them."""
    cdef Py_ssize_t start = k
    cdef Py_UCS4 c
    cdef const unsigned char *d
    cdef Py_UCS4 *out
    if self.cap - self.len < j - k:
        scan_reserve(self, j - k)
    out = self.buf + self.len
    if self.kind == PyUnicode_1BYTE_KIND:
        d = <const unsigned char *> self.data
        while k < j:
            c = d[k]
            if not (_plain(c) or (c == 32 and k + 1 < j and _plain(d[k + 1]))):
                break
            out[k - start] = c
            k += 1
    else:
        while k < j:
            c = self.at(k)
            if not (_plain(c) or (c == 32 and k + 1 < j and _plain(self.at(k + 1)))):
                break
            out[k - start] = c
            k += 1
    self.len += k - start
    return k

cdef int scan_reserve(Scanner self, Py_ssize_t more) except -1:
    cdef Py_ssize_t cap = max(2 * self.cap + 64, self.len + more)
    cdef Py_UCS4 *grown = <Py_UCS4 *> realloc(self.buf, cap * sizeof(Py_UCS4))
    if grown == NULL:
        raise MemoryError()
    self.buf, self.cap = grown, cap
    return 0
