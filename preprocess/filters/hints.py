"""Class/id hint filter: drop elements whose class or id names a page part that is never main content.

Comment threads, sidebars, footers, social bars, "related" and "most read"
boxes, menus, breadcrumbs, pagers and sponsor slots are named as such in the
markup of most sites. The rule is Readability's "unlikely candidates" (the
BlogBuster part tokens say the same for blogs): an element whose class or id
contains one of ``UNLIKELY`` (Readability's list plus ``nav`` and ``promo``;
not ``widget``, which is what Blogger calls its post container, nor ``share``,
which also names article wrappers: ``share_wrapper``, ``shareable``)
and none of ``MAYBE`` (article, body, content, main, post, entry, story, ...)
is dropped with everything below it. ``<html>``, ``<body>`` and links never
are. Lexbor's CSS engine finds the candidates
(``[class*=comment i]`` ...), so only they reach Python. The outermost
elements to drop are removed from the tree (the DOM cleaners after this step
measure the page without them). An element holding more than ``max_share`` of
the page's text is never dropped: a "header" div left open around the whole
page would take the article with it. Composes with every cleaner
(``--drop-hinted``); measured with ``webprune eval-cleaning``. Before the
learned cleaner (when its compiled scan is built) this step only hands the
page on: the learned cleaner declares that it works with this step (``uses``),
and its scan reads the same rule off the ``<body>`` serialisation
(``cleaners/learned/_hints.pxi``) with the same drops and counts, calling
:meth:`HintFilter.drop_from` where the markup leaves it unsure.
"""
from __future__ import annotations

import re

from preprocess.core.document import Document
from preprocess.steps.base import Step

UNLIKELY = ("-ad-", "ad-break", "agegate", "banner", "breadcrumb", "combx", "comment", "community", "disqus",
            "extra", "footer", "gdpr", "header", "legends", "menu", "nav", "pager", "pagination", "popup", "promo",
            "related", "remark", "replies", "rss", "shoutbox", "sidebar", "skyscraper", "social",
            "sponsor", "supplemental")
_MAYBE = re.compile(r"and|article|body|column|content|main|shadow|post|entry|story", re.I)
_SELECTOR = ",".join(f'[class*="{w}" i],[id*="{w}" i]' for w in UNLIKELY)
_NEVER = ("html", "body", "a")


class HintFilter(Step):
    name = "hints"
    unlikely = tuple(w.lower() for w in UNLIKELY)
    maybe = _MAYBE

    def __init__(self, max_share: float = 0.5):
        super().__init__()
        self.max_share = max_share
        # set by a later step that applies this rule itself (LearnedCleaner.build, when its compiled scan reads
        # it off the <body> serialisation, without a Python node per match: the query and its nodes cost more
        # than that whole cleaner); this step then hands every page on untouched
        self.deferred = False

    def process(self, doc: Document) -> Document | None:
        body = doc.tree.body if doc.tree is not None else None
        if body is None:
            return doc
        if self.deferred:
            return doc
        self.count(*self.drop_from(body))
        return doc

    def count(self, dropped: int, kept_large: int) -> None:
        if kept_large:
            self.stat_update("kept_large", kept_large)
        if dropped:
            self.stat_update("elements_dropped", dropped)

    def drop_from(self, body) -> tuple[int, int]:
        """Decompose the hinted elements below ``body``; (elements dropped, candidates kept for their size)."""
        limit = None  # the page's text is measured only once a candidate needs it
        drop, last, kept_large = [], None, 0
        # .values(): one call; indexing resiliparse's node lists costs milliseconds per item.
        # Matches come in document order, so one inside an element already dropped follows it.
        for el in body.query_selector_all(_SELECTOR).values():
            if el.tag in _NEVER or (last is not None and last.contains(el)):
                continue
            if _MAYBE.search(f"{el.class_name or ''} {el.id or ''}"):
                continue
            if limit is None:
                limit = self.max_share * len(body.text or "")
            if len(el.text or "") > limit:  # a "header" left open around the whole page: never drop most of it
                kept_large += 1
                continue
            drop.append(el)
            last = el
        for el in drop:  # disjoint subtrees: removing one frees nothing another still points to
            el.decompose()
        return len(drop), kept_large
