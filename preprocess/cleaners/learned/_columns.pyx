# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled twins of ``features.numeric_python`` (with ``context.page_context``), ``groups.group_columns`` and
``context.path_or``."""
from libc.stdint cimport int64_t, uint64_t

include "_bisect.pxi"

import numpy as np


def path_or(const int64_t[::1] parent, uint64_t[:, ::1] rows):
    """OR each element's row of bit words into its descendants' rows, in place (parents come before children)."""
    cdef Py_ssize_t e, w, p, width = rows.shape[1]
    with nogil:
        for e in range(parent.shape[0]):
            p = parent[e]
            if p >= 0:
                for w in range(width):
                    rows[e, w] |= rows[p, w]


cdef extern from "math.h" nogil:
    double log1p(double x)


def numeric(const double[:, ::1] counts, const double[::1] link, const int64_t[::1] owner,
            const int64_t[::1] start, const int64_t[::1] el_tag, const int64_t[::1] el_parent,
            const int64_t[::1] el_depth, const int64_t[::1] el_start, const int64_t[::1] el_end,
            const double[::1] sig, const int64_t[::1] flags, const double[::1] tag_prior,
            int64_t page_chars, int window):
    """``features.numeric_python`` in one pass: the TEXT, POSITION, STRUCTURE, neighbour and ``context.NAMES``
    columns (blocks x 56), from ``text_counts``' rows, the page's block and element arrays, the elements' signature
    counts and class/id flags. Every value is computed as the numpy code computes it (same operations, same
    order), so the two agree to the bit (``tests/test_learned_compiled.py``)."""
    cdef Py_ssize_t n = counts.shape[0], n_el = el_tag.shape[0], b, e, k, o, lo, hi, node, kid, top
    cdef Py_ssize_t own, par, grand, tp, first_top = 0, stop_top = 0, first_tp = 0, stop_tp = 0, first_d, stop_d
    cdef double total = page_chars if page_chars > 1 else 1, ctotal = 0, lsum = 0, linked = 0, longest = 0
    cdef double best = 0, top_share = 0, v, ch, nw, oc, pc, gc, dens, best_dens, long_blocks = 0
    cdef bint have_top = False
    cdef int c
    cdef int64_t f
    out = np.zeros((n, 56), dtype=np.float64)
    cdef double[:, ::1] X = out
    ld_arr = np.empty(n)
    cum_arr = np.empty((3, n + 1))
    cdef double[::1] ld = ld_arr
    cdef double[:, ::1] cum = cum_arr  # prefix sums: characters, link characters, and (window means) scratch
    el_arrays = np.zeros((7, max(n_el, 1)))
    cdef double[:, ::1] E = el_arrays  # 0 chars (blocks), 1 link density, 2 par score, 3 grand score, 4 cand,
    #                                    5 subtree size, 6 chars (el_end - el_start)
    ints = np.zeros((5, max(n_el, 1)), dtype=np.int64)
    cdef int64_t[:, ::1] I = ints  # 0 first block, 1 block stop, 2 scored, 3 path flags, 4 same-owner count
    own_count = np.zeros(max(n_el, 1), dtype=np.int64)
    cdef int64_t[::1] same = own_count

    # text columns (text.text_columns)
    for b in range(n):
        ch, nw = counts[b, 0], counts[b, 1]
        v = link[b] / ch
        if v > 1.0:
            v = 1.0
        X[b, 0] = log1p(ch)
        X[b, 1] = log1p(nw)
        X[b, 2] = v
        X[b, 3] = ch / nw
        X[b, 4] = counts[b, 2] / nw
        X[b, 5] = counts[b, 3] / nw
        X[b, 6] = counts[b, 4]
        X[b, 7] = counts[b, 5] / nw
        X[b, 8] = counts[b, 6] / nw
        X[b, 9] = counts[b, 7] / nw if nw < 40 else 0.0
        X[b, 10] = v > 0.99
    # position (features.page_features)
    for b in range(n):
        X[b, 11] = <double> b / n
        X[b, 12] = start[b] / total
        X[b, 13] = log1p(total)
        X[b, 14] = log1p(<double> n)
    # structure: own element, parent, grandparent (blocks without an element count as element 0's in same_owner)
    for e in range(n_el):
        E[6, e] = <double> el_end[e] - <double> el_start[e]
    for b in range(n):
        same[owner[b] if owner[b] >= 0 else 0] += 1
    for b in range(n):
        own = owner[b]
        par = el_parent[own] if own >= 0 and n_el else -1
        grand = el_parent[par] if par >= 0 else -1
        oc = E[6, own] if own >= 0 and n_el else total
        pc = E[6, par] if par >= 0 else total
        gc = E[6, grand] if grand >= 0 else total
        X[b, 15] = log1p(<double> el_depth[own] if own >= 0 and n_el else 0.0)
        X[b, 16] = oc / total
        X[b, 17] = pc / total
        X[b, 18] = gc / total
        X[b, 19] = log1p(oc)
        X[b, 20] = log1p(pc)
        X[b, 21] = log1p(gc)
        X[b, 22] = log1p(<double> same[own if own >= 0 else 0])
        X[b, 23] = log1p(sig[own] if own >= 0 and n_el else 0.0)
    # neighbours: log chars, link density, stop words of the blocks at -2, -1, +1, +2; window means
    k = 24
    for o in (-2, -1, 1, 2):
        for c in (0, 2, 7):
            for b in range(n):
                X[b, k] = X[b + o, c] if 0 <= b + o < n else 0.0
            k += 1
    for c in (0, 2):
        cum[2, 0] = 0.0
        for b in range(n):
            cum[2, b + 1] = cum[2, b] + X[b, c]
        for b in range(n):
            lo = b - window if b - window > 0 else 0
            hi = b + window + 1 if b + window + 1 < n else n
            X[b, k] = (cum[2, hi] - cum[2, lo]) / (hi - lo)
        k += 1
    # page context (context.page_context), columns 38-55
    for b in range(n):
        ctotal += counts[b, 0]
    if ctotal < 1.0:
        ctotal = 1.0
    cum[0, 0] = cum[1, 0] = 0.0
    for b in range(n):
        ch = counts[b, 0]
        ld[b] = link[b] / (ch if ch > 1 else 1)
        lsum += link[b]
        if ld[b] > 0.5:
            linked += ch
        if ch > longest or b == 0:
            longest = ch
        if ch >= 200:
            long_blocks += 1
        cum[0, b + 1] = cum[0, b] + ch
        cum[1, b + 1] = cum[1, b] + link[b]
    for b in range(n):
        X[b, 38] = lsum / ctotal
        X[b, 39] = linked / ctotal
        X[b, 40] = longest / ctotal
        X[b, 41] = log1p(long_blocks)
    if not n_el:
        return out
    for e in range(n_el):  # blocks of each element: [first, stop) by the characters before them
        I[0, e] = bisect_left(start, el_start[e])
        I[1, e] = bisect_left(start, el_end[e])
        E[0, e] = cum[0, I[1, e]] - cum[0, I[0, e]]
        E[1, e] = (cum[1, I[1, e]] - cum[1, I[0, e]]) / (E[0, e] if E[0, e] > 1 else 1)
    # readability: paragraph scores to the element above the block's own, half to the one above that
    for b in range(n):
        own = owner[b]
        par = el_parent[own] if own >= 0 else -1
        if counts[b, 0] >= 25 and par >= 0:
            v = counts[b, 0] / 100
            E[2, par] += 1 + counts[b, 2] + (v if v < 3 else 3)
            I[2, par] = 1
    for b in range(n):
        own = owner[b]
        par = el_parent[own] if own >= 0 else -1
        grand = el_parent[par] if par >= 0 else -1
        if counts[b, 0] >= 25 and par >= 0 and grand >= 0:
            v = counts[b, 0] / 100
            E[3, grand] += (1 + counts[b, 2] + (v if v < 3 else 3)) / 2
            I[2, grand] = 1
    top = 0
    for e in range(n_el):
        if I[2, e]:
            E[4, e] = (E[2, e] + E[3, e] + (tag_prior[el_tag[e]] + 25.0 * ((flags[e] >> 1 & 1) - (flags[e] & 1)))) \
                * (1 - E[1, e])
            if not have_top or E[4, e] > E[4, top]:
                top, have_top = e, True
    if have_top and E[4, top] > 0:
        best = E[4, top]
        tp = el_parent[top]
        first_top, stop_top = I[0, top], I[1, top]
        if tp >= 0:
            first_tp, stop_tp = I[0, tp], I[1, tp]
        else:
            first_tp, stop_tp = 0, n
        top_share = E[0, top] / ctotal
    else:
        have_top = False
    for b in range(n):
        own = owner[b]
        par = el_parent[own] if own >= 0 else -1
        grand = el_parent[par] if par >= 0 else -1
        if have_top:
            X[b, 42] = first_top <= b < stop_top
            X[b, 43] = first_tp <= b < stop_tp
            X[b, 44] = top_share
            X[b, 45] = E[4, par] / best if par >= 0 and I[2, par] else 0.0
            X[b, 46] = E[4, grand] / best if grand >= 0 and I[2, grand] else 0.0
            v = (<double> start[b] + counts[b, 0] - <double> el_end[top]) / ctotal
            X[b, 51] = v if v > 0 else 0.0
            v = (<double> el_start[top] - <double> start[b]) / ctotal
            X[b, 52] = v if v > 0 else 0.0
        X[b, 47] = E[1, own] if own >= 0 else ld[b]
        X[b, 48] = E[1, par] if par >= 0 else X[b, 47]
    # Baisa: from element 0, into the child with the most characters per element while it holds over half
    for e in range(n_el):
        E[5, e] = 1
    for e in range(n_el - 1, -1, -1):  # children come after their parents: sizes add up from the last
        if el_parent[e] >= 0:
            E[5, el_parent[e]] += E[5, e]
    node = 0
    for _ in range(100):
        kid = -1
        for e in range(node + 1, n_el):
            if el_parent[e] == node:
                dens = E[0, e] / E[5, e]
                if kid < 0 or dens > best_dens:
                    kid, best_dens = e, dens
        if kid < 0 or E[0, kid] * 2 <= E[0, node]:
            break
        node = kid
    first_d, stop_d = I[0, node], I[1, node]
    # class/id flags of the element and every ancestor
    for e in range(n_el):
        I[3, e] = flags[e] | (I[3, el_parent[e]] if el_parent[e] >= 0 else 0)
    for b in range(n):
        X[b, 49] = first_d <= b < stop_d
        X[b, 50] = E[0, node] / ctotal
        f = I[3, owner[b]] if owner[b] >= 0 else 0
        X[b, 53] = f & 1
        X[b, 54] = f >> 1 & 1
        X[b, 55] = f >> 2 & 1
    return out


def block_bits(float[:, ::1] out, Py_ssize_t col, const int64_t[::1] owner, const int64_t[::1] el_tag,
               const int64_t[::1] el_parent, const uint64_t[:, ::1] path_tag,
               const uint64_t[:, ::1] tok, const uint64_t[:, ::1] path_tok, int n_tags, int n_tok):
    """``features.page_features``' bit columns, set to 1 in ``out`` (zeros) from column ``col`` on: the tag of each
    block's element and of its parent, the tags up its path, its class/id tokens and those up its path."""
    cdef Py_ssize_t b, own, par, t
    cdef Py_ssize_t tags_up = col + 2 * n_tags, own_tok = col + 3 * n_tags, path_toks = col + 3 * n_tags + n_tok
    with nogil:
        for b in range(owner.shape[0]):
            own = owner[b]
            if own < 0:
                continue
            out[b, col + el_tag[own]] = 1
            par = el_parent[own]
            if par >= 0:
                out[b, col + n_tags + el_tag[par]] = 1
            for t in range(n_tags):
                if path_tag[own, t >> 6] >> (t & 63) & 1:
                    out[b, tags_up + t] = 1
            for t in range(n_tok):
                if tok[own, t >> 6] >> (t & 63) & 1:
                    out[b, own_tok + t] = 1
                if path_tok[own, t >> 6] >> (t & 63) & 1:
                    out[b, path_toks + t] = 1


def groups(float[:, ::1] out, Py_ssize_t col, const int64_t[::1] owner, const int64_t[::1] sig,
           const int64_t[::1] el_parent, const int64_t[::1] el_start, const int64_t[::1] el_end,
           const double[::1] chars, const double[::1] link, double total, double repeated):
    """``groups.group_columns`` written into ``out[:, col:col + 8]`` (``repeated``: its ``REPEATED``): the same
    sums in the same order (element order for the signatures, block order for the parent groups), so the two
    agree to the bit."""
    cdef Py_ssize_t n = owner.shape[0], n_el = sig.shape[0], n_sig = 0, e, b, s, best = -1
    cdef int64_t level, parent
    cdef double top = 0, v
    if n == 0 or n_el == 0:
        return
    for e in range(n_el):
        if sig[e] + 1 > n_sig:
            n_sig = sig[e] + 1
    count_a, share_a = np.zeros(n_sig), np.zeros(n_sig)
    chars_a, link_a = np.zeros(n_sig), np.zeros(n_sig)
    cdef double[::1] count = count_a, share = share_a, group_chars = chars_a, group_link = link_a
    with nogil:
        for e in range(n_el):
            count[sig[e]] += 1
            share[sig[e]] += <double>el_end[e] - <double>el_start[e]
        for s in range(n_sig):
            share[s] = share[s] / total
            if share[s] > 1.0:
                share[s] = 1.0
            v = share[s] if count[s] >= repeated else 0.0
            if v > top:
                top, best = v, s
        for b in range(n):  # the parent groups' characters and links, before their density is read
            level = owner[b]
            parent = el_parent[level] if level >= 0 else -1
            if parent >= 0:
                group_chars[sig[parent]] += chars[b]
                group_link[sig[parent]] += link[b]
        for b in range(n):
            level = owner[b]
            for e in range(3):
                if level < 0:  # (out is zero where nothing is written)
                    break
                s = sig[level]
                if e == 0:
                    out[b, col] = <float>log1p(count[s])
                    out[b, col + 1] = <float>share[s]
                elif e == 1:
                    out[b, col + 2] = <float>log1p(count[s])
                    out[b, col + 3] = <float>share[s]
                    out[b, col + 4] = <float>(group_link[s] / (group_chars[s] if group_chars[s] > 1 else 1))
                    out[b, col + 5] = 1 if s == best else 0
                else:
                    out[b, col + 6] = <float>log1p(count[s])
                    out[b, col + 7] = <float>share[s]
                level = el_parent[level]
