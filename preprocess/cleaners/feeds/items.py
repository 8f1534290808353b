"""Feed records: recognising a feed, reading its items (``feedparser``), and the URL keys that link a
feed item to the crawled page it names."""
from __future__ import annotations

import html as html_lib
import io
import re
from dataclasses import dataclass
from urllib.parse import urljoin, urlsplit, urlunsplit

from resiliparse.extract.html2text import extract_plain_text
from resiliparse.parse.html import HTMLTree

from preprocess.html.dom import NOISE_TAGS, TAG_RE, tidy_lines
from preprocess.config.options import DEFAULT_MAX_BYTES
from preprocess.steps.decode import mime_type

MAX_FEED_BYTES = DEFAULT_MAX_BYTES

_FEED_MIMES = ("rss", "atom")
_FEED_START = re.compile(
    rb"^\s*(?:<\?xml[^>]*>\s*)?(?:(?:<!--.*?-->|<\?.*?\?>|<!DOCTYPE[^>]*>)\s*)*<(rss|feed|rdf:RDF)[\s>/]", re.I | re.S)
_DEFAULT_PORTS = {"http": 80, "https": 443}


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
        return tidy_lines(html_lib.unescape(TAG_RE.sub(" ", markup)))


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
