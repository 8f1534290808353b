"""Shared HTML helpers: tag sets, the tag regex, tree walking and pruning on lexbor trees, line tidying.

Every cleaner and filter takes these from here; cleaners never import each other.
Trees are resiliparse ``HTMLTree`` objects (lexbor), built once by the Parse step.
"""
from __future__ import annotations

import html as htmllib
import re

# Elements whose content is never page text (void elements such as <embed> or <img> carry none either).
NOISE_TAGS = ("script", "style", "noscript", "template", "svg", "math", "iframe", "object", "select", "textarea",
              "button")
TAG_RE = re.compile(r"<[^>]*>")
ODD_SPACES = ("\t", "\u00a0", "\u200b", "\u3000")


def tidy_lines(text: str) -> str:
    """Turn odd spaces into plain ones, collapse runs, strip every line, drop the empty ones.

    str.replace instead of a regex: on a typical page a regex pass cost as much as the parse.
    """
    for ch in ODD_SPACES:
        if ch in text:
            text = text.replace(ch, " ")
    while "  " in text:
        text = text.replace("  ", " ")
    lines = (line.strip() for line in text.split("\n"))
    return "\n".join(line for line in lines if line)


def fragment_text(fragment: str) -> str:
    """Text of one minimal-HTML fragment: tags out, entities decoded, whitespace runs to one space."""
    if "<" in fragment:
        fragment = TAG_RE.sub("", fragment)
    if "&" in fragment:
        fragment = htmllib.unescape(fragment)
    return " ".join(fragment.split())


def element_children(node):
    """Element children by sibling links (``children``/``child_nodes`` cost ~20x more in resiliparse)."""
    child = node.first_element_child
    while child is not None:
        yield child
        child = child.next_element_sibling


def nodes(node_list) -> list:
    """A resiliparse node list as a Python list.

    Quirk (resiliparse 2.0.1): iterating a ``query_selector_all`` result, ``list()`` of it or indexing
    it is quadratic in its length (5,000 matches: ~2 minutes); ``.values()`` is linear (20,000: 0.1 s).
    """
    return node_list.values()


def keep_only(node, root) -> int:
    """Remove every sibling along the path from ``node`` up to ``root``; returns nodes removed.

    One ``replace_children`` per ancestor that has other children: removing the siblings one by one
    would wrap each of them in a Python object first.
    """
    removed = 0
    while node is not None and node is not root:
        parent = node.parent
        if parent is None:
            break
        count = len(parent.child_nodes)
        if count > 1:
            parent.replace_children(node)
            removed += count - 1
        node = parent
    return removed


def keep_nodes(body, keep, ordered: bool = False) -> int:
    """Remove every node that neither is, holds, nor lies inside one of ``keep``; returns how many were removed.

    Per ancestor of a kept node (``<body>`` included), one ``replace_children`` with the children it keeps:
    the removed ones are never wrapped in Python objects. A kept node inside another one goes with that
    one. With ``ordered`` the caller vouches that ``keep`` comes in document order; else the children kept
    under one parent are put in order by reading that parent's children.
    """
    targets = set(keep)
    kept: dict = {body: []}  # node -> its children that are kept or hold a kept node
    for target in keep:
        chain, node = [], target
        while True:
            parent = node.parent
            if parent is None or (parent is not body and parent in targets):
                chain = None  # not below ``body``, or inside another kept node
                break
            chain.append((parent, node))
            if parent is body:
                break
            if parent.tag == "body":
                chain = None
                break
            node = parent
        for parent, node in chain or ():
            kids = kept.setdefault(parent, [])
            if node in kids:  # the rest of the way up is known
                break
            kids.append(node)
    removed = 0
    for parent, kids in kept.items():
        count = len(parent.child_nodes)
        if count > len(kids):
            if len(kids) > 1 and not ordered:
                at = {c: i for i, c in enumerate(parent.children.values())}
                kids.sort(key=at.__getitem__)
            parent.replace_children(*kids)
            removed += count - len(kids)
    return removed
