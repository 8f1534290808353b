"""``density``: Baisa's WC Cleaner, single-file mode (seed "Web Content Cleaning").

Per node: characters of visible text and structural tags below it;
density = characters / structural tags. From ``<body>``, descend into the
densest child element while that child holds more than half of the current
node's characters. The node where the descent stops is the content: everything
outside it is removed from the tree, and tag removal then writes its
paragraphs, headings and list items as separate blocks (CleanEval's
``<p>/<h>/<l>``).

The counts are defined on lexbor's serialisation of a subtree (``subtree_stats``:
script/style/... blocks and comments dropped, tags replaced by spaces, the
remaining non-blank characters counted; structural start tags counted). Asking
lexbor for each child's ``html`` at every level and running the regexes over it
cost ~10 ms a page, so ``content_node`` serialises ``<body>`` ONCE and computes
the same counts for every element from that one string (``_Shadow``, in
``density_counts``). The descent runs on that
shadow structure and follows the same child indices in the real tree, checking
child counts and tag names on the way. Whatever the shadow does not model
exactly (a ``<plaintext>``, a script whose content holds ``</script>``, a tag
name followed by a non-ASCII character, a noise block that would start inside an
element and end outside it, a descent into ``<svg>``/``<template>``, ...) sends
that element, or the whole page, to the per-node ``subtree_stats`` path, so the
chosen node is the one ``subtree_stats`` chooses (about 0.5% of pages).
"""
from __future__ import annotations

from resiliparse.parse.html import NodeType

from preprocess.cleaners.density_counts import _Shadow, _stats_of_markup, _Unsupported
from preprocess.core.document import Document
from preprocess.html.dom import element_children, keep_only
from preprocess.steps.base import Step

MAX_DEPTH = 100  # descent steps; 10,000-level markup must not turn into 10,000 serialisations


def subtree_stats(node) -> tuple[int, int]:
    """(visible characters, structural tags) of a subtree, from lexbor's serialisation of it.

    Script/style/... contents and comments do not count as characters; whitespace does not either.
    This is the definition; ``content_node`` computes the same numbers for all elements at once.
    """
    return _stats_of_markup(node.html)


def _only_child(node):
    """The one element child of ``node`` when the node holds no text of its own (else None)."""
    if node.child_element_count != 1:
        return None
    child = node.first_child
    while child is not None:
        if child.type == NodeType.TEXT and (child.text or "").strip():
            return None
        child = child.next_sibling
    return node.first_element_child


def _content_node_slow(body):
    node, (chars, _), path = body, subtree_stats(body), ["body"]
    while len(path) <= MAX_DEPTH:
        only = _only_child(node) if chars else None
        if only is not None:  # it holds all the characters: the descent goes on, no counting needed
            node = only
            path.append(node.tag)
            continue
        best = _densest((subtree_stats(child), child) for child in element_children(node))
        if best is None or best[1] * 2 <= chars:
            return node, path
        _, chars, node = best
        path.append(node.tag)
    return node, path  # pathological nesting: stop descending, keep what is below


def _densest(children):
    """(density, characters, key) of the densest child with text: ``children`` yields ((chars, struct), key)."""
    best = None
    for (n, struct), key in children:
        if not n:
            continue
        density = n / max(struct, 1)
        if best is None or density > best[0]:
            best = (density, n, key)
    return best


def _nth_element_child(node, i: int, count: int):
    if 2 * i < count:
        child = node.first_element_child
        for _ in range(i):
            child = child.next_element_sibling
    else:
        child = node.last_element_child
        for _ in range(count - 1 - i):
            child = child.previous_element_sibling
    return child


def _content_node_fast(body):
    shadow = _Shadow(body.html)
    k, node, path = 0, body, ["body"]
    chars = shadow.stats(0, len(shadow.s))[0]
    while len(path) <= MAX_DEPTH:
        kids = shadow.children(k)
        count = node.child_element_count
        if count != len(kids):
            raise _Unsupported("child count")
        best = _densest((shadow.stats(*shadow.element(kid)), i) for i, kid in enumerate(kids))
        if best is None or best[1] * 2 <= chars:
            return node, path
        _, chars, i = best
        k = kids[i]
        if k in shadow.blob_end:
            raise _Unsupported("descent into a blob")
        node = _nth_element_child(node, i, count)
        if node.tag != shadow.tag(k):
            raise _Unsupported("tag mismatch")
        path.append(node.tag)
    return node, path


def content_node(body):
    """The node Baisa's descent stops at, and the path of tags to it (for the stats)."""
    try:
        return _content_node_fast(body)
    except Exception:  # _Unsupported, or any other error: the per-node path is the definition
        return _content_node_slow(body)


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
