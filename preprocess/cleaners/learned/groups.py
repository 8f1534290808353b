"""Repeated-card evidence: the group of elements sharing a block's signature, at three levels.

A listing, a collection or a product grid repeats one element (the same tag and
class/id) many times; each card is short and link-heavy, so block-level
features call it boilerplate, while a menu repeats too. For the block's element,
its parent and its grandparent: how many elements on the page share that
signature (log) and the share of the page's characters they hold; for the
parent level also the link density of every block under a same-signature
parent, and whether that signature is the page's biggest repeated group (3+
elements, most characters). Numpy over :class:`blocks.Page`'s element arrays: the
reference of the compiled ``_columns.groups``, which gives the same values to the bit.
"""
from __future__ import annotations

import numpy as np

from preprocess.cleaners.learned.blocks import Page

NAMES = ["own_group", "own_group_share", "parent_group", "parent_group_share", "parent_group_link_density",
         "parent_group_biggest", "grand_group", "grand_group_share"]
REPEATED = 3  # elements that make a repeated group


def group_columns(page: Page, owner: np.ndarray, chars: np.ndarray, link: np.ndarray, sig: np.ndarray) -> np.ndarray:
    """(blocks x len(NAMES)); ``owner`` per block (-1: none), ``chars`` and ``link`` (linked characters) per block,
    ``sig`` per element: its signature's number (0, 1, ...; ``features.signature_ids``)."""
    n, n_el = len(chars), len(page.el_tag)
    out = np.zeros((n, len(NAMES)))
    if not n or not n_el:
        return out
    n_sig = int(sig.max()) + 1
    el_chars = np.asarray(page.el_end, np.float64) - np.asarray(page.el_start, np.float64)
    total = max(page.chars, 1)
    count = np.bincount(sig, minlength=n_sig).astype(np.float64)
    share = np.minimum(np.bincount(sig, weights=el_chars, minlength=n_sig) / total, 1.0)
    parent = np.asarray(page.el_parent, np.int64)
    count_ok, share_ok = np.append(count, 0.0), np.append(share, 0.0)  # (index n_sig: no element)
    level = owner
    for col in (0, 2, 6):
        ok = level >= 0
        s = np.where(ok, sig[np.maximum(level, 0)], n_sig)
        out[:, col] = np.log1p(count_ok[s])
        out[:, col + 1] = share_ok[s]
        if col == 2:
            group_chars = np.bincount(s, weights=chars, minlength=n_sig + 1)
            group_link = np.bincount(s, weights=link, minlength=n_sig + 1)
            out[:, 4] = np.where(ok, group_link[s] / np.maximum(group_chars[s], 1), 0.0)
            repeated = np.where(count >= REPEATED, share, 0.0)
            if repeated.any():
                out[:, 5] = s == int(repeated.argmax())
        level = np.where(ok, parent[np.maximum(level, 0)], -1)
    return out
