"""The normaliser's compiled token pass (preprocess/lm/_tokens.pyx) equals its regex twin on real and random text."""
from __future__ import annotations

import random
import shutil

import pytest

from preprocess.lm import normalize as N
from preprocess.lm.contrastive import normalize_many
from tests.conftest import shared

try:
    from preprocess.lm._tokens import tokens as compiled_tokens
except ImportError:
    compiled_tokens = None

pytestmark = pytest.mark.skipif(compiled_tokens is None and shutil.which("cc") is None,
                                reason="no C compiler: the compiled token pass was not built (the regex runs)")


def test_the_compiled_pass_is_built_and_used():
    assert compiled_tokens is not None, "preprocess/lm/_tokens.pyx was not built: run scripts/setup.sh"
    assert N.tokens is compiled_tokens or N.os.environ.get("WEBPRUNE_PURE_PYTHON")


@pytest.mark.parametrize("text", ["", "  ", "a12b 3.5 2024", "x_1 __ _", "don't (stop)!", "٣٤ ५६ abc٣", "①②",
                                  "ﬁ² Ⅻ", "日 本 語", "a\u00a0b\u2003c\u200bd", "tab\tnew\nline\x1c", "🙂🙂 a🙂b",
                                  "ß straße", "e\u0301 é", "\ud800x"])
def test_equal_on_edge_cases(text):
    assert compiled_tokens(text) == N.tokens_python(text)


def test_equal_on_every_ascii_character():  # (the compiled classes answer ASCII without the Unicode tables)
    for c in map(chr, range(128)):
        text = f"a{c}b 1{c}2 {c} {c}{c}x9"
        assert compiled_tokens(text) == N.tokens_python(text), repr(text)


def test_equal_on_random_text():
    rng = random.Random(25)
    pool = "aZ_09 \t\n.,;'\"-–()٣५①²ⅫßéÅ\u0301\u00a0\u2003\u200b\u3000日本語カナ한국🙂\x1c\x85\u2028#$%"
    for _ in range(20000):
        text = "".join(rng.choice(pool) for _ in range(rng.randrange(0, 40)))
        assert compiled_tokens(text) == N.tokens_python(text), repr(text)


def test_equal_on_every_line_of_the_shared_pages():
    lines = []
    for f in sorted(shared("cleaning").glob("*/gold/*"))[::3]:
        lines += f.read_text(encoding="utf-8", errors="replace").split("\n")
    assert len(lines) > 10000
    for line in lines:
        folded = N.split_cjk(line.casefold())
        assert compiled_tokens(folded) == N.tokens_python(folded)
    assert normalize_many(lines[:5000]) == [N.normalize(t) for t in lines[:5000]]


def test_lines_pass_equals_the_regex_passes_line_by_line():
    from preprocess.lm._tokens import tokens_lines

    rng = random.Random(23)
    pool = "aZ_09 \t\n\n.,;'\"-()٣५①²ßé\u0301\u00a0\u3000日本語カナ々〇ー・\U00020001\U0002a6e0한국🙂\x1c\x85#"
    cases = ["", "\n", "\n\n", "a\nb", "日本12語\nx", "〇12", "12日34", "a日b", "カナ・ー"]
    cases += ["".join(rng.choice(pool) for _ in range(rng.randrange(0, 60))) for _ in range(20000)]
    pages = [f.read_text(encoding="utf-8", errors="replace").casefold() for f in sorted(shared("cleaning").glob("*/gold/*"))]
    assert len(pages) > 2000
    for text in cases + pages:
        for cjk in (False, True):
            assert tokens_lines(text, cjk) == N.tokens_lines_python(text, cjk), (repr(text), cjk)


def test_quotes_are_translated_only_where_there_is_one_and_the_result_is_the_same():
    import unicodedata

    rng = random.Random(5)
    pool = "a “”„«»‘’‚–—ﬁ①Ａ e\u0301 ‛″"
    for _ in range(5000):
        text = "".join(rng.choice(pool) for _ in range(rng.randrange(0, 20)))
        assert N.nfkc_quotes(text) == unicodedata.normalize("NFKC", text).translate(N._QUOTES), repr(text)
