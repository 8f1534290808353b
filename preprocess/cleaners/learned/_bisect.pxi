# bisect.bisect_left / np.searchsorted(..., "left") over sorted int64 values (included by _anchor.pyx and _columns.pyx).

cdef inline Py_ssize_t bisect_left(const int64_t[::1] a, int64_t x) noexcept nogil:
    cdef Py_ssize_t lo = 0, hi = a.shape[0], mid
    while lo < hi:
        mid = (lo + hi) // 2
        if a[mid] < x:
            lo = mid + 1
        else:
            hi = mid
    return lo
