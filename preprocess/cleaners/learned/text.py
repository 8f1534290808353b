"""The text columns of the learned cleaner's features: per block, characters, words, commas, full stops, final
punctuation, stop words, capitalised words and words shared with the title (``features.TEXT``). The compiled
twin is ``_text.text_stats`` (single-spaced texts); :func:`text_counts` is the reference."""
from __future__ import annotations

import re
from itertools import repeat
from operator import itemgetter

import numpy as np

from preprocess.cleaners.learned import compiled

STOP_WORDS = frozenset("""a about above after again against all am an and any are as at be because been before being
below between both but by can could did do does doing down during each few for from further had has have having he her
here hers herself him himself his how i if in into is it its itself just me more most my myself no nor not now of off on
once only or other our ours ourselves out over own same she should so some such than that the their theirs them
themselves then there these they this those through to too under until up very was we were what when where which while
who whom why will with would you your yours yourself yourselves""".split())
_CAPITAL_WORD = re.compile(r"\W*[A-Z]").match  # a word whose first letter or digit is a capital
_NOT_WORD = re.compile(r"\W")
WORDS = re.compile(r"\w+")  # a word, as the features count them (anchor.py too)
FINAL = tuple(".!?\"'”’)")
if compiled.BUILT:
    compiled._text.set_stop_words(STOP_WORDS)


def _per_block(word_flags: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """Sums of a per-word column over each block's words (every block has at least one word)."""
    return np.add.reduceat(word_flags.astype(np.float64), starts) if len(word_flags) else np.zeros(len(starts))


def _capitalised(words: list[str]) -> np.ndarray:
    """Per word: is its first letter or digit a capital A-Z? From the string of first characters; only
    words opening with punctuation go through the regex."""
    firsts = "".join(map(itemgetter(0), words))
    codes = np.frombuffer(firsts.encode("utf-32-le"), np.uint32)
    out = (codes >= 65) & (codes <= 90)
    for m in _NOT_WORD.finditer(firsts):
        out[m.start()] = _CAPITAL_WORD(words[m.start()]) is not None
    return out


def text_counts_of(texts: list[str], title: str) -> np.ndarray:
    """:func:`text_counts` for a page with this title: by the compiled ``_text.text_stats`` when the texts
    are single-spaced (``blocks.split_body``'s always are)."""
    title_words = set(WORDS.findall(title.lower())) | set(title.lower().split()) if title else set()
    counts = compiled._text.text_stats(texts, title_words) if compiled.ON else None
    return text_counts(texts, title_words) if counts is None else counts


def text_columns(texts: list[str], link_chars: np.ndarray, title: str) -> np.ndarray:
    """The TEXT columns, with characters and commas per block."""
    counts = text_counts_of(texts, title)
    chars, nw, commas, stops, final, n_stop, n_cap, n_title = counts.T
    shared = np.where(nw < 40, n_title / nw, 0.0)
    link = np.minimum(link_chars / chars, 1.0)
    cols = np.column_stack([np.log1p(chars), np.log1p(nw), link, chars / nw, commas / nw, stops / nw, final,
                            n_stop / nw, n_cap / nw, shared, link > 0.99])
    return cols, chars, commas


def text_counts(texts: list[str], title_words: set[str]) -> np.ndarray:
    """(blocks x 8): characters, words, commas, full stops, final punctuation, stop words, capitalised words and
    (blocks under 40 words) title words. The page's words are one ``split``, so per-word tests run as C-level
    ``map`` over all of them."""
    n = len(texts)
    chars = np.fromiter(map(len, texts), np.float64, n)
    nw = np.fromiter(map(len, map(str.split, texts)), np.float64, n)
    commas = np.fromiter(map(str.count, texts, repeat(",")), np.float64, n)
    stops = np.fromiter(map(str.count, texts, repeat(". ")), np.float64, n) + \
        np.fromiter(map(str.endswith, texts, repeat(".")), np.float64, n)
    final = np.fromiter(map(str.endswith, texts, repeat(FINAL)), np.float64, n)
    joined = "\n".join(texts)
    words, low = joined.split(), joined.lower().split()
    if len(low) != len(words):  # lower() made a space of something
        low = [w.lower() for w in words]
    starts = np.concatenate(([0], np.cumsum(nw)[:-1])).astype(np.int64)
    n_stop = _per_block(np.fromiter(map(STOP_WORDS.__contains__, low), bool, len(low)), starts)
    n_cap = _per_block(_capitalised(words), starts)
    if title_words:
        n_title = np.where(nw < 40, _per_block(np.fromiter(map(title_words.__contains__, low), bool, len(low)),
                                               starts), 0.0)
    else:
        n_title = np.zeros(n)
    return np.column_stack([chars, nw, commas, stops, final, n_stop, n_cap, n_title])
