"""The raw reader's tokenizer: HTML's tokenization rules over the decoded page, character references decoded as
lexbor decodes them, attribute values written as lexbor's serialiser writes them (what ``blocks.split_python``
reads), and the doctype's quirks mode. Markup whose reading is not certain raises :class:`GiveUp`."""
from __future__ import annotations

import html as htmllib
import re
from html.entities import html5

from preprocess.cleaners.learned.raw.elements import RCDATA


class GiveUp(Exception):
    """Markup whose tree this reader does not model: the page is read off lexbor's tree instead."""


WS = "\t\n\f "
_NAME = re.compile(r"[^\t\n\f />]*")
_ATTR = re.compile(r"""[\t\n\f /]*([^\t\n\f />][^\t\n\f />=]*)(?:[\t\n\f ]*=[\t\n\f ]*(?:"([^"]*)"|'([^']*)'|"""
                   r"""([^\t\n\f >]*)))?""")
_TAG_END = re.compile(r"[\t\n\f /]*>")
_NUMREF = re.compile(r"&#(?:[xX]([0-9a-fA-F]+)|([0-9]+))")
_CHARREF = re.compile(r"&(#[0-9]+;?|#[xX][0-9a-fA-F]+;?|[^\t\n\f <&#;]{1,32};?)")  # (html.unescape's)
_CLASS_ID = re.compile(r'\b(?:class|id)="([^"]*)"')  # blocks.py's, over the attributes as lexbor writes them
# code points html.unescape drops where HTML's tokenizer keeps them (controls, noncharacters)
_DROPPED = frozenset([*range(0x1, 0x9), 0xB, *range(0xE, 0x20), 0x7F, *range(0xFDD0, 0xFDF0),
                      *(p | 0xFFFE for p in range(0, 0x110000, 0x10000)), *(p | 0xFFFF for p in range(0, 0x110000, 0x10000))])
_END = {n: re.compile(r"</" + n + r"[\t\n\f />]", re.I | re.A)  # (re.A: "ſ" is no "s" here)
        for n in ("style", "xmp", "iframe", "noembed", "noframes", "title", "textarea")}
_SCRIPT_STATES = (re.compile(r"<(?:/script[\t\n\f />]|!--)", re.I | re.A),  # script data, escaped, double
                  re.compile(r"-->|</script[\t\n\f />]|<script[\t\n\f />]", re.I | re.A),  # escaped
                  re.compile(r"-->|</script[\t\n\f />]", re.I | re.A))
_DOCTYPE = re.compile(r"""[\t\n\f ]*([^\t\n\f >]+)(?:[\t\n\f ]+public[\t\n\f ]*(?:"([^"]*)"|'([^']*)')"""
                      r"""(?:[\t\n\f ]+(?:"([^"]*)"|'([^']*)'))?|[\t\n\f ]+system[\t\n\f ]*(?:"([^"]*)"|'([^']*)'))?"""
                      r"""[\t\n\f ]*$""", re.I | re.A)
_NOT_QUIRKY = ("-//w3c//dtd xhtml 1.0 strict//", "-//w3c//dtd xhtml 1.0 transitional//",
               "-//w3c//dtd xhtml 1.0 frameset//", "-//w3c//dtd xhtml 1.1//", "-//w3c//dtd html 4.01//",
               "-//w3c//dtd html 4.0//", "-//w3c//dtd xhtml basic 1.")
_QUIRKY = ("-//w3c//dtd html 4.0 transitional//", "-//w3c//dtd html 4.0 frameset//", "-//w3c//dtd html 3.2//",
           "-//w3c//dtd html 3.2 final//", "-//w3c//dtd html 3.2 draft//", "-//ietf//dtd html//",
           "-//ietf//dtd html 2.0//", "-//ietf//dtd html 3.2//", "-//ietf//dtd html 3.2 final//",
           "-//w3c//dtd w3 html//")  # (some of the WHATWG list's prefixes: the ones seen; the rest is unknown)


def ascii_lower(name: str) -> str:
    """A tag or attribute name as the tokenizer lower-cases it (ASCII letters only)."""
    return name.lower() if name.isascii() else "".join(chr(ord(c) + 32) if "A" <= c <= "Z" else c for c in name)


def script_end(s: str, p: int):
    """The match of the ``</script`` that ends a script whose text starts at ``p`` (HTML's script data states: a
    "<!--" escapes, a "<script" inside the escape escapes twice, and only a "-->" or a "</script" undoes that)."""
    state, i = 0, p
    while True:
        m = _SCRIPT_STATES[state].search(s, i)
        if m is None:
            return None
        g = m.group()
        if g == "<!--":
            state, i = 1, m.end() - 2  # (its dashes count for a "-->" right after it)
        elif g == "-->":
            state, i = 0, m.end()
        elif g[1] == "/":
            if state < 2:
                return m
            state, i = 1, m.end()
        else:
            state, i = 2, m.end()


def quirks(doctype: str):
    """True/False: the document is/is not in quirks mode by its doctype's text (after ``<!doctype``; a ``<table>``
    in a ``<p>`` depends on it); None: a doctype this reader does not know."""
    m = _DOCTYPE.match(doctype)
    if not m or not doctype.isascii():
        return None  # (a malformed doctype may force quirks mode)
    if m.group(1).lower() != "html":
        return True
    g = m.groups()
    has_public = g[1] is not None or g[2] is not None
    public = (g[1] if g[1] is not None else g[2] or "").lower()
    system = next((x for x in g[3:] if x is not None), None)
    if system is not None and system.lower() == "http://www.ibm.com/data/dtd/v11/ibmxhtml1-transitional.dtd":
        return True
    if not has_public:
        return False
    if not public:
        return None
    if public.startswith(("-//w3c//dtd html 4.01 transitional//", "-//w3c//dtd html 4.01 frameset//")):
        return system is None
    if public.startswith(_QUIRKY):
        return True
    return False if public.startswith(_NOT_QUIRKY) else None


def decode_text(s: str) -> str:
    """Character references of text decoded as HTML's tokenizer does (``html.unescape``; a numeric reference to a
    code point it drops and the tokenizer keeps gives up)."""
    if "&" not in s:
        return s
    for m in _NUMREF.finditer(s):
        if (int(m.group(1), 16) if m.group(1) else int(m.group(2))) in _DROPPED:
            raise GiveUp("a reference to a control character")
    return htmllib.unescape(s)


def _attr_ref(m) -> str:
    s = m.group(1)
    if s[0] == "#":
        return decode_text(m.group())
    if s in html5:
        return html5[s]
    for x in range(len(s) - 1, 1, -1):
        if s[:x] in html5:  # a legacy name without ";": no reference before "=" or a letter or digit
            return "&" + s if s[x] == "=" or s[x].isascii() and s[x].isalnum() else html5[s[:x]] + s[x:]
    return "&" + s


def decode_value(v: str) -> str:
    """An attribute value's character references decoded as HTML's tokenizer does in an attribute."""
    return _CHARREF.sub(_attr_ref, v) if "&" in v else v


def serial_value(v: str) -> str:
    """An attribute value as lexbor writes it (``& < >``, U+00A0 and ``"`` escaped)."""
    if "&" in v:
        v = v.replace("&", "&amp;")
    return v.replace("\xa0", "&nbsp;").replace('"', "&quot;").replace("<", "&lt;").replace(">", "&gt;")


def serial_attrs(attrs: dict) -> str:
    return "".join(f' {k}="{serial_value(v)}"' for k, v in attrs.items())


def names_of(attrs: dict) -> str:
    """``split_python``'s class/id values of an element: its regex over the attributes as lexbor writes them."""
    if not attrs:
        return ""
    s = serial_attrs(attrs)
    return " ".join(_CLASS_ID.findall(s)) if "=" in s else ""


class Tokenizer:
    """HTML's tokenizer over ``self.s``; tokens go to ``characters``, ``start_tag``, ``end_tag`` (the tree
    builder's), raw and RCDATA text to ``text``."""

    s: str
    phase = "initial"  # the insertion mode before <body>: initial, before html (a doctype is read only in the first)
    quirks = True      # no doctype: quirks mode
    foreign: list

    def tokens(self) -> None:
        s, n, p = self.s, len(self.s), 0
        while p < n:
            lt = s.find("<", p)
            if lt < 0:
                lt = n
            if lt > p:
                self.characters(s[p:lt])
            if lt >= n:
                break
            p = self.markup(lt)

    def markup(self, lt: int) -> int:
        s = self.s
        nxt = s[lt + 1:lt + 2]
        if nxt.isascii() and nxt.isalpha():
            m = _NAME.match(s, lt + 1)
            if "<" in m.group():  # (lexbor's serialisation of such a name reads as a tag inside it)
                raise GiveUp("a tag name holding <")
            p, attrs, closing = self.attributes(m.end())
            if self.phase == "initial":  # (a doctype after a tag is ignored: quirks mode)
                self.phase = "before html"
            return self.start_tag(ascii_lower(m.group()), attrs, closing, p)
        if nxt == "/":
            c = s[lt + 2:lt + 3]
            if c.isascii() and c.isalpha():
                m = _NAME.match(s, lt + 2)
                p = self.attributes(m.end())[0]
                if self.phase == "initial":
                    self.phase = "before html"
                self.end_tag(ascii_lower(m.group()))
                return p
            return lt + 3 if c == ">" else self.skip_to_gt(lt + 2)  # "</>" is nothing; "</3" a comment
        if s.startswith("<!--", lt):
            if s.startswith(">", lt + 4):
                return lt + 5
            if s.startswith("->", lt + 4):
                return lt + 6
            a, b = s.find("-->", lt + 4), s.find("--!>", lt + 4)
            if a < 0 and b < 0:
                raise GiveUp("a comment to the end")
            return b + 4 if b >= 0 and (a < 0 or b < a) else a + 3
        if nxt == "!":
            if s.startswith("[CDATA[", lt + 2) and self.foreign:
                raise GiveUp("CDATA")
            if ascii_lower(s[lt + 2:lt + 9]) == "doctype":
                end = self.skip_to_gt(lt + 2)
                if self.phase == "initial":
                    self.quirks = quirks(s[lt + 9:end - 1])
                    self.phase = "before html"
                return end
            return self.skip_to_gt(lt + 2)
        if nxt == "?":
            return self.skip_to_gt(lt + 1)
        self.characters("<")
        return lt + 1

    def skip_to_gt(self, p: int) -> int:
        q = self.s.find(">", p)
        if q < 0:
            raise GiveUp("markup to the end")
        return q + 1

    def attributes(self, p: int) -> tuple[int, dict, bool]:
        """(where the tag ends, its attributes (the first of each name, values decoded), self-closing)."""
        s, attrs = self.s, {}
        while True:
            m = _TAG_END.match(s, p)
            if m:
                return m.end(), attrs, m.end() - 2 >= p and s[m.end() - 2] == "/"
            m = _ATTR.match(s, p)
            if not m or m.end() == p or m.end() >= len(s):
                raise GiveUp("a tag to the end")
            k = ascii_lower(m.group(1))
            if "<!" in k:  # (lexbor writes the name as it is: split_body would read a comment in it)
                raise GiveUp("an attribute name holding <!")
            if m.group(4) and m.group(4)[0] in "\"'":
                raise GiveUp("an attribute value's quote not closed")
            if k not in attrs:
                v = m.group(2) if m.group(2) is not None else m.group(3) if m.group(3) is not None else m.group(4)
                attrs[k] = decode_value(v or "")
            p = m.end()

    def raw_content(self, name: str, p: int, attrs: dict) -> int:
        """The text of a script, style, title ... starting at ``p`` to ``text`` (and to ``seen``); returns where its
        end tag ends."""
        s = self.s
        end = script_end(s, p) if name == "script" else _END[name].search(s, p)
        if end is None:
            raise GiveUp(f"<{name}> to the end")
        body = decode_text(s[p:end.start()]) if name in RCDATA else s[p:end.start()]
        if name == "textarea" and body.startswith("\n"):
            body = body[1:]
        self.seen(name, attrs, body)
        inside = self.noscript_chars
        self.text(body)
        if name in ("script", "style") and self.phase == "body" and not self.template:
            self.hidden_chars += len(body)  # (no one's text, inside <noscript> or out: NOSCRIPT_SHARE)
            self.noscript_chars = inside
        return self.attributes(end.end() - 1)[0]
