"""The contrastive pair's compiled scoring (preprocess/lm/_pair.pyx) gives the Python loop's floats, bit for bit,
on every shared cleaning page, on random text and on the texts it leaves to the Python loop."""
from __future__ import annotations

import random
import shutil
import warnings

import pytest

from preprocess.core.document import Document
from preprocess.lm import pair as P
from preprocess.lm.contrastive import ContrastiveScorer, normalize_many
from preprocess.config.options import CleanOptions
from preprocess.run.pipeline import Pipeline
from tests.conftest import shared
from tests.test_contrastive import crawl, model  # noqa: F401 (fixtures: a pair trained on 40 real pages)

try:
    from preprocess.lm import _pair
except ImportError:
    _pair = None

pytestmark = pytest.mark.skipif(_pair is None and shutil.which("c++") is None,
                                reason="no C++ compiler: the compiled pair was not built (the Python loop runs)")


@pytest.fixture(scope="module")
def pair(model):
    p = ContrastiveScorer(model[0]).pair("en")
    assert p._compiled is not None, "preprocess/lm/_pair.pyx was not built or not used: run scripts/setup.sh"
    return p


def same(a: list, b: list) -> bool:
    return [x if x is None else x.hex() for x in a] == [x if x is None else x.hex() for x in b]


def worded_python(pair, norms: list[str]) -> list:
    """``score_worded`` as the Python twin gives it."""
    compiled, pair._compiled = pair._compiled, None
    try:
        return pair.score_worded(norms)
    finally:
        pair._compiled = compiled


def test_equal_on_every_shared_page(pair):
    pages = sorted(shared("cleaning").glob("*/input/*.html"))
    assert len(pages) > 2800
    docs = [Document(id=f"{f.parent.parent.name}/{f.stem}", content_type="text/html", raw=f.read_bytes())
            for f in pages]
    rows = Pipeline(CleanOptions()).process(docs)[0]
    assert len(rows) > 2700
    n = oov = 0
    for row in rows:
        norms = normalize_many([row["title"], *row["contents"].split("\n")])
        assert same(pair.score_many(norms), pair.score_many_python(norms)), row["id"]
        assert same(pair.score_worded(norms), worded_python(pair, norms)), row["id"]
        n += len(norms)
        oov += sum(t not in pair.vocab for x in norms for t in x.split())
    assert n > 100_000 and oov > 100_000  # a vocabulary of 40 pages: both branches of the mapping are taken


@pytest.mark.parametrize("text", ["", " ", "the", "the  cat\tsat\nhere", "zzqx unseenword", "a\x00b the",
                                  "the\x1ccat", "the\u00a0cat", "the\u3000cat", "the\u2028cat", "café ｆｕｌｌ",
                                  "日 本 語", "🙂 the", "x" * 5000, "\ud800 the", "!!! ---", "|", "_", "٣", "①",
                                  "\u00b2", "- \x00 ."])
def test_equal_on_edge_cases(pair, text):
    try:
        want = pair.score_many_python([text])
    except UnicodeEncodeError:
        with pytest.raises(UnicodeEncodeError):
            pair.score_many([text])
        return
    assert same(pair.score_many([text]), want)
    assert same(pair.score_worded([text]), worded_python(pair, [text]))


def test_equal_on_random_text(pair):
    rng = random.Random(23)
    words = sorted(pair.vocab)[:3000] + ["zzqx", "unseenword", "0", ".", "日", "é"]
    seps = [" ", " ", " ", "  ", "\t", "\n", "\x0b", "\x1c", "\u00a0", "\x00"]
    texts = ["".join(rng.choice(words) + rng.choice(seps) for _ in range(rng.randrange(0, 30))) for _ in range(5000)]
    assert same(pair.score_many(texts), pair.score_many_python(texts))
    marks = ["!", "-", "|", "..", "\u00b2", "٣", "_"]
    texts += [" ".join(rng.choice(marks) for _ in range(rng.randrange(0, 6))) for _ in range(2000)]
    rng.shuffle(texts)
    got = pair.score_worded(texts)
    assert same(got, worded_python(pair, texts))
    assert 100 < got.count(None) < 2000  # texts without a word are None, the others scored


def test_equal_on_near_misses_of_vocabulary_words(pair):
    # the word table keeps a word's first 8 bytes in its slot and compares the rest apart: words that share
    # those bytes with a vocabulary word, or are one byte longer or shorter, must not take its indices
    vocab = sorted(pair.vocab)
    long = [w for w in vocab if len(w.encode()) > 8][:400]
    short = [w for w in vocab if 2 <= len(w.encode()) <= 8][:400]
    assert len(long) > 100 and len(short) > 100
    near = [w[:-1] for w in long + short] + [w + "s" for w in long + short] + [w[:8] + "zq" + w[10:] for w in long]
    near += [w[:-1] + chr(ord(w[-1]) ^ 1) for w in long + short]
    texts = [" ".join(near[i:i + 7]) for i in range(0, len(near), 7)] + [" ".join(long), " ".join(short)]
    assert sum(t not in pair.vocab for t in near) > 1000
    assert same(pair.score_many(texts), pair.score_many_python(texts))


def test_the_word_table_compares_whole_words(pair):
    # seven words in a 16-slot table: a lookup walks through the slots of words that share its first 8 bytes, and
    # only the whole word may match (a made-up vocabulary word has KenLM's <unk> index, the OOV token another)
    vocab = frozenset(f"abcdefgh{t}" for t in ("", "i", "ij", "ijk", "x", "xy", "xyz"))
    small = _pair.CompiledPair(pair.content, pair.boiler, vocab, P.OOV)
    probes = [w + t for w in sorted(vocab) for t in ("", "q", "qq")] + ["abcdefg", "abcdefgi", "abcdefghxz", "abcdefgj"]
    texts = [" ".join(probes[i:i + 3]) for i in range(len(probes))]

    def python(text):
        toks = text.split()
        mapped = " ".join(t if t in vocab else P.OOV for t in toks).encode()
        return (pair.boiler.score(mapped) - pair.content.score(mapped)) * P.LOG2_10 / (len(toks) + 1)
    assert same(small.score_many(texts, P.LOG2_10, None), [python(t) for t in texts])


def test_a_model_object_of_another_layout_is_refused_and_the_python_loop_runs(pair, monkeypatch):
    with pytest.raises(ValueError, match="layout"):
        _pair.CompiledPair(object(), pair.boiler, pair.vocab, P.OOV)
    monkeypatch.setattr(_pair, "KENLM_VERSION", "0.0.0")
    monkeypatch.setattr(P, "_PAIR_WARNED", False)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert P.compiled_pair(pair.content, pair.boiler, pair.vocab) is None
    assert "built against KenLM 0.0.0" in str(caught[0].message)


def test_a_small_pair_is_read_into_memory_a_large_one_mapped_with_the_same_scores(model, monkeypatch):
    folder = model[0] / "en"
    read = P.Pair(folder)
    monkeypatch.setattr(P, "READ_UP_TO", (folder / P.CONTENT).stat().st_size)  # both files: over it
    mapped = P.Pair(folder)
    assert read.read and not mapped.read
    pages = sorted(shared("cleaning", "dragnet", "input").glob("*.html"))[:300]
    docs = [Document(id=f.stem, content_type="text/html", raw=f.read_bytes()) for f in pages]
    norms = [n for row in Pipeline(CleanOptions()).process(docs)[0] for n in normalize_many(row["contents"].split("\n"))]
    assert len(norms) > 5000
    assert same(read.score_worded(norms), mapped.score_worded(norms))
    assert same(read.score_many_python(norms[:2000]), mapped.score_many_python(norms[:2000]))
