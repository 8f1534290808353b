"""``density``: Baisa's WC Cleaner, single-file mode (seed "Web Content Cleaning").

Per node: characters of visible text and structural tags below it;
density = characters / structural tags. From ``<body>``, descend into the
densest child element while that child holds more than half of the current
node's characters. The node where the descent stops is the content: everything
outside it is removed from the tree, and tag removal then writes its
paragraphs, headings and list items as separate blocks (CleanEval's
``<p>/<h>/<l>``). The counts come from lexbor (``text``, serialised HTML) level
by level, so no Python walk over every node is needed.
"""
from __future__ import annotations

import re

from preprocess.document import Document
from preprocess.steps.base import Step

NOISE_TAGS = ("script", "style", "noscript", "template", "svg", "math", "iframe", "object", "select", "textarea",
              "button")
_NOISE_BLOCK = re.compile(r"<!--.*?-->|<(" + "|".join(NOISE_TAGS) + r")\b.*?</\1\s*>", re.S | re.I)
_TAG = re.compile(r"<[^>]*>")
MAX_DEPTH = 100  # descent steps; 10,000-level markup must not turn into 10,000 serialisations
_WS = (" ", "\n", "\t", "\r", "\u00a0")
STRUCTURAL_TAGS = ("div", "p", "table", "tbody", "thead", "tr", "td", "th", "ul", "ol", "li", "dl", "dt", "dd",
                   "h1", "h2", "h3", "h4", "h5", "h6", "section", "article", "aside", "nav", "header", "footer",
                   "main", "blockquote", "pre", "form", "fieldset", "center", "br")
# Counted on lexbor's serialisation of a subtree: a CSS query would wrap every match in a Python object.
_STRUCTURAL_OPEN = re.compile(r"<(?:" + "|".join(STRUCTURAL_TAGS) + r")[\s>/]", re.I)


def element_children(node):
    """Element children by sibling links (``children``/``child_nodes`` cost ~20x more in resiliparse)."""
    child = node.first_element_child
    while child is not None:
        yield child
        child = child.next_element_sibling


def subtree_stats(node) -> tuple[int, int]:
    """(visible characters, structural tags) of a subtree, from lexbor's serialisation of it.

    Script/style/... contents and comments do not count as characters; whitespace does not either.
    """
    markup = _NOISE_BLOCK.sub(" ", node.html)
    text = _TAG.sub(" ", markup)
    return len(text) - sum(text.count(ws) for ws in _WS), len(_STRUCTURAL_OPEN.findall(markup))


def content_node(body):
    """The node Baisa's descent stops at, and the path of tags to it (for the stats)."""
    node, (chars, _), path = body, subtree_stats(body), ["body"]
    while len(path) <= MAX_DEPTH:
        best = None
        for child in element_children(node):
            n, struct = subtree_stats(child)
            if not n:
                continue
            density = n / max(struct, 1)
            if best is None or density > best[0]:
                best = (density, n, child)
        if best is None or best[1] * 2 <= chars:
            return node, path
        _, chars, node = best
        path.append(node.tag)
    return node, path  # pathological nesting: stop descending, keep what is below


def keep_only(node, root) -> int:
    """Remove every sibling along the path from ``node`` up to ``root``; returns nodes removed."""
    removed = 0
    while node is not None and node is not root:
        while node.previous_sibling is not None:
            node.previous_sibling.decompose()
            removed += 1
        while node.next_sibling is not None:
            node.next_sibling.decompose()
            removed += 1
        node = node.parent
    return removed


class DensityCleaner(Step):
    name = "density"

    def process(self, doc: Document) -> Document | None:
        body = doc.tree.body
        if body is None:  # framesets, fragments: nothing to descend into; tag removal takes the page as is
            self.stat_update("no_body")
            return doc
        target, path = content_node(body)
        if target.tag == "body":
            self.stat_update("kept_whole_body")
        else:
            self.stat_update("nodes_removed", keep_only(target, body))
            self.stat_update(f"depth.{min(len(path) - 1, 9)}")
        doc.meta["content_path"] = "/".join(path)
        return doc
