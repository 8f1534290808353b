"""The HTML5 tokenizer's pieces the streaming scan needs (``scan.py``; compiled twins in ``_tokenizer.pxi``).

Tags with their attributes (one regular expression, possessive so that it fails in linear time on a
page cut inside a tag), end tags of raw-text elements, script data with its escapes, comments.
"""
from __future__ import annotations

import re

# a tag from its name to its ">": separators, attribute names, and after "=" a value that is quoted (to its
# closing quote) or unquoted; a page that ends before the ">" does not match (the tag is dropped)
TAG = re.compile(r"""([a-zA-Z][^\t\n\f\r />]*+)((?>[\t\n\f\r /]++|[^\t\n\f\r />][^\t\n\f\r /=>]*+"""
             r"""(?>[\t\n\f\r ]*+=[\t\n\f\r ]*+(?>"[^"]*+"|'[^']*+'|(?!["'])[^\t\n\f\r >]*+)"""
             r"""|(?![\t\n\f\r ]*=)))*+)>""")
_ENDS = "\t\n\x0c\r />"
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def lower(name: str) -> str:
    """ASCII letters lower-cased, as the HTML tokenizer does (``str.lower`` also folds others)."""
    return name.lower() if name.isascii() else name.translate(_ASCII_LOWER)


def closes(s: str, j: int, name: str) -> bool:
    """Is ``s[j:]`` the end tag ``</name`` followed by a space, "/" or ">"?"""
    k = j + 2 + len(name)
    return s.startswith("</", j) and lower(s[j + 2:k]) == name and k < len(s) and s[k] in _ENDS


def raw_end(s: str, i: int, name: str) -> int:
    """Where the text of a raw-text element that starts at ``i`` ends (``len(s)``: at the end of the page)."""
    j = i
    while True:
        j = s.find("</", j)
        if j < 0:
            return len(s)
        if closes(s, j, name):
            return j
        j += 2


def script_end(s: str, i: int) -> int:
    """Where script data from ``i`` ends, with the tokenizer's escapes: ``<!--`` starts one that ``-->`` ends;
    inside it ``<script`` starts a nested one whose ``</script>`` does not end the outer script."""
    end = raw_end(s, i, "script")
    if s.find("<!--", i, end) < 0:
        return end
    n, j, state, dashes = len(s), i, 0, 0  # state 0: data, 1: escaped, 2: double escaped
    while j < n:
        c = s[j]
        if state == 0:
            if c == "<":
                if closes(s, j, "script"):
                    return j
                if s.startswith("<!--", j):
                    state, dashes, j = 1, 2, j + 4
                    continue
            j += 1
            continue
        if c == "-":
            dashes += 1
            j += 1
            continue
        if c == ">" and dashes >= 2:
            state = dashes = 0
            j += 1
            continue
        dashes = 0
        if c == "<":
            if state == 1:
                if closes(s, j, "script"):
                    return j
                if lower(s[j + 1:j + 7]) == "script" and j + 7 < n and s[j + 7] in _ENDS:
                    state, j = 2, j + 7
                    continue
            elif closes(s, j, "script"):
                state, j = 1, j + 8
                continue
        j += 1
    return n


def comment_end(s: str, j: int) -> int:
    """Index after a comment whose ``<!--`` ends just before ``j``."""
    if s.startswith(">", j):
        return j + 1
    if s.startswith("->", j):
        return j + 2
    a, b = s.find("-->", j), s.find("--!>", j)
    if a < 0 and b < 0:
        return len(s)
    return a + 3 if b < 0 or 0 <= a < b else b + 4
