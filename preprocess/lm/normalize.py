"""The one normaliser and tokeniser used both to train language models and to score sentences.

``normalize(text)`` returns space-separated tokens:
  1. Unicode NFKC (full-width forms, ligatures and compatibility characters folded);
  2. case folded (``casefold``: lower case, ß -> ss);
  3. quotes unified: `` '' “ ” „ « » → ``"`` and ‘ ’ ‚ → ``'``; dashes – — → ``-``;
  4. every run of digits becomes ``0`` (``3.5`` -> ``0 . 0``, ``2024`` -> ``0``): numbers are open-class;
  5. tokens are ``\\w+`` (letters/digits/underscore, any script) or a single other non-space character;
  6. Chinese and Japanese characters (Han, hiragana, katakana) are one token each: those scripts put no space
     between words, so ``\\w+`` would make a whole line one token. Characters need no dictionary, work alike
     for both languages and for mixed text, and their vocabulary is small and closed (README, "Contrastive
     pruning"). Korean (Hangul) puts spaces between words and keeps them.
Training corpora may carry their own tokenisation artefacts (Brown's `` ''),
WikiText's ``<unk>``/``@-@``): :func:`clean_corpus_line` removes those first.
"""
from __future__ import annotations

import os
import re
import unicodedata

_TOKEN = re.compile(r"\w+|[^\w\s]")
_DIGITS = re.compile(r"\d+")
# Han (CJK unified ideographs, extension A, compatibility), iteration marks, hiragana, katakana (NFKC has
# already folded half-width katakana); ranges beyond the BMP: extensions B-F and compatibility supplement
_CJK = re.compile("[\u3005-\u3007\u3041-\u3096\u309d-\u309f\u30a1-\u30fa\u30fc-\u30ff\u31f0-\u31ff"
                  "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002fa1f]")
_QUOTES = str.maketrans({"“": '"', "”": '"', "„": '"', "«": '"', "»": '"', "‘": "'", "’": "'", "‚": "'",
                         "–": "-", "—": "-"})
_QUOTE_CHARS = re.compile("[" + "".join(map(chr, _QUOTES)) + "]")  # translate is slow on non-ASCII text: only if needed
# translate(_QUOTES) as one str.replace per character present: 6 us -> 0.6 us a sentence (single characters to
# ASCII ones, so the order of the replacements does not matter)
_QUOTE_PAIRS = tuple((chr(k), v) for k, v in _QUOTES.items())
_WIKITEXT = re.compile(r"\s@([-.,])@\s")


def nfkc_quotes(text: str) -> str:
    """Steps 1 and 3's quotes: NFKC, then typographic quotes and dashes unified (non-ASCII text only)."""
    text = unicodedata.normalize("NFKC", text)
    if _QUOTE_CHARS.search(text):
        for char, ascii_char in _QUOTE_PAIRS:
            if char in text:
                text = text.replace(char, ascii_char)
    return text


def fold(text: str) -> str:
    """Steps 2 and 3 (ASCII part): case-folded; two backticks or two apostrophes become ``"``."""
    text = text.casefold()
    if "`" in text or "''" in text:
        text = text.replace("``", '"').replace("''", '"')
    return text


def normalize(text: str) -> str:
    if not text.isascii():  # ASCII is already NFKC and has no typographic quotes: skip both passes
        text = nfkc_quotes(text)
    text = fold(text)
    return tokens(split_cjk(text) if not text.isascii() else text)


def tokens_python(text: str) -> str:
    """Steps 4 and 5 on case-folded text: digit runs to ``0``, tokens joined by single spaces."""
    return " ".join(_TOKEN.findall(_DIGITS.sub("0", text)))


def tokens_lines_python(text: str, cjk: bool) -> list[str]:
    """Step 6 (with ``cjk``), 4 and 5 on each line of case-folded text."""
    return [tokens(p) for p in (split_cjk(text) if cjk else text).split("\n")]


try:  # the compiled twins (_tokens.pyx), where built; WEBPRUNE_PURE_PYTHON=1 runs the regex passes
    from preprocess.lm._tokens import tokens as _compiled_tokens, tokens_lines as _compiled_lines
except ImportError:
    _compiled_tokens = _compiled_lines = None
_PURE = _compiled_tokens is None or bool(os.environ.get("WEBPRUNE_PURE_PYTHON"))
tokens = tokens_python if _PURE else _compiled_tokens
tokens_lines = tokens_lines_python if _PURE else _compiled_lines


def split_cjk(text: str) -> str:
    """Spaces around every Chinese/Japanese character (step 6)."""
    return _CJK.sub(r" \g<0> ", text)


def clean_corpus_line(line: str) -> str:
    """Undo training-corpus artefacts (WikiText's ``<unk>``, ``@-@``; heading markers ``= x =``)."""
    line = line.replace("<unk>", " ")
    line = _WIKITEXT.sub(r"\1", line)
    s = line.strip()
    if s.startswith("=") and s.endswith("="):
        s = s.strip("= ")
    return s
