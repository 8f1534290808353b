"""The feeds cleaner: a host's template applied to its pages (density as the fallback), and feeds that
reach the cleaner turned into pages of their items' text."""
from __future__ import annotations

import html as html_lib
import re

from resiliparse.parse.html import HTMLTree, NodeType

from preprocess.cleaners.feeds.items import feed_items, host_key, is_feed
from preprocess.cleaners.feeds.learn import HostTemplate
from preprocess.cleaners.feeds.paths import MAX_MATCHES
from preprocess.core.document import Document
from preprocess.html.dom import NOISE_TAGS, TAG_RE, element_children, keep_nodes, tidy_lines
from preprocess.steps.base import BuildContext, Step

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
    text = html_lib.unescape(TAG_RE.sub("\n", "".join(parts).replace("]]>", " ")))
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

    def __init__(self, templates: dict[str, HostTemplate | dict] | None = None, fallback: Step | None = None):
        super().__init__()
        self.templates = {host_key(host): t if isinstance(t, HostTemplate) else HostTemplate.from_json(t)
                          for host, t in (templates or {}).items()}
        self.fallback = fallback  # the registry's: density

    @classmethod
    def build(cls, ctx: BuildContext) -> "FeedsCleaner":
        return cls((ctx.learned.get("feed_templates") or {}).get("templates", {}), fallback=ctx.fallback)

    def _density(self, doc: Document, reason: str) -> Document | None:
        self.stat_update(reason)
        return self.fallback.process(doc) if self.fallback is not None else doc

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
        for key, path, cap in (("author", tmpl.author, 200), ("post_title", tmpl.title, 300)):
            found = next((t for t in (_node_text(n) for n in path.find(body, 50)) if t), "") if path else ""
            if found:
                doc.fields[key] = found[:cap]
                self.stat_update(f"with_{'title' if key == 'post_title' else key}")
        self.stat_update("post")
        self.stat_update("post_nodes", len(nodes))
        self.stat_update("nodes_removed", keep_nodes(body, nodes))
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
