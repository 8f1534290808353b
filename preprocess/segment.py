"""Sentence segmentation of cleaned text, one block (line) at a time.

Tag removal puts every block (paragraph, heading, list item, menu entry) on its
own line; segmentation never crosses a line, so a menu item is never glued to a
paragraph. Within a line the segmenter is chosen by ``scripts/bench_segmenters.py``.
"""
from __future__ import annotations

from typing import Iterator

MAX_LINE_CHARS = 100_000  # longer "lines" (minified code, base64) are cut into pieces of this size


def split_line(line: str) -> list[str]:
    from preprocess.segmenter_impl import sentences

    return [s for s in sentences(line) if s.strip()]


def sentences_of(text: str) -> Iterator[tuple[int, str]]:
    """(line number, sentence) for every sentence of every non-empty line."""
    for i, line in enumerate(text.split("\n")):
        if not line.strip():
            continue
        for start in range(0, len(line), MAX_LINE_CHARS):
            for s in split_line(line[start:start + MAX_LINE_CHARS]):
                yield i, s
