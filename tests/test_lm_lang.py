"""The page-language rule's CJK test: its shortcut for text without a CJK letter gives the counting rule's answer."""
import random

from preprocess.lm import lang
from preprocess.lm.lang import CJK_SHARE, KANA_SHARE, cjk_language
from tests.conftest import shared


def counted(sample: str) -> str | None:
    """The rule as the module states it: counts of letters and of Han, kana and Hangul, on every sample."""
    letters = len(lang._LETTER.findall(sample))
    han, kana, hangul = (len(r.findall(sample)) for r in (lang._HAN, lang._KANA, lang._HANGUL))
    if not letters or han + kana + hangul < CJK_SHARE * letters:
        return None
    if hangul > han + kana:
        return "ko"
    return "ja" if kana >= KANA_SHARE * (han + kana) else "zh"


def test_cjk_language_equals_the_counting_rule_on_real_and_random_text():
    rng = random.Random(23)
    pages = sorted(shared("cleaning", "cleaneval-dev", "input").glob("*.html"))[:40]
    samples = [p.read_bytes().decode("utf-8", "replace")[:4000] for p in pages]
    ja = shared("warc", "clueweb09", "clueweb09-ja-sample.warc.gz").read_bytes()[:200_000].decode("utf-8", "replace")
    samples += [ja[i:i + 4000] for i in range(0, len(ja), 4000)]
    alphabet = "abcXYZ 12,.é\u00e9\u4e00\u9fa5\u3042\u30a2\uac00\u1100\U00020000\uff66\u3400-_"
    samples += ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40))) for _ in range(3000)]
    samples += ["", "123 !!", "Ünïcödé only", "\u4e00", "a" * 10 + "\u4e00" * 4, "a" * 10 + "\u4e00" * 5]
    answers = [cjk_language(s) for s in samples]
    assert answers == [counted(s) for s in samples]
    assert {"ja", "zh", "ko", None} <= set(answers)  # every branch taken
