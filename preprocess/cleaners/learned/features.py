"""Block features for the learned cleaner: one row per block of :func:`blocks.split_body`.

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
* repeated groups (``groups.py``): the elements sharing the signature of the block's element, its parent and
  grandparent: how many, their share of the page, and whether they are the page's biggest repeated group;
* neighbours: length, link density and stop-word ratio of the two blocks either
  side, and a window mean of length and link density;
* tags: the enclosing element's tag, its parent's, and every tag on the path up;
* class/id: tokens of the enclosing element's class/id and of every ancestor's,
  from a vocabulary learned with the model (``TokenVocab``);
* repeated texts (``repeats.py``): how many blocks of the page have the block's text, and whether an earlier
  one had it;
* the main heading (``anchor.py``): distance to the page's main heading and the element holding both.
"""
from __future__ import annotations

import numpy as np

from preprocess.cleaners.learned import compiled
from preprocess.cleaners.learned.anchor import NAMES as ANCHORS
from preprocess.cleaners.learned.anchor import anchor_columns
from preprocess.cleaners.learned.blocks import BLOCK_TAGS, Page
from preprocess.cleaners.learned.context import NAMES as CONTEXT
from preprocess.cleaners.learned.context import TAG_PRIOR, page_context, path_or
from preprocess.cleaners.learned.groups import NAMES as GROUPS
from preprocess.cleaners.learned.groups import REPEATED, group_columns
from preprocess.cleaners.learned.names import CLASS_TOKEN, ValueCache, matcher
from preprocess.cleaners.learned.repeats import REPEATS, text_repeats
from preprocess.cleaners.learned.text import text_columns, text_counts_of

TEXT = ["log_chars", "log_words", "link_density", "word_length", "commas", "stops", "final_punct", "stop_words",
        "capitalised", "title_words", "linked"]
POSITION = ["block_pos", "char_pos", "log_page_chars", "log_blocks"]
STRUCTURE = ["depth", "own_share", "parent_share", "grand_share", "log_own_chars", "log_parent_chars",
             "log_grand_chars", "same_owner", "same_signature"]
CONTEXT_OFFSETS = (-2, -1, 1, 2)
CONTEXT_COLUMNS = ("log_chars", "link_density", "stop_words")
WINDOW = 5
LATEST = ANCHORS  # the last columns, added in issue 22: a model trained before them runs without them


def numeric_names() -> list[str]:
    ctx = [f"{c}@{o:+d}" for o in CONTEXT_OFFSETS for c in CONTEXT_COLUMNS]
    return (TEXT + POSITION + STRUCTURE + ctx + [f"mean{WINDOW}_log_chars", f"mean{WINDOW}_link_density"] + CONTEXT
            + GROUPS)


N_NUMERIC = len(numeric_names())
N_SCANNED = N_NUMERIC - len(GROUPS)  # the columns of ``_columns.numeric``; groups.py's come after them


class TokenVocab:
    """Class/id tokens (lower-case letter runs) -> bit; a bit mask per class/id value, cached; compiled, the
    page's values in one call (``names.matcher``)."""

    def __init__(self, tokens: list[str]):
        self.tokens = list(tokens)
        self.index = {t: 1 << i for i, t in enumerate(self.tokens)}
        self.mask = ValueCache(self._mask)
        self.matcher = matcher(self.tokens, self.mask)

    def __reduce__(self):  # the compiled matcher does not pickle: rebuilt from the tokens
        return TokenVocab, (self.tokens,)

    def _mask(self, names: str) -> int:
        m = 0
        get = self.index.get
        for tok in CLASS_TOKEN.findall(names.lower()):
            m |= get(tok, 0)
        return m

    def masks(self, names: list[str]) -> list[int]:
        return self.mask.many(names)

    def element_columns(self, names: list[str], tags: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """By the compiled matcher, for elements of these class/id values and tags: ``class_flags`` of each value,
        its mask as :func:`_words` rows, and :func:`signature_ids`."""
        flags, _, words, sig = self.matcher.bits(names, tags)
        return flags, words, sig


def feature_names(vocab: TokenVocab) -> list[str]:
    tags = list(BLOCK_TAGS)
    return (numeric_names() + [f"tag={t}" for t in tags] + [f"parent={t}" for t in tags]
            + [f"path:{t}" for t in tags] + [f"own:{t}" for t in vocab.tokens] + [f"path:.{t}" for t in vocab.tokens]
            + REPEATS + LATEST)


def _words(masks: list[int], width: int) -> np.ndarray:
    """Bit masks as rows of uint64 words (bit i of a mask: bit i % 64 of word i // 64), plus one zero row."""
    nb = 8 * max((width + 63) // 64, 1)
    raw = b"".join(m.to_bytes(nb, "little") for m in masks) + bytes(nb)
    return np.frombuffer(raw, dtype="<u8").reshape(len(masks) + 1, nb // 8).copy()


def _unpack(words: np.ndarray, width: int) -> np.ndarray:
    """The first ``width`` bits of each row of :func:`_words`, as 0/1 columns."""
    return np.unpackbits(words.astype("<u8").view(np.uint8), axis=1, bitorder="little")[:, :width]


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


def page_features(page: Page, title: str, vocab: TokenVocab, head=None, latest: bool = True) -> np.ndarray:
    """(blocks x features) float32 matrix, columns as :func:`feature_names`; ``head``: the page's
    ``anchor.page_head``, None (it says nothing about itself) or a function giving it (called only when the
    heading columns need it); ``latest=False``: the ``LATEST`` columns left 0 (a model from before them)."""
    n = len(page.texts)
    n_tags, n_tok = len(BLOCK_TAGS), len(vocab.tokens)
    width = N_NUMERIC + 3 * n_tags + 2 * n_tok + len(REPEATS) + len(LATEST)
    if not n:
        return np.zeros((0, width), dtype=np.float32)
    owner = np.asarray(page.owner, dtype=np.int64)
    n_el = len(page.el_tag)
    el_tag = np.asarray(page.el_tag, dtype=np.int64)
    el_parent = np.asarray(page.el_parent, dtype=np.int64)
    depth = np.asarray(page.el_depth, dtype=np.int64)
    flags = sig = np.zeros(0, dtype=np.int64)  # (compiled) the elements' class_flags and signature_ids
    if n_el:  # class/id tokens and tags of each element and of it and every ancestor, as rows of bit words
        if compiled.ON:
            flags, tok, sig = vocab.element_columns(page.el_names, el_tag)
        else:
            tok = _words(vocab.masks(page.el_names), n_tok)
        path_tok = path_or(el_parent, depth, tok.copy())
        path_tag = path_or(el_parent, depth, np.append(np.left_shift(1, el_tag), 0).astype(np.uint64)[:, None])
    if compiled.ON:
        out = np.zeros((n, width), dtype=np.float32)
        counts = text_counts_of(page.texts, title)
        link = np.asarray(page.link_chars, dtype=np.float64)
        el_start, el_end = np.asarray(page.el_start, dtype=np.int64), np.asarray(page.el_end, dtype=np.int64)
        out[:, :N_SCANNED] = numeric_compiled(page, counts, link, owner, el_tag, el_parent, depth, el_start, el_end,
                                              sig, flags)
        if n_el:
            compiled._columns.groups(out, N_SCANNED, owner, sig, el_parent, el_start, el_end,
                                     np.ascontiguousarray(counts[:, 0]), link, float(max(page.chars, 1)), REPEATED)
            compiled._columns.block_bits(out, N_NUMERIC, owner, el_tag, el_parent, path_tag, tok, path_tok, n_tags,
                                         n_tok)
        repeated, seen = compiled._text.text_repeats(page.texts)  # (repeats.text_repeats, written in place)
        at = width - len(REPEATS) - len(LATEST)
        out[:, at], out[:, at + 1] = np.log1p(repeated), seen
        if latest:
            out[:, -len(LATEST):] = anchor_columns(page, title, head)
        return out
    numeric = numeric_python(page, title, owner)

    # bits: tag one-hots of each block's element and its parent; the element's class/id tokens, and the tags and
    # tokens of it and every ancestor; blocks without an element get the zero row
    has_owner = owner >= 0
    own = np.where(has_owner, owner, 0)
    tag_oh = np.zeros((n, n_tags), dtype=np.float32)
    par_oh = np.zeros((n, n_tags), dtype=np.float32)
    rows = np.arange(n)
    if n_el:
        parent = np.where(has_owner, el_parent[own], -1)
        tag_oh[rows[has_owner], el_tag[own[has_owner]]] = 1
        hp = parent >= 0
        par_oh[rows[hp], el_tag[parent[hp]]] = 1
        row = np.where(has_owner, owner, n_el)
        own_bits, path_tok_bits = _unpack(tok[row], n_tok), _unpack(path_tok[row], n_tok)
        path_tag_bits = _unpack(path_tag[row], n_tags)
    else:
        path_tag_bits = np.zeros((n, n_tags), dtype=np.uint8)
        own_bits = path_tok_bits = np.zeros((n, n_tok), dtype=np.uint8)
    return np.hstack([numeric, tag_oh, par_oh, path_tag_bits, own_bits, path_tok_bits,
                      _last_columns(page, title, head, latest)]).astype(np.float32)


def _last_columns(page: Page, title: str, head, latest: bool) -> np.ndarray:
    """The repeated-text and heading columns on the Python path (the compiled one writes them in place)."""
    heading = anchor_columns(page, title, head) if latest else np.zeros((len(page.texts), len(LATEST)))
    return np.hstack([text_repeats(page.texts), heading])


def signature_ids(page: Page) -> np.ndarray:
    """Per element: a number for its tag and class/id value (its signature), 0, 1, ... in order of first use."""
    keys = list(zip(page.el_tag, page.el_names))
    first = dict.fromkeys(keys)
    index = dict(zip(first, range(len(first))))
    return np.fromiter(map(index.__getitem__, keys), np.int64, len(keys))


def _signatures(sig: np.ndarray) -> np.ndarray:
    """Per element: the elements on the page with its signature."""
    return np.bincount(sig)[sig].astype(np.float64) if len(sig) else np.zeros(0)


def numeric_compiled(page: Page, counts: np.ndarray, link: np.ndarray, owner: np.ndarray, el_tag: np.ndarray,
                     el_parent: np.ndarray, depth: np.ndarray, el_start: np.ndarray, el_end: np.ndarray,
                     sig: np.ndarray, flags: np.ndarray) -> np.ndarray:
    """:func:`numeric_python`'s columns before the groups, by the compiled ``_columns.numeric`` from the page's
    :func:`text_counts_of` and arrays (``flags``: the elements' ``class_flags``): the same columns, to the bit."""
    as_int = lambda values: np.asarray(values, dtype=np.int64)  # noqa: E731
    return compiled._columns.numeric(counts, link, owner, as_int(page.start), el_tag, el_parent, depth, el_start,
                                     el_end, _signatures(sig), flags, TAG_PRIOR,
                                     page.chars, WINDOW)


def numeric_python(page: Page, title: str, owner: np.ndarray) -> np.ndarray:
    """(blocks x len(numeric_names())): the text, position, structure, neighbour and page-context columns."""
    n = len(page.texts)
    link_chars = np.asarray(page.link_chars, dtype=np.float64)
    text, chars, commas = text_columns(page.texts, link_chars, title)
    context = page_context(page, chars, link_chars, commas)
    has_owner = owner >= 0
    own = np.where(has_owner, owner, 0)
    n_el = len(page.el_tag)
    if n_el:
        el_parent = np.asarray(page.el_parent, dtype=np.int64)
        el_chars = np.asarray(page.el_end, dtype=np.float64) - np.asarray(page.el_start, dtype=np.float64)
        el_depth = np.asarray(page.el_depth, dtype=np.float64)
        sig = signature_ids(page)
        parent = np.where(has_owner, el_parent[own], -1)
        grand = np.where(parent >= 0, el_parent[np.maximum(parent, 0)], -1)
    else:  # no elements (text without a body)
        el_chars = el_depth = np.zeros(1)
        sig = np.zeros(1, dtype=np.int64)
        parent = grand = np.full(n, -1)
    total = max(page.chars, 1)
    chars_of = lambda idx: np.where(idx >= 0, el_chars[np.maximum(idx, 0)], total)  # noqa: E731
    oc, pc, gc = chars_of(np.where(has_owner, owner, -1)), chars_of(parent), chars_of(grand)
    same_owner = np.bincount(own, minlength=max(n_el, 1))[own]
    structure = np.column_stack([np.log1p(np.where(has_owner, el_depth[own], 0)), oc / total, pc / total, gc / total,
                                 np.log1p(oc), np.log1p(pc), np.log1p(gc), np.log1p(same_owner),
                                 np.log1p(np.where(has_owner, _signatures(sig)[own], 0))])
    idx = np.arange(n, dtype=np.float64)
    position = np.column_stack([idx / n, np.asarray(page.start, dtype=np.float64) / total,
                                np.full(n, np.log1p(total)), np.full(n, np.log1p(n))])
    ctx_src = {"log_chars": text[:, 0], "link_density": text[:, 2], "stop_words": text[:, 7]}
    ctx = [_shift(ctx_src[c], o, 0.0) for o in CONTEXT_OFFSETS for c in CONTEXT_COLUMNS]
    ctx += [_window_mean(text[:, 0], WINDOW), _window_mean(text[:, 2], WINDOW)]
    groups = group_columns(page, owner, chars, link_chars, sig)
    return np.hstack([text, position, structure, np.column_stack(ctx), context, groups])
