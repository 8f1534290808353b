"""The per-record step chain that runs inside each worker."""
from __future__ import annotations

from dataclasses import dataclass, field

from preprocess.document import Document
from preprocess.stats import Stats
from preprocess.steps.base import Step
from preprocess.steps.decode import Decode
from preprocess.steps.parse import Parse
from preprocess.steps.tags import TagRemoval

CLEANERS = ("tags",)


@dataclass
class CleanOptions:
    """Everything a worker needs to build its steps (sent once, at actor start)."""

    cleaner: str = "tags"
    max_bytes: int = 16 << 20
    extra: dict = field(default_factory=dict)  # room for later steps' options


def build_steps(opts: CleanOptions) -> list[Step]:
    if opts.cleaner not in CLEANERS:
        raise ValueError(f"unknown cleaner {opts.cleaner!r}; choose one of {', '.join(CLEANERS)}")
    return [Decode(max_bytes=opts.max_bytes), Parse(), TagRemoval()]


class Pipeline:
    """Builds its steps once (models load here, never per document) and runs batches through them."""

    def __init__(self, opts: CleanOptions):
        self.steps = build_steps(opts)

    def process(self, docs: list[Document]) -> tuple[list[dict], Stats]:
        stats = Stats()
        stats.update("bytes_in", sum(len(d.raw or b"") for d in docs))
        for step in self.steps:
            step.stats = stats
            with stats.timer(step.name):
                docs = list(step.run(docs))
        out = [d.to_json() for d in docs]
        stats.update("bytes_out", sum(len(o["contents"].encode("utf-8")) for o in out))
        return out, stats
