"""Learning per-host templates from a crawl: feed items matched to their pages, paths merged per host."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, Sequence
from urllib.parse import urlsplit

from resiliparse.parse.html import HTMLTree

from preprocess.cleaners.feeds.items import FeedItem, feed_items, host_key, is_feed, normalize_url, url_key
from preprocess.cleaners.feeds.match import MatchResult, match_item
from preprocess.cleaners.feeds.paths import MIN_SUPPORT, Path, merge_paths
from preprocess.steps.decode import HTML_TYPES, UNKNOWN_TYPES, decode_payload, looks_like_html, mime_type

MAX_PAGE_BYTES = 16 << 20
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
