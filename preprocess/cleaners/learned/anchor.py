"""The main heading as an anchor: where a block sits relative to it. On product, collection and listing pages the
content sits around the ``<h1>``; the reviews, recommendation cards and shipping notes a block model keeps sit
further away, in other subtrees. Six columns of the learned cleaner's features (the last ones of
``features.feature_names``), over :class:`blocks.Page` and :class:`PageHead`: numpy and Python on the
pure-Python path, the reference; ``_anchor`` (compiled) on the other, to the bit the same
(``tests/test_learned_anchor_exact.py``).

The main heading's block is the ``<h1>`` block with the largest share of words of the title and the page's names
(the first on ties), else the short block (2-30 words, mostly unlinked) with the largest such share if at least
80%; per block its signed distance to it in characters and blocks (log), whether it is it, and the innermost
element holding both (its share of the page's characters; element levels from the heading up to it).
"""
from __future__ import annotations

import json
from bisect import bisect_left
from dataclasses import dataclass
from functools import partial

import numpy as np

from preprocess.cleaners.learned import compiled
from preprocess.cleaners.learned.blocks import TAG_INDEX, Page
from preprocess.cleaners.learned.text import WORDS

NAMES = ["heading_found", "heading_chars", "heading_blocks", "is_heading", "heading_lca_share", "heading_lca_up"]
H1 = TAG_INDEX["h1"]
NAME_KEYS = frozenset(("og:title", "twitter:title"))
# JSON-LD objects that name something other than the page's own subject (and subtrees not to enter)
_OTHER_TYPES = ("Organization", "WebSite", "Breadcrumb", "ImageObject", "Person", "SearchAction", "SiteNavigation",
                "Brand", "Offer", "Review", "Rating", "ListItem", "Question", "Answer", "Comment", "Country",
                "ContactPoint", "Place", "Address", "Language")
_OTHER_KEYS = frozenset(("review", "offers", "aggregateRating", "publisher", "author", "brand"))
# what may hold a name: a meta whose name or property (lower-cased: NAME_KEYS) ends in ":title"; JSON-LD
_HEAD_ELEMENTS = ('meta[content][name$=":title" i], meta[content][property$=":title" i], '
                  'script[type="application/ld+json"]')
MAX_LD_CHARS = 1 << 20  # a JSON-LD script longer than this is not read
SHORT = (2, 30)  # words of a heading found without an <h1>
MIN_TITLED = 0.8  # its share of title and name words


@dataclass(frozen=True)
class PageHead:
    """What the page says its subject is called outside ``<body>``'s text."""

    names: tuple = ()


def page_head(tree, body_markup: str | None = None) -> PageHead:
    """The names of a parsed page: ``og:title``/``twitter:title`` and JSON-LD ``name``/``headline`` of the page's
    subject (not of organisations, offers, reviews and the like), in document order. Read before
    ``blocks.split_body`` prunes the tree (the Python path removes the scripts; the compiled one prunes hinted
    elements only when its markup leaves a hint unsure): one pass over the tree, 0.1-0.2 ms a WCXB page in the
    pipeline, so the cleaner reads it only when :func:`main_heading` asks (:class:`HeadReader`).

    The metas asked for are those of ``meta[content]`` whose key can be one of ``NAME_KEYS``: the selector's
    ``i`` compares ASCII letters only, and no other character lower-cases to an ASCII letter of a key (U+0130
    to "i" and a combining dot, U+212A to "k"). Not a wrapper for every ``<meta>`` (2 µs each: 0.1 ms a WCXB
    page). ``body_markup``: lexbor's serialisation of ``<body>`` as the tree stands (the compiled
    ``split_body``'s); where it holds no such element (:func:`may_name`) only ``<head>`` is searched, if it and
    ``<body>`` are all there is (:func:`_head_alone`): 0.02 ms, not a pass over the whole tree."""
    scope = None
    if tree is not None and body_markup is not None and compiled.ON and not compiled._anchor.may_name(body_markup):
        scope = _head_alone(tree)
    if scope is None:
        scope = tree.document if tree is not None else None
        if scope is None:
            return PageHead()
    return PageHead(head_names(("meta", el.getattr) if el.tag == "meta" else ("ld", el.text)
                               for el in scope.query_selector_all(_HEAD_ELEMENTS).values()))


def head_names(elements) -> tuple:
    """The names held by ``_HEAD_ELEMENTS``' elements in document order, each ``("meta", get)`` (``get``: its
    attribute by name, or None) or ``("ld", text)`` (a JSON-LD script's text): :func:`page_head`'s, and the raw
    reader's (``raw.read_raw``)."""
    names = []
    for kind, x in elements:
        if kind == "meta":
            key = (x("name") or x("property") or "").lower()
            if key in NAME_KEYS:
                content = x("content") or ""
                if content.strip():
                    names.append(content)
        elif len(x) <= MAX_LD_CHARS and ("name" in x or "headline" in x):
            try:
                _walk_ld(json.loads(x), names, 0)
            except (ValueError, RecursionError):  # not JSON: the page's mistake, nothing to read
                continue
    return tuple(names)


def may_name(body_markup: str) -> bool:
    """Can a ``<body>`` serialised as this hold an element :func:`page_head` reads? Only if it holds "<meta" (the
    serialiser writes tag names in lower case) and ":title", or "ld+json" (attribute values are written as they
    are but for "&", '"' and U+00A0), in ASCII letters of either case. The reference of ``_anchor.may_name``."""
    low = body_markup.lower()  # (no other character lower-cases to one of these ASCII letters)
    return "<meta" in body_markup and ":title" in low or "ld+json" in low


def _head_alone(tree):
    """``<head>``, when it and ``<body>`` are ``<html>``'s only elements and ``<html>`` the document's (a parsed
    page's tree): then every element outside ``<body>`` is ``<html>`` or in ``<head>``; else None."""
    head, body = tree.head, tree.body
    if head is None or body is None or head.previous_element_sibling is not None \
            or head.next_element_sibling != body or body.next_element_sibling is not None:
        return None
    html = head.parent_element
    if html is None or html.parent_element is not None or html.previous_element_sibling is not None \
            or html.next_element_sibling is not None:
        return None
    return head


class HeadReader:
    """A page's head read at most once, when first asked for: by :func:`main_heading`, or by
    ``blocks.split_body`` before it prunes the tree (``before_pruning``); ``saw_body``: what ``split_body``
    hands on, the body's serialisation as it leaves the tree (so only ``<head>`` may need a search)."""

    def __init__(self, tree):
        self.tree, self.head, self.body_markup = tree, None, None

    def saw_body(self, markup: str) -> None:
        self.body_markup = markup

    def __call__(self) -> PageHead:
        if self.head is None:
            self.head, self.body_markup = page_head(self.tree, self.body_markup), None
        return self.head


def _walk_ld(obj, names: list, depth: int) -> None:
    if depth > 20:
        return
    if isinstance(obj, list):
        for item in obj:
            _walk_ld(item, names, depth + 1)
        return
    if not isinstance(obj, dict):
        return
    kind = obj.get("@type", "")
    kind = " ".join(map(str, kind)) if isinstance(kind, list) else str(kind)
    if not any(t in kind for t in _OTHER_TYPES):
        for key in ("name", "headline"):
            value = obj.get(key)
            if isinstance(value, str) and value.strip():
                names.append(value)
    for key, value in obj.items():
        if isinstance(value, (list, dict)) and key not in _OTHER_KEYS:
            _walk_ld(value, names, depth + 1)


def _words(text: str) -> list[str]:
    return WORDS.findall(text.lower())


def _titled_share(words: list[str], titled: set) -> float:
    return sum(w in titled for w in words) / len(words) if words else 0.0


def _blocks_of(page: Page, e: int) -> tuple[int, int]:
    """Element ``e``'s first block and the block after its last."""
    return bisect_left(page.start, page.el_start[e]), bisect_left(page.start, page.el_end[e])


def main_heading(page: Page, title: str, head) -> int:
    """The main heading's block (module docstring); -1 when there is none. ``head``: the page's
    :class:`PageHead`, None, or a function giving it, called only when the names matter (no or several
    ``<h1>`` blocks). Only the ``<h1>`` blocks, or else the short unlinked ones, are split into words."""
    h1s = compiled._anchor.elements(page.el_tag, H1) if compiled.ON else _elements(page.el_tag, H1)
    h1 = [b for b, stop in map(partial(_blocks_of, page), h1s) if stop > b]
    if len(h1) == 1:
        return h1[0]
    head = (head() if callable(head) else head) or PageHead()
    titled = set(_words(title)).union(*map(_words, head.names))
    if h1:
        return max(h1, key=lambda b: (_titled_share(_words(page.texts[b]), titled), -b))
    if not titled:
        return -1
    if compiled.ON:
        best, _ = compiled._anchor.short_titled(page.texts, page.link_chars, titled, *SHORT, MIN_TITLED, _words)
    else:
        best, _ = short_titled(page, titled, MIN_TITLED)
    return best


def short_titled(page: Page, titled: set, least: float) -> tuple[int, float]:
    """Of the blocks under half linked with ``SHORT`` words, the first with the largest share of ``titled`` words,
    if at least ``least``, and that share ((-1, 0.0): none has one). The reference of ``_anchor.short_titled``."""
    best, share = -1, 0.0
    for b, (text, linked) in enumerate(zip(page.texts, page.link_chars)):
        if linked >= 0.5 * len(text):
            continue
        words = _words(text)
        if SHORT[0] <= len(words) <= SHORT[1]:
            s = _titled_share(words, titled)
            if s > share and s >= least:
                best, share = b, s
    return best, share


def _elements(tags, tag: int) -> list[int]:
    """The elements with this tag (list.index: C-level scans; the reference of ``_anchor.elements``)."""
    found, at = [], -1
    try:
        while True:
            at = tags.index(tag, at + 1)
            found.append(at)
    except ValueError:
        return found


def anchor_columns(page: Page, title: str, head) -> np.ndarray:
    """(blocks x len(NAMES)) for a page with this title and head (as :func:`main_heading`'s)."""
    n = len(page.texts)
    h = main_heading(page, title, head) if n else -1
    if h >= 0 and compiled.ON:
        return _columns_compiled(page, h)
    out = np.zeros((n, len(NAMES)))
    if h < 0:
        out[:, 4] = 1.0
        return out
    start = np.asarray(page.start, dtype=np.float64)
    d = start - start[h]
    steps = np.arange(n, dtype=np.float64) - h
    out[:, 0] = 1.0
    out[:, 1] = np.sign(d) * np.log1p(np.abs(d))
    out[:, 2] = np.sign(steps) * np.log1p(np.abs(steps))
    out[h, 3] = 1.0
    ancestors = _ancestors(page, h)
    share, up = np.ones(n), np.full(n, np.log1p(len(ancestors)))
    total = max(page.chars, 1)
    for k in range(len(ancestors) - 1, -1, -1):  # outermost first: inner elements overwrite their blocks
        a = ancestors[k]
        first, stop = _blocks_of(page, a)
        share[first:stop] = (page.el_end[a] - page.el_start[a]) / total
        up[first:stop] = np.log1p(k)
    out[:, 4] = share
    out[:, 5] = up
    return out


def _columns_compiled(page: Page, h: int) -> np.ndarray:
    """:func:`anchor_columns` by ``_anchor.columns``, with numpy's ``log1p`` (one call): the same values."""
    ancestors = _ancestors(page, h)
    return compiled._anchor.columns(page.start, h, [page.el_start[e] for e in ancestors],
                                    [page.el_end[e] for e in ancestors], float(max(page.chars, 1)), np.log1p)


def _ancestors(page: Page, h: int) -> list[int]:
    """Block ``h``'s element and its ancestors, innermost first."""
    found, e = [], page.owner[h]
    while e >= 0:
        found.append(e)
        e = page.el_parent[e]
    return found
