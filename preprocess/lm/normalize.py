"""The one normaliser and tokeniser used both to train language models and to score sentences.

``normalize(text)`` returns space-separated tokens:
  1. Unicode NFKC (full-width forms, ligatures and compatibility characters folded);
  2. case folded (``casefold``: lower case, ß -> ss);
  3. quotes unified: `` '' “ ” „ « » → ``"`` and ‘ ’ ‚ → ``'``; dashes – — → ``-``;
  4. every run of digits becomes ``0`` (``3.5`` -> ``0 . 0``, ``2024`` -> ``0``): numbers are open-class;
  5. tokens are ``\\w+`` (letters/digits/underscore, any script) or a single other non-space character.
Training corpora may carry their own tokenisation artefacts (Brown's `` ''),
WikiText's ``<unk>``/``@-@``): :func:`clean_corpus_line` removes those first.
"""
from __future__ import annotations

import re
import unicodedata

_TOKEN = re.compile(r"\w+|[^\w\s]")
_DIGITS = re.compile(r"\d+")
_QUOTES = str.maketrans({"“": '"', "”": '"', "„": '"', "«": '"', "»": '"', "‘": "'", "’": "'", "‚": "'",
                         "–": "-", "—": "-"})
_WIKITEXT = re.compile(r"\s@([-.,])@\s")


def normalize(text: str) -> str:
    if not text.isascii():  # ASCII is already NFKC and has no typographic quotes: skip both passes
        text = unicodedata.normalize("NFKC", text).translate(_QUOTES)
    text = text.casefold()
    if "`" in text or "''" in text:
        text = text.replace("``", '"').replace("''", '"')
    return " ".join(_TOKEN.findall(_DIGITS.sub("0", text)))


def clean_corpus_line(line: str) -> str:
    """Undo training-corpus artefacts (WikiText's ``<unk>``, ``@-@``; heading markers ``= x =``)."""
    line = line.replace("<unk>", " ")
    line = _WIKITEXT.sub(r"\1", line)
    s = line.strip()
    if s.startswith("=") and s.endswith("="):
        s = s.strip("= ")
    return s
