"""Element paths below ``<body>`` (:class:`Path`, a lightweight XPath) and their merging over a host's pages."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

from preprocess.html.dom import element_children

MAX_PATH = 64           # steps below <body>; deeper nodes get no path (pathological nesting)
MAX_MATCHES = 1000      # nodes a path may match on one page
MIN_SUPPORT = 0.5       # share of a host's matched pages the template's path must come from

_SAFE_TAG = re.compile(r"^[a-z][a-z0-9:_-]*$")


@dataclass(frozen=True, slots=True)
class PathStep:
    """One step of a :class:`Path`: ``tag``, with ``attr`` (``id`` or ``class``) equal to ``value`` -- or
    starting with it when ``prefix`` -- and, for elements with neither attribute, ``index``: the position
    (from 1) among the parent's children of the same tag."""

    tag: str
    attr: str | None = None
    value: str | None = None
    prefix: bool = False
    index: int | None = None

    def __str__(self) -> str:
        if self.attr:
            return f"{self.tag}[@{self.attr}={self.value}{'*' if self.prefix else ''}]"
        return f"{self.tag}[{self.index}]" if self.index else self.tag

    def accepts(self, el) -> bool:
        """Tag and attribute test (the position is checked by :meth:`Path.find`)."""
        if el.tag != self.tag:
            return False
        if self.attr is None:
            return True
        got = _attr_value(el, self.attr)
        if got is None:
            return False
        return got.startswith(self.value) if self.prefix else got == self.value

    def to_json(self) -> list:
        return [self.tag, self.attr, self.value, self.prefix, self.index]

    @classmethod
    def from_json(cls, data: Sequence) -> "PathStep":
        tag, attr, value, prefix, index = (list(data) + [None] * 5)[:5]
        if not isinstance(tag, str) or attr not in (None, "id", "class"):
            raise ValueError(f"bad path step {data!r}")
        return cls(tag, attr, None if attr is None else str(value), bool(prefix) and attr is not None,
                   int(index) if index is not None and attr is None else None)


def _attr_value(el, attr: str) -> str | None:
    raw = el.id if attr == "id" else el.class_name
    if not raw:
        return None
    value = " ".join(raw.split())[:200]
    return value or None


@dataclass(frozen=True, slots=True)
class Path:
    """A lightweight XPath below ``<body>``: ``div[@id=page]/article[@id=post-*]/div[@class=entry-content]``."""

    steps: tuple[PathStep, ...]

    def __str__(self) -> str:
        return "/".join(map(str, self.steps))

    def __len__(self) -> int:
        return len(self.steps)

    @property
    def shape(self) -> tuple[str, ...]:
        return tuple(s.tag for s in self.steps)

    def find(self, body, limit: int = MAX_MATCHES) -> list:
        """The elements this path selects below ``body``, in document order (sibling links, no CSS)."""
        if body is None or not self.steps:
            return []
        frontier = [body]
        for step in self.steps:
            nxt = []
            for node in frontier:
                seen = 0
                for child in element_children(node):
                    if child.tag != step.tag:
                        continue
                    seen += 1
                    if step.index is not None and seen != step.index:
                        continue
                    if step.accepts(child):
                        nxt.append(child)
                        if len(nxt) >= limit:
                            break
                if len(nxt) >= limit:
                    break
            if not nxt:
                return []
            frontier = nxt
        return frontier

    def to_json(self) -> list:
        return [s.to_json() for s in self.steps]

    @classmethod
    def from_json(cls, data) -> "Path":
        return cls(tuple(PathStep.from_json(s) for s in data))


def path_of(node, body) -> Path | None:
    """The path from ``body`` down to ``node``; None if ``node`` is not below ``body`` or lies too deep."""
    steps = []
    while node is not None and node != body:
        tag = node.tag
        if not tag or len(steps) >= MAX_PATH:
            return None
        if not _SAFE_TAG.match(tag):
            return None
        attr = "id" if _attr_value(node, "id") else "class" if _attr_value(node, "class") else None
        if attr:
            steps.append(PathStep(tag, attr, _attr_value(node, attr)))
        else:
            index, sib = 1, node.previous_element_sibling
            while sib is not None:
                index += sib.tag == tag
                sib = sib.previous_element_sibling
            steps.append(PathStep(tag, index=index))
        node = node.parent
    if node is None or not steps:
        return None
    return Path(tuple(reversed(steps)))


def _common_prefix(values: list[str]) -> str:
    first, last = min(values), max(values)
    n = 0
    while n < len(first) and n < len(last) and first[n] == last[n]:
        n += 1
    # never cut inside a number: post-12 + post-15 is post-*, not post-1*
    return first[:n].rstrip("0123456789")


def merge_steps(steps: Sequence[PathStep]) -> PathStep:
    """One step standing for same-tag steps of several pages."""
    first = steps[0]
    if all(s == first for s in steps):
        return first
    attrs = {s.attr for s in steps}
    if len(attrs) == 1 and first.attr is not None:
        prefix = _common_prefix([s.value for s in steps])
        if prefix:
            return PathStep(first.tag, first.attr, prefix, True)
        return PathStep(first.tag)
    if attrs == {None}:
        indexes = {s.index for s in steps}
        return PathStep(first.tag, index=first.index if len(indexes) == 1 else None)
    return PathStep(first.tag)  # id on one page, class or nothing on another: the tag alone


def merge_paths(paths: Sequence[Path], min_support: float = MIN_SUPPORT) -> tuple[Path, int] | None:
    """Merge the paths of one kind (content, title or author) of a host's pages.

    Paths are grouped by their tag sequence; the largest group (the longer path on a tie) must hold at
    least ``min_support`` of the paths. Its paths are merged step by step (:func:`merge_steps`).
    Returns the merged path and how many pages it came from, or None.
    """
    paths = [p for p in paths if p is not None and len(p)]
    if not paths:
        return None
    groups: dict[tuple[str, ...], list[Path]] = {}
    for p in paths:
        groups.setdefault(p.shape, []).append(p)
    best = max(groups.values(), key=lambda g: (len(g), len(g[0])))
    if len(best) < min_support * len(paths):
        return None
    return Path(tuple(merge_steps(col) for col in zip(*(p.steps for p in best)))), len(best)
