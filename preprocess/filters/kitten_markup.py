"""Kitten's markup helpers: lexbor's serialisation of lists and leaf tables read with regexes
(well-formed: every element closed, attributes double-quoted, tags lower case), the visible text of
markup, sentence ends, and leaf-table parsing. The steps are in :mod:`preprocess.filters.kitten`."""
from __future__ import annotations

import html as htmllib
import re

from preprocess.html.dom import NOISE_TAGS, TAG_RE as _TAG

SHORT_ITEM_CHARS = 60       # median item length below which a list becomes one sentence
LINK_ITEM_MAX_WORDS = 5     # link-list items have fewer words than this
MAX_CELL_CHARS = 200        # a cell longer than this holds prose: the table is layout
MAX_COLSPAN = 50            # colspan="1000" must not make a 1000-column header
MAX_SERIALISED_CHARS = 20_000_000  # per page: bounds the cost of pathological nesting
MAX_SPLIT_CELLS = 100_000   # per page: each <br> insertion costs O(depth) in lexbor (~20 us on real pages)

# KittenPunctuate leaves a line ending in one of these alone: the brief's set (.!?:;…"')» and CJK 。！？)
# plus typographic closing quotes and full-width forms.
FINAL_PUNCT = frozenset(".!?:;…\"')»”’。！？．：；」』")
# The sentences kitten writes itself (table rows, list items) end in a full stop proper, maybe inside
# closing quotes or brackets: "blue (navy, sky)" or "Price:" get a ".".
_STOPS = frozenset(".!?…。！？．")
_CLOSERS = "\"')]»”’」』"
# An item ending in one of these already separates itself from the next: no ", " after it.
JOINERS = frozenset(",;:|/·•-–—")

# All patterns below read lexbor's serialisation: tags and attribute names lower case, no re.I needed
# (it made the tag patterns 2.5x slower).
_NOISE_START = re.compile(r"<(?:!--|" + "|".join(NOISE_TAGS) + r")")
_NOISE_BLOCK = re.compile(r"<!--.*?-->|<(" + "|".join(NOISE_TAGS) + r")\b.*?</\1\s*>", re.S)
_SPACED_TAGS = ("p", "div", "br", "li", "ul", "ol", "dl", "dt", "dd", "h1", "h2", "h3", "h4", "h5", "h6",
                "table", "caption", "tr", "td", "th", "thead", "tbody", "tfoot", "section", "article", "aside",
                "nav", "header", "footer", "main", "blockquote", "pre", "form", "fieldset", "center", "address",
                "hr", "figure", "figcaption", "details", "summary", "option", "img")
_SPACED_TAG = re.compile(r"</?(?:" + "|".join(_SPACED_TAGS) + r")\b[^>]*>")
# Elements that make a table cell or a list item "block content" (tag removal breaks lines at them).
BLOCK_TAGS = ("p", "div", "ul", "ol", "dl", "h1", "h2", "h3", "h4", "h5", "h6", "table", "blockquote", "pre",
              "section", "article", "aside", "nav", "header", "footer", "main", "form", "fieldset", "center",
              "address", "hr", "figure")
BLOCK_OPEN = re.compile(r"<(?:" + "|".join(BLOCK_TAGS) + r")\b")
LIST_OPEN = re.compile(r"<(?:ul|ol)\b")
LI_OPEN = re.compile(r"<li\b[^>]*>")
_ITEM_ENDS = ("</li>", "</ul>", "</ol>")
_BR = re.compile(r"<br\b[^>]*>")
LINK_RE = re.compile(r"<a\b[^>]*>.*?</a>", re.S)
WORD_RE = re.compile(r"\w")
_SECTION = re.compile(r"<(thead|tbody|tfoot)\b[^>]*>(.*?)</\1>", re.S)
_ROW = re.compile(r"<tr\b[^>]*>(.*?)</tr>", re.S)
_CELL = re.compile(r"<(td|th)\b([^>]*)>(.*?)</\1>", re.S)
_CAPTION = re.compile(r"<caption\b[^>]*>(.*?)</caption>", re.S)
_COLSPAN = re.compile(r"\bcolspan=\"\s*(\d+)")
_SEP = "\x00"  # joins chunks for one regex pass; no tag or entity spans it
LAYOUT_CELLS = "td:not(:last-child),th:not(:last-child)"
QUERY = "table,ul,ol,abbr[title],acronym[title]"


# -- text of serialised HTML ---------------------------------------------------
def strip_markup(markup: str, exact: bool = True) -> str:
    if "<" in markup:
        if _NOISE_START.search(markup):
            markup = _NOISE_BLOCK.sub(" ", markup)
        markup = _TAG.sub("", _SPACED_TAG.sub(" ", markup)) if exact else _TAG.sub(" ", markup)
    if "&" in markup:
        markup = htmllib.unescape(markup)
    return markup


def visible_text(markup: str, exact: bool = True) -> str:
    """Text of serialised HTML as tag removal would write it, on one line.

    Script/style/... and comments dropped, block tags and ``<br>`` become a space
    (lexbor's ``.text`` would glue ``a<br>b`` into ``ab`` and keep script code),
    inline tags vanish, entities are decoded, whitespace collapsed. With
    ``exact=False`` (list statistics: lengths, word counts) every tag becomes a
    space, one regex pass fewer.
    """
    return " ".join(strip_markup(markup, exact).split())


def visible_texts(chunks: list[str], exact: bool = True) -> list[str]:
    """:func:`visible_text` of each chunk, in one regex pass over them all (per-call overhead is
    what the regexes cost on a list's short items)."""
    if len(chunks) < 2 or any(_SEP in c for c in chunks):
        return [visible_text(c, exact) for c in chunks]
    return [" ".join(t.split()) for t in strip_markup(_SEP.join(chunks), exact).split(_SEP)]


def item_inner(markup: str) -> str:
    """An item's markup without the closing tags and whitespace at its end (a list item's chunk of
    the serialised list ends in ``</li>``, the last one in ``</li></ul>``)."""
    markup = markup.rstrip()
    while markup.endswith(_ITEM_ENDS):
        markup = markup[:-5].rstrip()
    return _BR.sub(" ", markup) if "<br" in markup else markup


def ends_sentence(text: str) -> bool:
    """Whether ``text`` ends in a full stop (``.!?…``, possibly inside closing quotes or brackets)."""
    core = text.rstrip(_CLOSERS)
    return bool(core) and core[-1] in _STOPS


def end_sentence(text: str) -> str:
    """``text`` with a "." added unless it already ends a sentence."""
    return text if not text or ends_sentence(text) else text + "."


# -- tables ------------------------------------------------------------------------
def _colspan(attrs: str) -> int:
    m = _COLSPAN.search(attrs) if "colspan" in attrs else None
    return min(max(int(m.group(1)), 1), MAX_COLSPAN) if m else 1


def parse_leaf_table(markup: str) -> tuple[str, list[tuple[bool, list[tuple[str, int, str]]]]]:
    """(caption markup, rows) of a serialised table without nested tables.

    Each row is (in <thead>, cells) and each cell (tag, colspan, inner markup).
    """
    cap = _CAPTION.search(markup)
    sections = [(m.group(1).lower() == "thead", m.group(2)) for m in _SECTION.finditer(markup)]
    if not sections:  # lexbor always wraps rows in <tbody>; a tree edited by hand may not
        sections = [(False, markup)]
    rows = []
    for in_head, body in sections:
        for row in _ROW.finditer(body):
            rows.append((in_head, [(c.group(1).lower(), _colspan(c.group(2)), c.group(3))
                                   for c in _CELL.finditer(row.group(1))]))
    return (cap.group(1) if cap else ""), rows


def table_lines(caption: str, rows, texts: list[list[str]]) -> tuple[list[str], bool]:
    """The sentences a data table is rewritten to, and whether it had a header."""
    head = [r for r, (in_head, _) in enumerate(rows) if in_head]
    if not head:  # leading rows of <th> cells only
        for r, (_, cells) in enumerate(rows):
            if not cells or any(tag != "th" for tag, _, _ in cells):
                break
            head.append(r)
    data = [r for r in range(len(rows)) if r not in head]
    if not data:  # nothing but header rows: read them as plain rows
        head, data = [], list(range(len(rows)))
    lines = [caption] if caption else []
    if not head:
        lines += [end_sentence(" ; ".join(t for t in texts[r] if t)) for r in data]
        return [line for line in lines if line], False
    headers: list[list[str]] = []
    for r in head:
        col = 0
        for (_, span, _), text in zip(rows[r][1], texts[r]):
            for c in range(col, col + span):
                while len(headers) <= c:
                    headers.append([])
                if text and (not headers[c] or headers[c][-1] != text):
                    headers[c].append(text)
            col += span
    joined = [" ".join(h) for h in headers]
    for r in data:
        parts, col = [], 0
        for (_, span, _), text in zip(rows[r][1], texts[r]):
            head_text = joined[col] if col < len(joined) else ""
            if text:
                parts.append(f"{head_text} ; {text}" if head_text and head_text != text else text)
            col += span
        lines.append(end_sentence(" / ".join(parts)))
    return [line for line in lines if line], True


def escape(text: str) -> str:
    return htmllib.escape(text, quote=False)
