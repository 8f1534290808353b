"""The one record type that flows through every preprocessing step, and its typed text lines."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(slots=True)
class Line:
    """One written block of a page: a paragraph, heading, list item, menu entry ...

    ``link_density`` is the share of its characters inside ``<a>`` when tag removal measured it
    (line features on), else None.
    """

    text: str
    link_density: float | None = None


@dataclass(slots=True)
class Document:
    """One web page on its way from archive record to JSONL line.

    Lifecycle: the reader fills ``id``, ``url``, ``source``, ``content_type`` and ``raw``;
    ``Decode`` picks the charset (``encoding``, ``html``); ``Parse`` builds ``tree`` once and
    drops the bytes; DOM cleaners prune the tree; ``TagRemoval`` writes ``title`` and ``lines``;
    filters after it drop or rewrite lines. ``text`` is derived from ``lines``, so no step
    re-splits a string or keeps a parallel list aligned by hand. ``fields`` are extra JSON
    fields a cleaner found (``date``, ``author``, ``post_title``); ``meta`` holds notes that are
    not written. ``tree`` and ``raw`` never leave the worker that made them.
    """

    id: str
    url: str = ""
    source: str = ""          # input the record came from
    content_type: str = ""    # HTTP Content-Type (or sniffed for files)
    raw: bytes | None = None  # HTTP payload, transfer/content encoding removed
    encoding: str = ""
    html: str | None = None
    tree: Any = None          # parsed DOM (resiliparse HTMLTree)
    title: str = ""
    lines: list[Line] = field(default_factory=list)
    fields: dict = field(default_factory=dict)
    meta: dict = field(default_factory=dict)

    @property
    def text(self) -> str:
        """The cleaned text: one block per line."""
        return "\n".join(line.text for line in self.lines)

    def set_text(self, text: str) -> None:
        """Replace the lines by the non-empty lines of ``text`` (no per-line features)."""
        self.lines = [Line(t) for t in text.split("\n") if t]

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
        text = self.text
        contents = "\n".join(part for part in (self.title, text) if part)
        return {"id": self.id, "contents": contents, "url": self.url, "title": self.title} | self.fields
