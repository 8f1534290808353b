"""Placeholder regex segmenter (replaced by the benchmarked choice)."""
import re

_SPLIT = re.compile(r"(?<=[.!?。！？])\s+(?=[\"'(\[]?[A-Z0-9À-Ý])")


def sentences(line: str) -> list[str]:
    return _SPLIT.split(line)
