"""Page-level evidence for each block: where the page's main text sits, as the seed and peer heuristics see it.

* **Readability's candidate** (Arc90 / readability-lxml): every block of 25+
  characters scores ``1 + commas + min(chars / 100, 3)`` for the element above
  its own (in full) and the one above that (half); an element's score gets its
  tag's prior and +-25 for a positive/negative class or id, and is scaled by
  ``1 - link density``. The best element is the *top candidate*; a block
  outside it gets its distance before or after it (share of the page).
* **Names up the path**: does the block's element or any ancestor carry a
  readability-negative, -positive, or comment-section class/id (comments are
  main text in CleanEval's gold and boilerplate in the article sets').
* **Baisa's densest node** (``density`` cleaner): from ``<body>`` descend into
  the child with the most characters per element while it holds more than
  half of the text.
* **The page as a whole**: characters, blocks, link density, the longest block's
  share: CleanEval's mostly-text pages and the article sets' portal pages differ here.

All of it is numpy over the element arrays of :class:`blocks.Page`; elements hold
contiguous runs of blocks (document order), so per-element sums are prefix sums.
"""
from __future__ import annotations


import numpy as np

from preprocess.cleaners.learned import compiled
from preprocess.cleaners.learned.blocks import BLOCK_TAGS, Page
from preprocess.cleaners.learned.names import class_flags, thread_many

NAMES = ["page_link_density", "page_linked_share", "longest_share", "long_blocks", "in_top", "in_top_parent",
         "top_share", "parent_score", "grand_score", "own_link_density", "parent_link_density", "in_dense",
         "dense_share", "after_top", "before_top", "negative_path", "positive_path", "comment_path"]
TAG_PRIOR = np.zeros(len(BLOCK_TAGS))
for _t, _w in (("div", 5), ("pre", 3), ("td", 3), ("blockquote", 3), ("address", -3), ("ol", -3), ("ul", -3),
               ("dl", -3), ("dd", -3), ("dt", -3), ("li", -3), ("form", -3), ("h1", -5), ("h2", -5), ("h3", -5),
               ("h4", -5), ("h5", -5), ("h6", -5), ("th", -5)):
    TAG_PRIOR[BLOCK_TAGS.index(_t)] = _w


def thread_blocks(page: Page) -> np.ndarray:
    """Per block: is its element, or an ancestor, named as a comment thread (``names._thread_name``)?"""
    n_el = len(page.el_tag)
    if not n_el or not page.texts:
        return np.zeros(len(page.texts), dtype=bool)
    rows = np.zeros((n_el + 1, 1), dtype=np.uint64)
    rows[:n_el, 0] = thread_many(page.el_names)
    if not rows.any():
        return np.zeros(len(page.texts), dtype=bool)
    path = path_or(np.asarray(page.el_parent, dtype=np.int64), np.asarray(page.el_depth, dtype=np.int64),
                   rows)[:n_el, 0].astype(bool)
    owner = np.asarray(page.owner, dtype=np.int64)
    return np.where(owner >= 0, path[np.maximum(owner, 0)], False)


def path_or(parent: np.ndarray, depth: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """``rows`` (elements x uint64 bit words, any rows past the elements untouched) with each element's row
    OR-ed into its descendants', in place: one C loop (``_columns``), else one numpy step per depth."""
    if compiled.ON:
        compiled._columns.path_or(parent, rows)
        return rows
    for level in _depth_levels(depth)[1:]:
        rows[level] |= rows[parent[level]]
    return rows


def _depth_levels(depth: np.ndarray) -> list[np.ndarray]:
    """The elements at depth 0, 1, 2, ... (in document order within a level)."""
    if not len(depth):
        return []
    by_depth = np.argsort(depth, kind="stable")
    bounds = np.searchsorted(depth[by_depth], np.arange(depth.max() + 2))
    return [by_depth[bounds[d]:bounds[d + 1]] for d in range(depth.max() + 1)]


def _in_range(n: int, lo: int, hi: int) -> np.ndarray:
    out = np.zeros(n)
    out[lo:hi] = 1
    return out


def _subtree_sizes(parent: np.ndarray, depth: np.ndarray) -> np.ndarray:
    """Elements in each element's subtree (itself included): one bincount per depth level, deepest first."""
    size = np.ones(len(parent))
    for level in _depth_levels(depth)[:0:-1]:
        up = parent[level]
        ok = up >= 0
        size += np.bincount(up[ok], weights=size[level[ok]], minlength=len(size))
    return size


def page_context(page: Page, chars: np.ndarray, link: np.ndarray, commas: np.ndarray) -> np.ndarray:
    """(blocks x len(NAMES)); ``chars``, ``link`` (characters in links) and ``commas`` per block."""
    n = len(chars)
    total = max(chars.sum(), 1.0)
    ld = link / np.maximum(chars, 1)
    page_cols = [np.full(n, link.sum() / total), np.full(n, chars[ld > 0.5].sum() / total),
                 np.full(n, chars.max() / total), np.full(n, np.log1p((chars >= 200).sum()))]
    n_el = len(page.el_tag)
    if not n_el:
        return np.column_stack(page_cols + [np.zeros(n)] * (len(NAMES) - len(page_cols)))
    start = np.asarray(page.start, dtype=np.float64)
    el_first = np.searchsorted(start, np.asarray(page.el_start, dtype=np.float64), "left")
    el_stop = np.searchsorted(start, np.asarray(page.el_end, dtype=np.float64), "left")
    cum_c = np.concatenate(([0.0], np.cumsum(chars)))
    cum_l = np.concatenate(([0.0], np.cumsum(link)))
    el_chars = cum_c[el_stop] - cum_c[el_first]
    el_ld = (cum_l[el_stop] - cum_l[el_first]) / np.maximum(el_chars, 1)
    parent = np.asarray(page.el_parent, dtype=np.int64)
    tag = np.asarray(page.el_tag, dtype=np.int64)

    # readability: paragraph scores go to the element above the block's own, and half to the one above that
    owner = np.asarray(page.owner, dtype=np.int64)
    score = np.zeros(n_el)
    scored = np.zeros(n_el, dtype=bool)
    par = np.where(owner >= 0, parent[np.maximum(owner, 0)], -1)
    grand = np.where(par >= 0, parent[np.maximum(par, 0)], -1)
    para = (chars >= 25) & (par >= 0)
    s = 1 + commas + np.minimum(chars / 100, 3)
    score += np.bincount(par[para], weights=s[para], minlength=n_el)  # bincount: ufunc.at is ~10x slower
    scored[par[para]] = True
    g = para & (grand >= 0)
    score += np.bincount(grand[g], weights=s[g] / 2, minlength=n_el)
    scored[grand[g]] = True
    flags = class_flags.many(page.el_names)
    fl = np.asarray(flags, dtype=np.int64)
    prior = TAG_PRIOR[tag] + 25.0 * ((fl >> 1 & 1) - (fl & 1))
    cand = np.where(scored, (score + prior) * (1 - el_ld), -np.inf)
    top = int(np.argmax(cand))
    if np.isfinite(cand[top]) and cand[top] > 0:
        best = cand[top]
        tp = parent[top]
        in_top = _in_range(n, el_first[top], el_stop[top])
        after_top = np.clip((start + chars - page.el_end[top]) / total, 0, None)  # text from its end to the block's
        before_top = np.clip((page.el_start[top] - start) / total, 0, None)
        in_tp = _in_range(n, el_first[tp], el_stop[tp]) if tp >= 0 else np.ones(n)
        top_share = el_chars[top] / total
        rel = np.where(np.isfinite(cand), cand / best, 0.0)
        p_score = np.where(par >= 0, rel[np.maximum(par, 0)], 0.0)
        g_score = np.where(grand >= 0, rel[np.maximum(grand, 0)], 0.0)
    else:
        in_top = in_tp = p_score = g_score = after_top = before_top = np.zeros(n)
        top_share = 0.0
    own_ld = np.where(owner >= 0, el_ld[np.maximum(owner, 0)], ld)
    par_ld = np.where(par >= 0, el_ld[np.maximum(par, 0)], own_ld)

    # Baisa: descend into the densest child (characters per element below it) while it holds over half
    depth = np.asarray(page.el_depth, dtype=np.int64)
    size = _subtree_sizes(parent, depth)
    order = np.argsort(parent, kind="stable")
    sorted_parent = parent[order]
    node = 0
    for _ in range(100):
        lo, hi = np.searchsorted(sorted_parent, [node, node + 1])
        kids = order[lo:hi]
        if not len(kids):
            break
        dens = el_chars[kids] / size[kids]
        k = kids[int(np.argmax(dens))]
        if el_chars[k] * 2 <= el_chars[node]:
            break
        node = k
    in_dense = _in_range(n, el_first[node], el_stop[node])
    path = path_or(parent, depth, fl.astype(np.uint64)[:, None])[:, 0].astype(np.int64)
    block_path = np.where(owner >= 0, path[np.maximum(owner, 0)], 0)
    return np.column_stack(page_cols + [in_top, in_tp, np.full(n, top_share), p_score, g_score, own_ld, par_ld,
                                        in_dense, np.full(n, el_chars[node] / total), after_top, before_top,
                                        block_path & 1, block_path >> 1 & 1, block_path >> 2 & 1])
