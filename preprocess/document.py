"""The one record type that flows through every preprocessing step."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(slots=True)
class Document:
    """One web page on its way from archive record to JSONL line.

    The reader fills ``id``, ``url``, ``source``, ``content_type`` and ``raw``;
    ``decode`` turns ``raw`` into ``html``; ``parse`` builds ``tree`` once, and
    every later step (tag removal, DOM cleaners, the pruner) reads that tree or
    ``text``. ``tree`` and ``raw`` never leave the worker that made them.
    """

    id: str
    url: str = ""
    source: str = ""          # input file the record came from
    content_type: str = ""    # HTTP Content-Type (or sniffed for files)
    raw: bytes | None = None  # HTTP payload, transfer/content encoding removed
    encoding: str = ""
    html: str | None = None
    tree: Any = None          # parsed DOM (resiliparse HTMLTree)
    title: str = ""
    text: str = ""            # cleaned text, blocks separated by "\n"
    meta: dict = field(default_factory=dict)

    @property
    def host(self) -> str:
        """Lower-cased host of the URL ('' when there is none): the grouping key for per-site cleaners."""
        from urllib.parse import urlsplit

        try:
            return (urlsplit(self.url).hostname or "").lower()
        except ValueError:
            return ""

    def to_json(self) -> dict:
        """The Pyserini JsonCollection line for this document."""
        contents = "\n".join(part for part in (self.title, self.text) if part)
        out = {"id": self.id, "contents": contents, "url": self.url, "title": self.title}
        for key in ("date", "author", "post_title"):  # set by cleaners that find them (blog, feeds)
            if key in self.meta:
                out[key] = self.meta[key]
        return out
