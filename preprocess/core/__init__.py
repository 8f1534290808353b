"""The record and what every room shares: Document, Stats, the id rule, text hashing, paths over pyarrow.fs,
learned artefacts, the learning pass contract, sentence segmentation (its line loop compiled in ``_segment.pyx``), the sentence pruner's per-sentence loops compiled (``_decide.pyx``; their Python twins in ``filters/prune``: the core room keeps them out of the pruner package's import circle); ``_ucs.pxd``, the CPython str internals
and character classes every compiled twin cimports.

May import: nothing of preprocess's other rooms.
"""
