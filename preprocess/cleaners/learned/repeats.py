"""Repeated texts: a block whose very text the page repeats ("Loading", "Add to cart", the rating line under
every review) is seldom main text, and its later copies even less. Two columns of the learned cleaner's
features (the last two of ``features.feature_names``)."""
from __future__ import annotations

from collections import Counter

import numpy as np

REPEATS = ["text_repeats", "text_seen"]


def text_repeats(texts: list[str]) -> np.ndarray:
    """(blocks x 2): how many blocks have the block's text (log1p) and whether an earlier block had it; texts
    compared lower-cased (``str.lower``; ``blocks.split_body`` single-spaces them)."""
    keys = [t.lower() for t in texts]
    count, first = Counter(keys), {}
    seen = np.fromiter((first.setdefault(k, i) != i for i, k in enumerate(keys)), bool, len(keys))
    return np.column_stack([np.log1p(np.fromiter(map(count.__getitem__, keys), np.float64, len(keys))), seen])
