"""The raw reader's tree builder: HTML's tree construction rules (WHATWG HTML 13.2.6) in ``<body>``, over
:class:`tokens.Tokenizer`'s tokens, with the page side (:class:`page.PageSide`) building the blocks as elements
open and close; the head's modes in :class:`head.Head`, the rarer rules in :class:`modes.Modes` and
:class:`tables.Tables`."""
from __future__ import annotations

from preprocess.cleaners.learned.raw.elements import (BUTTON_SCOPE, CLOSES_P, FORMATTING, HEAD_TAGS, HEAD_VOID,
                                                      HEADINGS, IMPLIED, LIST_SCOPE, MODE_OF, SCOPE, SPECIAL,
                                                      TABLE_PARTS)
from preprocess.cleaners.learned.raw.head import Head
from preprocess.cleaners.learned.raw.modes import MARKER, Modes
from preprocess.cleaners.learned.raw.page import PageSide
from preprocess.cleaners.learned.raw.tables import Tables
from preprocess.cleaners.learned.raw.tokens import WS, GiveUp, Tokenizer, decode_text, names_of


class Reader(Tokenizer, PageSide, Head, Modes, Tables):
    """One page read raw: ``Reader(html, ...).read()`` is the :class:`blocks.Page` that ``blocks.split_body``
    reads off lexbor's tree, or raises :class:`GiveUp`."""

    def __init__(self, html: str, max_depth: int = 400, hints=None, drop=frozenset()):
        self.s = html.replace("\r\n", "\n").replace("\r", "\n") if "\r" in html else html
        self.init_page(max_depth, hints, drop)
        self.active: list = []   # the list of active formatting elements: [uid, name, attrs] or MARKER
        self.foreign: list = []  # svg/math elements open (the first is also on the stack)
        self.form = None         # the form element pointer (a uid)
        self.skip_lf = False     # a newline right after <pre> or <listing> is no text

    def read(self):
        self.tokens()
        if self.phase != "body":
            self.start_body()
        if self.foreign or self.template:
            raise GiveUp("ends inside svg/math or a template")
        return self.finish()

    # ------------------------------------------------------------------ the stack
    def in_scope(self, names, scope=SCOPE) -> bool:
        for e in reversed(self.stack):
            if e.name in names:
                return True
            if e.name in scope:
                return False
        return False

    def pop_until(self, names) -> None:
        while self.stack:
            if self.pop() in names:
                return
        raise GiveUp("the whole stack popped")

    def implied_ends(self, but=None) -> None:
        while self.stack[-1].name in IMPLIED and self.stack[-1].name != but:
            self.pop()

    def close_p(self) -> None:
        if self.in_scope(("p",), BUTTON_SCOPE):
            self.implied_ends("p")
            self.pop_until(("p",))

    def mode(self) -> str:
        for e in reversed(self.stack):
            m = MODE_OF.get(e.name)
            if m:
                return m
        return "body"

    def on_stack(self, uid) -> bool:
        return any(e.uid == uid for e in self.stack)

    def reconstruct(self) -> None:
        """Reopen the formatting elements closed while still active (their clones: same name, same attributes)."""
        a = self.active
        if not a or a[-1] is MARKER or self.on_stack(a[-1][0]):
            return
        i = len(a) - 1
        while i > 0 and a[i - 1] is not MARKER and not self.on_stack(a[i - 1][0]):
            i -= 1
        for j in range(i, len(a)):
            _, name, attrs = a[j]
            a[j] = [self.push(name, attrs).uid, name, attrs]

    def clear_to_marker(self) -> None:
        while self.active:
            if self.active.pop() is MARKER:
                return

    def push_formatting(self, name, attrs) -> None:
        el = self.push(name, attrs)
        same = [i for i in range(len(self.active) - 1, -1, -1) if self.active[i] is not MARKER
                and self.active[i][1] == name and self.active[i][2] == attrs]
        marker = max((i for i, x in enumerate(self.active) if x is MARKER), default=-1)
        same = [i for i in same if i > marker]
        if len(same) >= 3:  # (Noah's ark: three of a kind at most)
            del self.active[same[-1]]
        self.active.append([el.uid, name, attrs])

    def other_end(self, name) -> None:
        """"Any other end tag": close up to the element of that name unless a special element comes first."""
        for k in range(len(self.stack) - 1, -1, -1):
            n = self.stack[k].name
            if n == name:
                self.implied_ends(name)
                while len(self.stack) > k:
                    self.pop()
                return
            if n in SPECIAL:
                return

    # ------------------------------------------------------------------ text
    def characters(self, t: str) -> None:
        if self.template and not self.foreign:
            return
        t = decode_text(t)
        if self.skip_lf:
            self.skip_lf = False
            t = t[1:] if t.startswith("\n") else t
        if self.phase != "body":
            stripped = t.lstrip(WS)  # (after decoding: "&#32;" is whitespace too)
            if not stripped:
                return
            self.start_body()
            t = stripped
        if self.foreign:
            self.total += len(t)  # (svg/math text: the hint rule's measure only)
            return
        mode = self.mode()
        if mode in ("table", "tbody", "row", "colgroup"):
            if t.strip(WS):
                raise GiveUp("text in a table (foster parenting)")
            self.text(t)
            return
        self.reconstruct()  # (in a select too: lexbor reads its content by the in-body rules)
        self.text(t)

    def start_tag(self, name, attrs, closing, p) -> int:
        self.skip_lf = False
        if self.foreign:
            return self.foreign_start(name, attrs, closing, p)
        if name == "template" or self.template:
            return self.template_start(name, attrs, closing, p)
        if self.phase != "body" and not self.head_start(name, attrs):
            return self.head_tag(name, attrs, p) if name in HEAD_TAGS else p
        if name == "image":
            name = "img"
        mode = self.mode()
        if mode == "select":
            return self.select_start(name, attrs, p)
        if mode == "colgroup":
            if name == "col":
                self.void(name, attrs)
                return p
            self.pop()  # (the colgroup ends at anything else)
            return self.start_tag(name, attrs, closing, p)
        if mode in ("table", "tbody", "row"):
            return self.table_start(mode, name, attrs, closing, p)
        if mode in ("cell", "caption") and name in TABLE_PARTS:
            if mode == "cell":
                self.close_cell()
            else:
                self.close_caption()
            return self.start_tag(name, attrs, closing, p)
        return self.body_start(name, attrs, closing, p)

    # ------------------------------------------------------------------ in body
    def body_start(self, name, attrs, closing, p) -> int:
        if name in CLOSES_P:
            self.close_p()
            self.push(name, attrs)
        elif name in HEADINGS:
            self.close_p()
            if self.stack[-1].name in HEADINGS:
                self.pop()
            self.push(name, attrs)
        elif name in ("pre", "listing"):
            self.close_p()
            self.push(name, attrs)
            self.skip_lf = True  # (a newline right after the tag is not text)
        elif name == "form":
            if self.form is None:
                self.close_p()
                self.form = self.push(name, attrs).uid
        elif name in ("li", "dd", "dt"):
            same = ("li",) if name == "li" else ("dd", "dt")
            for e in reversed(self.stack):
                if e.name in same:
                    self.implied_ends(e.name)
                    self.pop_until((e.name,))
                    break
                if e.name in SPECIAL and e.name not in ("address", "div", "p"):
                    break
            self.close_p()
            self.push(name, attrs)
        elif name == "button":
            if self.in_scope(("button",)):
                self.implied_ends()
                self.pop_until(("button",))
            self.reconstruct()
            self.push(name, attrs)
        elif name == "a":
            self.link_in_link()
            self.reconstruct()
            self.push_formatting(name, attrs)
        elif name in FORMATTING:
            self.reconstruct()
            if name == "nobr" and self.in_scope(("nobr",)):
                raise GiveUp("<nobr> in <nobr>")
            self.push_formatting(name, attrs)
        elif name in ("applet", "marquee", "object"):
            self.reconstruct()
            self.push(name, attrs)
            self.active.append(MARKER)
        elif name == "table":
            if self.in_scope(("p",), BUTTON_SCOPE):
                if self.quirks is None:
                    raise GiveUp("a table in a p, quirks mode unknown")
                if not self.quirks:
                    self.close_p()
            self.push(name, attrs)
        elif name in ("area", "br", "embed", "img", "keygen", "wbr", "input"):
            self.reconstruct()
            self.void(name, attrs)
        elif name in ("param", "source", "track"):
            self.void(name, attrs)
        elif name == "hr":
            self.close_p()
            self.void(name, attrs)
        elif name in ("textarea", "xmp", "iframe", "noembed", "noframes", "style", "script"):
            if name == "xmp":
                self.close_p()
                self.reconstruct()
            self.push(name, attrs)
            q = self.raw_content(name, p, attrs)
            self.pop()
            return q
        elif name == "select":
            self.reconstruct()
            self.push(name, attrs)
        elif name in ("optgroup", "option"):
            if self.stack[-1].name == "option":
                self.pop()
            self.reconstruct()
            self.push(name, attrs)
        elif name in ("rb", "rtc", "rp", "rt"):
            if self.in_scope(("ruby",)):
                raise GiveUp("ruby annotations")
            self.push(name, attrs)  # (no formatting element reopened for these)
        elif name in ("svg", "math"):
            self.reconstruct()
            self.foreign_root(name, attrs, closing)
        elif name in TABLE_PARTS or name in ("frame", "head", "html"):
            pass  # (ignored in the body)
        elif name == "body":
            self.merge_body(attrs)
        elif name in HEAD_VOID or name == "title":
            return self.head_tag(name, attrs, p)
        elif name in ("frameset", "plaintext", "isindex"):
            raise GiveUp(f"<{name}>")
        else:
            self.reconstruct()
            self.push(name, attrs)
        return p

    def link_in_link(self) -> None:
        """An ``<a>`` while a link is still active: the adoption agency closes it, and it leaves both lists."""
        for x in reversed(self.active):
            if x is MARKER:
                return
            if x[1] == "a":
                self.adoption("a")
                if x in self.active:
                    self.active.remove(x)
                k = next((k for k, e in enumerate(self.stack) if e.uid == x[0]), None)
                if k is not None:
                    if k != len(self.stack) - 1:
                        raise GiveUp("a link left open inside a link")
                    self.pop()
                return

    def merge_body(self, attrs) -> None:
        """A second ``<body>``: its attributes the first one lacks are added to it."""
        body = self.stack[1] if len(self.stack) > 1 and self.stack[1].name == "body" else None
        if body is None:
            raise GiveUp("<body> with no body open")
        new = {k: v for k, v in attrs.items() if k not in body.attrs}
        if new:
            body.attrs.update(new)
            self.page.el_names[0] = names_of(body.attrs)

    def end_tag(self, name) -> None:
        self.skip_lf = False
        if self.foreign:
            return self.foreign_end(name)
        if self.template:
            return self.template_end(name)
        if name == "template":
            return  # (no template open: ignored)
        if self.phase != "body":
            return self.head_end(name)
        mode = self.mode()
        if mode == "select":
            return self.select_end(name)
        if mode in ("table", "tbody", "row", "cell", "caption", "colgroup") and self.table_end(mode, name):
            return
        self.body_end(name)

    def body_end(self, name) -> None:
        if name in ("body", "html"):
            return  # (what follows is still the body's)
        if name == "br":
            self.reconstruct()
            self.void("br", {})
        elif name == "p":
            if not self.in_scope(("p",), BUTTON_SCOPE):
                self.push("p", {})  # an empty p, as HTML's tree builder inserts one
            self.close_p()
        elif name == "li":
            if self.in_scope(("li",), LIST_SCOPE):
                self.implied_ends("li")
                self.pop_until(("li",))
        elif name in ("dd", "dt"):
            if self.in_scope((name,)):
                self.implied_ends(name)
                self.pop_until((name,))
        elif name in HEADINGS:
            if self.in_scope(HEADINGS):
                self.implied_ends()
                self.pop_until(HEADINGS)
        elif name == "form":
            uid, self.form = self.form, None
            k = next((k for k in range(len(self.stack) - 1, -1, -1)
                      if self.stack[k].uid == uid or self.stack[k].name in SCOPE), -1)
            if k >= 0 and self.stack[k].uid == uid:  # (in scope)
                self.implied_ends()
                if self.stack[-1].uid == uid:
                    self.pop()
                else:  # the form leaves the stack; in the tree it holds what is still open, until that closes
                    self.detach(k)
        elif name in FORMATTING:
            self.adoption(name)
        elif name in ("applet", "marquee", "object"):
            if self.in_scope((name,)):
                self.implied_ends()
                self.pop_until((name,))
                self.clear_to_marker()
        elif name in CLOSES_P or name in ("button", "pre", "listing"):
            if self.in_scope((name,)):
                self.implied_ends()
                self.pop_until((name,))
        else:
            self.other_end(name)
