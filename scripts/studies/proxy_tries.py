"""What ``scripts/studies/proxy_learned.py`` tried and webprune did not keep (docs/cleaning.md, issue 22), here so the
figures can be run again: the margins smoothed by their context (``smooth``), a second model on that context
(``stack``), small islands of kept blocks dropped (``islands``) and two groups of columns
(``columns scripts.studies.proxy_tries:grid_position ...``)."""
from __future__ import annotations

import re
import sys

import numpy as np

import scripts.tools.train_learned as TL

from preprocess.cleaners.learned.blocks import TAG_INDEX
from preprocess.cleaners.learned.features import signature_ids
from preprocess.cleaners.learned.groups import REPEATED

CUT = np.log(TL.THRESHOLD / (1 - TL.THRESHOLD))

_COUNT = re.compile(r"\(\d[\d,.]*\)")  # a facet's count: "Broil King (31)"
_PRICE = re.compile(r"[$€£¥]\s?\d|\d\s?(?:€|USD|EUR|GBP)")
_DIGIT = re.compile(r"\d")


def grid_position(page) -> np.ndarray:
    """Where a block sits against the page's biggest repeated group (the grid of a listing or collection, the
    most characters among signatures with ``REPEATED`` elements or more): signed distance in blocks and in
    characters (log; 0 inside), inside it, and no such group on the page. Aimed at the prose collection pages
    carry after their grid (category descriptions, FAQs) that the gold leaves out."""
    n, out = len(page.texts), np.zeros((len(page.texts), 4))
    sig = signature_ids(page) if len(page.el_tag) else np.zeros(0, np.int64)
    size = np.where(np.bincount(sig) >= REPEATED, np.bincount(
        sig, weights=np.asarray(page.el_end, np.float64) - np.asarray(page.el_start, np.float64)), 0.0) \
        if len(sig) else np.zeros(0)
    if not n or not size.any():
        out[:, 3] = 1
        return out
    els = np.flatnonzero(sig == int(size.argmax()))
    start = np.asarray(page.start, np.int64)
    lo, hi = np.asarray(page.el_start)[els].min(), np.asarray(page.el_end)[els].max()
    first, stop = np.searchsorted(start, lo), np.searchsorted(start, hi)
    idx = np.arange(n)
    blocks = np.where(idx < first, idx - first, np.where(idx >= stop, idx - stop + 1, 0))
    chars = np.where(start < lo, start - lo, np.where(start >= hi, start - hi + 1, 0))
    out[:, 0] = np.sign(blocks) * np.log1p(np.abs(blocks))
    out[:, 1] = np.sign(chars) * np.log1p(np.abs(chars))
    out[:, 2] = blocks == 0
    return out


def text_patterns(page) -> np.ndarray:
    """Per block: digits per character, facet counts ("(31)") and prices per word. Aimed at filter facets,
    price ranges and product tiles a collection page's model keeps."""
    out = np.zeros((len(page.texts), 3))
    for i, t in enumerate(page.texts):
        words = t.count(" ") + 1
        out[i] = len(_DIGIT.findall(t)) / len(t), len(_COUNT.findall(t)) / words, len(_PRICE.findall(t)) / words
    return out


def context_means(v) -> tuple:
    """Per block, the character-weighted mean margin of its signature group (2+ blocks), of the blocks under its
    parent element, of the 2 and of the 5 blocks either side (its own margin where there is no such group)."""
    m, w = v.margin, v.chars
    cw, cm = np.r_[0, np.cumsum(w)], np.r_[0, np.cumsum(w * m)]
    idx = np.arange(len(m))

    def window(k):
        lo, hi = np.maximum(idx - k, 0), np.minimum(idx + k + 1, len(m))
        return (cm[hi] - cm[lo]) / (cw[hi] - cw[lo])

    if v.context is None:
        return m, m, window(2), window(5)
    group, size, has_parent, first, stop, _ = v.context
    g = np.where((group > 0) & (size[group] >= 2),
                 np.bincount(group, weights=w * m)[group] / np.bincount(group, weights=w)[group], m)
    den = cw[stop] - cw[first]
    pm = np.where(has_parent & (den > 0), (cm[stop] - cm[first]) / np.where(den > 0, den, 1), m)
    return g, pm, window(2), window(5)


def smoothed(v, a: float, b: float, c: float) -> np.ndarray:
    """The margins moved toward their context means by weights a (group), b (parent), c (2-block window)."""
    m = v.margin
    if not (a or b or c):
        return m
    g, pm, win, _ = context_means(v)
    return m + a * (g - m) + b * (pm - m) + c * (win - m)


def stack_rows(v) -> np.ndarray:
    """The second model's columns: the margin, its context means (as differences), the page's mean margin and
    kept share of words, the group's size, the block's words and position."""
    m, n = v.margin, len(v.margin)
    g, pm, w2, w5 = context_means(v)
    size = np.where(v.context[0] > 0, v.context[1][v.context[0]], 1) if v.context is not None else np.ones(n)
    kept = v.words[m >= CUT].sum() / max(v.words.sum(), 1)
    return np.column_stack([m, g - m, pm - m, w2 - m, w5 - m, np.full(n, np.average(m, weights=v.words + 1)),
                            np.full(n, kept), np.log1p(size), np.log1p(v.words), np.arange(n) / n])


def stacked(rows: list[tuple], views: list) -> np.ndarray:
    """Per page, the F1 of a second model trained, split by split, on the other splits' held-out margins."""
    from sklearn.ensemble import HistGradientBoostingClassifier
    X = [stack_rows(v) for v in views]
    y = [(v.hits >= 0.5 * v.words) & (v.words > 0) for v in views]  # the training labels' rule
    weight = [v.words / max(v.words.sum(), 1) * (TL.DEFAULT_BOOST.get(r[0], 1.0)) for r, v in zip(rows, views)]
    splits = np.array([r[2] for r in rows])
    f = np.zeros(len(rows))
    for s in sorted(set(splits)):
        train = np.flatnonzero(splits != s)
        w = np.concatenate([weight[i] for i in train])
        clf = HistGradientBoostingClassifier(max_iter=60, learning_rate=0.1, max_leaf_nodes=15, max_depth=4,
                                             min_samples_leaf=100, random_state=0).fit(
            np.vstack([X[i] for i in train]), np.concatenate([y[i] for i in train]), sample_weight=w * len(w) / w.sum())
        for i in np.flatnonzero(splits == s):
            f[i] = views[i].f1(clf.decision_function(X[i]) >= CUT)
        print(f"{s}: second model trained", file=sys.stderr, flush=True)
    return f


ISLANDS = [(g, f, c) for g in (25, 50, 100) for f in (0.1, 0.2, 0.3, 0.5) for c in (0.0, 0.5, 1.0, 2.0, np.inf)]


def islands(v, gap: int, frac: float, conf: float = np.inf) -> np.ndarray:
    """The kept blocks (margin >= CUT) without their small islands: kept blocks with at most ``gap`` dropped words
    between them form an island; one with under ``frac`` of the biggest island's words, and no block's margin
    ``conf`` or more, is dropped (jusText's and readability's "content is one region", on the model's output)."""
    keep = v.margin >= CUT
    idx = np.flatnonzero(keep)
    if len(idx) < 2:
        return keep
    cum = np.r_[0, np.cumsum(v.words)]
    cut = np.flatnonzero(cum[idx[1:]] - cum[idx[:-1] + 1] > gap) + 1
    parts = np.split(idx, cut)
    mass = np.array([v.words[p].sum() for p in parts])
    out = keep.copy()
    for p, m in zip(parts, mass):
        if m < frac * mass.max() and v.margin[p].max() < conf:
            out[p] = False
    return out


_HEADINGS = {TAG_INDEX[f"h{i}"]: i for i in range(1, 7)}  # a heading block's tag index -> its level
# Words of a section heading over boilerplate (reviews, recommendations, policies), listed before any look at
# the held-out output: the section-heading try (docs/cleaning.md).
SECTION_WORDS = frozenset(
    "related similar recommended recommend also like popular trending reviews review rating ratings viewed "
    "recently bought customers comments comment share follow newsletter subscribe sponsored advertisement "
    "shipping returns delivery latest more".split())
_WORD = re.compile(r"[a-z]+")


def section_heading(page) -> np.ndarray:
    """Per block, the nearest heading (``<h1>``-``<h6>`` block) at or before it: whether its words include one of
    ``SECTION_WORDS``, blocks since it (log) and its level (0: none). Aimed at the reviews and "you may also
    like" cards product and collection pages carry under their own headings."""
    n, out = len(page.texts), np.zeros((len(page.texts), 3))
    hit, level, since = 0.0, 0, 0
    for i in range(n):
        o = page.owner[i]
        lv = _HEADINGS.get(page.el_tag[o], 0) if o >= 0 else 0
        if lv:
            hit, level, since = float(not SECTION_WORDS.isdisjoint(_WORD.findall(page.texts[i].lower()))), lv, 0
        else:
            since += 1
        out[i] = hit, np.log1p(since) if level else 0.0, level
    return out


def itemprop_cache(out: str, sets: list[str] | None = None) -> None:
    """The training cache read again with schema.org microdata names (``itemprop``) beside class/id in every
    element's names, on the Python path (the compiled scans read class/id only); then
    ``proxy_learned.py columns none --cache OUT`` and ``report --cache OUT``: the itemprop try (docs/cleaning.md).
    Run as ``python -c "import scripts.studies.proxy_tries as t; t.itemprop_cache('build/learned/cache-itemprop.pkl')"``."""
    import pickle

    import preprocess.cleaners.learned.blocks as blocks
    from preprocess.cleaners.learned import compiled
    from webprune.benchdata import shared_data

    compiled.ON = False  # split_body's Python path, whose names come from _CLASS_ID
    blocks._CLASS_ID = re.compile(r'\b(?:class|id|itemprop)="([^"]*)"')
    data = TL.read_sets(shared_data(), sets or list(TL.SETS))
    with open(out, "wb") as f:
        pickle.dump(data, f, protocol=pickle.HIGHEST_PROTOCOL)
