"""Sentence segmentation of cleaned text, one block (line) at a time.

Tag removal puts every block (paragraph, heading, list item, menu entry) on its
own line; segmentation never crosses a line, so a menu item is never glued to a
paragraph. Within a line: sentencex (rules compiled into its wheel, no download)
plus :func:`merge_pieces`, chosen by ``scripts/bench/bench_segmenters.py``: ~250k
lines/s/core on tag-removed real pages, 94% exact splits on a hand-made gold
set (abbreviations, decimals, URLs, list items, 6 other languages), and the
pieces always join back into the line exactly.
"""
from __future__ import annotations

import os
import re
from typing import Iterator

import sentencex

from preprocess.core.native import native_panic, note_panic

MAX_LINE_CHARS = 100_000  # longer "lines" (minified code, base64) are cut into pieces of this size
_ENUM = re.compile(r"^(?:\d{1,3}|[a-zA-Z]|[ivxlcIVXLC]{1,5})$")
_CJK_END = frozenset("。！？」』）")
# sentencex breaks only at a sentence terminator, a paragraph break or a list marker: in ASCII a numbered or
# lettered one needs "." or ")", and a bullet (* + -) counts only at the start of a line, where one alone makes
# no list. So an ASCII line without these characters comes back whole (tests/test_segment_lines.py checks that
# against sentencex, the version pyproject.toml allows, on the shared lines and on random ones)
_MAY_SPLIT = re.compile(r"[.!?)\n]")


def merge_pieces(pieces) -> list[str]:
    """Repair sentencex pieces while keeping ``"".join(result) == line``:
    a piece that is only a list enumerator at the start of the line ("1. ", "b) ") is glued
    to the next one, and so is a split with no whitespace after it ("www.Example.com",
    "window.Math"), except after CJK sentence punctuation; whitespace-only pieces are
    appended to the previous piece."""
    out: list[str] = []
    for piece in pieces:
        if out:
            prev = out[-1]
            if not piece.strip() or (not prev[-1:].isspace() and prev[-1:] not in _CJK_END) or (
                    len(out) == 1 and _ENUM.match(prev.strip().rstrip(".)")) and prev.strip()[-1:] in ".)"):
                out[-1] = prev + piece
                continue
        out.append(piece)
    return out


def segment_line(lang: str, line: str) -> list[str]:
    """sentencex's pieces of a line; the line whole where it cannot split it: lone surrogates (UnicodeError) or
    a panic of its Rust code (``M\\x85.``: a byte index inside a two-byte character)."""
    try:
        return sentencex.segment(lang, line)
    except UnicodeError:
        return [line]
    except BaseException as exc:
        if not native_panic(exc):
            raise
        note_panic("sentencex", line, exc)
        return [line]


def split_line(line: str, lang: str = "en") -> list[str]:
    """Sentences of one line, stripped (the unstripped pieces join back into the line)."""
    pieces = merge_pieces(segment_line(lang, line))
    return [p.strip() for p in pieces if p.strip()]


def sentences_of(text: str) -> Iterator[tuple[int, str]]:
    """(line number, sentence) for every sentence of every non-empty line."""
    return sentences_of_texts(text.split("\n"))


def sentences_of_lines(lines) -> Iterator[tuple[int, str]]:
    """The same over a document's typed lines (``Document.lines``)."""
    return zip(*sentence_columns([line.text for line in lines]))


def sentences_of_texts(texts) -> Iterator[tuple[int, str]]:
    """:func:`split_line` of each piece of each line, inlined (a page has ~150 lines, most of one sentence)."""
    may_split = _MAY_SPLIT.search
    for i, line in enumerate(texts):
        stripped = line.strip()
        if not stripped:
            continue
        if line.isascii() and len(line) <= MAX_LINE_CHARS and may_split(line) is None:  # (one piece: no call)
            yield i, stripped
            continue
        for start in range(0, len(line), MAX_LINE_CHARS):
            piece = line[start:start + MAX_LINE_CHARS] if len(line) > MAX_LINE_CHARS else line
            pieces = segment_line("en", piece)  # (the piece whole where sentencex cannot split it)
            if len(pieces) > 1:
                pieces = merge_pieces(pieces)
            for p in pieces:
                p = p.strip()
                if p:
                    yield i, p


def sentence_columns_python(texts) -> tuple[list[int], list[str]]:
    """(line numbers, sentences) of :func:`sentences_of_texts`, as two lists."""
    nos, sents = [], []
    for i, sent in sentences_of_texts(texts):
        nos.append(i)
        sents.append(sent)
    return nos, sents


try:  # the compiled twin (_segment.pyx), where built; WEBPRUNE_PURE_PYTHON=1 runs the loop above
    from preprocess.core._segment import sentence_columns as _compiled_columns
except ImportError:
    _compiled_columns = None


def sentence_columns(texts) -> tuple[list[int], list[str]]:
    """(line numbers, sentences) of every sentence of every non-empty line: the compiled twin where built (the
    loop above where a text is not exactly a ``str``)."""
    texts = texts if type(texts) is list else list(texts)
    out = _compiled_columns(texts, segment_line, _ENUM.match, MAX_LINE_CHARS)
    return sentence_columns_python(texts) if out is None else out


if _compiled_columns is None or os.environ.get("WEBPRUNE_PURE_PYTHON"):
    sentence_columns = sentence_columns_python  # noqa: F811
