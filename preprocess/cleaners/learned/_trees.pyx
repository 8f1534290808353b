# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled twin of ``BlockModel.margin``'s tree walk."""
from libc.stdint cimport int16_t, int64_t, uint16_t

import numpy as np


def leaf_values(const float[:, ::1] X, const int64_t[::1] feature, const double[::1] limit, const int64_t[::1] left,
                const double[::1] value, Py_ssize_t n_trees, Py_ssize_t width, int depth):
    """(rows x trees) leaf value each row reaches in each tree: ``BlockModel.margin``'s walk, summed by numpy."""
    cdef Py_ssize_t n = X.shape[0], r, t, node
    cdef int d
    out = np.empty((n, n_trees), dtype=np.float64)
    cdef double[:, ::1] o = out
    with nogil:
        for r in range(n):
            for t in range(n_trees):
                node = t * width
                for d in range(depth):
                    node = left[node] + (X[r, feature[node]] > limit[node])
                o[r, t] = value[node]
    return out


cdef packed struct Node:
    float limit  # (x > limit) as float32: the same answer as against the float64 threshold (``nodes``)
    int16_t feature
    uint16_t left  # within the tree; the right child is left + 1


NODE = np.dtype([("limit", "<f4"), ("feature", "<i2"), ("left", "<u2")])


def nodes(feature, limit, left, Py_ssize_t width):
    """The trees of ``BlockModel`` (flat ``feature``, ``limit``, ``left``) as 8-byte nodes for :func:`leaves`, or
    None when they do not fit (a feature index past 32,767, over 65,535 nodes a tree, a NaN threshold) or a
    threshold would be a subnormal float32 (a process in flush-to-zero mode would read it as 0, while the float64
    threshold stays normal). A float32 ``x`` is above a float64 threshold exactly when it is above the largest
    float32 not over it (+inf stays +inf)."""
    limit = np.asarray(limit, dtype=np.float64)
    if width > 65535 or (len(feature) and int(np.max(feature)) > 32767) or np.isnan(limit).any():
        return None
    with np.errstate(over="ignore"):  # (past float32: inf, brought back to its largest finite)
        low = limit.astype(np.float32)
    over = low.astype(np.float64) > limit
    low[over] = np.nextafter(low[over], np.float32(-np.inf))
    if ((low != 0) & (np.abs(low) < np.finfo(np.float32).tiny)).any():
        return None
    out = np.empty(len(limit), dtype=NODE)
    out["limit"], out["feature"] = low, feature
    out["left"] = np.asarray(left, dtype=np.int64) - np.repeat(np.arange(len(limit) // width) * width, width)
    return out


def leaves(const float[:, ::1] X, const Node[::1] node, const double[::1] value, Py_ssize_t n_trees,
           Py_ssize_t width, int depth):
    """:func:`leaf_values` over :func:`nodes`: eight trees walked side by side, so their loads overlap (0.17 ->
    0.10 ms a page)."""
    cdef Py_ssize_t n = X.shape[0], r, t, k, base
    cdef Py_ssize_t p[8]  # the eight walks' nodes
    cdef const Node *q
    cdef int d
    cdef const float *x
    out = np.empty((n, n_trees), dtype=np.float64)
    cdef double[:, ::1] o = out
    with nogil:
        for r in range(n):
            x = &X[r, 0]
            t = 0
            while t + 8 <= n_trees:
                for k in range(8):
                    p[k] = (t + k) * width
                for d in range(depth):
                    for k in range(8):
                        q = &node[p[k]]
                        p[k] = (t + k) * width + q.left + (x[q.feature] > q.limit)
                for k in range(8):
                    o[r, t + k] = value[p[k]]
                t += 8
            while t < n_trees:
                base = t * width
                k = 0
                for d in range(depth):
                    k = node[base + k].left + (x[node[base + k].feature] > node[base + k].limit)
                o[r, t] = value[base + k]
                t += 1
    return out
