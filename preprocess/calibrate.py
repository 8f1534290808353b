"""Turn ``--prune-percentile P`` into a perplexity threshold on a sample of the collection.

KenLM perplexities are not on pyplexity's scale, so a fixed threshold such as
8,000 does not carry over between models; dropping "the worst P% of sentences"
does. The sample is the first ``prune_sample_docs`` HTML documents of the input
(in input order, so the threshold is reproducible), cleaned exactly as the run
cleans them.
"""
from __future__ import annotations

import dataclasses
import itertools
import logging

import numpy as np

from preprocess.pipeline import CleanOptions, cleaning_steps, run_steps
from preprocess.readers import Source, read_source
from preprocess.segment import sentences_of
from preprocess.stats import Stats
from preprocess.steps.prune import PerplexityPrune

log = logging.getLogger("webprune.preprocess")


def calibrate(opts: CleanOptions, sources: list[Source]) -> tuple[CleanOptions, dict]:
    if not opts.prune_model or opts.prune_percentile is None:
        return opts, {}
    records = (doc for src in sources for doc in read_source(src, Stats()))
    return calibrate_docs(opts, list(itertools.islice(records, opts.prune_sample_docs)))


def calibrate_docs(opts: CleanOptions, sample: list) -> tuple[CleanOptions, dict]:
    """The threshold from ``sample`` (raw Documents), cleaned as the run cleans them."""
    steps = cleaning_steps(opts)
    docs = run_steps(steps, sample)
    pruner = PerplexityPrune(opts.prune_model, float("inf"), opts.prune_score)
    scores = []
    for d in docs:
        links = d.meta.get("link_density")
        for line_no, s in sentences_of(d.text):
            scored = pruner.decision_score(s, links[line_no] if links is not None else 0.0)
            if scored is not None:
                scores.append(scored[1])
    if not scores:
        raise ValueError("no sentences in the calibration sample: use --max-perplexity instead of --prune-percentile")
    threshold = float(np.percentile(scores, 100 - opts.prune_percentile))
    info = {"percentile": opts.prune_percentile, "score": opts.prune_score, "sample_docs": len(docs),
            "sample_sentences": len(scores), "threshold": round(threshold, 4)}
    log.info("--prune-percentile %g: %s threshold %.4g from %d sentences of %d documents",
             opts.prune_percentile, opts.prune_score, threshold, len(scores), len(docs))
    return dataclasses.replace(opts, prune_threshold=threshold), info
