"""The record and what every room shares: Document, Stats, the id rule, text hashing, paths over pyarrow.fs,
learned artefacts, the learning pass contract, sentence segmentation.

May import: nothing of preprocess's other rooms.
"""
