"""``blog``: BlogBuster's rules (seed "BlogBuster") for blog posts, their titles and dates.

Post containers are elements whose class or id token matches BlogBuster's
patterns: ``post*``, ``*hentry*``, ``divlog``, ``*entry*post*``, ``*post-*``,
``snap_preview``. Tokens naming a part of a post (``post-title``,
``post-footer``, ``post-meta``, ...) are not containers; a container nested in
another one is not a post of its own, and a wrapper that holds two or more posts
(``class="posts"``) gives way to them. For each post:

* title: the first h1-h6/a inside it whose class contains ``post-title``,
  ``entry-title`` or ``title``, else the nearest preceding h1-h5;
* date: the first element inside it (or the nearest preceding element, as with
  Blogger's ``h2.date-header``) whose class or id mentions ``date``,
  ``postinfo``, ``published`` or ``time``, or a ``<time>`` element.

Everything that is not inside a post is removed from the tree, so tag removal
writes the posts' blocks; ``doc.meta["posts"]`` holds each post's title and date
and the document gets the first post's date. A page with no post falls back to
the ``density`` cleaner (counted as ``blog.fallback``).
"""
from __future__ import annotations

import re

from preprocess.cleaners.density import DensityCleaner
from preprocess.document import Document
from preprocess.steps.base import Step

_CONTAINER = re.compile(r"^post|hentry|^divlog$|entry.*post|post-|^snap_preview$", re.I)
_PART = re.compile(r"title|header|footer|meta|date|info|author|byline|tag|categor|comment|share|link|nav|"
                   r"label|icon|thumb|image|img|count|button|feed|rating|related|next|prev|page|menu", re.I)
_DATE_CLASS = re.compile(r"date|postinfo|published|time", re.I)
_CANDIDATES = '[class*="post" i],[id*="post" i],[class*="hentry" i],[class*="divlog" i],[id*="divlog" i],' \
              '[class*="snap_preview" i]'
_HEADINGS = ("h1", "h2", "h3", "h4", "h5")
_TITLE_TAGS = _HEADINGS + ("h6", "a")
_DATES = 'time,[class*="date" i],[id*="date" i],[class*="postinfo" i],[class*="published" i],[class*="time" i]'


def _tokens(el) -> list[str]:
    return (el.class_name or "").split() + ([el.id] if el.id else [])


def is_container(el) -> bool:
    toks = _tokens(el)
    return any(_CONTAINER.search(t) and not _PART.search(t) for t in toks)


def _ancestors(el):
    """Ancestors of ``el`` below ``<body>``, nearest first."""
    p = el.parent
    while p is not None and p.tag != "body":
        yield p
        p = p.parent


def find_posts(body) -> list:
    cands = [el for el in body.query_selector_all(_CANDIDATES) if is_container(el) and (el.text or "").strip()]
    cand_set = set(cands)

    def nearest(el, among):
        return next((p for p in _ancestors(el) if p in among), None)

    # a wrapper holding two or more posts directly (class="posts") gives way to them
    direct: dict = {}
    for el in cands:
        up = nearest(el, cand_set)
        if up is not None:
            direct[up] = direct.get(up, 0) + 1
    chosen = {el for el in cands if direct.get(el, 0) < 2}
    # of the rest, the outermost container is the post
    return [el for el in cands if el in chosen and nearest(el, chosen) is None]


def _text(el) -> str:
    return " ".join((el.text or "").split())


def _preceding(el, match):
    """The nearest element before ``el`` in document order (siblings, then ancestors' siblings) that matches."""
    node = el
    while node is not None and node.tag != "body":
        sib = node.previous_element_sibling
        while sib is not None:
            if match(sib):
                return sib
            sib = sib.previous_element_sibling
        node = node.parent
    return None


def post_title(post) -> str:
    for el in post.query_selector_all('[class*="title" i]'):  # covers post-title and entry-title
        if el.tag in _TITLE_TAGS and _text(el):
            return _text(el)
    for el in post.query_selector_all("h1,h2,h3,h4,h5"):
        if _text(el):
            return _text(el)
    before = _preceding(post, lambda e: e.tag in _HEADINGS and bool(_text(e)))
    return _text(before) if before is not None else ""


def _is_date(e) -> bool:
    return e.tag == "time" or any(_DATE_CLASS.search(t) for t in _tokens(e))


def post_date(post) -> str:
    for el in post.query_selector_all(_DATES):  # the selector is _is_date in CSS
        if _text(el):
            return _text(el)[:100]
    before = _preceding(post, lambda e: _is_date(e) and bool(_text(e)))
    return _text(before)[:100] if before is not None else ""


def keep_posts(body, posts) -> int:
    """Remove every node that neither is, holds, nor lies inside a post; returns how many were removed."""
    keep = set(posts)
    for post in posts:
        keep.update(_ancestors(post))
    removed, stack = 0, [body]
    while stack:
        node = stack.pop()
        child = node.first_child
        while child is not None:
            nxt = child.next_sibling
            if child in keep:
                if child not in posts:
                    stack.append(child)
            else:
                child.decompose()
                removed += 1
            child = nxt
    return removed


class BlogCleaner(Step):
    name = "blog"

    def __init__(self):
        super().__init__()
        self.fallback = DensityCleaner()

    def process(self, doc: Document) -> Document | None:
        body = doc.tree.body
        posts = find_posts(body) if body is not None else []
        if not posts:
            self.stat_update("fallback")
            self.fallback.stats = self.stats
            return self.fallback.process(doc)
        doc.meta["posts"] = [{"title": post_title(p), "date": post_date(p)} for p in posts]
        if doc.meta["posts"][0]["date"]:
            doc.meta["date"] = doc.meta["posts"][0]["date"]
        self.stat_update("posts", len(posts))
        self.stat_update("nodes_removed", keep_posts(body, posts))
        return doc
