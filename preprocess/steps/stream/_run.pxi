# (included by _scan.pyx) The scan's main loop: text up to each "<", then what the markup there is.

cdef int scan_run(Scanner self) except -1:
    cdef Py_ssize_t i = 0, j, k, n = self.n
    cdef Py_UCS4 c, c2
    cdef str name
    while i < n:
        j = scan_find_char(self, u'<', i)
        if j < 0:
            self.text(i, n, True)
            break
        self.text(i, j, True)
        c = self.at(j + 1) if j + 1 < n else 0
        if _alpha(c):
            k = scan_tag(self, j + 1)
            if k < 0:
                break
            name = scan_name(self, j + 1, self.name_end)
            i = scan_start(self, name, self.name_flags, self.closing, k)
        elif c == u'/':
            c2 = self.at(j + 2) if j + 2 < n else 0
            if _alpha(c2):
                k = scan_tag(self, j + 2)
                if k < 0:
                    break
                name = scan_name(self, j + 2, self.name_end)
                scan_end(self, name, self.name_flags)
                i = k
            elif c2 == u'>':
                i = j + 3
            elif j + 2 >= n:
                self.text(j, n, True)
                break
            else:
                k = scan_find_char(self, u'>', j + 2)
                i = n if k < 0 else k + 1
        elif c == u'!':
            if j + 3 < n and self.at(j + 2) == u'-' and self.at(j + 3) == u'-':
                i = scan_comment_end(self, j + 4)
            else:
                k = scan_find_char(self, u'>', j + 2)
                i = n if k < 0 else k + 1
        elif c == u'?':
            k = scan_find_char(self, u'>', j + 1)
            i = n if k < 0 else k + 1
        else:
            self.text(j, j + 1, True)
            i = j + 1
    self.pop_to(0)
    self.end_line()
    return 0
