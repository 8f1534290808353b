# (included by _scan.pyx) html.unescape's decoding of character references, in the text loop.

cdef int scan_unescape(Scanner self, Py_ssize_t i, Py_ssize_t j) except -1:
    """``s[i:j]`` with character references decoded as ``html.unescape`` decodes them, to the output."""
    cdef Py_ssize_t k = i, e, x
    cdef Py_UCS4 c
    cdef unsigned long num
    cdef unsigned int d
    cdef bint hexa
    while k < j:
        c = self.at(k)
        if c != u'&' or k + 1 >= j:
            self.text_char(c)
            k += 1
            continue
        c = self.at(k + 1)
        if c == u'#':  # &#[0-9]+;? or &#[xX][0-9a-fA-F]+;?
            e = k + 2
            hexa = e < j and (self.at(e) == u'x' or self.at(e) == u'X')
            if hexa:
                e += 1
            x, num = e, 0
            while e < j:
                d = self.at(e)
                if 48 <= d <= 57:
                    num = num * (16 if hexa else 10) + (d - 48)
                elif hexa and (97 <= d <= 102 or 65 <= d <= 70):
                    num = num * 16 + (d - 87 if d >= 97 else d - 55)
                else:
                    break
                if num > 0x10FFFF:
                    num = 0x110000  # (stays out of range: every table key is smaller)
                e += 1
            if e == x:  # no digits: the "&" is text
                self.text_char(u'&')
                k += 1
                continue
            if e < j and self.at(e) == u';':
                e += 1
            k = e
            if num in _INVALID_CHARREFS:
                self.emit_str(_INVALID_CHARREFS[num])
            elif 0xD800 <= num <= 0xDFFF or num > 0x10FFFF:
                self.text_char(0xFFFD)
            elif num not in _INVALID_CODEPOINTS:
                self.text_char(<Py_UCS4> num)
            continue
        e = k + 1  # a name: up to 32 of [^\t\n\f <&#;], then an optional ";"
        while e < j and e - k - 1 < 32:
            c = self.at(e)
            if c == 9 or c == 10 or c == 12 or c == 32 or c == u'<' or c == u'&' or c == u'#' or c == u';':
                break
            e += 1
        if e == k + 1:
            self.text_char(u'&')
            k += 1
            continue
        if e < j and self.at(e) == u';':
            e += 1
        name = self.s[k + 1:e]
        k = e
        value = _HTML5.get(name)
        if value is not None:
            self.emit_str(value)
            continue
        for x in range(len(name) - 1, 1, -1):
            value = _HTML5.get(name[:x])
            if value is not None:
                self.emit_str(value)
                self.emit_str(name[x:])
                break
        else:
            self.text_char(u'&')
            self.emit_str(name)
    return 0
