"""Scores for cleaned text against human gold text (word level, tags and block markers ignored).

* ``word_prf``: tokens are lower-cased ``\\w+``; the longest common subsequence
  (LCS) of the cleaned and gold token lists gives precision = LCS / cleaned,
  recall = LCS / gold, F1. An exact LCS, computed with rapidfuzz's Indel distance
  (``len(a) + len(b) - 2 * LCS``) in C++.
* ``cleaneval``: CleanEval's text score (Baroni et al. 2008), the share of the
  alignment that needs no edit: ``1 - levenshtein(tokens) / max(len)``, on the
  same tokens, so markup, ``<p>/<h>/<l>`` markers and whitespace do not count.
* ``bow_prf``: WCXB's score (its evaluate.py): the same tokens as bags of words,
  precision = shared words (multiset) / cleaned words, recall = / gold words.
Empty against empty scores 1 (a page with no article, correctly left empty).
"""
from __future__ import annotations

import re
from collections import Counter

from rapidfuzz.distance import Indel, Levenshtein

_TOKEN = re.compile(r"\w+")


def tokens(text: str) -> list[str]:
    return _TOKEN.findall(text.lower())


def lcs_length(a: list[str], b: list[str]) -> int:
    return (len(a) + len(b) - Indel.distance(a, b)) // 2


def word_prf(cleaned: str, gold: str) -> dict[str, float]:
    a, b = tokens(cleaned), tokens(gold)
    if not a and not b:
        return {"precision": 1.0, "recall": 1.0, "f1": 1.0}
    lcs = lcs_length(a, b)
    p = lcs / len(a) if a else 0.0
    r = lcs / len(b) if b else 0.0
    return {"precision": p, "recall": r, "f1": 2 * p * r / (p + r) if p + r else 0.0}


def cleaneval(cleaned: str, gold: str) -> float:
    a, b = tokens(cleaned), tokens(gold)
    if not a and not b:
        return 1.0
    return 1.0 - Levenshtein.distance(a, b) / max(len(a), len(b))


def bow_prf(cleaned: str, gold: str) -> dict[str, float]:
    a, b = Counter(tokens(cleaned)), Counter(tokens(gold))
    if not a and not b:
        return {"precision": 1.0, "recall": 1.0, "f1": 1.0}
    shared = sum((a & b).values())
    p = shared / sum(a.values()) if a else 0.0
    r = shared / sum(b.values()) if b else 0.0
    return {"precision": p, "recall": r, "f1": 2 * p * r / (p + r) if p + r else 0.0}
