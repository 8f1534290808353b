"""What a run learns from its own input before cleaning: explicit artefacts, never options.

Each learning pass (:mod:`preprocess.learning.engine`) saves one artefact as
``OUT/learned/<name>.json``; :class:`Learned` hands them to the steps that read them
(``ctx.learned.get("feed_templates")``). ``root`` is the output folder, for artefacts
too large to load whole: a step reads their parts lazily (:meth:`Learned.part`) from
``OUT/learned/<name>/``, or from ``parts`` when the passes ran in this process.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from preprocess.core.paths import join, read_json


@dataclass(frozen=True)
class Learned:
    artefacts: dict[str, Any] = field(default_factory=dict)
    root: str | None = None
    parts: dict[str, dict] = field(default_factory=dict)  # pass name -> {part: JSON}, kept in memory

    def get(self, name: str, default=None):
        return self.artefacts.get(name, default)

    def part(self, name: str, part: str):
        """One part of an artefact (None when there is no such part)."""
        if name in self.parts:
            return self.parts[name].get(part)
        if self.root is None:
            return None
        return read_json(join(self.root, "learned", name, f"{part}.json"))

    def with_(self, name: str, artefact, parts: dict | None = None) -> "Learned":
        return Learned({**self.artefacts, name: artefact}, self.root,
                       {**self.parts, name: parts} if parts is not None else self.parts)
