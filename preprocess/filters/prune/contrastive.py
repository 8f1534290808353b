"""Sentence pruning with a contrastive model (``webprune lm train-crawl``): drop what looks like boilerplate.

Each sentence (per line, as in :mod:`preprocess.filters.prune.perplexity`) gets the contrastive
score of :mod:`preprocess.lm.contrastive`, H_content - H_boilerplate in bits per
token, higher = more boilerplate-like. A sentence scoring above the threshold is
dropped; the title is never pruned; a document left with nothing is a counted skip
(``empty_after_pruning``).

Threshold: ``--prune-threshold X`` (bits per token), ``--prune-percentile P`` (the
worst P% of a calibration sample, :mod:`preprocess.calibrate`), or neither: the
model card's ``default_threshold`` (3 bits, see the README's "Contrastive pruning").

``--prune-score adjusted`` adds line length: ``score - LENGTH_WEIGHT * (log10(tokens + 1) - 1)``,
so a sentence of about 10 tokens keeps its score, shorter ones look more like
boilerplate and longer ones less. The weight is the ratio of the two coefficients
of a logistic fit on 30% of the shared cleaning pages (``scripts/eval_contrastive_lines.py``).

Languages: each document is scored with the pair of its language, detected on its title and
lines (:mod:`preprocess.lm.lang`); a document whose language has no pair in the model is left
unpruned and counted (``prune.docs_without_language_model`` and ``prune.unpruned_lang.<lang>``;
scored ones: ``prune.lang.<lang>``), unless a pair's vocabulary covers 90% of its words
(``prune.docs_scored_by_vocabulary``: English pages detect_fast took for another language). One sentence alone (``decision_score``, the calibration
sample) takes its pair by script: Chinese/Japanese/Korean, else the main language's.

Stats: the same counters as perplexity pruning (``prune.sentences``,
``sentences_kept``, ``sentences_dropped``, ``sentences_without_words``, bytes,
``segment_score_s``, ``model_loads``) and a histogram of scores in quarter-bit bins,
``prune.chist.<bin>``.
"""
from __future__ import annotations

import math
import time
from collections import Counter

from preprocess.document import Document
from preprocess.filters.prune.perplexity import keep_sentences, run_threshold
from preprocess.lm.contrastive import ContrastiveScorer, has_word, normalize_many
from preprocess.lm.lang import line_language, page_text
from preprocess.segment import sentences_of_lines
from preprocess.steps.base import BuildContext, Step

CHIST_PREFIX = "prune.chist."
LENGTH_WEIGHT = 2.2  # bits per decade of tokens: 0.774 / 0.35 in scripts/eval_contrastive_lines.py


class ContrastivePrune(Step):
    name = "prune"

    def __init__(self, model: str, threshold: float | None = None, score: str = "contrastive"):
        super().__init__()
        self.scorer = ContrastiveScorer(model)
        self.threshold = self.scorer.default_threshold if threshold is None else float(threshold)
        self.length_weight = LENGTH_WEIGHT if score == "adjusted" else 0.0
        self._loads = 1

    @classmethod
    def build(cls, ctx: BuildContext) -> "ContrastivePrune":
        return cls(ctx.opts.prune_model, run_threshold(ctx), ctx.opts.prune_score)

    def score_sentences(self, sentences: list[str]) -> list[float | None]:
        """The decision score of each sentence under the main language's pair (None: no word at all),
        normalised in one pass."""
        return self._score_with(self.scorer.pair(self.scorer.main), sentences)

    def _score_with(self, pair, sentences: list[str]) -> list[float | None]:
        score, w = pair.score_norm, self.length_weight
        if not w:
            return [score(n) if has_word(n) else None for n in normalize_many(sentences)]
        return [self._adjust(score(n), n) if has_word(n) else None for n in normalize_many(sentences)]

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

    def process(self, doc: Document) -> Document | None:
        if self._loads:
            self.stat_update("model_loads", self._loads)
            self._loads = 0
        t0 = time.perf_counter()
        lang, pair, by_vocab = self.scorer.page_pair(page_text(doc.title, [ln.text for ln in doc.lines]))
        if pair is None:  # a language without a pair: left as it is
            self.stat_update("docs_without_language_model")
            self.stat_update(f"unpruned_lang.{lang}")
            return doc
        self.stat_update(f"lang.{lang}")
        if by_vocab:
            self.stat_update("docs_scored_by_vocabulary")
        before = len(doc.text.encode("utf-8"))
        pieces = list(sentences_of_lines(doc.lines))
        scores = self._score_with(pair, [s for _, s in pieces])
        kept_lines: dict[int, list[str]] = {}
        kept = 0
        bins = Counter()
        for (line_no, sent), score in zip(pieces, scores):
            if score is None:
                self.stat_update("sentences_without_words")
                continue
            bins[max(-80, min(80, math.floor(score * 4)))] += 1
            if score <= self.threshold:
                kept_lines.setdefault(line_no, []).append(sent)
                kept += 1
        score_s = time.perf_counter() - t0
        for b, n in bins.items():
            self.stats.counts[f"{CHIST_PREFIX}{b}"] += n
        return keep_sentences(self, doc, kept_lines, len(pieces), kept, before, score_s)


def score_deciles(counts: dict) -> dict[str, float]:
    """Approximate contrastive-score deciles (quarter-bit bin upper edges) from a run's histogram counters."""
    hist = sorted((int(k[len(CHIST_PREFIX):]), v) for k, v in counts.items() if k.startswith(CHIST_PREFIX))
    total = sum(v for _, v in hist)
    out, seen, i = {}, 0, 0
    for q in range(1, 10) if total else ():
        while seen + hist[i][1] < total * q / 10:
            seen += hist[i][1]
            i += 1
        out[f"p{q * 10}"] = (hist[i][0] + 1) / 4
    return out
