"""``feeds``: Adaptive Post Recognition (seed "Adaptive Post Recognition"): per-host post templates
induced from the blog's own RSS/Atom feeds.

A feed item names a post page (its link) and repeats that post's title, author
and text (full ``content:encoded``/Atom content, or a summary). Learning, a
separate pass over the crawl (:func:`learn_templates`):

1. every feed record is parsed with ``feedparser`` into :class:`FeedItem`
   (absolute, normalised link; plain-text title, content and author);
2. every crawled page that a feed item links to is parsed and the item's text
   is looked up in it (:func:`match_item`): the feed text is shortened word by
   word from its end until what is left occurs in the page's text (a truncated
   ``[...]`` description, a ``The post ... appeared first on`` tail or a later
   edit of the post all stop the match only where they begin); the deepest
   element whose text holds it is the content node (climbing out of a single
   paragraph to its container), and the title and author are found the same way;
3. the element paths (:class:`Path`: tag plus id or class, a position only
   where neither exists) of one host's pages are merged into a
   :class:`HostTemplate`: paths of the same shape are grouped, the largest group
   wins, and attribute values that differ between pages are generalised to their
   common prefix plus ``*`` (``article[@id=post-12]`` + ``article[@id=post-37]``
   -> ``article[@id=post-*]``).

Cleaning (:class:`FeedsCleaner`) needs no feed: the host's content path is
applied to the page's tree. Where it matches, the page is a post, and everything
but the matched content node(s) is removed (the post title and author found by
their paths go to ``doc.meta``); where it does not (about pages, archives, tag
listings) the page falls back to the ``density`` cleaner, as do hosts without a
template. So a post the feed never listed (older posts, posts crawled later)
is still cut by its host's template.
"""
from __future__ import annotations

import html as html_lib
import io
import re
from dataclasses import dataclass
from typing import Callable, Iterable, Sequence
from urllib.parse import urljoin, urlsplit, urlunsplit

from resiliparse.extract.html2text import extract_plain_text
from resiliparse.parse.html import HTMLTree, NodeType

from preprocess.cleaners.blog import keep_posts
from preprocess.cleaners.density import NOISE_TAGS, DensityCleaner, element_children
from preprocess.document import Document
from preprocess.steps.base import Step
from preprocess.steps.decode import HTML_TYPES, UNKNOWN_TYPES, decode_payload, looks_like_html, mime_type
from preprocess.steps.tags import tidy_lines

__all__ = ["FeedItem", "FeedsCleaner", "HostTemplate", "MatchResult", "Path", "PathStep", "feed_items", "feed_text",
           "host_key", "induce_template", "is_feed", "learn_templates", "longest_prefix", "match_item",
           "merge_paths", "merge_steps", "normalize_url", "parse_page", "path_of", "url_key"]

MAX_FEED_BYTES = 16 << 20
MAX_PAGE_BYTES = 16 << 20
MAX_PATH = 64           # steps below <body>; deeper nodes get no path (pathological nesting)
MAX_DESCENT = 100       # levels the deepest-node search descends
MAX_CANDIDATES = 20     # occurrences of one text kept per page
MAX_MATCHES = 1000      # nodes a path may match on one page
LEARN_WORDS = 300       # feed content words kept while learning (the prefix search needs no more)
MIN_CONTENT_WORDS = 5   # a shortened content text must keep this many words ...
MIN_CONTENT_CHARS = 30  # ... and this many non-space characters to count as found
MAX_SKIP = 3            # leading feed words that may be dropped when no prefix is found (datelines, captions)
MIN_TITLE_WORDS = 3     # a title may be shortened down to this many words (or its full length if shorter)
MIN_SUPPORT = 0.5       # share of a host's matched pages the template's path must come from

_FEED_MIMES = ("rss", "atom")
_FEED_START = re.compile(
    rb"^\s*(?:<\?xml[^>]*>\s*)?(?:(?:<!--.*?-->|<\?.*?\?>|<!DOCTYPE[^>]*>)\s*)*<(rss|feed|rdf:RDF)[\s>/]", re.I | re.S)
_TAG = re.compile(r"<[^>]*>")
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
_SAFE_TAG = re.compile(r"^[a-z][a-z0-9:_-]*$")
_DEFAULT_PORTS = {"http": 80, "https": 443}


# --------------------------------------------------------------------------- feeds

def is_feed(content_type: str, raw: bytes | None) -> bool:
    """An RSS/Atom feed: an ``rss``/``atom`` Content-Type, or a body whose root element is ``<rss>``,
    ``<feed>`` or RSS 1.0's ``<rdf:RDF>`` (after whitespace, a BOM, the XML declaration, comments).

    Generic XML types (``text/xml``, ``application/xml``) are decided by the body, so sitemaps and other
    XML are no feeds; ``application/xhtml+xml`` is HTML.
    """
    mime = mime_type(content_type or "")
    if any(m in mime for m in _FEED_MIMES):
        return True
    if not raw:
        return False
    head = raw[:4096]
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        head = head.decode("utf-16", "ignore").encode("utf-8", "ignore")
    elif head.startswith(b"\xef\xbb\xbf"):
        head = head[3:]
    m = _FEED_START.match(head)
    if m is None:
        return False
    return m.group(1).lower() != b"rdf:rdf" or b"rss" in head.lower()


def normalize_url(link: str, base: str = "") -> str:
    """Absolute http(s) URL with the host lower-cased, the default port and the fragment dropped, and
    ``/`` for an empty path; ``""`` for anything else (mailto:, javascript:, unparsable)."""
    try:
        parts = urlsplit(urljoin(base or "", (link or "").strip()))
        scheme = parts.scheme.lower()
        host = (parts.hostname or "").lower().rstrip(".")
        if scheme not in _DEFAULT_PORTS or not host:
            return ""
        port = parts.port
    except ValueError:
        return ""
    netloc = host if port in (None, _DEFAULT_PORTS[scheme]) else f"{host}:{port}"
    return urlunsplit((scheme, netloc, parts.path or "/", parts.query, ""))


def url_key(url: str) -> str:
    """What a feed link and a crawled page URL are matched on: the normalised URL without its scheme,
    a leading ``www.`` and a trailing slash (feeds say http:// where the crawl has https://)."""
    norm = normalize_url(url)
    if not norm:
        return ""
    parts = urlsplit(norm)
    host = host_key(parts.netloc)
    path = parts.path.rstrip("/") or "/"
    return f"{host}{path}" + (f"?{parts.query}" if parts.query else "")


def host_key(host: str) -> str:
    """The site a template belongs to: the lower-cased host without a leading ``www.``."""
    host = (host or "").lower().rstrip(".")
    return host[4:] if host.startswith("www.") else host


def html_to_text(markup: str) -> str:
    """Plain text of an HTML fragment (a feed's title/description/content), one line per block."""
    if not markup:
        return ""
    if "<" not in markup and "&" not in markup:
        return tidy_lines(markup)
    try:
        return tidy_lines(extract_plain_text(HTMLTree.parse(markup), preserve_formatting=True, main_content=False,
                                             list_bullets=False, alt_texts=False, links=False, form_fields=False,
                                             noscript=False, skip_elements=list(NOISE_TAGS)))
    except Exception:  # the fragment is a field of a feed: never let it fail the feed
        return tidy_lines(html_lib.unescape(_TAG.sub(" ", markup)))


@dataclass(slots=True)
class FeedItem:
    link: str          # absolute, normalised (normalize_url)
    title: str = ""
    content: str = ""  # plain text of the fullest text the item carries: content, else summary/description
    author: str = ""


def _cap_words(text: str, max_words: int | None) -> str:
    if max_words is None:
        return text
    words = text.split(None, max_words)
    return text if len(words) <= max_words else " ".join(words[:max_words])


def feed_items(raw: bytes, base_url: str, max_words: int | None = None) -> list[FeedItem]:
    """The items of an RSS 0.9x/1.0/2.0 or Atom feed, parsed by ``feedparser``; ``[]`` for anything that
    is no feed. Relative links are resolved against ``xml:base`` and then ``base_url`` (the feed's URL);
    items without an http(s) link are left out. ``max_words`` caps each item's content text.
    """
    if not raw or len(raw) > MAX_FEED_BYTES:
        return []
    import feedparser

    try:
        # a stream, never bytes: feedparser tries bytes as a local file name first
        parsed = feedparser.parse(io.BytesIO(raw), response_headers={"content-location": base_url or ""},
                                  resolve_relative_uris=False, sanitize_html=False)
    except Exception:
        return []
    items, feed_url = [], normalize_url(base_url)
    for entry in parsed.get("entries") or []:
        try:
            link = entry.get("feedburner_origlink") or entry.get("link") or ""
            link = normalize_url(link, base_url)
            if not link or link == feed_url:  # no link of its own (feedparser falls back to the feed's)
                continue
            contents = [c.get("value") or "" for c in entry.get("content") or []]
            body = max(contents, key=len) if contents else entry.get("summary") or ""
            author = (entry.get("author_detail") or {}).get("name") or entry.get("author") or ""
            item = FeedItem(link=link, title=" ".join(html_to_text(entry.get("title") or "").split()),
                            content=_cap_words(html_to_text(body), max_words),
                            author=" ".join(html_to_text(author).split()))
            if item.title or item.content:
                items.append(item)
        except Exception:  # one odd entry must not lose the others
            continue
    return items


def feed_text(raw: bytes, base_url: str = "") -> str:
    """A feed as text: each item's title, then its content, one block per line."""
    return "\n".join(part for item in feed_items(raw, base_url) for part in (item.title, item.content) if part)


# --------------------------------------------------------------------------- paths

@dataclass(frozen=True, slots=True)
class PathStep:
    """One step of a :class:`Path`: ``tag``, with ``attr`` (``id`` or ``class``) equal to ``value`` -- or
    starting with it when ``prefix`` -- and, for elements with neither attribute, ``index``: the position
    (from 1) among the parent's children of the same tag."""

    tag: str
    attr: str | None = None
    value: str | None = None
    prefix: bool = False
    index: int | None = None

    def __str__(self) -> str:
        if self.attr:
            return f"{self.tag}[@{self.attr}={self.value}{'*' if self.prefix else ''}]"
        return f"{self.tag}[{self.index}]" if self.index else self.tag

    def accepts(self, el) -> bool:
        """Tag and attribute test (the position is checked by :meth:`Path.find`)."""
        if el.tag != self.tag:
            return False
        if self.attr is None:
            return True
        got = _attr_value(el, self.attr)
        if got is None:
            return False
        return got.startswith(self.value) if self.prefix else got == self.value

    def to_json(self) -> list:
        return [self.tag, self.attr, self.value, self.prefix, self.index]

    @classmethod
    def from_json(cls, data: Sequence) -> "PathStep":
        tag, attr, value, prefix, index = (list(data) + [None] * 5)[:5]
        if not isinstance(tag, str) or attr not in (None, "id", "class"):
            raise ValueError(f"bad path step {data!r}")
        return cls(tag, attr, None if attr is None else str(value), bool(prefix) and attr is not None,
                   int(index) if index is not None and attr is None else None)


def _attr_value(el, attr: str) -> str | None:
    raw = el.id if attr == "id" else el.class_name
    if not raw:
        return None
    value = " ".join(raw.split())[:200]
    return value or None


@dataclass(frozen=True, slots=True)
class Path:
    """A lightweight XPath below ``<body>``: ``div[@id=page]/article[@id=post-*]/div[@class=entry-content]``."""

    steps: tuple[PathStep, ...]

    def __str__(self) -> str:
        return "/".join(map(str, self.steps))

    def __len__(self) -> int:
        return len(self.steps)

    @property
    def shape(self) -> tuple[str, ...]:
        return tuple(s.tag for s in self.steps)

    def find(self, body, limit: int = MAX_MATCHES) -> list:
        """The elements this path selects below ``body``, in document order (sibling links, no CSS)."""
        if body is None or not self.steps:
            return []
        frontier = [body]
        for step in self.steps:
            nxt = []
            for node in frontier:
                seen = 0
                for child in element_children(node):
                    if child.tag != step.tag:
                        continue
                    seen += 1
                    if step.index is not None and seen != step.index:
                        continue
                    if step.accepts(child):
                        nxt.append(child)
                        if len(nxt) >= limit:
                            break
                if len(nxt) >= limit:
                    break
            if not nxt:
                return []
            frontier = nxt
        return frontier

    def to_json(self) -> list:
        return [s.to_json() for s in self.steps]

    @classmethod
    def from_json(cls, data) -> "Path":
        return cls(tuple(PathStep.from_json(s) for s in data))


def path_of(node, body) -> Path | None:
    """The path from ``body`` down to ``node``; None if ``node`` is not below ``body`` or lies too deep."""
    steps = []
    while node is not None and node != body:
        tag = node.tag
        if not tag or len(steps) >= MAX_PATH:
            return None
        if not _SAFE_TAG.match(tag):
            return None
        attr = "id" if _attr_value(node, "id") else "class" if _attr_value(node, "class") else None
        if attr:
            steps.append(PathStep(tag, attr, _attr_value(node, attr)))
        else:
            index, sib = 1, node.previous_element_sibling
            while sib is not None:
                index += sib.tag == tag
                sib = sib.previous_element_sibling
            steps.append(PathStep(tag, index=index))
        node = node.parent
    if node is None or not steps:
        return None
    return Path(tuple(reversed(steps)))


def _common_prefix(values: list[str]) -> str:
    first, last = min(values), max(values)
    n = 0
    while n < len(first) and n < len(last) and first[n] == last[n]:
        n += 1
    # never cut inside a number: post-12 + post-15 is post-*, not post-1*
    return first[:n].rstrip("0123456789")


def merge_steps(steps: Sequence[PathStep]) -> PathStep:
    """One step standing for same-tag steps of several pages."""
    first = steps[0]
    if all(s == first for s in steps):
        return first
    attrs = {s.attr for s in steps}
    if len(attrs) == 1 and first.attr is not None:
        prefix = _common_prefix([s.value for s in steps])
        if prefix:
            return PathStep(first.tag, first.attr, prefix, True)
        return PathStep(first.tag)
    if attrs == {None}:
        indexes = {s.index for s in steps}
        return PathStep(first.tag, index=first.index if len(indexes) == 1 else None)
    return PathStep(first.tag)  # id on one page, class or nothing on another: the tag alone


def merge_paths(paths: Sequence[Path], min_support: float = MIN_SUPPORT) -> tuple[Path, int] | None:
    """Merge the paths of one kind (content, title or author) of a host's pages.

    Paths are grouped by their tag sequence; the largest group (the longer path on a tie) must hold at
    least ``min_support`` of the paths. Its paths are merged step by step (:func:`merge_steps`).
    Returns the merged path and how many pages it came from, or None.
    """
    paths = [p for p in paths if p is not None and len(p)]
    if not paths:
        return None
    groups: dict[tuple[str, ...], list[Path]] = {}
    for p in paths:
        groups.setdefault(p.shape, []).append(p)
    best = max(groups.values(), key=lambda g: (len(g), len(g[0])))
    if len(best) < min_support * len(paths):
        return None
    return Path(tuple(merge_steps(col) for col in zip(*(p.steps for p in best)))), len(best)


# --------------------------------------------------------------------------- matching

def _norm(text: str) -> str:
    """What feed text and page text are compared on: case-folded, typographic quotes and dashes made
    plain, and no whitespace at all (lexbor's ``text`` glues adjacent blocks without a space)."""
    return "".join(text.translate(_PUNCT).casefold().split())


def _words(text: str) -> list[str]:
    return [w for w in (_norm(w) for w in _SPLIT.split(text or "")) if w]


def longest_prefix(words: Sequence[str], haystack: str, min_words: int, min_chars: int = 0) -> int:
    """How many of ``words`` (normalised) are left when the text is shortened word by word from its end
    until it occurs in ``haystack``; 0 when fewer than ``min_words`` words / ``min_chars`` characters
    would be left. A binary search: any prefix of a text that occurs also occurs, so it stops at the
    same length as the word-by-word loop, with log(n) substring searches instead of n."""
    min_words = max(min_words, 1)
    if len(words) < min_words:
        return 0
    if "".join(words[:min_words]) not in haystack:
        return 0
    lo, hi = min_words, len(words)  # words[:lo] occurs
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if "".join(words[:mid]) in haystack:
            lo = mid
        else:
            hi = mid - 1
    return lo if len("".join(words[:lo])) >= min_chars else 0


def _deepest(body, needle: str) -> list:
    """The deepest elements whose text holds ``needle``, one per occurrence, in document order."""
    out, stack = [], [(body, 0)]
    while stack and len(out) < MAX_CANDIDATES:
        node, depth = stack.pop()
        kids = [c for c in element_children(node) if needle in _norm(c.text or "")] if depth < MAX_DESCENT else []
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


def match_item(tree, item: FeedItem) -> MatchResult | None:
    """Find ``item``'s content, title and author in a parsed page; None if its content is not there.

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
    page = _norm(body.text or "")
    words = _words(item.content)
    k = offset = 0
    for offset in range(MAX_SKIP + 1):  # a dateline, caption or mangled character before the text proper
        k = longest_prefix(words[offset:], page, MIN_CONTENT_WORDS, MIN_CONTENT_CHARS)
        if k:
            break
    if not k:
        return None
    nodes = [_climb_paragraph(n, body) for n in _deepest(body, "".join(words[offset:offset + k]))]
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

    title_words = _words(item.title)
    tk = longest_prefix(title_words, page, min(MIN_TITLE_WORDS, len(title_words)))
    if tk:
        cands = [_climb_inline(c, body) for c in _deepest(body, "".join(title_words[:tk]))]
        best = nearest(cands, lambda c: c.tag in _HEADINGS or _hinted(c, _TITLE_HINT, 1))
        if best is not None:
            result.title, result.title_words, result.title_total = path_of(best, body), tk, len(title_words)
    name = _norm(item.author)
    if len(name) >= 2 and name in page:
        cands = [_climb_inline(c, body) for c in _deepest(body, name)]
        best = nearest(cands, lambda c: _hinted(c, _AUTHOR_HINT))
        if best is not None:
            result.author = path_of(best, body)
    return result


def _ancestors_upto(node, body):
    p = node.parent
    while p is not None and p != body:
        yield p
        p = p.parent


# --------------------------------------------------------------------------- templates

@dataclass(slots=True)
class HostTemplate:
    """A host's post template: the content path (the key: a page it matches is a post) and, where the
    host's pages agreed on them, the title and author paths."""

    content: Path
    title: Path | None = None
    author: Path | None = None
    host: str = ""
    pages: int = 0     # matched pages the content path was merged from ...
    support: float = 0.0  # ... and their share of the host's matched pages

    def to_json(self) -> dict:
        return {"host": self.host, "content": self.content.to_json(),
                "title": self.title.to_json() if self.title else None,
                "author": self.author.to_json() if self.author else None,
                "pages": self.pages, "support": round(self.support, 4)}

    @classmethod
    def from_json(cls, data: dict) -> "HostTemplate":
        content = Path.from_json(data["content"])
        if not len(content):
            raise ValueError("a template needs a non-empty content path")
        return cls(content=content,
                   title=Path.from_json(data["title"]) if data.get("title") else None,
                   author=Path.from_json(data["author"]) if data.get("author") else None,
                   host=str(data.get("host") or ""), pages=int(data.get("pages") or 0),
                   support=float(data.get("support") or 0.0))


def induce_template(matches: Sequence[MatchResult], host: str = "",
                    min_support: float = MIN_SUPPORT) -> HostTemplate | None:
    """Merge one host's per-page matches into its template (None when the pages disagree too much).

    The content paths are merged by :func:`merge_paths`; a merged content path without any id, class
    or position left is refused. Title and author paths are merged over the pages whose content path
    went into the template, and kept only where they agree as well.
    """
    matches = [m for m in matches if m is not None and m.content is not None and len(m.content)]
    merged = merge_paths([m.content for m in matches], min_support)
    if merged is None:
        return None
    content, pages = merged
    if not any(s.attr or s.index for s in content.steps):
        return None  # bare tags (div/div/div) would select every such block of any page
    shape = content.shape
    chosen = [m for m in matches if m.content.shape == shape]
    title = merge_paths([m.title for m in chosen if m.title], min_support)
    author = merge_paths([m.author for m in chosen if m.author], min_support)
    return HostTemplate(content=content, title=title[0] if title else None, author=author[0] if author else None,
                        host=host, pages=pages, support=pages / len(matches))


def parse_page(raw: bytes, content_type: str = ""):
    """A page parsed for learning: charset chosen as the Decode step does, then lexbor."""
    text, _, _ = decode_payload(raw, content_type)
    return HTMLTree.parse(text.replace("\x00", ""))


def _is_html(content_type: str, raw: bytes) -> bool:
    mime = mime_type(content_type or "")
    return mime in HTML_TYPES or (mime in UNKNOWN_TYPES and looks_like_html(raw))


Records = Iterable[tuple[str, str, bytes]]


def learn_templates(records: Records | Callable[[], Iterable[tuple[str, str, bytes]]],
                    min_support: float = MIN_SUPPORT) -> tuple[dict[str, HostTemplate], dict]:
    """Templates per host from a crawl's ``(url, content_type, raw bytes)`` records.

    Two passes, so pages may come before or after their feed: the first reads the feeds (items kept
    by link, content capped at ``LEARN_WORDS`` words), the second parses and matches each page a feed
    item links to, one at a time, keeping only its paths. ``records`` is a re-iterable (a list, or
    anything whose ``iter()`` starts afresh) or a callable returning a fresh iterator per pass; a
    one-shot iterator (a generator) is refused with TypeError, since its pages before the feed would be
    lost. Memory: the feed items plus a few paths per matched page; pages are never held.

    Returns ``(templates by host, stats)``; hosts are keyed by :func:`host_key` (``www.`` dropped).
    """
    if callable(records):
        passes = records
    else:
        if iter(records) is records:
            raise TypeError("learn_templates reads the records twice: pass a list, a re-iterable, or a "
                            "callable returning a fresh iterator, not a one-shot iterator")
        passes = lambda: iter(records)  # noqa: E731
    stats = {"records": 0, "feeds": 0, "feeds_empty": 0, "feed_items": 0, "pages_linked": 0, "pages_matched": 0,
             "pages_unmatched": 0, "page_errors": 0, "hosts_matched": 0, "hosts_with_template": 0}
    items: dict[str, FeedItem] = {}
    for url, content_type, raw in passes():
        stats["records"] += 1
        if raw and is_feed(content_type, raw):
            stats["feeds"] += 1
            found = feed_items(raw, url, max_words=LEARN_WORDS)
            stats["feed_items"] += len(found)
            stats["feeds_empty"] += not found
            for item in found:
                items.setdefault(url_key(item.link), item)
    per_host: dict[str, list[MatchResult]] = {}
    done: set[str] = set()
    for url, content_type, raw in passes():
        if not raw or len(raw) > MAX_PAGE_BYTES:
            continue
        key = url_key(url)
        item = items.get(key)
        if item is None or key in done or is_feed(content_type, raw) or not _is_html(content_type, raw):
            continue
        done.add(key)
        stats["pages_linked"] += 1
        try:
            match = match_item(parse_page(raw, content_type), item)
        except Exception:
            stats["page_errors"] += 1
            continue
        if match is None:
            stats["pages_unmatched"] += 1
            continue
        stats["pages_matched"] += 1
        host = host_key(urlsplit(normalize_url(url)).hostname or "")
        per_host.setdefault(host, []).append(match)
    templates = {}
    for host, matches in per_host.items():
        tmpl = induce_template(matches, host, min_support)
        if tmpl is not None:
            templates[host] = tmpl
    stats["hosts_matched"] = len(per_host)
    stats["hosts_with_template"] = len(templates)
    return templates, stats


# --------------------------------------------------------------------------- cleaning

_FEED_ROOTS = ("rss", "feed", "rdf:rdf")
_ITEM_TEXT = ("content:encoded", "content", "description", "summary")


def _node_text(el) -> str:
    return " ".join((el.text or "").split()) if el is not None else ""


_BLOCKS = frozenset(("p", "div", "br", "li", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6", "tr", "table",
                     "blockquote", "pre", "dd", "dt", "section", "article"))
_UNCLOSED_TAG = re.compile(r"<[^>]*$")


def _field_text(el, max_nodes: int = 20000) -> str:
    """Text of a feed field (``description``, ``content``) as lexbor's HTML parser left it.

    Escaped markup (``&lt;p&gt;``) arrives as text and is stripped here; a ``<![CDATA[`` section
    becomes a comment that ends at its first ``>`` -- its data is kept (less the cut-off tag), and the
    elements after it give the rest.
    """
    parts, stack, seen = [], [el.first_child], 0
    while stack and seen < max_nodes:
        node = stack.pop()
        if node is None:
            continue
        seen += 1
        stack.append(node.next_sibling)
        if node.type == NodeType.COMMENT:
            data = node.text or ""
            if data.startswith("[CDATA["):
                data = data[7:-2] if data.endswith("]]") else data[7:]  # "]]" before the final ">"
                parts.append(_UNCLOSED_TAG.sub("", data))
        elif node.type == NodeType.TEXT:
            parts.append(node.text or "")
        elif node.type == NodeType.ELEMENT:
            if node.tag in _BLOCKS:
                parts.append("\n")
            if node.tag not in NOISE_TAGS:
                stack.append(node.first_child)
    text = html_lib.unescape(_TAG.sub("\n", "".join(parts).replace("]]>", " ")))
    return tidy_lines(text)


def _tree_feed_blocks(body) -> list[str]:
    """Title and content of each item of a feed that lexbor parsed as HTML (no raw bytes left).

    Best effort: callers that still hold the raw feed should use :func:`feed_text` (feedparser).
    """
    blocks = []
    for item in body.query_selector_all("item,entry")[:MAX_MATCHES]:
        kids = {}
        for child in element_children(item):
            kids.setdefault(child.tag, child)
        title = " ".join(_field_text(kids["title"]).split()) if "title" in kids else ""
        content = next((kids[t] for t in _ITEM_TEXT if t in kids), None)
        blocks.extend(b for b in (title, _field_text(content) if content is not None else "") if b)
    return blocks


def _channel_title(body) -> str:
    """The feed's own title (RSS ``channel > title``, Atom ``feed > title``) from lexbor's tree."""
    node = body.first_element_child
    if node is None or node.tag not in _FEED_ROOTS:
        return ""
    for child in element_children(node):
        if child.tag == "channel":
            node = child
            break
    for child in element_children(node):
        if child.tag == "title":
            return " ".join(_field_text(child).split())[:300]
    return ""


class FeedsCleaner(Step):
    """Applies per-host templates from :func:`learn_templates` (HostTemplate objects or their JSON)."""

    name = "feeds"

    def __init__(self, templates: dict[str, HostTemplate | dict] | None = None):
        super().__init__()
        self.templates = {host_key(host): t if isinstance(t, HostTemplate) else HostTemplate.from_json(t)
                          for host, t in (templates or {}).items()}
        self.fallback = DensityCleaner()

    def _density(self, doc: Document, reason: str) -> Document | None:
        self.stat_update(reason)
        self.fallback.stats = self.stats
        return self.fallback.process(doc)

    def process(self, doc: Document) -> Document | None:
        tree = doc.tree
        body = tree.body if tree is not None else None
        if is_feed(doc.content_type, doc.raw):
            return self._feed(doc, body, self._feed_blocks(doc, body))
        if body is not None and body.first_element_child is not None \
                and body.first_element_child.tag in _FEED_ROOTS:  # a feed served as text/html
            blocks = _tree_feed_blocks(body)
            if blocks:  # else a page that merely starts with a <feed> element: cleaned as a page
                return self._feed(doc, body, blocks)
        if tree is None:
            return self.drop(doc, "no_tree", "the feeds cleaner runs after parse")
        tmpl = self.templates.get(host_key(doc.host))
        if tmpl is None:
            return self._density(doc, "no_template")
        if body is None or body.tag != "body":
            return self._density(doc, "non_post")
        nodes = [n for n in tmpl.content.find(body) if (n.text or "").strip()]
        if not nodes:
            return self._density(doc, "non_post")
        # title and author first: they usually lie outside the content that is about to be kept
        for key, path, cap in (("post_title", tmpl.title, 300), ("author", tmpl.author, 200)):
            found = next((t for t in (_node_text(n) for n in path.find(body, 50)) if t), "") if path else ""
            if found:
                doc.meta[key] = found[:cap]
                self.stat_update(f"with_{'title' if key == 'post_title' else key}")
        self.stat_update("post")
        self.stat_update("post_nodes", len(nodes))
        self.stat_update("nodes_removed", keep_posts(body, nodes))
        doc.meta["content_path"] = str(tmpl.content)
        return doc

    @staticmethod
    def _feed_blocks(doc: Document, body) -> list[str]:
        """With the raw bytes still there, ``feedparser`` reads them (as :func:`feed_text`); after Parse
        (which drops them) the items are read from lexbor's tree (:func:`_tree_feed_blocks`)."""
        if doc.raw:
            return [p for it in feed_items(doc.raw, doc.url) for p in (it.title, it.content) if p]
        return _tree_feed_blocks(body) if body is not None else []

    def _feed(self, doc: Document, body, blocks: list[str]) -> Document | None:
        """A feed that reached the cleaner: its items' titles and texts become the page's blocks."""
        if not blocks:
            self.stat_update("feed_empty")
            return self.drop(doc, "empty_feed", "feed without items")
        if body is None or body.tag != "body":
            doc.tree = HTMLTree.parse("<html><head></head><body></body></html>")  # an empty page to fill
            body = doc.tree.body
        channel_title = _channel_title(body)
        head = doc.tree.head
        if channel_title and head is not None and head.query_selector("title") is None:
            title = doc.tree.create_element("title")
            title.text = channel_title
            head.append_child(title)
        while body.first_child is not None:
            body.first_child.decompose()
        for line in (line for text in blocks for line in text.split("\n")):
            p = doc.tree.create_element("p")
            p.text = line
            body.append_child(p)
        self.stat_update("feed")
        self.stat_update("feed_blocks", len(blocks))
        return doc
