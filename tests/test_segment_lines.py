"""sentences_of_texts (split_line inlined) gives what split_line gives, line by line and piece by piece, on the
text of every shared cleaning page and on odd lines (long, whitespace, lone surrogates, list enumerators)."""
import random

import sentencex

from preprocess.core.document import Document
from preprocess.config.options import CleanOptions
from preprocess.run.pipeline import Pipeline
from preprocess.core.segment import _MAY_SPLIT, MAX_LINE_CHARS, sentences_of_texts, split_line
from tests.conftest import shared


def reference(texts):
    return [(i, s) for i, line in enumerate(texts) if line.strip()
            for start in range(0, len(line), MAX_LINE_CHARS) for s in split_line(line[start:start + MAX_LINE_CHARS])]


def test_equal_to_split_line_on_every_shared_page_and_odd_lines():
    pages = sorted(shared("cleaning").glob("*/input/*.html"))
    docs = [Document(id=f"{f.parent.parent.name}/{f.stem}", content_type="text/html", raw=f.read_bytes())
            for f in pages]
    lines = [line for row in Pipeline(CleanOptions(cleaner="tags")).process(docs)[0]
             for line in row["contents"].split("\n")]
    assert len(lines) > 200_000
    rng = random.Random(7)
    words = ["1.", "b)", "Mr.", "www.Example.com", "end.", "Yes!", "why?", "。", "日本", " ", "\t", "iv.", "(a", "(1",
             "- x", "* y", "2", "ii", "word", "\u2022 z"]
    odd = ["", "   ", "\ud800 broken. Line.", "x. " * (MAX_LINE_CHARS // 2), "a" * (MAX_LINE_CHARS + 5) + ". B."]
    odd += [" ".join(rng.choice(words) for _ in range(rng.randrange(1, 12))) for _ in range(5000)]
    for texts in (lines, odd):
        assert list(sentences_of_texts(texts)) == reference(texts)


def whole_lines(lines):
    return [line for line in lines if line.strip() and line.isascii() and _MAY_SPLIT.search(line) is None]


def test_sentencex_returns_a_random_ascii_line_without_a_terminator_or_a_list_closer_whole():
    """The shortcut of sentences_of_texts: no call for such a line. Random ASCII lines built from list-marker
    shapes (some with a closer, which must keep the line out of the shortcut), quotes and control characters."""
    rng = random.Random(11)
    pool = [chr(c) for c in range(32, 127)] + ["\t", "\r", "\x0b", "\x0c", "\x1c", "\x00"] + \
        ["(a", "(1", "(ii", "- ", "* ", "+ ", "1 ", "ii ", "a ", "``", "''", "Mr", "A", " "] + \
        [" (b) Next", " 2) Then", " c.) More", " iv) So"] * 3
    lines = whole_lines("".join(rng.choice(pool) for _ in range(rng.randrange(1, 60))) for _ in range(200_000))
    assert len(lines) > 20_000
    for line in lines:
        assert sentencex.segment("en", line) == [line], repr(line)


def test_sentencex_returns_a_shared_gold_line_without_a_terminator_or_a_list_closer_whole():
    lines = whole_lines(line for f in sorted(shared("cleaning").glob("*/gold/*"))
                        for line in f.read_text(encoding="utf-8", errors="replace").split("\n"))
    assert len(lines) > 100_000
    for line in lines:
        assert sentencex.segment("en", line) == [line], repr(line)
