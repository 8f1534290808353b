# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled twin of ``BlockModel.margin``'s tree walk."""
from libc.stdint cimport int64_t

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
