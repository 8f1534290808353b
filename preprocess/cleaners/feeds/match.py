"""Finding a feed item's content, title and author in the page it links to (:func:`match_item`)."""
from __future__ import annotations

import re
from dataclasses import dataclass

from preprocess.html.dom import NOISE_TAGS, element_children
from preprocess.cleaners.feeds.items import FeedItem
from preprocess.cleaners.feeds.paths import Path, path_of

MAX_DESCENT = 100       # levels the deepest-node search descends
MAX_CANDIDATES = 20     # occurrences of one text kept per page
MIN_CONTENT_WORDS = 5   # a shortened content text must keep this many words ...
MIN_CONTENT_CHARS = 30  # ... and this many non-space characters to count as found
MAX_SKIP = 3            # leading feed words that may be dropped when no prefix is found (datelines, captions)
MIN_TITLE_WORDS = 3     # a title may be shortened down to this many words (or its full length if shorter)

_SPLIT = re.compile(r"\s+")
_PUNCT = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201a": "'", "\u2032": "'", "\u201c": '"', "\u201d": '"',
                        "\u201e": '"', "\u2033": '"', "\u2013": "-", "\u2014": "-", "\u2212": "-", "\u2026": "...",
                        "\u00ad": None, "\u200b": None, "\ufeff": None})
_NOISE_CSS = ",".join(NOISE_TAGS)
# a content match inside one of these climbs to the block that holds it (the post's container)
_PARAGRAPH_LEVEL = frozenset(("p", "span", "a", "b", "strong", "em", "i", "u", "s", "font", "small", "big", "sup",
                              "sub", "abbr", "mark", "cite", "q", "code", "pre", "blockquote", "label", "br", "img",
                              "h1", "h2", "h3", "h4", "h5", "h6", "li", "ul", "ol", "dl", "dt", "dd", "figure",
                              "figcaption", "time"))
_INLINE = frozenset(("a", "span", "b", "strong", "em", "i", "u", "font", "small", "big", "abbr", "cite", "q", "mark",
                     "time"))
_HEADINGS = frozenset(("h1", "h2", "h3", "h4", "h5", "h6"))
_TITLE_HINT = re.compile(r"title|headline|heading", re.I)
_AUTHOR_HINT = re.compile(r"author|byline|creator|vcard|^fn$|posted-?by", re.I)


def _norm(text: str) -> str:
    """What feed text and page text are compared on: case-folded, typographic quotes and dashes made
    plain, and no whitespace at all (lexbor's ``text`` glues adjacent blocks without a space)."""
    return "".join(text.translate(_PUNCT).casefold().split())


def _words(text: str) -> list[str]:
    return [w for w in (_norm(w) for w in _SPLIT.split(text or "")) if w]


def longest_prefix(words, haystack, min_words: int, min_chars: int = 0, start: int = 0) -> int:
    """How many of ``words`` (normalised; from ``start``) are left when the text is shortened word by
    word from its end until it occurs in ``haystack``; 0 when fewer than ``min_words`` words /
    ``min_chars`` characters would be left. A binary search: any prefix of a text that occurs also
    occurs, so it stops at the same length as the word-by-word loop, with log(n) substring searches
    instead of n. ``words`` is a list of strings or a :class:`~preprocess.cleaners.feeds.digest.WordsDigest`
    (then ``haystack`` is a :class:`~preprocess.cleaners.feeds.digest.Haystack`)."""
    words = _Words(words) if isinstance(words, list) else words
    min_words, n = max(min_words, 1), len(words) - start
    if n < min_words:
        return 0
    if words.needle(start, start + min_words) not in haystack:
        return 0
    lo, hi = min_words, n  # words[start:start + lo] occurs
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if words.needle(start, start + mid) in haystack:
            lo = mid
        else:
            hi = mid - 1
    return lo if words.chars(start, start + lo) >= min_chars else 0


class _Words:
    """Normalised words as plain strings (the in-process matcher; the pass ships a WordsDigest)."""

    __slots__ = ("words",)

    def __init__(self, words: list[str]):
        self.words = words

    def __len__(self) -> int:
        return len(self.words)

    def needle(self, a: int, b: int) -> str:
        return "".join(self.words[a:b])

    def chars(self, a: int, b: int) -> int:
        return len(self.needle(a, b))


class _ItemText:
    """A :class:`FeedItem` as :func:`match_item` reads it: its normalised words, compared as strings."""

    __slots__ = ("content", "title", "author")

    def __init__(self, item: FeedItem):
        self.content, self.title, self.author = _Words(_words(item.content)), _Words(_words(item.title)), \
            _norm(item.author)

    @staticmethod
    def hay(text: str) -> str:
        return text


def _deepest(body, needle, hay=str) -> list:
    """The deepest elements whose text holds ``needle``, one per occurrence, in document order
    (``hay`` makes a normalised text something ``needle in`` asks)."""
    out, stack = [], [(body, 0)]
    while stack and len(out) < MAX_CANDIDATES:
        node, depth = stack.pop()
        kids = [c for c in element_children(node) if needle in hay(_norm(c.text or ""))] \
            if depth < MAX_DESCENT else []
        if kids:
            stack.extend((k, depth + 1) for k in reversed(kids))
        elif node is not body:
            out.append(node)
    return out


def strip_noise(body, limit: int = 10000) -> None:
    """Remove script/style/svg/... elements: JSON-LD copies of titles and text are no page content.

    One query per removal, outermost first: resiliparse's ``decompose`` costs time in proportion to
    the Python node objects alive, so removing 650 scripts held in a list took 2.4 s, this 0.1 s.
    """
    for _ in range(limit):
        el = body.query_selector(_NOISE_CSS)
        if el is None:
            return
        el.decompose()


def _tokens(el) -> list[str]:
    out = []
    for attr in ("id", "class", "rel", "itemprop"):
        try:
            v = el.getattr(attr)
        except Exception:
            v = None
        if v:
            out.extend(v.split())
    return out


def _hinted(el, pattern, levels: int = 3) -> bool:
    for _ in range(levels):
        if el is None or el.tag == "body":
            return False
        if any(pattern.search(t) for t in _tokens(el)):
            return True
        el = el.parent
    return False


def _climb_inline(node, body):
    """Out of inline wrappers that add no text (``h3 > a``: the heading is the title)."""
    text = _norm(node.text or "")
    while node.tag in _INLINE and node.parent is not None and node.parent != body \
            and _norm(node.parent.text or "") == text:
        node = node.parent
    return node


def _climb_paragraph(node, body):
    """Out of a paragraph to the block holding it: a short summary matches the post's first paragraph."""
    while node.tag in _PARAGRAPH_LEVEL and node.parent is not None and node.parent != body:
        node = node.parent
    return node


@dataclass(slots=True)
class MatchResult:
    content: Path
    title: Path | None = None
    author: Path | None = None
    content_words: int = 0  # words of the feed content found (after shortening) ...
    content_total: int = 0  # ... of this many
    content_skipped: int = 0  # leading words dropped before the search succeeded (MAX_SKIP at most)
    title_words: int = 0
    title_total: int = 0


def _shared_depth(node, depth_of: dict) -> int:
    """Depth of the deepest ancestor-or-self of ``node`` on the path from body to the content node."""
    while node is not None:
        d = depth_of.get(node)
        if d is not None:
            return d
        node = node.parent
    return 0


def match_item(tree, item) -> MatchResult | None:
    """Find ``item``'s content, title and author in a parsed page; None if its content is not there.
    ``item`` is a :class:`FeedItem` or its :class:`~preprocess.cleaners.feeds.digest.ItemDigest` (the
    same answer, from hashes: what the learning pass ships instead of the text).

    The tree's script/style/svg/... elements are removed first (see :func:`strip_noise`).
    Content: the feed text, shortened word by word from the end (at least ``MIN_CONTENT_WORDS`` words
    and ``MIN_CONTENT_CHARS`` characters kept), must occur in the page text -- if no prefix does, the
    same is tried without the first 1..``MAX_SKIP`` words (a dateline, an image caption, a character the
    feed's encoding mangled); the deepest element holding
    it is the content node -- or, if that is a paragraph-level element, the block around it; with
    several occurrences the one with the most text wins. Title: the same search (down to
    ``MIN_TITLE_WORDS`` words); of several occurrences a heading (or a ``*title*`` class) wins, then
    one outside the content, then the one nearest to the content in the tree. Author: the full name,
    preferring an ``author``/``byline``/``vcard`` element, then the same order.
    """
    body = getattr(tree, "body", None)
    if body is None or body.tag != "body":
        return None
    strip_noise(body)
    text = _ItemText(item) if isinstance(item, FeedItem) else item
    hay = text.hay
    page = hay(_norm(body.text or ""))
    words = text.content
    k = offset = 0
    for offset in range(MAX_SKIP + 1):  # a dateline, caption or mangled character before the text proper
        k = longest_prefix(words, page, MIN_CONTENT_WORDS, MIN_CONTENT_CHARS, start=offset)
        if k:
            break
    if not k:
        return None
    nodes = [_climb_paragraph(n, body) for n in _deepest(body, words.needle(offset, offset + k), hay)]
    if not nodes:
        return None
    content = max(nodes, key=lambda n: len(_norm(n.text or "")))
    content_path = path_of(content, body)
    if content_path is None:
        return None
    chain, n = [], content
    while n is not None and n != body:
        chain.append(n)
        n = n.parent
    depth_of = {node: depth for depth, node in enumerate([body] + chain[::-1])}
    result = MatchResult(content=content_path, content_words=k, content_total=len(words), content_skipped=offset)

    def nearest(cands, hint):
        def key(c):
            inside = c == content or any(a == content for a in _ancestors_upto(c, body))
            return hint(c), not inside, _shared_depth(c, depth_of)
        best = None
        for c in cands:  # document order: the first of equals wins
            if best is None or key(c) > key(best):
                best = c
        return best

    title_words = text.title
    tk = longest_prefix(title_words, page, min(MIN_TITLE_WORDS, len(title_words)))
    if tk:
        cands = [_climb_inline(c, body) for c in _deepest(body, title_words.needle(0, tk), hay)]
        best = nearest(cands, lambda c: c.tag in _HEADINGS or _hinted(c, _TITLE_HINT, 1))
        if best is not None:
            result.title, result.title_words, result.title_total = path_of(best, body), tk, len(title_words)
    name = text.author
    if (len(name) if isinstance(name, str) else name.chars) >= 2 and name in page:
        cands = [_climb_inline(c, body) for c in _deepest(body, name, hay)]
        best = nearest(cands, lambda c: _hinted(c, _AUTHOR_HINT))
        if best is not None:
            result.author = path_of(best, body)
    return result


def _ancestors_upto(node, body):
    p = node.parent
    while p is not None and p != body:
        yield p
        p = p.parent
