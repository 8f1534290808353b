"""Learning per-host templates from a crawl: feed items matched to their pages, paths merged per host."""
from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Callable, Iterable, Sequence
from urllib.parse import urlsplit

import numpy as np
from resiliparse.parse.html import HTMLTree

from preprocess.core.passes import LearningPass
from preprocess.cleaners.feeds.digest import ItemDigest, item_digest
from preprocess.cleaners.feeds.items import FeedItem, feed_items, host_key, is_feed, normalize_url, url_key
from preprocess.cleaners.feeds.match import MatchResult, match_item
from preprocess.cleaners.feeds.paths import MIN_SUPPORT, Path, merge_paths
from preprocess.config.options import DEFAULT_MAX_BYTES
from preprocess.steps.decode import HTML_TYPES, UNKNOWN_TYPES, decode_payload, looks_like_html, mime_type
from preprocess.core.hashing import hash64

log = logging.getLogger("webprune.preprocess")
MAX_PAGE_BYTES = DEFAULT_MAX_BYTES
LEARN_WORDS = 300       # feed content words kept while learning (the prefix search needs no more)


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


_COUNTS = ("records", "feeds", "feeds_empty", "feed_items", "pages_linked", "pages_matched", "pages_unmatched",
           "page_errors")


def collect_items(records: Iterable[tuple[str, str, bytes]], stats: dict) -> dict[str, FeedItem]:
    """Feed items by the key of the page they link to (the first item wins), content capped at ``LEARN_WORDS``."""
    items: dict[str, FeedItem] = {}
    for url, content_type, raw in records:
        stats["records"] += 1
        if raw and is_feed(content_type, raw):
            stats["feeds"] += 1
            found = feed_items(raw, url, max_words=LEARN_WORDS)
            stats["feed_items"] += len(found)
            stats["feeds_empty"] += not found
            for item in found:
                items.setdefault(url_key(item.link), item)
    return items


def match_pages(records: Iterable[tuple[str, str, bytes]], items: dict[str, FeedItem | ItemDigest],
                stats: dict) -> list[tuple[str, str, MatchResult]]:
    """(page key, host, match) for each page a feed item links to, matched once, one page parsed at a time."""
    out, done = [], set()
    for url, content_type, raw in records:
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
        out.append((key, host_key(urlsplit(normalize_url(url)).hostname or ""), match))
    return out


def induce_templates(matches: Iterable[tuple[str, str, MatchResult]], stats: dict,
                     min_support: float = MIN_SUPPORT) -> dict[str, HostTemplate]:
    """Per-host templates from the matched pages (a page key seen twice counts once: the first)."""
    per_host: dict[str, list[MatchResult]] = {}
    seen: set[str] = set()
    for key, host, match in matches:
        if key not in seen:
            seen.add(key)
            per_host.setdefault(host, []).append(match)
    templates = {}
    for host, found in per_host.items():
        tmpl = induce_template(found, host, min_support)
        if tmpl is not None:
            templates[host] = tmpl
    stats["hosts_matched"] = len(per_host)
    stats["hosts_with_template"] = len(templates)
    return templates


def learn_templates(records: Records | Callable[[], Iterable[tuple[str, str, bytes]]],
                    min_support: float = MIN_SUPPORT) -> tuple[dict[str, HostTemplate], dict]:
    """Templates per host from a crawl's ``(url, content_type, raw bytes)`` records, in one process.

    Two passes, so pages may come before or after their feed: the first reads the feeds, the second
    parses and matches each page a feed item links to. ``records`` is a re-iterable or a callable
    returning a fresh iterator per pass; a one-shot iterator is refused with TypeError, since its pages
    before the feed would be lost. Returns ``(templates by host, stats)``; hosts are keyed by
    :func:`host_key` (``www.`` dropped). Distributed runs use :class:`FeedTemplates` instead.
    """
    if callable(records):
        passes = records
    else:
        if iter(records) is records:
            raise TypeError("learn_templates reads the records twice: pass a list, a re-iterable, or a "
                            "callable returning a fresh iterator, not a one-shot iterator")
        passes = lambda: iter(records)  # noqa: E731
    stats = dict.fromkeys(_COUNTS, 0)
    items = collect_items(passes(), stats)
    templates = induce_templates(match_pages(passes(), items, stats), stats, min_support)
    return templates, stats


def _records(docs) -> Iterable[tuple[str, str, bytes]]:
    for doc in docs:
        yield doc.url, doc.content_type, doc.raw


def digest_items(records: Iterable[tuple[str, str, bytes]], stats: dict) -> tuple[dict[str, ItemDigest], np.ndarray]:
    """Round 0 on a worker: the unit's feed items as digests (by page key, the first item wins) and the
    hashed keys of the pages it could match (what :func:`match_pages` would parse), sorted, as uint64: 8 bytes
    a page on the driver, which holds every unit's until the reduce."""
    pages: set[int] = set()

    def pages_too(recs):
        for url, content_type, raw in recs:
            if raw and len(raw) <= MAX_PAGE_BYTES and not is_feed(content_type, raw) and _is_html(content_type, raw):
                key = url_key(url)
                if key:
                    pages.add(hash64(key))
            yield url, content_type, raw

    items = collect_items(pages_too(records), stats)
    return {key: item_digest(item) for key, item in items.items()}, np.array(sorted(pages), dtype=np.uint64)


class FeedTemplates(LearningPass):
    """The ``feeds`` cleaner's learning pass, in two rounds, shipping digests only.

    Round 0 (workers): each unit's feed items as :class:`ItemDigest` (hashes, no text) and the
    hashed keys of its pages. Reduce: the first item per page key in unit order, routed only to the
    units that hold that page (a unit that holds none is not read in round 1). Round 1 (workers): each
    page a routed item links to is matched against the digest (:func:`match_item` answers as with the
    text) and returns its element paths.
    Reduce: per-host templates from the paths, first page per key in unit order.
    """

    name = "feed_templates"
    rounds = 2

    def map_docs(self, rnd: int, docs, state):
        stats = dict.fromkeys(_COUNTS, 0)
        if rnd == 0:
            items, pages = digest_items(_records(docs), stats)
            return items, pages, stats
        return match_pages(_records(docs), state or {}, stats), stats

    def reduce(self, rnd: int, partials: list, state):
        stats = dict(state["stats"]) if state else dict.fromkeys(_COUNTS, 0)
        for part in partials:
            for k, v in part[-1].items():
                stats[k] += v
        if rnd == 0:
            items: dict[str, ItemDigest] = {}
            for found, _, _ in partials:
                for key, item in found.items():
                    items.setdefault(key, item)
            by_hash: dict[int, list[str]] = {}
            for key in items:
                by_hash.setdefault(hash64(key), []).append(key)
            hashes = np.fromiter(by_hash, np.uint64, len(by_hash))
            routes = [{key: items[key] for h in pages[np.isin(pages, hashes)].tolist() for key in by_hash[h]} or None
                      for _, pages, _ in partials]  # None: no page of the unit has an item, it is not read again
            return {"routes": routes, "stats": stats}
        templates = induce_templates((m for found, _ in partials for m in found), stats)
        return {"templates": templates, "stats": stats}

    def route(self, rnd: int, state) -> list | None:
        return state.pop("routes") if rnd == 0 else None

    def finish(self, state) -> dict:
        stats = state["stats"]
        if not state["templates"]:
            log.warning("feeds: no post template learned (no RSS/Atom feed in the input, or no page it links "
                        "to matched); every page is cleaned by density")
        return {"templates": {h: t.to_json() for h, t in sorted(state["templates"].items())},
                "info": stats | {"hosts": sorted(state["templates"])}}
