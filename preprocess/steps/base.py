"""The step interface (after datatrove's ``PipelineStep``).

A step turns an iterable of :class:`Document` into an iterator of documents.
Whatever it does not pass on it must account for with :meth:`Step.drop`
(a counted, logged skip or failure with a reason). An exception raised while
processing one document fails that document only, never the batch.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator

from preprocess.core.document import Document
from preprocess.core.native import native_panic
from preprocess.core.stats import Stats

log = logging.getLogger("webprune.preprocess")


@dataclass
class BuildContext:
    """What a step may build itself from: the options, the learned artefacts, its cleaner's fallback, and the
    earlier steps of the pipeline it declared in ``uses`` (by registry name; absent when not in the run)."""

    opts: Any                  # preprocess.config.options.CleanOptions
    learned: Any               # preprocess.core.artefacts.Learned
    fallback: "Step | None" = None
    steps: dict = field(default_factory=dict)


class Step:
    name = "step"
    uses: tuple[str, ...] = ()  # registry names of earlier steps this one works with (BuildContext.steps)
    provides: tuple[str, ...] = ()  # Document fields it can fill for the step right after it (e.g. "handed")
    accepts: tuple[str, ...] = ()   # Document fields it takes from the step right before it

    def hand_to(self, after: "Step") -> None:
        """Called by ``pipeline.build_steps`` when ``after`` comes right after this step and accepts a field it
        provides: from then on the step fills it (a step that declares ``provides`` implements this)."""
        raise NotImplementedError(f"{self.name} declares provides={self.provides} but no hand_to")

    def __init__(self) -> None:
        self._stats = Stats()

    @classmethod
    def build(cls, ctx: BuildContext) -> "Step":
        """The step for a pipeline (the registry calls this); steps without options need no override."""
        return cls()

    @classmethod
    def summary(cls, opts, counts: dict, learned: dict) -> dict:
        """What the step adds to a run's stats.json from the run's merged counters and learning report (e.g.
        ``{"pruning": {...}}``); the driver merges it without knowing its shape. Most steps add nothing."""
        return {}

    @property
    def stats(self) -> Stats:
        return self._stats

    @stats.setter
    def stats(self, stats: Stats) -> None:
        """The pipeline hands each batch a fresh Stats; a step's fallback counts into the same one."""
        self._stats = stats
        fallback = getattr(self, "fallback", None)
        if fallback is not None:
            fallback.stats = stats

    def stat_update(self, key: str, value: int | float = 1) -> None:
        self.stats.update(f"{self.name}.{key}", value)

    def drop(self, doc: Document, reason: str, message: str = "", kind: str = "skipped") -> None:
        note = f"{doc.id} ({doc.source}): {message}" if message else f"{doc.id} ({doc.source})"
        self.stats.outcome(kind, reason, example=note, rid=doc.id)
        log.debug("%s %s by %s: %s", kind, doc.id, self.name, message or reason)

    def reset(self) -> None:
        """Forget what earlier batches taught the step (per-host state); most steps keep none."""
        fallback = getattr(self, "fallback", None)
        if fallback is not None:
            fallback.reset()

    def process(self, doc: Document) -> Document | None:
        """Return the document (possibly changed) or None after calling :meth:`drop`."""
        raise NotImplementedError

    def run(self, docs: Iterable[Document]) -> Iterator[Document]:
        for doc in docs:
            try:
                out = self.process(doc)
            except BaseException as exc:  # one bad page must not stop the run (a native library's panic neither)
                if not isinstance(exc, Exception) and not native_panic(exc):
                    raise
                log.debug("%s failed on %s (%s): %r", self.name, doc.id, doc.source, exc)
                self.drop(doc, f"{self.name}_error", f"{type(exc).__name__}: {exc}", kind="failed")
                continue
            if out is not None:
                yield out


class Chain(Step):
    """Steps run one after another on one document: a cleaner's fallback (e.g. density, then tag removal)."""

    def __init__(self, steps: list[Step]):
        super().__init__()
        self.steps = steps
        self.name = "+".join(s.name for s in steps)

    @Step.stats.setter
    def stats(self, stats: Stats) -> None:
        self._stats = stats
        for s in self.steps:
            s.stats = stats

    def reset(self) -> None:
        for s in self.steps:
            s.reset()

    def process(self, doc: Document) -> Document | None:
        for s in self.steps:
            doc = s.process(doc)
            if doc is None:
                return None
        return doc
