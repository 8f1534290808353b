"""sentences_of_texts (split_line inlined) gives what split_line gives, line by line and piece by piece, on the
text of every shared cleaning page and on odd lines (long, whitespace, lone surrogates, list enumerators); the
compiled twin (_segment.pyx) gives what sentences_of_texts gives."""
import random

import pytest
import sentencex

from preprocess.core.document import Document
from preprocess.config.options import CleanOptions
from preprocess.run.pipeline import Pipeline
from preprocess.core import segment
from preprocess.core.segment import _MAY_SPLIT, MAX_LINE_CHARS, sentence_columns_python, sentences_of_texts, split_line
from tests.conftest import shared


def reference(texts):
    return [(i, s) for i, line in enumerate(texts) if line.strip()
            for start in range(0, len(line), MAX_LINE_CHARS) for s in split_line(line[start:start + MAX_LINE_CHARS])]


@pytest.fixture(scope="module")
def page_lines():
    """The lines tag removal writes for each shared cleaning page."""
    pages = sorted(shared("cleaning").glob("*/input/*.html"))
    docs = [Document(id=f"{f.parent.parent.name}/{f.stem}", content_type="text/html", raw=f.read_bytes())
            for f in pages]
    return [row["contents"].split("\n") for row in Pipeline(CleanOptions(cleaner="tags")).process(docs)[0]]


def odd_lines():
    rng = random.Random(7)
    words = ["1.", "b)", "Mr.", "www.Example.com", "end.", "Yes!", "why?", "。", "日本", " ", "\t", "iv.", "(a", "(1",
             "- x", "* y", "2", "ii", "word", "\u2022 z", "\x1c", "\u3000", "1\n.", "\u0663.", "x\u00a0", *segment._CJK_END]
    odd = ["", "   ", "\ud800 broken. Line.", "x. " * (MAX_LINE_CHARS // 2), "a" * (MAX_LINE_CHARS + 5) + ". B.",
           "\x1c 1. A\x1f", "\u00e9t\u00e9. Oui !"]
    return odd + [" ".join(rng.choice(words) for _ in range(rng.randrange(1, 12))) for _ in range(5000)]


def test_equal_to_split_line_on_every_shared_page_and_odd_lines(page_lines):
    lines = [line for page in page_lines for line in page]
    assert len(lines) > 200_000
    for texts in (lines, odd_lines()):
        assert list(sentences_of_texts(texts)) == reference(texts)


def test_compiled_columns_equal_to_the_python_loop_on_every_shared_page_and_odd_lines(page_lines):
    compiled = pytest.importorskip("preprocess.core._segment")
    args = (segment.segment_line, segment._ENUM.match, MAX_LINE_CHARS)
    for texts in [*page_lines, odd_lines()]:
        assert compiled.sentence_columns(texts, *args) == sentence_columns_python(texts)
    assert segment.sentence_columns is not sentence_columns_python  # (the pipeline runs the twin: it is built)
    # what the twin writes out: segment.py's character sets (edit both together)
    assert segment._MAY_SPLIT.pattern == r"[.!?)\n]" and segment._CJK_END == frozenset("。！？」』）")


class Odd(str):
    def strip(self, *args):
        return "overridden"


def test_compiled_columns_leave_what_is_not_exactly_a_str_to_the_python_loop():
    compiled = pytest.importorskip("preprocess.core._segment")
    texts = ["Plain line.", Odd(" Odd. Line. "), "Last one. Yes."]
    assert compiled.sentence_columns(texts, segment.segment_line, segment._ENUM.match, MAX_LINE_CHARS) is None
    assert segment.sentence_columns(texts) == sentence_columns_python(texts)
    assert segment.sentence_columns(iter(texts)) == sentence_columns_python(texts)
    as_tuple = lambda lang, line: tuple(segment.segment_line(lang, line))  # noqa: E731  (a segmenter giving a tuple)
    odd = odd_lines()
    assert compiled.sentence_columns(odd, as_tuple, segment._ENUM.match, MAX_LINE_CHARS) == sentence_columns_python(odd)
    odd_piece = lambda lang, line: [Odd(p) for p in segment.segment_line(lang, line)]  # noqa: E731
    assert compiled.sentence_columns(["A b. C d."], odd_piece, segment._ENUM.match, MAX_LINE_CHARS) is None


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


class PanicException(BaseException):
    """What pyo3 raises for a panic of sentencex's Rust code."""


def test_a_line_sentencex_panics_on_is_kept_whole_and_a_stop_is_not_swallowed(monkeypatch):
    compiled = pytest.importorskip("preprocess.core._segment")
    real, seg = [p.strip() for p in sentencex.segment("en", "Fine. Yes.")], sentencex.segment

    def panics(lang, line):
        if "\x85" in line:
            raise PanicException("end byte index 2 is not a char boundary")
        if "STOP" in line:
            raise KeyboardInterrupt
        return seg(lang, line)

    texts = ["Fine. Yes.", "M\x85.", "Last. One."]
    want = ([0, 0, 1, 2, 2], [*real, "M\x85.", "Last.", "One."])
    monkeypatch.setattr(sentencex, "segment", panics)
    # the compiled twin calls segment.segment_line, the one place a panic is caught
    assert compiled.sentence_columns(texts, segment.segment_line, segment._ENUM.match, MAX_LINE_CHARS) == want
    assert segment.sentence_columns is not sentence_columns_python and segment.sentence_columns(texts) == want
    assert sentence_columns_python(texts) == want and split_line("M\x85.") == ["M\x85."]
    with pytest.raises(KeyboardInterrupt):
        segment.sentence_columns(["STOP. Now."])
    with pytest.raises(KeyboardInterrupt):
        sentence_columns_python(["STOP. Now."])
    monkeypatch.undo()
    # the real input (sentencex 1.0.32 panics on it): kept whole, by either twin, whatever the version does
    for got in (segment.sentence_columns(["M\x85."]), sentence_columns_python(["M\x85."])):
        assert got == ([0], ["M\x85."])
