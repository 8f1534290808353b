"""The language of a page, to train and score it with that language's contrastive pair.

:func:`detect_language` looks at the first ``SAMPLE_CHARS`` characters of a page's text:

* **Chinese, Japanese, Korean by script.** When Han, kana and Hangul make up ``CJK_SHARE`` of the letters,
  the script decides: Hangul the larger part -> ``ko``; any kana (``KANA_SHARE`` of Han + kana; Chinese
  has none) -> ``ja``; else ``zh``. resiliparse's profiles confuse them: on the title and kept lines of the
  29 real Japanese ClueWeb09 pages here its best guess is ``zh`` for 27 and ``ko`` for 2 (for 10 of
  29 when the kept lines include the product text).
* **Every other language by resiliparse's** ``detect_fast`` (101 profiles), above its rank cutoff of 1200
  (its "usually false results") -> ``und``. A CJK guess without CJK letters counts as ``und`` too.

Text without letters is ``und``. The rule is deterministic: a retry gives the same language.
"""
from __future__ import annotations

import re
import unicodedata

SAMPLE_CHARS = 4000
CJK_SHARE = 0.3
KANA_SHARE = 0.05
CUTOFF = 1200
UND = "und"
CHARACTER_LANGUAGES = ("ja", "zh")  # tokenised into characters (preprocess.lm.normalize, step 6)

_LETTER = re.compile(r"[^\W\d_]")
_HAN = re.compile("[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002fa1f]")
_KANA = re.compile("[\u3041-\u3096\u30a1-\u30fa\uff66-\uff9d]")
_HANGUL = re.compile("[\u1100-\u11ff\u3130-\u318f\uac00-\ud7af]")
_CJK = re.compile("|".join(r.pattern for r in (_HAN, _KANA, _HANGUL)))  # any of the three


def cjk_language(sample: str) -> str | None:
    """``ja``/``zh``/``ko`` when CJK letters make up ``CJK_SHARE`` of ``sample``'s letters, else None."""
    if sample.isascii() or not _CJK.search(sample):  # no CJK letter (most pages): the counts cannot reach the share
        return None
    letters = len(_LETTER.findall(sample))
    han, kana, hangul = (len(r.findall(sample)) for r in (_HAN, _KANA, _HANGUL))
    if not letters or han + kana + hangul < CJK_SHARE * letters:
        return None
    if hangul > han + kana:
        return "ko"
    return "ja" if kana >= KANA_SHARE * (han + kana) else "zh"


def detect_language(text: str) -> str:
    """An ISO 639-1 code (``en``, ``ja``, ...) or ``und`` (see the module's docstring)."""
    from resiliparse.parse.lang import detect_fast

    sample = unicodedata.normalize("NFC", text[:SAMPLE_CHARS])
    cjk = cjk_language(sample)
    if cjk:
        return cjk
    if not _LETTER.search(sample):
        return UND
    lang, _ = detect_fast(sample, cutoff=CUTOFF)
    return UND if lang == "unknown" or lang in ("ja", "zh", "ko") else lang


def page_text(title: str, lines: list[str]) -> str:
    """The text a page's language is detected on, in training and when pruning: title and cleaned lines."""
    return "\n".join([title, *lines]) if title else "\n".join(lines)


def line_language(text: str, default: str) -> str:
    """One line's language: by script for Chinese, Japanese and Korean, else ``default``."""
    return cjk_language(unicodedata.normalize("NFC", text[:SAMPLE_CHARS])) or default


def tokenisation(lang: str) -> str:
    """How a language's lines are tokenised (recorded in the model card)."""
    return "characters (Han, kana) and words" if lang in CHARACTER_LANGUAGES else "words"
