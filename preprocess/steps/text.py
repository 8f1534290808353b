"""Text-only input: records whose text is already extracted (WET), pruned without a DOM.

Common Crawl's WET files hold ``conversion`` records: the text its extractor took
from each page, UTF-8, one block per line. The WARC reader yields them as
documents flagged ``doc.meta["text_only"]`` with the text in ``raw``. The pipeline
(:mod:`preprocess.run.pipeline`) sends them past every step that needs HTML -- decode,
parse, the DOM cleaners, tag removal and the filters that need its line features --
through :class:`TextInput` and then the filters that work on plain lines (pruning).
"""
from __future__ import annotations

from preprocess.config.options import DEFAULT_MAX_BYTES
from preprocess.core.document import TEXT_ONLY, Document, Line
from preprocess.html.dom import tidy_lines
from preprocess.steps.base import BuildContext, Step

def is_text_only(doc: Document) -> bool:
    return bool(doc.meta.get(TEXT_ONLY))


class TextInput(Step):
    """Payload -> ``doc.lines`` (link density 0: the extractor kept no links) for text-only documents."""

    name = "text_input"

    def __init__(self, max_bytes: int = DEFAULT_MAX_BYTES):
        super().__init__()
        self.max_bytes = max_bytes

    @classmethod
    def build(cls, ctx: BuildContext) -> "TextInput":
        return cls(ctx.opts.max_bytes)

    def process(self, doc: Document) -> Document | None:
        payload = doc.raw or b""
        if not payload.strip():
            return self.drop(doc, "empty_payload", "no payload bytes")
        if len(payload) > self.max_bytes:
            return self.drop(doc, "too_large", f"{len(payload)} bytes > --max-bytes {self.max_bytes}")
        text = payload.decode("utf-8", errors="replace")  # WET text is UTF-8 by Common Crawl's spec
        doc.lines = [Line(t, 0.0) for t in tidy_lines(text.replace("\r", "\n").replace("\x00", "")).split("\n") if t]
        doc.raw = None
        self.stat_update("documents")
        if not doc.lines:
            return self.drop(doc, "empty", "no text in the extracted record")
        return doc
