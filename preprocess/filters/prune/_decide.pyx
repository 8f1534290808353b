# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled twins of the pruner's per-sentence loops: ``common.decide_python`` (which sentences a page keeps,
its histogram) and ``contrastive.quarter_bins_python`` (a contrastive score's quarter-bit bin). The same
comparisons on the same Python objects, without the interpreter's loop; ``tests/test_prune_decide.py`` holds
each equal to its twin."""
from libc.math cimport floor, isfinite

cdef extern from "Python.h":
    bint PyFloat_CheckExact(object)


def decide(list nos, list sents, list scored, threshold, dict hist):
    """(the kept sentences of each line by line number, kept, without a word); ``hist`` counts each scored
    sentence's bin."""
    cdef dict kept_lines = {}
    cdef list cur = None
    cdef Py_ssize_t j, n = len(scored), kept = 0, without = 0
    cdef object one, b, no, last = None
    for j in range(n):
        one = scored[j]
        if one is None:  # no word at all: nothing worth indexing
            without += 1
            continue
        b = (<tuple> one)[0]
        hist[b] = hist.get(b, 0) + 1
        if (<tuple> one)[1] <= threshold:
            no = nos[j]
            if cur is not None and no == last:
                cur.append(sents[j])
            else:
                cur = kept_lines.setdefault(no, [])
                cur.append(sents[j])
                last = no
            kept += 1
    return kept_lines, kept, without


def quarter_bins(list scores, floor_py):
    """Each score with its bin, ``(max(-80, min(80, floor(s * 4))), s)``, or None; a score that is not a finite
    float goes through ``floor_py`` (``math.floor``: its error, as the twin's)."""
    cdef list out = []
    cdef object s
    cdef double v
    cdef long b
    for s in scores:
        if s is None:
            out.append(None)
            continue
        if PyFloat_CheckExact(s):
            v = (<double> s) * 4
            if isfinite(v):
                v = floor(v)
                b = -80 if v < -80 else (80 if v > 80 else <long> v)
                out.append((b, s))
                continue
        out.append((max(-80, min(80, floor_py(s * 4))), s))
    return out
