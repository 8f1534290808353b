"""Sentence pruning with a contrastive model (``webprune lm train-crawl``): drop what looks like boilerplate.

Each sentence (per line, :mod:`.common`) gets the contrastive
score of :mod:`preprocess.lm.contrastive`, H_content - H_boilerplate in bits per
token, higher = more boilerplate-like. A sentence scoring above the threshold is
dropped; the title is never pruned; a document left with nothing is a counted skip
(``empty_after_pruning``).

Threshold: ``--prune-threshold X`` (bits per token), ``--prune-percentile P`` (the
worst P% of a calibration sample, :mod:`preprocess.filters.prune.calibrate`), or neither: the
model card's ``default_threshold`` (3 bits, see the README's "Contrastive pruning").

``--prune-score adjusted`` adds line length: ``score - LENGTH_WEIGHT * (log10(tokens + 1) - 1)``,
so a sentence of about 10 tokens keeps its score, shorter ones look more like
boilerplate and longer ones less. The weight is the ratio of the two coefficients
of a logistic fit on 30% of the shared cleaning pages (``scripts/studies/eval_contrastive_lines.py``).

Languages: each document is scored with the pair of its language, detected on its title and
lines (:mod:`preprocess.lm.lang`); a document whose language has no pair in the model is left
unpruned and counted (``prune.docs_without_language_model`` and ``prune.unpruned_lang.<lang>``;
scored ones: ``prune.lang.<lang>``), unless a pair's vocabulary covers 90% of its words
(``prune.docs_scored_by_vocabulary``: English pages detect_fast took for another language). One sentence alone (``decision_score``, the calibration
sample) takes its pair by script: Chinese/Japanese/Korean, else the main language's.

Stats: the counters of :mod:`.common` and a histogram of scores in quarter-bit bins,
``prune.chist.<bin>``.
"""
from __future__ import annotations

import math
import os

from preprocess.core.document import Document
from preprocess.filters.prune.common import PageScorer, SentencePrune, histogram_deciles
from preprocess.lm.contrastive import ContrastiveScorer, default_threshold, has_word, normalize_many
from preprocess.lm.lang import line_language, page_text

CHIST_PREFIX = "prune.chist."
LENGTH_WEIGHT = 2.2  # bits per decade of tokens: 0.774 / 0.35 in scripts/studies/eval_contrastive_lines.py


class ContrastivePrune(SentencePrune):
    hist_prefix = CHIST_PREFIX

    def __init__(self, model: str, threshold: float | None = None, score: str = "contrastive"):
        super().__init__()
        self.scorer = ContrastiveScorer(model)
        self.threshold = self.scorer.default_threshold if threshold is None else float(threshold)
        self.length_weight = LENGTH_WEIGHT if score == "adjusted" else 0.0

    @staticmethod
    def fixed_threshold(opts) -> float | None:
        """``--prune-threshold``, else the model card's default."""
        return opts.prune_threshold if opts.prune_threshold is not None else default_threshold(opts.prune_model)

    @classmethod
    def summary(cls, opts, counts: dict, learned: dict) -> dict:
        out = super().summary(opts, counts, learned)
        # a contrastive model scores contrastively; "adjusted" adds its length term
        out["pruning"] |= {"score": "adjusted" if opts.prune_score == "adjusted" else "contrastive",
                           "perplexity_deciles": {}, "score_deciles_bits": score_deciles(counts)}
        return out

    def score_sentences(self, sentences: list[str]) -> list[float | None]:
        """The decision score of each sentence under the main language's pair (None: no word at all),
        normalised in one pass."""
        return self._score_with(self.scorer.pair(self.scorer.main), sentences)

    def _score_with(self, pair, sentences: list[str]) -> list[float | None]:
        norms = normalize_many(sentences)
        scores = pair.score_worded(norms)  # None: no word at all
        if self.length_weight:
            scores = [None if s is None else self._adjust(s, n) for s, n in zip(scores, norms)]
        return scores

    def _adjust(self, score: float, norm: str) -> float:
        """The score with the length term of ``--prune-score adjusted`` (bits per decade of tokens)."""
        return score - self.length_weight * (math.log10(norm.count(" ") + 2) - 1)

    def decision_score(self, sentence: str, link_density: float = 0.0) -> tuple[float, float] | None:
        """(contrastive score, the score compared with the threshold), or None; as PerplexityPrune's."""
        n = normalize_many([sentence])[0]
        pair = self.scorer.pair(line_language(sentence, self.scorer.main)) if has_word(n) else None
        if pair is None:
            return None
        raw = pair.score_norm(n)
        return raw, (self._adjust(raw, n) if self.length_weight else raw)

    def page_scorer(self, doc: Document) -> PageScorer | None:
        """The pair of the page's language; None (counted) for a language without one: left as it is."""
        lang, pair, by_vocab = self.scorer.page_pair(page_text(doc.title, [ln.text for ln in doc.lines]))
        if pair is None:
            self.stat_update("docs_without_language_model")
            self.stat_update(f"unpruned_lang.{lang}")
            return None
        self.stat_update(f"lang.{lang}")
        if by_vocab:
            self.stat_update("docs_scored_by_vocabulary")
        return lambda sentences, _: quarter_bins(self._score_with(pair, sentences))


def quarter_bins_python(scores: list) -> list:
    """Each score with its histogram bin (quarter bits, -80..80), or None (no word)."""
    return [None if s is None else (max(-80, min(80, math.floor(s * 4))), s) for s in scores]


try:  # the compiled twin (_decide.pyx), where built; WEBPRUNE_PURE_PYTHON=1 runs the list above
    from preprocess.core._decide import quarter_bins
except ImportError:
    quarter_bins = quarter_bins_python
if os.environ.get("WEBPRUNE_PURE_PYTHON"):
    quarter_bins = quarter_bins_python  # noqa: F811


def score_deciles(counts: dict) -> dict[str, float]:
    """Approximate contrastive-score deciles (quarter-bit bin upper edges) from a run's histogram counters."""
    return histogram_deciles(counts, CHIST_PREFIX, lambda b: (b + 1) / 4)
