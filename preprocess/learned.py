"""What a run learns from its own input before cleaning: explicit artefacts, never options.

Each learning pass (:mod:`preprocess.learning`) saves one artefact as
``OUT/learned/<name>.json``; :class:`Learned` hands them to the steps that read them
(``ctx.learned.get("feed_templates")``). ``root`` is the output folder, for artefacts
too large to load whole (a step reads their parts lazily from ``OUT/learned/<name>/``).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Learned:
    artefacts: dict[str, Any] = field(default_factory=dict)
    root: str | None = None

    def get(self, name: str, default=None):
        return self.artefacts.get(name, default)

    def with_(self, name: str, artefact) -> "Learned":
        return Learned({**self.artefacts, name: artefact}, self.root)
