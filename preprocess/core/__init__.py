"""The record and what every room shares: Document, Stats, the id rule, text hashing, paths over pyarrow.fs,
learned artefacts, the learning pass contract, sentence segmentation (its line loop compiled in ``_segment.pyx``); ``_ucs.pxd``, the CPython str internals
and character classes every compiled twin cimports.

May import: nothing of preprocess's other rooms.
"""
