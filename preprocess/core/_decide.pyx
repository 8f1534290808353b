# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled twins of the pruner's per-sentence loops: ``common.decide_python`` (which sentences a page keeps,
its histogram) and ``contrastive.quarter_bins_python`` (a contrastive score's quarter-bit bin). The same
comparisons on the same Python objects, without the interpreter's loop; ``tests/test_prune_decide.py`` holds
each equal to its twin."""
cimport cython
from cpython.ref cimport PyObject
from libc.math cimport floor, isfinite
from math import floor as floor_py

cdef extern from "Python.h":
    bint PyFloat_CheckExact(object)
    bint PyTuple_CheckExact(object)
    Py_ssize_t PyTuple_GET_SIZE(object)
    PyObject *PyTuple_GET_ITEM(object, Py_ssize_t)


@cython.boundscheck(True)
def decide(nos, sents, scored, threshold, dict hist):
    """(the kept sentences of each line by line number, kept, without a word); ``hist`` counts each scored
    sentence's bin. As the twin's ``zip``: up to the shortest of the three."""
    cdef dict kept_lines = {}
    cdef list nos_l = nos if type(nos) is list else list(nos)
    cdef list sents_l = sents if type(sents) is list else list(sents)
    cdef list scored_l = scored if type(scored) is list else list(scored)
    cdef Py_ssize_t j, kept = 0, without = 0
    cdef Py_ssize_t n = min(len(nos_l), len(sents_l), len(scored_l))
    cdef object one, b, score
    for j in range(n):
        one = scored_l[j]
        if one is None:  # no word at all: nothing worth indexing
            without += 1
            continue
        if PyTuple_CheckExact(one) and PyTuple_GET_SIZE(one) == 2:
            b, score = <object> PyTuple_GET_ITEM(one, 0), <object> PyTuple_GET_ITEM(one, 1)
        else:
            b, score = one[0], one[1]
        hist[b] = hist.get(b, 0) + 1
        if score <= threshold:
            kept_lines.setdefault(nos_l[j], []).append(sents_l[j])
            kept += 1
    return kept_lines, kept, without


def quarter_bins(scores):
    """Each score with its bin, ``(max(-80, min(80, floor(s * 4))), s)``, or None; a score that is not a finite
    float goes through ``math.floor`` (its error, as the twin's)."""
    cdef list out = []
    cdef object s
    cdef double v
    cdef long b
    for s in (scores if type(scores) is list else list(scores)):
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
