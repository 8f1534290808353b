"""Tag removal, the baseline cleaner: every visible text node, block breaks kept.

Dropped: script, style, noscript, template, svg, math, iframe/object content,
form fields, comments, and the whole <head> except <title> (kept as ``doc.title``).
Block-level elements (p, div, li, h1-6, td, br, ...) end a line, so text from
two blocks is never glued together, while inline markup (``sour<b>dough</b>``)
never splits a word. The extraction itself is resiliparse's C++ ``extract_plain_text``; where the
run needs nothing else from the tree, ``Parse`` builds none and the text comes from the streaming
scan (:mod:`preprocess.steps.stream`), which gives the same text on 99.5% of the shared pages.

With ``line_features=True`` the same extractor runs in its minimal-HTML mode
(about 1.5x the cost) and every kept line also gets its link density -- the
share of its characters inside ``<a>`` -- in ``Line.link_density``:
DOM evidence for the pruner, which knows menus and link lists by it.
"""
from __future__ import annotations

import re

from resiliparse.extract.html2text import extract_plain_text

from preprocess.core.document import Document, Line
from preprocess.html.dom import NOISE_TAGS, fragment_text, tidy_lines
from preprocess.steps.base import BuildContext, Step
from preprocess.steps.stream import page_text

_LINK = re.compile(r"<a\b[^>]*>(.*?)</a>", re.S)
_OPTIONS = dict(main_content=False, list_bullets=False, alt_texts=False, form_fields=False, noscript=False,
                skip_elements=list(NOISE_TAGS))


def lines_with_link_density(minimal_html: str) -> list[Line]:
    """Plain lines of a minimal-HTML extract, each with the share of its characters inside links."""
    if "\u200b" in minimal_html:  # zero-width space: not whitespace to str.split
        minimal_html = minimal_html.replace("\u200b", " ")
    lines = []
    for raw in minimal_html.split("\n"):
        line = fragment_text(raw)
        if not line:
            continue
        linked = sum(len(fragment_text(m)) for m in _LINK.findall(raw)) if "<a" in raw else 0
        lines.append(Line(line, min(linked / len(line), 1.0)))
    return lines


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
    accepts = ("handed",)  # lines the step before wrote (Document.handed): written as they are, the tree's title kept

    def __init__(self, line_features: bool = False):
        super().__init__()
        self.line_features = line_features

    @classmethod
    def build(cls, ctx: BuildContext) -> "TagRemoval":
        return cls(line_features=ctx.opts.line_features)

    def process(self, doc: Document) -> Document | None:
        tree, handed, doc.handed = doc.tree, doc.handed, None
        if tree is None and handed is not None:  # the learned cleaner read the page raw: its lines, the tree's title
            title = doc.title
        elif tree is None:  # Parse streamed the page (Parse.stream): no tree was built
            text, title, unwrapped = page_text(doc.html)
            doc.html = None
            if unwrapped:
                self.stats.update("parse.noscript_unwrapped")  # the name the tree path counts it under
        else:
            title = tree.title
        doc.title, cut = clean_title(title)
        if cut:
            self.stat_update("title_cut")
        if handed is not None:  # the learned cleaner's kept blocks, as lines (Document.handed)
            doc.lines = handed
        elif tree is None:
            doc.set_tidy_text(text)  # (the scan's text is tidied as it is made)
        elif self.line_features:
            doc.lines = lines_with_link_density(
                extract_plain_text(tree, preserve_formatting="minimal_html", links=True, **_OPTIONS))
        else:
            doc.set_tidy_text(tidy_lines(extract_plain_text(tree, preserve_formatting=True, links=False, **_OPTIONS)))
        if doc.empty and not doc.title:
            return self.drop(doc, "empty", "no text left after tag removal")
        self.stat_update("chars_out", len(doc.text) + len(doc.title))
        return doc
