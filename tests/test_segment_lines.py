"""sentences_of_texts (split_line inlined) gives what split_line gives, line by line and piece by piece, on the
text of every shared cleaning page and on odd lines (long, whitespace, lone surrogates, list enumerators)."""
import random

from preprocess.document import Document
from preprocess.options import CleanOptions
from preprocess.pipeline import Pipeline
from preprocess.segment import MAX_LINE_CHARS, sentences_of_texts, split_line
from tests.conftest import shared


def reference(texts):
    return [(i, s) for i, line in enumerate(texts) if line.strip()
            for start in range(0, len(line), MAX_LINE_CHARS) for s in split_line(line[start:start + MAX_LINE_CHARS])]


def test_equal_to_split_line_on_every_shared_page_and_odd_lines():
    pages = sorted(shared("cleaning").glob("*/input/*.html"))
    docs = [Document(id=f"{f.parent.parent.name}/{f.stem}", content_type="text/html", raw=f.read_bytes())
            for f in pages]
    lines = [line for row in Pipeline(CleanOptions()).process(docs)[0] for line in row["contents"].split("\n")]
    assert len(lines) > 200_000
    rng = random.Random(7)
    words = ["1.", "b)", "Mr.", "www.Example.com", "end.", "Yes!", "why?", "。", "日本", " ", "\t", "iv."]
    odd = ["", "   ", "\ud800 broken. Line.", "x. " * (MAX_LINE_CHARS // 2), "a" * (MAX_LINE_CHARS + 5) + ". B."]
    odd += [" ".join(rng.choice(words) for _ in range(rng.randrange(1, 12))) for _ in range(5000)]
    for texts in (lines, odd):
        assert list(sentences_of_texts(texts)) == reference(texts)
