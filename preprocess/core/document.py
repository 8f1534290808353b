"""The one record type that flows through every preprocessing step, and its typed text lines."""
from __future__ import annotations

from dataclasses import InitVar, dataclass, field
from typing import Any


TEXT_ONLY = "text_only"  # a meta key: the record's raw bytes are text already (a WET conversion record)


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
    re-splits a string or keeps a parallel list aligned by hand; lines set from a text (``set_text``, the
    streaming tag remover's) are made only when a step reads ``lines``: a plain ``tags`` run makes none and
    writes the text as it came. ``handed``: the lines a step wrote for the next one, declared on both
    classes (``Step.provides`` / ``Step.accepts``, wired by ``pipeline.build_steps``): the learned cleaner's kept
    blocks, which tag removal writes instead of extracting the tree again. ``fields`` are extra JSON
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
    lines: InitVar[list[Line] | None] = None  # (a property: see below)
    handed: list[Line] | None = None  # lines a cleaner wrote for tag removal to take as they are (see below)
    fields: dict = field(default_factory=dict)
    meta: dict = field(default_factory=dict)
    _lines: list[Line] | None = field(default=None, init=False, repr=False, compare=False)
    _text: str | None = field(default=None, init=False, repr=False, compare=False)  # lines not made yet

    def __post_init__(self, lines: list[Line] | None) -> None:
        self._lines = [] if lines is None else lines

    def _get_lines(self) -> list[Line]:
        if self._lines is None:  # made now from the text set_text kept
            self._lines = [Line(t) for t in self._text.split("\n")] if self._text else []
            self._text = None
        return self._lines

    def _set_lines(self, lines: list[Line]) -> None:
        self._lines, self._text = lines, None

    @property
    def text(self) -> str:
        """The cleaned text: one block per line."""
        if self._lines is None:
            return self._text
        return "\n".join(line.text for line in self._lines)

    @property
    def empty(self) -> bool:
        """No line (without making the lines)."""
        return not self._text if self._lines is None else not self._lines

    def set_text(self, text: str) -> None:
        """Replace the lines by the non-empty lines of ``text`` (no per-line features); they are made when read."""
        if "\n\n" in text or text[:1] == "\n" or text[-1:] == "\n":
            text = "\n".join(t for t in text.split("\n") if t)
        self._lines, self._text = None, text

    def set_tidy_text(self, text: str) -> None:
        """:meth:`set_text` of a text that is already its non-empty lines (``dom.tidy_lines``' output, the stream
        scan's): no line to drop, so no search for one."""
        self._lines, self._text = None, text

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
        return {"id": self.id, "contents": join_contents(self.title, self.text), "url": self.url,
                "title": self.title} | self.fields


def join_contents(title: str, text: str) -> str:
    """A record's ``contents``: the title line, then the text (both indexed)."""
    return "\n".join(part for part in (title, text) if part)


def record_text(record: dict) -> str:
    """A record's text without the title line ``join_contents`` put before it (the cleaner's main text)."""
    contents, title = record["contents"], record.get("title") or ""
    if title and contents.startswith(title) and contents[len(title):len(title) + 1] in ("", "\n"):
        return contents[len(title) + 1:]
    return contents


Document.lines = property(Document._get_lines, Document._set_lines,
                          doc="The page's lines, in order (``text`` joins them); made from the text on first read")
