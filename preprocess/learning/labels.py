"""Pseudo-labels for contrastive training: which of a page's lines its DOM cleaner kept, which it removed.

:func:`label_pipeline` is the cleaning chain of :mod:`preprocess.run.pipeline` for the
labelling cleaner (default ``tags --drop-hinted --max-link-density 0.5``) with one
step added right after ``Parse``: :class:`LinesBefore` keeps the page's tag-removed
lines (the whole tree, before any cleaner touches it), with their link densities, as one list of
:class:`preprocess.core.document.Line` (:func:`lines_before`).
After cleaning, :func:`page_lines` gives ``(host, kept, removed)``: kept = the cleaned
lines, removed = the lines before cleaning that the cleaner took out. A page the
cleaner drops altogether (every block mostly links) counts as all removed.

A line before cleaning counts as kept when its words (``\\w+``, casefolded) equal a
cleaned line's words (one for one), or, for lines of 3+ words, occur in the cleaned
text (Kitten merges lists and adds punctuation). Text-only records (WET) have no DOM:
all their lines count as kept, so only repetition labels them. No human label is used.
"""
from __future__ import annotations

import itertools
import re
from collections import Counter
from dataclasses import dataclass

from preprocess.core.document import Document, Line
from preprocess.config.options import CleanOptions
from preprocess.core.stats import Stats
from preprocess.steps.base import Step

_W = re.compile(r"\w+")


@dataclass(frozen=True)
class LabelOptions:
    """How lines get their pseudo-labels; recorded in the model's card."""

    cleaner: str = "tags"             # the DOM cleaner whose kept/removed lines label the rest
    drop_hinted: bool = True
    max_link_density: float | None = 0.5
    kitten: bool | None = None
    min_repeat_pages: int = 3         # a line on this many pages of a host is template text (0: no repetition rule)
    min_word_count: int = 2           # shared vocabulary: words seen this often in the sample; others are OOV

    def clean_options(self) -> CleanOptions:
        if self.min_repeat_pages < 0 or self.min_word_count < 1:
            raise ValueError("--min-repeat-pages must be >= 0 and the vocabulary's min word count >= 1")
        return CleanOptions(cleaner=self.cleaner, drop_hinted=self.drop_hinted, max_link_density=self.max_link_density,
                            kitten=self.kitten).check()


def words(text: str) -> str:
    return " ".join(_W.findall(text.casefold()))


def lines_before(doc: Document) -> list[Line] | None:
    """The lines :class:`LinesBefore` kept aside (None: the page never reached it, e.g. text-only)."""
    return doc.meta.get(LinesBefore.name)


class LinesBefore(Step):
    """Tag removal of the untouched tree, kept aside as the document's ``lines_before`` (:func:`lines_before`)."""

    name = "lines_before"

    def __init__(self, line_features: bool = True):
        super().__init__()
        from preprocess.steps.tags import TagRemoval

        self.tags = TagRemoval(line_features=line_features)  # its stats stay private

    def process(self, doc: Document) -> Document | None:
        title, lines = doc.title, doc.lines
        out = self.tags.process(doc)
        doc.meta[self.name] = list(doc.lines) if out is not None else []
        doc.title, doc.lines = title, lines
        return doc


def label_pipeline(labels: LabelOptions | CleanOptions):
    """A :class:`preprocess.run.pipeline.Pipeline` of ``labels``' cleaner (or the cleaning options') with
    :class:`LinesBefore` after Parse."""
    from preprocess.run.pipeline import Pipeline
    from preprocess.steps.parse import Parse

    pipe = Pipeline(labels.clean_options() if isinstance(labels, LabelOptions) else labels)
    at = next(i for i, s in enumerate(pipe.steps) if isinstance(s, Parse)) + 1
    pipe.steps.insert(at, LinesBefore())
    return pipe


def kept_flags(before: list[str], cleaned: list[str]) -> list[bool | None]:
    """For each line ``before`` cleaning: kept (True), removed (False), or None when it holds no word."""
    after = [words(line) for line in cleaned]
    exact = Counter(a for a in after if a)
    joined = " " + " ".join(a for a in after if a) + " "
    flags: list[bool | None] = []
    for line in before:
        w = words(line)
        if not w:
            flags.append(None)
        elif exact[w] > 0:
            exact[w] -= 1
            flags.append(True)
        else:
            flags.append(w.count(" ") >= 2 and f" {w} " in joined)
    return flags


def page_lines(doc: Document, dropped: bool = False) -> tuple[list[str], list[str]]:
    """``(kept, removed)`` lines of a document that went through :func:`label_pipeline` (``dropped``: the
    cleaner dropped it, so every line before cleaning counts as removed)."""
    before = lines_before(doc)
    before = None if before is None else [ln.text for ln in before]
    if dropped:
        return [], list(before or [])
    kept = [ln.text for ln in doc.lines if ln.text.strip()]
    if before is None:  # text-only (WET) or a page without a DOM: only repetition labels it
        return kept, []
    flags = kept_flags(before, kept)
    return kept, [line for line, f in zip(before, flags) if f is False]


def labelled(pipe, docs: list[Document], stats) -> list[tuple[Document, list[str], list[str]]]:
    """A batch of raw documents through ``pipe``: ``(doc, kept, removed)`` per page with lines before cleaning."""
    docs = list(docs)
    seen = {id(d) for d in pipe.run(list(docs), stats)}
    return [(d, *page_lines(d, dropped=id(d) not in seen)) for d in docs
            if id(d) in seen or lines_before(d)]


class Labelled:
    """A unit's records (the first ``take``) cleaned in batches by the labelling pipeline of ``opts``: ``(doc,
    kept, removed)`` per page (:func:`labelled`); ``stats`` counts what was read and skipped."""

    def __init__(self, opts, read, take: int | None, batch_size: int):
        self.opts, self.read, self.take, self.batch_size, self.stats = opts, read, take, batch_size, Stats()

    def __iter__(self):
        pipe, batch = label_pipeline(self.opts), []
        for doc in itertools.islice(self.read(self.stats), self.take):
            batch.append(doc)
            if len(batch) == self.batch_size:
                yield from labelled(pipe, batch, self.stats)
                batch = []
        if batch:
            yield from labelled(pipe, batch, self.stats)
