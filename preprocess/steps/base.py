"""The step interface (after datatrove's ``PipelineStep``).

A step turns an iterable of :class:`Document` into an iterator of documents.
Whatever it does not pass on it must account for with :meth:`Step.drop`
(a counted, logged skip or failure with a reason). An exception raised while
processing one document fails that document only, never the batch.
"""
from __future__ import annotations

import logging
from typing import Iterable, Iterator

from preprocess.document import Document
from preprocess.stats import Stats

log = logging.getLogger("webprune.preprocess")


class Step:
    name = "step"

    def __init__(self) -> None:
        self.stats = Stats()

    def stat_update(self, key: str, value: int | float = 1) -> None:
        self.stats.update(f"{self.name}.{key}", value)

    def drop(self, doc: Document, reason: str, message: str = "", kind: str = "skipped") -> None:
        note = f"{doc.id} ({doc.source}): {message}" if message else f"{doc.id} ({doc.source})"
        self.stats.outcome(kind, reason, example=note)
        log.debug("%s %s by %s: %s", kind, doc.id, self.name, message or reason)

    def reset(self) -> None:
        """Forget what earlier batches taught the step (per-host state); most steps keep none."""

    def process(self, doc: Document) -> Document | None:
        """Return the document (possibly changed) or None after calling :meth:`drop`."""
        raise NotImplementedError

    def run(self, docs: Iterable[Document]) -> Iterator[Document]:
        for doc in docs:
            try:
                out = self.process(doc)
            except Exception as exc:  # one bad page must not stop the run
                log.warning("%s failed on %s (%s): %r", self.name, doc.id, doc.source, exc)
                self.drop(doc, f"{self.name}_error", f"{type(exc).__name__}: {exc}", kind="failed")
                continue
            if out is not None:
                yield out
