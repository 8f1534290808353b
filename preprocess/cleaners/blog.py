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
and the document gets the first post's date. A page with no post goes to the
fallback (``density``, from the registry; counted as ``blog.fallback``).
"""
from __future__ import annotations

import re

from preprocess.core.document import Document
from preprocess.html.dom import keep_nodes
from preprocess.steps.base import BuildContext, Step

_CONTAINER = re.compile(r"^post|hentry|^divlog$|entry.*post|post-|^snap_preview$", re.I)
_PART = re.compile(r"title|header|footer|meta|date|info|author|byline|tag|categor|comment|share|link|nav|"
                   r"label|icon|thumb|image|img|count|button|feed|rating|related|next|prev|page|menu", re.I)
_DATE_CLASS = re.compile(r"date|postinfo|published|time", re.I)
_CANDIDATES = '[class*="post" i],[id*="post" i],[class*="hentry" i],[class*="divlog" i],[id*="divlog" i],' \
              '[class*="snap_preview" i]'
_HEADINGS = ("h1", "h2", "h3", "h4", "h5")
_TITLE_TAGS = _HEADINGS + ("h6", "a")
_TITLE_SELECTOR = ",".join(f'{t}[class*="title" i]' for t in _TITLE_TAGS)
_DATES = 'time,[class*="date" i],[id*="date" i],[class*="postinfo" i],[class*="published" i],[class*="time" i]'


def _tokens(el) -> list[str]:
    return (el.class_name or "").split() + ([el.id] if el.id else [])


def is_container(el) -> bool:
    toks = _tokens(el)
    return any(_CONTAINER.search(t) and not _PART.search(t) for t in toks)


def _nearest(els: list) -> list:
    """For each element of ``els`` (in document order), the nearest of ``els`` that contains it, or None.

    A stack of the open ones and lexbor's ``contains``: no walk up the tree, which would wrap every ancestor
    in a Python object.
    """
    out, stack = [], []
    for el in els:
        while stack and not stack[-1].contains(el):
            stack.pop()
        out.append(stack[-1] if stack else None)
        stack.append(el)
    return out


def find_posts(body) -> list:
    """The posts, in document order (CSS matches come in it)."""
    # node lists are read with ``values()``: iterating one costs ~0.3 ms an element in resiliparse
    cands = [el for el in body.query_selector_all(_CANDIDATES).values() if is_container(el) and (el.text or "").strip()]
    # a wrapper holding two or more posts directly (class="posts") gives way to them
    direct: dict = {}
    for up in _nearest(cands):
        if up is not None:
            direct[up] = direct.get(up, 0) + 1
    chosen = [el for el in cands if direct.get(el, 0) < 2]
    # of the rest, the outermost container is the post
    return [el for el, up in zip(chosen, _nearest(chosen)) if up is None]


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


def _is_heading(e) -> bool:
    return e.tag in _HEADINGS and bool(_text(e))


def _is_dated(e) -> bool:
    return _is_date(e) and bool(_text(e))


def _preceding_each(el, matches: list, seen: list) -> list:
    """``_preceding(el, m)`` for each of ``matches``, in one walk; the elements walked stay alive in ``seen``.

    Wrapping a node in a Python object costs more than anything done with it here; a wrapper that is still
    alive is handed out again, so posts of one page share the siblings they walk past.
    """
    found, left = [None] * len(matches), len(matches)
    node = el
    while node is not None and node.tag != "body":
        sib = node.previous_element_sibling
        while sib is not None:
            seen.append(sib)
            for j, match in enumerate(matches):
                if found[j] is None and match(sib):
                    found[j] = sib
                    left -= 1
            if not left:
                return found
            sib = sib.previous_element_sibling
        node = node.parent
        seen.append(node)
    return found


def _title_inside(post) -> str | None:
    for el in post.query_selector_all(_TITLE_SELECTOR).values():  # covers post-title and entry-title
        text = _text(el)
        if text:
            return text
    for el in post.query_selector_all("h1,h2,h3,h4,h5").values():
        text = _text(el)
        if text:
            return text
    return None


def _date_inside(post) -> str | None:
    for el in post.query_selector_all(_DATES).values():  # the selector is _is_date in CSS
        text = _text(el)
        if text:
            return text[:100]
    return None


def post_title(post) -> str:
    title = _title_inside(post)
    if title is None:
        before = _preceding(post, _is_heading)
        title = _text(before) if before is not None else ""
    return title


def _is_date(e) -> bool:  # (a pattern cannot span the blank between two class tokens)
    return e.tag == "time" or bool(_DATE_CLASS.search(e.class_name or "") or _DATE_CLASS.search(e.id or ""))


def post_date(post) -> str:
    date = _date_inside(post)
    if date is None:
        before = _preceding(post, _is_dated)
        date = _text(before)[:100] if before is not None else ""
    return date


def _titles_and_dates(posts) -> list[dict]:
    """``post_title`` and ``post_date`` of each post, the walks back for both in one."""
    out, seen = [], []
    for post in posts:
        title, date = _title_inside(post), _date_inside(post)
        need = [m for m, v in ((_is_heading, title), (_is_dated, date)) if v is None]
        if need:
            found = dict(zip(need, _preceding_each(post, need, seen)))
            if title is None:
                title = _text(found[_is_heading]) if found[_is_heading] is not None else ""
            if date is None:
                date = _text(found[_is_dated])[:100] if found[_is_dated] is not None else ""
        out.append({"title": title, "date": date})
    return out


class BlogCleaner(Step):
    name = "blog"

    def __init__(self, fallback: Step | None = None):
        super().__init__()
        self.fallback = fallback  # the registry's: density

    @classmethod
    def build(cls, ctx: BuildContext) -> "BlogCleaner":
        return cls(fallback=ctx.fallback)

    def process(self, doc: Document) -> Document | None:
        body = doc.tree.body
        posts = find_posts(body) if body is not None else []
        if not posts:
            self.stat_update("fallback")
            return self.fallback.process(doc) if self.fallback is not None else doc
        doc.meta["posts"] = _titles_and_dates(posts)
        if doc.meta["posts"][0]["date"]:
            doc.fields["date"] = doc.meta["posts"][0]["date"]
        self.stat_update("posts", len(posts))
        self.stat_update("nodes_removed", keep_nodes(body, posts, ordered=True))
        return doc
