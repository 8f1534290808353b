"""Tag removal without a tree: one pass over the decoded page; the Python twin of ``_scan.pyx``.

The page is tokenized as HTML5 does it (tags with quoted attribute values, comments, raw-text
elements such as ``<script>`` with their escapes, character references) and a stack of open
element names is kept with the rules that matter for text: where an element ends (implied ends of
``<p>``, ``<li>``, table cells; end tags that stop at scope boundaries or special elements; SVG and
MathML content that an HTML tag breaks out of; ``<select>``). What reaches the output is what
resiliparse's ``extract_plain_text`` (``tags.py``'s options) gives from lexbor's tree, before tidying:
text outside skipped elements, a line break at block elements and ``<br>``/``<hr>``, a space after a
table cell, newlines kept in ``<pre>``, other whitespace runs as one space. Text before ``<body>``
content that is not whitespace starts the body, as the parser does; ``<noscript>`` in ``<head>``
passes its text on.

:func:`scan` returns (text, title or None, characters inside ``<noscript>`` in the body, characters
in the body): the caller decides with the last two whether ``<noscript>`` holds the page.
Not modelled (lexbor differs there, rarely): foster parenting (text inside a table but outside its
cells comes out where it stands, not before the table), the adoption agency's clones, quirks mode.
"""
from __future__ import annotations

import html as htmllib

from preprocess.steps.stream import names as N
from preprocess.steps.stream.tokens import TAG, comment_end, lower, raw_end, script_end

_WS = str.maketrans("\t\n\x0b\x0c\r", "     ")
_PRE_WS = str.maketrans("\t\x0b\x0c\r", "   \n")
_ASCII_WS = "\t\n\x0c\r "
_ALPHA = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
MAX_SEARCH = 1024  # open elements an end tag looks through (deeper ones count as not open: linear time)

# what a start tag closes first: (names closed, names that stop the search)
_IMPLIED = {"li": (("li",), N.SPECIAL - {"address", "div", "p"}),
            "dd": (("dd", "dt"), N.SPECIAL - {"address", "div", "p"}),
            "dt": (("dd", "dt"), N.SPECIAL - {"address", "div", "p"}),
            "td": (("td", "th"), N.TABLE_STOP | {"tr"}), "th": (("td", "th"), N.TABLE_STOP | {"tr"}),
            "tr": (("tr", "td", "th"), N.TABLE_STOP | {"tbody", "thead", "tfoot"}),
            "tbody": (("tbody", "thead", "tfoot", "tr", "td", "th", "caption"), N.TABLE_STOP),
            "thead": (("tbody", "thead", "tfoot", "tr", "td", "th", "caption"), N.TABLE_STOP),
            "tfoot": (("tbody", "thead", "tfoot", "tr", "td", "th", "caption"), N.TABLE_STOP),
            "caption": (("caption", "tr", "td", "th"), N.TABLE_STOP),
            "button": (("button",), N.SCOPE)}
_SELECT_KEEPS = frozenset(("option", "optgroup", "select", "input", "keygen", "textarea", "script", "style", "template",
                           "caption", "table", "tbody", "tfoot", "thead", "tr", "td", "th"))




class _State:
    __slots__ = ("out", "stack", "skip", "pre", "foreign", "select", "noscript", "in_head", "title", "ns_chars",
                 "body_chars", "keep_noscript")

    def __init__(self, keep_noscript: bool):
        self.out: list[str] = []
        self.stack: list[str] = []
        self.skip = self.pre = self.foreign = self.select = self.noscript = 0
        self.in_head = True
        self.title: str | None = None
        self.ns_chars = self.body_chars = 0
        self.keep_noscript = keep_noscript

    def skips(self, name: str) -> bool:
        return name in N.SKIP and not (name == "noscript" and self.keep_noscript)

    def push(self, name: str) -> None:
        self.stack.append(name)
        if name in N.FOREIGN:
            self.foreign += 1
        elif name == "select":
            self.select += 1
        elif name == "noscript":
            self.noscript += 1
        if name == "pre":
            self.pre += 1
        if self.skips(name) or name in N.FOREIGN:
            self.skip += 1
        elif self.skip == 0:
            if name in N.BLOCK:
                self.out.append("\n")
            elif name in N.CELL:
                self.out.append(" ")

    def pop(self) -> None:
        name = self.stack.pop()
        if name in N.FOREIGN:
            self.foreign -= 1
        elif name == "select":
            self.select -= 1
        elif name == "noscript":
            self.noscript -= 1
        if name == "pre":
            self.pre -= 1
        if self.skips(name) or name in N.FOREIGN:
            self.skip -= 1
        elif self.skip == 0 and (name in N.BLOCK or name in N.CELL):
            self.out.append("\n" if name in N.BLOCK else " ")

    def pop_to(self, k: int) -> None:
        """Close the open elements from index ``k`` up (none when ``k`` is -1: not found)."""
        while k >= 0 and len(self.stack) > k:
            self.pop()

    def find(self, targets, stops) -> int:
        """Index of the topmost open element in ``targets``, -1 when an element in ``stops`` comes first
        or none is among the top ``MAX_SEARCH``."""
        st = self.stack
        for k in range(len(st) - 1, max(len(st) - MAX_SEARCH, 0) - 1, -1):
            if st[k] in targets:
                return k
            if st[k] in stops:
                return -1
        return -1

    def text(self, t: str, decode: bool = True) -> None:
        if self.in_head:
            if not t.strip(_ASCII_WS):
                return
            self.in_head = False
        self.body_chars += len(t)
        if self.skip:
            if self.noscript:
                self.ns_chars += len(t)
            return
        if decode and "&" in t:
            t = htmllib.unescape(t)
        self.out.append(t.translate(_PRE_WS if self.pre else _WS))

    def newline(self) -> None:
        if self.skip == 0:
            self.out.append("\n")


def _start(st: _State, s: str, name: str, closing: bool, i: int) -> int:
    """Handle a start tag whose ``>`` ends just before ``i``; returns where reading goes on."""
    if st.foreign:
        if name not in N.BREAKOUT:
            if not closing:
                st.push(name)
            return i
        while st.foreign:
            st.pop()
    if st.in_head and name not in N.HEAD_OK:
        st.in_head = False
    if name in ("html", "head", "body"):
        return i
    if name == "noscript" and st.in_head:  # <noscript> in <head>: its text belongs to the body
        return i
    if st.select:
        if name not in _SELECT_KEEPS:
            return i
        if name in ("select", "input", "keygen", "textarea") or name in N.TABLE_STOP or name in _IMPLIED:
            k = st.find(("select",), ())
            st.pop_to(k)
            if name == "select":
                return i
        elif name in ("option", "optgroup"):
            if st.stack[-1] == "option" or (name == "optgroup" and st.stack[-1] == "optgroup"):
                st.pop()
    if name in N.RAW_HIDDEN or name in N.RCDATA or name in N.RAW_SHOWN or name == "plaintext":
        return _raw(st, s, name, i)
    if name in N.CLOSES_P:
        k = st.find(("p",), N.SCOPE | {"button"})
        if k >= 0:
            st.pop_to(k)
        if name in N.HEADINGS and st.stack and st.stack[-1] in N.HEADINGS:
            st.pop()
    implied = _IMPLIED.get(name)
    if implied:
        k = st.find(*implied)
        if k >= 0:
            st.pop_to(k)
        if name in N.CELL and st.find(("tr",), N.TABLE_STOP) < 0 and st.find(("table",), ()) >= 0:
            st.push("tr")  # a cell outside a row opens one
    elif name == "a" or name == "nobr":  # a second <a> ends the first (the adoption agency)
        _adopt(st, name)
    if name in N.VOID:
        if name in ("br", "hr"):
            st.newline()
        return i
    if closing and name in N.FOREIGN:
        return i
    st.push(name)
    return i


def _raw(st: _State, s: str, name: str, i: int) -> int:
    """A raw-text element from ``i`` (after its start tag) to past its end tag."""
    if name == "plaintext":
        st.text(s[i:], False)
        return len(s)
    j = script_end(s, i) if name == "script" else raw_end(s, i, name)
    t = s[i:j]
    if name in N.RCDATA and "&" in t:
        t = htmllib.unescape(t)
    if name == "title":
        if st.title is None:
            st.title = t
        if not st.in_head:
            st.text(t, False)
    elif name in N.RAW_SHOWN and not (st.in_head and name == "noframes"):
        st.text(t, False)
    elif not st.in_head and name not in ("script", "style"):  # (not the page's text: NOSCRIPT_SHARE)
        st.body_chars += len(t)
    m = TAG.match(s, j + 2) if j < len(s) else None
    return m.end() if m else len(s)


def _adopt(st: _State, name: str) -> None:
    """The adoption agency's effect on the open elements: an open ``name`` in scope is closed; a block
    opened inside it stays open (only the formatting element leaves the stack)."""
    k = st.find((name,), N.SCOPE)
    if k < 0:
        return
    if any(x in N.SPECIAL for x in st.stack[k + 1:]):
        del st.stack[k]
    else:
        st.pop_to(k)


def _end(st: _State, name: str) -> None:
    if st.foreign:
        for k in range(len(st.stack) - 1, max(len(st.stack) - MAX_SEARCH, 0) - 1, -1):
            if st.stack[k] == name:
                st.pop_to(k)
                return
            if st.stack[k] in N.FOREIGN:
                break
        if st.foreign:
            return
    if name in ("html", "head", "body"):
        return
    if name == "br":
        st.newline()
        return
    if st.select:
        if name == "select":
            st.pop_to(st.find(("select",), ()))
        elif name in ("option", "optgroup") and st.stack[-1] == name:
            st.pop()
        return
    if name == "p":
        k = st.find(("p",), N.SCOPE | {"button"})
        if k < 0:
            st.newline()  # an empty <p> is inserted
            return
    elif name in N.HEADINGS:
        k = st.find(N.HEADINGS, N.SCOPE)
    elif name == "li":
        k = st.find(("li",), N.SCOPE | {"ol", "ul"})
    elif name in ("td", "th", "tr", "tbody", "thead", "tfoot", "table", "caption"):
        k = st.find((name,), N.TABLE_STOP)
    elif name in N.FORMATTING:
        _adopt(st, name)
        return
    elif name in N.BLOCK_END:
        k = st.find((name,), N.SCOPE)
    else:
        k = st.find((name,), N.SPECIAL)
    if k >= 0:
        st.pop_to(k)


def scan(s: str, keep_noscript: bool = False) -> tuple[str, str | None, int, int]:
    """(text before tidying, title, characters inside ``<noscript>`` in the body, characters in the body)."""
    st = _State(keep_noscript)
    i, n = 0, len(s)
    while i < n:
        j = s.find("<", i)
        if j < 0:
            st.text(s[i:])
            break
        if j > i:
            st.text(s[i:j])
        c = s[j + 1] if j + 1 < n else ""
        if c in _ALPHA and c:
            m = TAG.match(s, j + 1)
            if m is None:
                break  # a tag cut off by the end of the page
            i = _start(st, s, lower(m.group(1)), m.group(2).endswith("/"), m.end())
        elif c == "/":
            c2 = s[j + 2] if j + 2 < n else ""
            if c2 and c2 in _ALPHA:
                m = TAG.match(s, j + 2)
                if m is None:
                    break
                _end(st, lower(m.group(1)))
                i = m.end()
            elif c2 == ">":
                i = j + 3
            elif not c2:
                st.text("</")
                break
            else:
                k = s.find(">", j + 2)
                i = n if k < 0 else k + 1
        elif c == "!":
            if s.startswith("--", j + 2):
                i = comment_end(s, j + 4)
            else:
                k = s.find(">", j + 2)
                i = n if k < 0 else k + 1
        elif c == "?":
            k = s.find(">", j + 1)
            i = n if k < 0 else k + 1
        else:
            st.text("<")
            i = j + 1
    title = st.title
    st.pop_to(0)
    return "".join(st.out), title, st.ns_chars, st.body_chars
