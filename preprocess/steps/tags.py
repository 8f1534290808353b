"""Tag removal, the baseline cleaner: every visible text node, block breaks kept.

Dropped: script, style, noscript, template, svg, math, iframe/object content,
form fields, comments, and the whole <head> except <title> (kept as ``doc.title``).
Block-level elements (p, div, li, h1-6, td, br, ...) end a line, so text from
two blocks is never glued together, while inline markup (``sour<b>dough</b>``)
never splits a word. The extraction itself is resiliparse's C++ ``extract_plain_text``.

With ``line_features=True`` the same extractor runs in its minimal-HTML mode
(about 1.5x the cost) and every kept line also gets its link density -- the
share of its characters inside ``<a>`` -- in ``doc.meta["link_density"]``:
DOM evidence for the pruner, which knows menus and link lists by it.
"""
from __future__ import annotations

import html
import re

from resiliparse.extract.html2text import extract_plain_text

from preprocess.document import Document
from preprocess.steps.base import Step

SKIP = ["script", "style", "noscript", "template", "svg", "math", "iframe", "object", "embed",
        "select", "textarea", "button"]
_ODD_SPACES = ("\t", "\u00a0", "\u200b", "\u3000")
_TAG = re.compile(r"<[^>]*>")
_LINK = re.compile(r"<a\b[^>]*>(.*?)</a>", re.S)
_OPTIONS = dict(main_content=False, list_bullets=False, alt_texts=False, form_fields=False, noscript=False,
                skip_elements=SKIP)


def tidy_lines(text: str) -> str:
    """Turn odd spaces into plain ones, collapse runs, strip every line, drop the empty ones.

    str.replace instead of a regex: on a typical page a regex pass cost as much as the parse.
    """
    for ch in _ODD_SPACES:
        if ch in text:
            text = text.replace(ch, " ")
    while "  " in text:
        text = text.replace("  ", " ")
    lines = (line.strip() for line in text.split("\n"))
    return "\n".join(line for line in lines if line)


def _plain(fragment: str) -> str:
    """Text of one minimal-HTML fragment: tags out, entities decoded, whitespace runs to one space."""
    if "<" in fragment:
        fragment = _TAG.sub("", fragment)
    if "&" in fragment:
        fragment = html.unescape(fragment)
    return " ".join(fragment.split())


def lines_with_link_density(minimal_html: str) -> tuple[list[str], list[float]]:
    """Plain lines of a minimal-HTML extract, and the share of each line's characters inside links."""
    if "\u200b" in minimal_html:  # zero-width space: not whitespace to str.split
        minimal_html = minimal_html.replace("\u200b", " ")
    lines, density = [], []
    for raw in minimal_html.split("\n"):
        line = _plain(raw)
        if not line:
            continue
        linked = sum(len(_plain(m)) for m in _LINK.findall(raw)) if "<a" in raw else 0
        lines.append(line)
        density.append(min(linked / len(line), 1.0))
    return lines, density


def keep_lines(doc: Document, lines: list[str], keep: list[int]) -> None:
    """Keep ``lines[i]`` for each ``i`` in ``keep`` (ascending) as ``doc.text``, with their per-line features.

    For the steps that drop written blocks after tag removal (link-density filter, site diff).
    """
    doc.text = "\n".join(lines[i] for i in keep)
    density = doc.meta.get("link_density")
    if density is not None:
        doc.meta["link_density"] = [density[i] for i in keep]


MAX_TITLE_CHARS = 500


def clean_title(raw: str) -> tuple[str, bool]:
    """The page title on one line, and whether it had to be cut.

    A ``<title>`` left open (or closed with a mangled tag) makes the HTML parser read the rest
    of the page, markup and all, as title text: on 9 of the 621 L3S-GN1 pages that was thousands
    of words of script. Such a title is cut at its first ``<`` and at ``MAX_TITLE_CHARS``.
    """
    title = tidy_lines(raw or "").replace("\n", " ")
    cut = False
    if "<" in title and len(title) > 100:
        title, cut = title.split("<", 1)[0].rstrip(), True
    if len(title) > MAX_TITLE_CHARS:
        title, cut = title[:MAX_TITLE_CHARS].rsplit(" ", 1)[0], True
    return title, cut


class TagRemoval(Step):
    name = "tags"

    def __init__(self, line_features: bool = False):
        super().__init__()
        self.line_features = line_features

    def process(self, doc: Document) -> Document | None:
        tree = doc.tree
        doc.title, cut = clean_title(tree.title)
        if cut:
            self.stat_update("title_cut")
        if self.line_features:
            lines, density = lines_with_link_density(
                extract_plain_text(tree, preserve_formatting="minimal_html", links=True, **_OPTIONS))
            doc.text, doc.meta["link_density"] = "\n".join(lines), density
        else:
            doc.text = tidy_lines(extract_plain_text(tree, preserve_formatting=True, links=False, **_OPTIONS))
        if not doc.text and not doc.title:
            return self.drop(doc, "empty", "no text left after tag removal")
        self.stat_update("chars_out", len(doc.text) + len(doc.title))
        return doc
