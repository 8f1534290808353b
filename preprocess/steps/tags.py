"""Tag removal, the baseline cleaner: every visible text node, block breaks kept.

Dropped: script, style, noscript, template, svg, math, iframe/object content,
form fields, comments, and the whole <head> except <title> (kept as ``doc.title``).
Block-level elements (p, div, li, h1-6, td, br, ...) end a line, so text from
two blocks is never glued together, while inline markup (``sour<b>dough</b>``)
never splits a word. The extraction itself is resiliparse's C++ ``extract_plain_text``.
"""
from __future__ import annotations

import re

from resiliparse.extract.html2text import extract_plain_text

from preprocess.document import Document
from preprocess.steps.base import Step

SKIP = ["script", "style", "noscript", "template", "svg", "math", "iframe", "object", "embed",
        "select", "textarea", "button"]
# Runs of odd or repeated spaces only: matching every single space would make this the slowest step.
_SPACE = re.compile(r"[\t\u00a0\u200b\u3000][ \t\u00a0\u200b\u3000]*| {2,}")


def tidy_lines(text: str) -> str:
    """Collapse spaces, strip every line and drop the empty ones."""
    lines = (line.strip() for line in _SPACE.sub(" ", text).splitlines())
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
