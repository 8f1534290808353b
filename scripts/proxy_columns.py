"""Columns tried with ``scripts/proxy_learned.py columns`` and not kept (docs/cleaning.md, issue 22), here so the
figures can be run again: ``scripts/proxy_learned.py columns scripts.proxy_columns:grid_position ...``."""
from __future__ import annotations

import re

import numpy as np

from preprocess.cleaners.learned.features import signature_ids
from preprocess.cleaners.learned.groups import REPEATED

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
