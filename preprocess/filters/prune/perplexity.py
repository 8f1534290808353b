"""Perplexity sentence pruning (Fernández-Pichel et al.): drop sentences a language model finds unlikely.

Each sentence (per line, :mod:`.common`) is scored with a KenLM model (loaded once per worker,
memory-mapped) after :func:`preprocess.lm.normalize.normalize`; sentences whose
perplexity exceeds the threshold (``--max-perplexity``) are dropped.

``score="adjusted"`` decides on a boilerplate logit instead of raw perplexity:
``w1*log10(perplexity) + w2*log10(tokens + 1) + w3*link_density`` of the
sentence's line (DOM evidence from ``TagRemoval(line_features=True)``), weights
fitted by ``scripts/studies/eval_pruning_lines.py`` on 30% of the shared cleaning pages
(held-out AUC 0.85 against 0.69 for perplexity alone). Its scale means nothing
outside that formula, so it is used with a percentile threshold.

Stats: those of :mod:`.common` and a log10-perplexity histogram (``prune.hist.<bin>``, 0.1-wide
bins) from which the run reports deciles.
"""
from __future__ import annotations

import math
import re

from preprocess.core.document import Document
from preprocess.filters.prune.common import PageScorer, SentencePrune, histogram_deciles
from preprocess.filters.prune.options import SCORES
from preprocess.lm.normalize import normalize

HIST_PREFIX = "prune.hist."
# Fitted by scripts/studies/eval_pruning_lines.py (general-English trigram; see README "Does perplexity find boilerplate?")
ADJUSTED_WEIGHTS = (0.191, -1.323, 2.635)
_WORD = re.compile(r"\w")
BIN = 0.1


def hist_bin(ppl: float) -> int:
    return min(int(math.log10(max(ppl, 1.0)) / BIN), 99)


def deciles(counts: dict) -> dict[str, float]:
    """Approximate perplexity deciles (bin upper edges) from the histogram counters of a run."""
    return histogram_deciles(counts, HIST_PREFIX, lambda b: round(10 ** ((b + 1) * BIN)))


class PerplexityPrune(SentencePrune):
    hist_prefix = HIST_PREFIX

    def __init__(self, model: str, threshold: float, score: str = "perplexity"):
        super().__init__()
        from preprocess.lm.score import Scorer

        if score not in SCORES:
            raise ValueError(f"unknown pruning score {score!r}; one of {', '.join(SCORES)}")
        self.scorer = Scorer(model)
        self.threshold = float(threshold)
        self.adjusted = score == "adjusted"

    @staticmethod
    def fixed_threshold(opts) -> float | None:
        return opts.max_perplexity if opts.max_perplexity is not None else opts.prune_threshold

    @classmethod
    def summary(cls, opts, counts: dict, learned: dict) -> dict:
        out = super().summary(opts, counts, learned)
        out["pruning"]["perplexity_deciles"] = deciles(counts)
        return out

    def decision_score(self, sentence: str, link_density: float = 0.0) -> tuple[float, float] | None:
        """(perplexity, the score compared with the threshold), or None for a sentence without words."""
        norm = normalize(sentence)
        if not _WORD.search(norm):
            return None
        ppl = self.scorer.normalized_perplexity(norm)
        if not self.adjusted:
            return ppl, ppl
        w_ppl, w_len, w_link = ADJUSTED_WEIGHTS
        return ppl, w_ppl * math.log10(ppl) + w_len * math.log10(norm.count(" ") + 2) + w_link * link_density

    def page_scorer(self, doc: Document) -> PageScorer:
        if self.adjusted and any(line.link_density is None for line in doc.lines):
            raise RuntimeError("adjusted pruning needs line link densities: TagRemoval(line_features=True)")
        return self._score

    def _score(self, sentences: list[str], link_densities: list) -> list:
        out = []
        for sent, link_density in zip(sentences, link_densities):
            scored = self.decision_score(sent, link_density if self.adjusted else 0.0)
            out.append(None if scored is None else (hist_bin(scored[0]), scored[1]))
        return out
