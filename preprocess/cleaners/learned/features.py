"""Block features for the learned cleaner: one row per block of :func:`blocks.split_blocks`.

Groups (``feature_names`` lists every column):

* text: characters, words, link density, word length, commas and full stops per
  word, sentence-final punctuation, stop-word and capitalised-word ratios, words
  shared with the page title;
* position: block index and characters before it, as a share of the page;
* structure: depth, the text share of the enclosing element, its parent and
  grandparent, blocks in the same element, elements on the page with the same
  tag and class/id;
* page context (``context.py``): readability's top candidate and the distance to it, Baisa's densest node,
  page link density, negative/positive/comment names anywhere up the path;
* neighbours: length, link density and stop-word ratio of the two blocks either
  side, and a window mean of length and link density;
* tags: the enclosing element's tag, its parent's, and every tag on the path up;
* class/id: tokens of the enclosing element's class/id and of every ancestor's,
  from a vocabulary learned with the model (``TokenVocab``).
"""
from __future__ import annotations

import re
from collections import Counter
from itertools import repeat
from operator import itemgetter

import numpy as np

from preprocess.cleaners.learned.blocks import BLOCK_TAGS, Page
from preprocess.cleaners.learned.context import NAMES as CONTEXT, ValueCache, page_context

STOP_WORDS = frozenset("""a about above after again against all am an and any are as at be because been before being
below between both but by can could did do does doing down during each few for from further had has have having he her
here hers herself him himself his how i if in into is it its itself just me more most my myself no nor not now of off on
once only or other our ours ourselves out over own same she should so some such than that the their theirs them
themselves then there these they this those through to too under until up very was we were what when where which while
who whom why will with would you your yours yourself yourselves""".split())
_CAPITAL_WORD = re.compile(r"\W*[A-Z]").match  # a word whose first letter or digit is a capital
_NOT_WORD = re.compile(r"\W")
_WORDS = re.compile(r"\w+")
CLASS_TOKEN = re.compile(r"[a-z]+")  # class/id tokens: letter runs of the lower-cased value
FINAL = tuple(".!?\"'”’)")

TEXT = ["log_chars", "log_words", "link_density", "word_length", "commas", "stops", "final_punct", "stop_words",
        "capitalised", "title_words", "linked"]
POSITION = ["block_pos", "char_pos", "log_page_chars", "log_blocks"]
STRUCTURE = ["depth", "own_share", "parent_share", "grand_share", "log_own_chars", "log_parent_chars",
             "log_grand_chars", "same_owner", "same_signature"]
CONTEXT_OFFSETS = (-2, -1, 1, 2)
CONTEXT_COLUMNS = ("log_chars", "link_density", "stop_words")
WINDOW = 5


def numeric_names() -> list[str]:
    ctx = [f"{c}@{o:+d}" for o in CONTEXT_OFFSETS for c in CONTEXT_COLUMNS]
    return TEXT + POSITION + STRUCTURE + ctx + [f"mean{WINDOW}_log_chars", f"mean{WINDOW}_link_density"] + CONTEXT


class TokenVocab:
    """Class/id tokens (lower-case letter runs) -> bit; a bit mask per class/id value, cached."""

    def __init__(self, tokens: list[str]):
        self.tokens = list(tokens)
        self.index = {t: 1 << i for i, t in enumerate(self.tokens)}
        self.mask = ValueCache(self._mask)

    def _mask(self, names: str) -> int:
        m = 0
        get = self.index.get
        for tok in CLASS_TOKEN.findall(names.lower()):
            m |= get(tok, 0)
        return m

    def masks(self, names: list[str]) -> list[int]:
        return self.mask.many(names)


def feature_names(vocab: TokenVocab) -> list[str]:
    tags = list(BLOCK_TAGS)
    return (numeric_names() + [f"tag={t}" for t in tags] + [f"parent={t}" for t in tags]
            + [f"path:{t}" for t in tags] + [f"own:{t}" for t in vocab.tokens] + [f"path:.{t}" for t in vocab.tokens])


def _bits(masks: list[int], width: int) -> np.ndarray:
    nb = (width + 7) // 8
    raw = np.frombuffer(b"".join(m.to_bytes(nb, "little") for m in masks), dtype=np.uint8).reshape(len(masks), nb)
    return np.unpackbits(raw, axis=1, bitorder="little")[:, :width]


def _shift(col: np.ndarray, offset: int, fill: float) -> np.ndarray:
    out = np.full_like(col, fill)
    if offset < 0:
        out[-offset:] = col[:offset]
    else:
        out[:-offset] = col[offset:]
    return out


def _window_mean(col: np.ndarray, half: int) -> np.ndarray:
    c = np.concatenate(([0.0], np.cumsum(col)))
    n = len(col)
    lo = np.maximum(np.arange(n) - half, 0)
    hi = np.minimum(np.arange(n) + half + 1, n)
    return (c[hi] - c[lo]) / (hi - lo)


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


def text_columns(texts: list[str], link_chars: np.ndarray, title: str) -> np.ndarray:
    """The TEXT columns. Block texts are single-spaced (``blocks._plain``), so a block's words are its spaces
    plus one and the page's words are one ``split``: per-word tests run as C-level ``map`` over all of them."""
    n = len(texts)
    chars = np.fromiter(map(len, texts), np.float64, n)
    nw = np.fromiter(map(str.count, texts, repeat(" ")), np.float64, n) + 1
    commas = np.fromiter(map(str.count, texts, repeat(",")), np.float64, n)
    stops = np.fromiter(map(str.count, texts, repeat(". ")), np.float64, n) + \
        np.fromiter(map(str.endswith, texts, repeat(".")), np.float64, n)
    final = np.fromiter(map(str.endswith, texts, repeat(FINAL)), np.float64, n)
    joined = "\n".join(texts)
    words, low = joined.split(), joined.lower().split()
    if not len(words) == len(low) == nw.sum():  # a character split() or lower() treat unlike a plain space
        nw = np.fromiter((len(t.split()) for t in texts), np.float64, n)
        words = [w for t in texts for w in t.split()]
        low = [w.lower() for w in words]
    starts = np.concatenate(([0], np.cumsum(nw)[:-1])).astype(np.int64)
    n_stop = _per_block(np.fromiter(map(STOP_WORDS.__contains__, low), bool, len(low)), starts)
    n_cap = _per_block(_capitalised(words), starts)
    title_words = set(_WORDS.findall(title.lower())) | set(title.lower().split()) if title else set()
    if title_words:
        shared = np.where(nw < 40, _per_block(np.fromiter(map(title_words.__contains__, low), bool, len(low)),
                                              starts) / nw, 0.0)
    else:
        shared = np.zeros(n)
    link = np.minimum(link_chars / chars, 1.0)
    cols = np.column_stack([np.log1p(chars), np.log1p(nw), link, chars / nw, commas / nw, stops / nw, final,
                            n_stop / nw, n_cap / nw, shared, link > 0.99])
    return cols, chars, commas


def page_features(page: Page, title: str, vocab: TokenVocab) -> np.ndarray:
    """(blocks x features) float32 matrix, columns as :func:`feature_names`."""
    n = len(page.texts)
    n_tags, n_tok = len(BLOCK_TAGS), len(vocab.tokens)
    if not n:
        return np.zeros((0, len(numeric_names()) + 3 * n_tags + 2 * n_tok), dtype=np.float32)
    link_chars = np.asarray(page.link_chars, dtype=np.float64)
    text, chars, commas = text_columns(page.texts, link_chars, title)
    context = page_context(page, chars, link_chars, commas)

    # elements: class/id masks and tag paths (parents come before children)
    el_parent = page.el_parent
    own_tok = vocab.masks(page.el_names)
    path_tok, path_tag = list(own_tok), [1 << t for t in page.el_tag]
    for e, parent in enumerate(el_parent):
        if parent >= 0:
            path_tok[e] |= path_tok[parent]
            path_tag[e] |= path_tag[parent]
    signature = Counter(zip(page.el_tag, page.el_names))
    owner = np.asarray(page.owner, dtype=np.int64)
    has_owner = owner >= 0
    own = np.where(has_owner, owner, 0)
    n_el = len(page.el_tag)
    if n_el:
        el_tag = np.asarray(page.el_tag, dtype=np.int64)
        el_parent = np.asarray(el_parent, dtype=np.int64)
        el_chars = np.asarray(page.el_end, dtype=np.float64) - np.asarray(page.el_start, dtype=np.float64)
        el_depth = np.asarray(page.el_depth, dtype=np.float64)
        sig = np.fromiter(map(signature.__getitem__, zip(page.el_tag, page.el_names)), np.float64, n_el)
        parent = np.where(has_owner, el_parent[own], -1)
        grand = np.where(parent >= 0, el_parent[np.maximum(parent, 0)], -1)
    else:  # no elements (text without a body)
        el_tag = el_parent = np.zeros(1, dtype=np.int64)
        el_chars = el_depth = sig = np.zeros(1)
        parent = grand = np.full(n, -1)
    total = max(page.chars, 1)
    chars_of = lambda idx: np.where(idx >= 0, el_chars[np.maximum(idx, 0)], total)  # noqa: E731
    oc, pc, gc = chars_of(np.where(has_owner, owner, -1)), chars_of(parent), chars_of(grand)
    same_owner = np.bincount(own, minlength=max(n_el, 1))[own]
    structure = np.column_stack([np.log1p(np.where(has_owner, el_depth[own], 0)), oc / total, pc / total, gc / total,
                                 np.log1p(oc), np.log1p(pc), np.log1p(gc), np.log1p(same_owner),
                                 np.log1p(np.where(has_owner, sig[own], 0))])
    idx = np.arange(n, dtype=np.float64)
    position = np.column_stack([idx / n, np.asarray(page.start, dtype=np.float64) / total,
                                np.full(n, np.log1p(total)), np.full(n, np.log1p(n))])
    ctx_src = {"log_chars": text[:, 0], "link_density": text[:, 2], "stop_words": text[:, 7]}
    ctx = [_shift(ctx_src[c], o, 0.0) for o in CONTEXT_OFFSETS for c in CONTEXT_COLUMNS]
    ctx += [_window_mean(text[:, 0], WINDOW), _window_mean(text[:, 2], WINDOW)]

    # bits: tag one-hots and masks of each block's enclosing element
    tag_oh = np.zeros((n, n_tags), dtype=np.float32)
    par_oh = np.zeros((n, n_tags), dtype=np.float32)
    rows = np.arange(n)
    if n_el:
        tag_oh[rows[has_owner], el_tag[own[has_owner]]] = 1
        hp = parent >= 0
        par_oh[rows[hp], el_tag[parent[hp]]] = 1
        owners = page.owner  # element index per block, -1 for none
        path_tag_bits = _bits([path_tag[o] if o >= 0 else 0 for o in owners], n_tags)
        tok_bits = _bits([own_tok[o] if o >= 0 else 0 for o in owners] + [path_tok[o] if o >= 0 else 0 for o in owners],
                         n_tok) if n_tok else np.zeros((2 * n, 0), dtype=np.uint8)
    else:
        path_tag_bits = np.zeros((n, n_tags), dtype=np.uint8)
        tok_bits = np.zeros((2 * n, n_tok), dtype=np.uint8)
    return np.hstack([text, position, structure, np.column_stack(ctx), context, tag_oh, par_oh, path_tag_bits,
                      tok_bits[:n], tok_bits[n:]]).astype(np.float32)
