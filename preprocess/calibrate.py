"""Turn ``--prune-percentile P`` into a perplexity threshold on a sample of the collection.

KenLM perplexities are not on pyplexity's scale, so a fixed threshold such as
8,000 does not carry over between models; dropping "the worst P% of sentences"
does. The sample is the first ``prune_sample_docs`` HTML documents of the input
(in input order, so the threshold is reproducible), cleaned exactly as the run
cleans them.
"""
from __future__ import annotations

import dataclasses
import logging

import numpy as np

from preprocess.pipeline import CleanOptions, cleaning_steps
from preprocess.readers import Source, read_source
from preprocess.segment import sentences_of
from preprocess.stats import Stats
from preprocess.steps.prune import PerplexityPrune

log = logging.getLogger("webprune.preprocess")


def calibrate(opts: CleanOptions, sources: list[Source]) -> tuple[CleanOptions, dict]:
    if not opts.prune_model or opts.prune_percentile is None:
        return opts, {}
    steps, scratch = cleaning_steps(opts), Stats()
    for s in steps:
        s.stats = scratch
    sample = []
    for src in sources:
        for doc in read_source(src, Stats()):
            sample.append(doc)
            if len(sample) >= opts.prune_sample_docs:
                break
        if len(sample) >= opts.prune_sample_docs:
            break
    docs = sample
    for step in steps:
        docs = list(step.run(docs))
    pruner = PerplexityPrune(opts.prune_model, float("inf"))
    ppls = [p for d in docs for _, s in sentences_of(d.text) if (p := pruner.score(s)) is not None]
    if not ppls:
        raise ValueError("no sentences in the calibration sample: use --max-perplexity instead of --prune-percentile")
    threshold = float(np.percentile(ppls, 100 - opts.prune_percentile))
    info = {"percentile": opts.prune_percentile, "sample_docs": len(docs), "sample_sentences": len(ppls),
            "max_perplexity": round(threshold, 2)}
    log.info("--prune-percentile %g: threshold %.0f from %d sentences of %d documents",
             opts.prune_percentile, threshold, len(ppls), len(docs))
    return dataclasses.replace(opts, max_perplexity=threshold), info
