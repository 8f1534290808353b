"""Turn ``--prune-percentile P`` into a pruning threshold on a sample of the collection (a learning pass).

KenLM perplexities are not on pyplexity's scale, so a fixed threshold such as
8,000 does not carry over between models; dropping "the worst P% of sentences"
does. The sample is ``prune_sample_docs`` documents: evenly spaced input files,
each giving its first ``ceil(N / files)`` records, so the threshold is the same for
any worker count (one input file: its first N records). Each is cleaned exactly as
the run cleans it, one document at a time (no sample of parsed trees is ever held),
and only its sentences' scores travel back.
"""
from __future__ import annotations

import math

import numpy as np

from preprocess.core.passes import LearningPass
from preprocess.core.segment import sentences_of_lines


def sample_units(units: list, n: int) -> list:
    """``min(len(units), n)`` units spread evenly over the input, in input order."""
    k = max(1, min(len(units), n))
    return [units[(i * len(units)) // k] for i in range(k)]


class PruneThreshold(LearningPass):
    """Each unit's first ``quota`` records, cleaned as far as pruning, give their sentences' scores."""

    name = "prune_threshold"
    cleaned_until = "prune"

    def sample(self, units: list) -> list:
        return sample_units(units, self.opts.prune_sample_docs)

    def start(self, chosen: list) -> dict:
        return {"quota": math.ceil(self.opts.prune_sample_docs / max(len(chosen), 1))}

    def take(self, rnd: int, state: dict) -> int:
        return state["quota"]

    def map_docs(self, rnd: int, docs, state: dict) -> dict:
        from preprocess.filters.prune import scoring_pruner

        pruner = scoring_pruner(self.opts)
        scores, cleaned = [], 0
        for d in docs:
            cleaned += 1
            for line_no, s in sentences_of_lines(d.lines):
                scored = pruner.decision_score(s, d.lines[line_no].link_density or 0.0)
                if scored is not None:
                    scores.append(scored[1])
        return {"docs": cleaned, "scores": np.asarray(scores, dtype=np.float64)}

    def reduce(self, rnd: int, partials: list, state: dict) -> dict:
        scores = np.concatenate([p["scores"] for p in partials]) if partials else np.zeros(0)
        if not len(scores):
            raise ValueError("no sentences in the calibration sample: use --max-perplexity/--prune-threshold "
                             "instead of --prune-percentile, or a larger --prune-sample-docs")
        threshold = float(np.percentile(scores, 100 - self.opts.prune_percentile))
        return {"threshold": threshold, "info": {
            "percentile": self.opts.prune_percentile, "score": self.opts.prune_score,
            "sample_docs": sum(p["docs"] for p in partials), "sample_sentences": int(len(scores)),
            "threshold": round(threshold, 4)}}
