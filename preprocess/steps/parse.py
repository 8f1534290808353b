"""Parse step: build the DOM once (lexbor via resiliparse) for every later step.

Parser chosen by ``scripts/bench_preprocess.py`` (its first table rows): on the
~2,900 shared cleaning pages lexbor parses 2.5-3x faster than lxml, and the
same tree serves tag removal (resiliparse's C++ extractor) and the DOM cleaners.
"""
from __future__ import annotations

from resiliparse.parse.html import HTMLTree

from preprocess.document import Document
from preprocess.steps.base import Step


_PYTHON_ONLY = {"utf-8-sig", "utf-16", "utf-16-le", "utf-16-be"}  # BOM handling stays with Python


class Parse(Step):
    name = "parse"

    def process(self, doc: Document) -> Document | None:
        if doc.raw is not None and doc.encoding not in _PYTHON_ONLY:
            # Decode had to substitute characters (or strip NULs): lexbor decodes the bytes itself
            # with the chosen charset, which recovers mixed-encoding pages better.
            doc.tree = HTMLTree.parse_from_bytes(doc.raw, doc.encoding)
        else:  # a strict decode: parsing the str is ~25% faster than lexbor decoding the bytes again
            doc.tree = HTMLTree.parse(doc.html)
        if doc.tree.document is None:
            return self.drop(doc, "parse_error", "HTML parser returned no document", kind="failed")
        doc.html = doc.raw = None  # the tree is the page from here on
        return doc
