"""`webprune lm train-crawl`'s pass: a crawl's labelled lines, duplicate pages, corpora, options, the
model's card (its driver: driver/train_crawl.py).

May import: core, config, html, readers, steps, cleaners, filters, lm, folder, runtime, run, learning.
"""
