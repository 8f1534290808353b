"""Tag removal, the baseline cleaner: every visible text node, block breaks kept.

Dropped: script, style, noscript, template, svg, math, iframe/object content,
form fields, comments, and the whole <head> except <title> (kept as ``doc.title``).
Block-level elements (p, div, li, h1-6, td, br, ...) end a line, so text from
two blocks is never glued together, while inline markup (``sour<b>dough</b>``)
never splits a word. The extraction itself is resiliparse's C++ ``extract_plain_text``.
"""
from __future__ import annotations

from resiliparse.extract.html2text import extract_plain_text

from preprocess.document import Document
from preprocess.steps.base import Step

SKIP = ["script", "style", "noscript", "template", "svg", "math", "iframe", "object", "embed",
        "select", "textarea", "button"]
_ODD_SPACES = ("\t", "\u00a0", "\u200b", "\u3000")


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


class TagRemoval(Step):
    name = "tags"

    def process(self, doc: Document) -> Document | None:
        tree = doc.tree
        text = extract_plain_text(tree, preserve_formatting=True, main_content=False, list_bullets=False,
                                  alt_texts=False, links=False, form_fields=False, noscript=False,
                                  skip_elements=SKIP)
        doc.title = tidy_lines(tree.title or "").replace("\n", " ")
        doc.text = tidy_lines(text)
        if not doc.text and not doc.title:
            return self.drop(doc, "empty", "no text left after tag removal")
        self.stat_update("chars_out", len(doc.text) + len(doc.title))
        return doc
