"""Decode's one-pass counts (``preprocess/steps/_markup.pyx``) equal their Python reference on every shared
cleaning page, on random bytes and at the edges; a strict UTF-8 page's noscript answer reaches the parser."""
import gzip
import random

import pytest

from preprocess.core.document import Document
from preprocess.steps import decode
from preprocess.steps.decode import Decode, markup_counts_python
from preprocess.steps.parse import Parse
from tests.conftest import shared

_markup = pytest.importorskip("preprocess.steps._markup", reason="not built: run scripts/setup.sh")


def test_the_compiled_count_is_built_and_used():
    assert decode.markup_counts is _markup.markup_counts


def page_bytes():
    root = shared("cleaning")
    for path in sorted([*root.glob("*/input/*"), *root.glob("wcxb-dev/html/*")]):
        if path.suffix in (".html", ".htm", ".gz") and path.is_file():
            data = path.read_bytes()
            yield gzip.decompress(data) if path.suffix == ".gz" else data


def test_equal_to_the_reference_on_every_shared_cleaning_page():
    n = 0
    for data in page_bytes():
        assert _markup.markup_counts(data) == markup_counts_python(data)
        n += 1
    assert n > 4000


EDGES = [b"", b"<", b"<noscript", b"<noscrip", b"x<noscript>", b"<NOSCRIPT>", b"\xef\xbf\xbd", b"\xef\xbf",
         b"\xef\xbf\xbd\xbd", b"\xef\xef\xbf\xbd", b"<<noscript", b"\xef\xbf\xbd" * 3 + b"<" * 2, b"\x00<\x00",
         b"<" * 100_003, b"\xef\xbf\xbd" * 50_001 + b"<noscript", b"a" * 4079 + b"<" * 4081]  # past 255 per byte lane


def test_equal_to_the_reference_on_random_bytes_and_edges():
    rng = random.Random(7)
    alphabet = b"<>noscriptNOSCRIPT\xef\xbf\xbd\x00a "
    samples = EDGES + [bytes(rng.choice(alphabet) for _ in range(rng.randrange(0, 60))) for _ in range(20_000)]
    samples += [rng.randbytes(rng.randrange(0, 2000)) for _ in range(500)]
    for data in samples:
        assert _markup.markup_counts(data) == markup_counts_python(data), data


def test_a_strict_utf8_page_carries_its_noscript_answer_to_the_parser_and_others_do_not():
    page = "<html><head><meta charset=utf-8></head><body><p>café</p><noscript>x</noscript></body></html>".encode()
    doc = next(iter(Decode().run([Document(id="a", content_type="text/html", raw=page)])))
    assert doc.meta == {"noscript": True} and doc.encoding == "utf-8"
    assert next(iter(Parse().run([doc]))).meta == {}  # taken by the parser
    latin = "<html><head><meta charset=iso-8859-1></head><body><p>café</p></body></html>".encode("latin-1")
    doc = next(iter(Decode().run([Document(id="b", content_type="text/html", raw=latin)])))
    assert doc.encoding != "utf-8" and "noscript" not in doc.meta


def test_garbage_is_counted_alike_from_the_bytes():
    """A strict UTF-8 page that is mostly U+FFFD characters is still a decode error, counted from its bytes."""
    page = b"<html><body>" + "\ufffd".encode() * 500 + b"</body></html>"
    docs = list(Decode().run([Document(id="c", content_type="text/html", raw=page)]))
    assert docs == []


def test_the_compiled_nesting_depth_is_used_and_equals_its_pattern_on_shared_pages():
    """Every shared page at a low stop (where each count ends early or runs to the page's end), and the pages of
    more than 20,000 tags (those the decode step measures at its default --max-depth) in full."""
    assert decode.nesting_depth is _markup.nesting_depth
    n = big = 0
    for data in page_bytes():
        assert _markup.nesting_depth(data, 5) == decode.nesting_depth_python(data, 5)
        if data.count(b"<") > 20_000:
            assert _markup.nesting_depth(data, 20_000) == decode.nesting_depth_python(data, 20_000) > 20
            big += 1
        n += 1
    assert n > 4000 and big >= 2


def test_the_compiled_nesting_depth_equals_its_pattern_on_random_markup_and_edges():
    rng = random.Random(11)
    alphabet = b"<>/abrdtpPlLiIBRDT1 x\n=\"'"
    samples = [b"", b"<", b"</", b"<a/", b"<//a>", b"<a<b>", b"</p/>", b"<br/>", b"<BR>", b"<a/ >", b"<a / >",
               b"<" + b"a" * 20 + b">", b"<a" + b"b" * 15 + b"br>", b"<basefont><bgsound><BaseFonT></basefont1>",
               b"<div>" * 50 + b"</div>" * 60 + b"<div>" * 3]
    samples += [bytes(rng.choice(alphabet) for _ in range(rng.randrange(0, 50))) for _ in range(30_000)]
    for data in samples:
        for stop in (0, 1, 3, 100):
            assert _markup.nesting_depth(data, stop) == decode.nesting_depth_python(data, stop), (data, stop)
