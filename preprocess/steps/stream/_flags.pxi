# (included by _scan.pyx) Element classes as bit flags, from names.py.

cdef enum:
    F_SPECIAL = 1 << 0
    F_FORMATTING = 1 << 1
    F_VOID = 1 << 2
    F_SCOPE = 1 << 3
    F_CLOSES_P = 1 << 4
    F_HEADING = 1 << 5
    F_BREAKOUT = 1 << 6
    F_HEAD_OK = 1 << 7
    F_TABLE_STOP = 1 << 8
    F_SKIP = 1 << 9
    F_BLOCK = 1 << 10
    F_CELL = 1 << 11
    F_FOREIGN = 1 << 12
    F_BLOCK_END = 1 << 13
    F_BUTTON = 1 << 14
    F_LIST = 1 << 15
    F_LI_STOP = 1 << 16
    F_TR = 1 << 17
    F_TSECTION = 1 << 18
    F_DDDT = 1 << 19
    F_RAW = 1 << 20
    F_SELECT_KEEPS = 1 << 21
    F_CAPTION = 1 << 22
    F_NOSCRIPT = 1 << 23
    F_SELECT = 1 << 24
    F_PRE = 1 << 25
    F_TABLE = 1 << 26
    F_ROOT = 1 << 27
    F_LI = 1 << 28
    F_P = 1 << 29
    F_BR = 1 << 30

cdef dict _FLAGS = {}
cdef Py_ssize_t MAX_SEARCH = _py.MAX_SEARCH


def _flag(names, int bit):
    for name in names:
        name = _intern(name)  # (scan_name's names are interned: _eq compares them by identity)
        _FLAGS[name] = _FLAGS.get(name, 0) | bit


_flag(N.SPECIAL, F_SPECIAL)
_flag(N.FORMATTING, F_FORMATTING)
_flag(N.VOID, F_VOID)
_flag(N.SCOPE, F_SCOPE)
_flag(N.CLOSES_P, F_CLOSES_P)
_flag(N.HEADINGS, F_HEADING)
_flag(N.BREAKOUT, F_BREAKOUT)
_flag(N.HEAD_OK, F_HEAD_OK)
_flag(N.TABLE_STOP, F_TABLE_STOP)
_flag(N.SKIP, F_SKIP)
_flag(N.BLOCK, F_BLOCK)
_flag(N.CELL, F_CELL)
_flag(N.FOREIGN, F_FOREIGN)
_flag(N.BLOCK_END, F_BLOCK_END)
_flag(("button",), F_BUTTON)
_flag(("ol", "ul"), F_LIST)
_flag(N.SPECIAL - {"address", "div", "p"}, F_LI_STOP)
_flag(("tr",), F_TR)
_flag(("tbody", "thead", "tfoot"), F_TSECTION)
_flag(("dd", "dt"), F_DDDT)
_flag(N.RAW_HIDDEN | N.RCDATA | N.RAW_SHOWN | {"plaintext"}, F_RAW)
_flag(("option", "optgroup", "select", "input", "keygen", "textarea", "script", "style", "template", "caption", "table",
       "tbody", "tfoot", "thead", "tr", "td", "th"), F_SELECT_KEEPS)
_flag(("caption",), F_CAPTION)
_flag(("noscript",), F_NOSCRIPT)
_flag(("select",), F_SELECT)
_flag(("pre",), F_PRE)
_flag(("table",), F_TABLE)
_flag(("html", "head", "body"), F_ROOT)
_flag(("li",), F_LI)
_flag(("p",), F_P)
_flag(("br", "hr"), F_BR)
