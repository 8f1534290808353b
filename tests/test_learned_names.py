"""The compiled class/id matcher (``_names.Matcher``) gives what the Python tests of ``names.py`` and
``features.TokenVocab`` give: on every class/id value of every shared page, and on made-up values (case,
hyphens, spaces, newlines, non-ASCII letters that re.I or lower() map to ASCII, very long values)."""
import gzip
import random
import shutil
from collections import Counter

import numpy as np
import pytest
from resiliparse.parse.html import HTMLTree

from eval.cleaning.gold import SETS, gold_pages
from eval.cleaning.harness import strip_wrapper
from preprocess.cleaners.learned import blocks, compiled, names
from preprocess.cleaners.learned.features import TokenVocab, _words, signature_ids
from preprocess.cleaners.learned.model import load_model
from tests.conftest import shared

pytestmark = pytest.mark.skipif(not compiled.BUILT and shutil.which("cc") is None,
                                reason="no C compiler: the compiled twins were not built (pure Python runs)")

PARTS = ["hid", " ", "-", "_", "Comment", "comments", "commentary", "SIDEBAR", "post", "x", "ad", "-ad-", "main",
         "Hidden", "tags", "com", "reply", "Replies", "disqus_thread", "talkback", "nav", "menu", "Entry", "h-entry",
         "\n", "\t", "é", "\u212a", "\u017f", "\u0130", "\u0131", "ＮＡＶ", "\u00df", "0", "9", "\x00", "'", "&"]


class Reference:
    """The Python functions (not their caches), each distinct value once."""

    flags_and_thread: dict[str, tuple[int, int]] = {}  # (the same for every vocabulary)

    def __init__(self, vocab: TokenVocab):
        self.vocab, self.masks = vocab, {}

    def __call__(self, values: list[str]) -> tuple[list[int], list[int], np.ndarray]:
        for v in set(values).difference(self.masks):
            self.masks[v] = self.vocab._mask(v)
            if v not in self.flags_and_thread:
                self.flags_and_thread[v] = (names._flags(v), names._thread_name(v))
        flags, thread = zip(*map(self.flags_and_thread.__getitem__, values)) if values else ((), ())
        return list(flags), list(thread), _words(list(map(self.masks.__getitem__, values)), len(self.vocab.tokens))


def assert_same(values: list[str], reference: Reference) -> None:
    flags, thread, words = reference.vocab.matcher.bits(values)
    ref_flags, ref_thread, ref_words = reference(values)
    bad = [v for v, a, b in zip(values, flags.tolist(), ref_flags) if a != b]
    assert not bad, f"{len(bad)} values get other flags, first: {bad[0]!r}"
    bad = [v for v, a, b in zip(values, thread.tolist(), ref_thread) if a != b]
    assert not bad, f"{len(bad)} values get another thread bit, first: {bad[0]!r}"
    assert words.dtype == ref_words.dtype and words.shape == ref_words.shape
    if not np.array_equal(words, ref_words):
        bad = [v for v, a, b in zip(values + [None], words, ref_words) if not np.array_equal(a, b)]
        raise AssertionError(f"{len(bad)} values get other token bits, first: {bad[0]!r}")


@pytest.fixture(scope="module")
def page_values():
    """Each shared page's elements (every set's pages): a Page with their tags and class/id values."""
    out = []
    for p in gold_pages(shared(), list(SETS)):
        raw = p.input.read_bytes()
        html = strip_wrapper(gzip.decompress(raw) if p.input.suffix == ".gz" else raw).decode("utf-8", "replace")
        page = blocks.split_body(HTMLTree.parse(html))
        out.append(blocks.Page(el_tag=page.el_tag, el_names=page.el_names))
    return out


def vocabularies(values: list[str]) -> list[TokenVocab]:
    """The shipped model's, one of the 300 commonest tokens of ``values`` (five bit words), one with a repeated
    token and tokens no a-z run equals, and none."""
    common = Counter(t for v in values for t in names.CLASS_TOKEN.findall(v.lower())).most_common(300)
    return [TokenVocab(load_model().vocab), TokenVocab([t for t, _ in common]),
            TokenVocab(["nav", "Nav", "menu", "", "nav", "a-b", "é", "comment", "x1", "footer"]), TokenVocab([])]


def test_the_matcher_equals_python_on_every_shared_page(page_values):
    assert len(page_values) > 4000
    distinct = {v for page in page_values for v in page.el_names}
    assert len(distinct) > 50_000 and any(not v.isascii() for v in distinct)
    vocabs = vocabularies(list(distinct))
    for vocab in vocabs:
        reference = Reference(vocab)
        for page in page_values:  # per page, as the cleaner calls it (repeated values within the page)
            assert_same(page.el_names, reference)
    flags = vocabs[0].matcher.bits(sorted(distinct))[0]
    assert {0, 1, 2, 3, 4, 5, 7} <= set(flags.tolist())


def test_the_matchers_signatures_equal_signature_ids_on_every_shared_page(page_values):
    vocab = TokenVocab([])
    repeated = 0
    for page in page_values:
        sig = vocab.matcher.bits(page.el_names, np.asarray(page.el_tag, dtype=np.int64))[3]
        expected = signature_ids(page)
        assert sig.dtype == expected.dtype and np.array_equal(sig, expected)
        repeated += len(sig) - len(set(sig.tolist()))
    assert repeated > 100_000
    rng = random.Random(9)  # made up: few values and tags, so pairs repeat in every way
    for _ in range(300):
        n = rng.randrange(0, 400)
        page = blocks.Page(el_tag=[rng.randrange(64) for _ in range(n)],
                           el_names=[rng.choice(["", "a", "b c", "A", "é", "a\n"]) for _ in range(n)])
        sig = vocab.matcher.bits(page.el_names, np.asarray(page.el_tag, dtype=np.int64))[3]
        assert np.array_equal(sig, signature_ids(page))
    with pytest.raises(ValueError):
        vocab.matcher.bits(["a"], np.asarray([64], dtype=np.int64))


def test_the_matcher_equals_python_on_made_up_values():
    rng = random.Random(7)
    values = ["".join(rng.choices(PARTS, k=rng.randint(0, 8))) for _ in range(20_000)]
    values += ["", " ", "hid", " hid", "hid ", "hid\n", " hid\n", "HID", "x hid y", "hidx", "Kelvin\u212a",
               "\u0130tem", "comment\u0131", "ſhare", "a" * 2000 + " comment", "sidebar" * 200, "reply\n"]
    values += [v.upper() for v in values[:2000]] + values[:3000]  # upper case; repeats
    rng.shuffle(values)
    common = [t for v in values for t in names.CLASS_TOKEN.findall(v.lower())]
    for vocab in vocabularies(common):
        assert_same(values, Reference(vocab))
    flags, thread, _ = TokenVocab([]).matcher.bits(values)
    assert {0, 1, 2, 4, 7} <= set(flags.tolist()) and 0 < thread.sum() < len(values)


def test_thread_names_follow_the_documented_rule():
    rng = random.Random(8)
    values = ["".join(rng.choices(PARTS, k=rng.randint(0, 6))) for _ in range(5000)]

    def rule(v: str) -> int:  # comment*, reply/replies, respond, disqus*, talkback as tokens; not commentary...
        return int(any(t in ("reply", "replies", "respond", "talkback") or t.startswith("disqus")
                       or (t.startswith("comment") and t not in ("commentary", "commentaries", "commentator",
                                                                 "commentators"))
                       for t in names.CLASS_TOKEN.findall(v.lower())))

    assert [names._thread_name(v) for v in values] == list(map(rule, values))
    got = names.thread_many(["comments", "commentary", "x disqus_thread", "reply-to", "Commentators", "commentarial"])
    assert list(map(int, got)) == [1, 0, 1, 1, 0, 1]
