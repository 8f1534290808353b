"""Perplexity sentence pruning (Fernández-Pichel et al.): drop sentences a language model finds unlikely.

Each block line of the cleaned text is split into sentences (never across
lines); each sentence is scored with a KenLM model (loaded once per worker,
memory-mapped) after :func:`preprocess.lm.normalize.normalize`; sentences whose
perplexity exceeds the threshold (``--max-perplexity``) are dropped. The title (``doc.title``) is
never pruned. A document left with no text is a counted skip (``empty_after_pruning``).

``score="adjusted"`` decides on a boilerplate logit instead of raw perplexity:
``w1*log10(perplexity) + w2*log10(tokens + 1) + w3*link_density`` of the
sentence's line (DOM evidence from ``TagRemoval(line_features=True)``), weights
fitted by ``scripts/eval_pruning_lines.py`` on 30% of the shared cleaning pages
(held-out AUC 0.85 against 0.69 for perplexity alone). Its scale means nothing
outside that formula, so it is used with a percentile threshold.

Stats: ``prune.sentences`` / ``sentences_kept`` / ``sentences_dropped``,
``prune.sentences_without_words`` (dropped: only punctuation or symbols),
``prune.bytes_before`` / ``bytes_after``, ``prune.segment_score_s`` (segmenting and scoring),
and a log10-perplexity histogram (``prune.hist.<bin>``, 0.1-wide bins) from which
the run reports deciles.
"""
from __future__ import annotations

import math
import re
import time
from collections import Counter

from preprocess.document import Document, Line
from preprocess.lm.normalize import normalize
from preprocess.filters.prune.options import SCORES, is_contrastive
from preprocess.segment import sentences_of_lines
from preprocess.steps.base import BuildContext, Step

HIST_PREFIX = "prune.hist."
# Fitted by scripts/eval_pruning_lines.py (general-English trigram; see README "Does perplexity find boilerplate?")
ADJUSTED_WEIGHTS = (0.191, -1.323, 2.635)
_WORD = re.compile(r"\w")
BIN = 0.1


def hist_bin(ppl: float) -> int:
    return min(int(math.log10(max(ppl, 1.0)) / BIN), 99)


def fixed_threshold(opts) -> float | None:
    """The threshold a run without calibration compares with (a contrastive model's default when none is given)."""
    if is_contrastive(opts):
        from preprocess.lm.contrastive import default_threshold

        return opts.prune_threshold if opts.prune_threshold is not None else default_threshold(opts.prune_model)
    return opts.max_perplexity if opts.max_perplexity is not None else opts.prune_threshold


def run_threshold(ctx: BuildContext) -> float | None:
    """The threshold a pruner compares with: the calibrated one with ``--prune-percentile``, else
    :func:`fixed_threshold`."""
    if ctx.opts.prune_percentile is None:
        return fixed_threshold(ctx.opts)
    calibrated = ctx.learned.get("prune_threshold")
    if calibrated is None:
        raise ValueError("percentile pruning needs its threshold: the prune_threshold learning pass "
                         "(preprocess.calibrate) runs first")
    return calibrated["threshold"]


def keep_sentences(step: Step, doc: Document, kept_lines: dict[int, list[str]], seen: int, kept: int, before: int,
                   score_s: float) -> Document | None:
    """The end of both pruners: each line keeps its surviving sentences, the counters are recorded, and a
    document left with no text (and no title) is a counted skip."""
    doc.lines = [Line(" ".join(sents), doc.lines[i].link_density) for i, sents in sorted(kept_lines.items())]
    after = len(doc.text.encode("utf-8"))
    for key, value in (("sentences", seen), ("sentences_kept", kept), ("sentences_dropped", seen - kept),
                       ("bytes_before", before), ("bytes_after", after), ("segment_score_s", score_s)):
        step.stat_update(key, value)
    if seen == 0:
        step.stat_update("docs_without_sentences")
    if not doc.lines and not doc.title:
        return step.drop(doc, "empty_after_pruning", f"all {seen} sentences scored above {step.threshold:g}")
    return doc


def scoring_pruner(opts) -> Step:
    """A pruner of ``opts``' model that drops nothing: what calibration scores sentences with."""
    if is_contrastive(opts):
        from preprocess.filters.prune.contrastive import ContrastivePrune

        return ContrastivePrune(opts.prune_model, float("inf"), opts.prune_score)
    return PerplexityPrune(opts.prune_model, float("inf"), opts.prune_score)


def deciles(counts: dict) -> dict[str, float]:
    """Approximate perplexity deciles (bin upper edges) from the histogram counters of a run."""
    hist = sorted((int(k[len(HIST_PREFIX):]), v) for k, v in counts.items() if k.startswith(HIST_PREFIX))
    total = sum(v for _, v in hist)
    if not total:
        return {}
    out, seen, i = {}, 0, 0
    for q in range(1, 10):
        target = total * q / 10
        while seen + hist[i][1] < target:
            seen += hist[i][1]
            i += 1
        out[f"p{q * 10}"] = round(10 ** ((hist[i][0] + 1) * BIN))
    return out


class PerplexityPrune(Step):
    name = "prune"

    def __init__(self, model: str, threshold: float, score: str = "perplexity"):
        super().__init__()
        from preprocess.lm.score import Scorer

        if score not in SCORES:
            raise ValueError(f"unknown pruning score {score!r}; one of {', '.join(SCORES)}")
        self.scorer = Scorer(model)
        self.threshold = float(threshold)
        self.adjusted = score == "adjusted"
        self._loads = 1  # reported once in the stats: a run shows one model load per worker

    @classmethod
    def build(cls, ctx: BuildContext) -> Step:
        """The pruner for the model's kind: a contrastive model directory gets :class:`ContrastivePrune`."""
        opts = ctx.opts
        if is_contrastive(opts):
            from preprocess.filters.prune.contrastive import ContrastivePrune

            return ContrastivePrune.build(ctx)
        return cls(opts.prune_model, run_threshold(ctx), opts.prune_score)

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

    def process(self, doc: Document) -> Document | None:
        if self._loads:
            self.stat_update("model_loads", self._loads)
            self._loads = 0
        before = len(doc.text.encode("utf-8"))
        kept_lines: dict[int, list[str]] = {}
        seen = kept = 0
        bins = []
        if self.adjusted and any(line.link_density is None for line in doc.lines):
            raise RuntimeError("adjusted pruning needs line link densities: TagRemoval(line_features=True)")
        t0 = time.perf_counter()
        for line_no, sent in sentences_of_lines(doc.lines):
            scored = self.decision_score(sent, doc.lines[line_no].link_density if self.adjusted else 0.0)
            seen += 1
            if scored is None:  # no word at all ("!!! ---", "|"): nothing worth indexing
                self.stat_update("sentences_without_words")
                continue
            ppl, score = scored
            bins.append(hist_bin(ppl))
            if score <= self.threshold:
                kept_lines.setdefault(line_no, []).append(sent)
                kept += 1
        score_s = time.perf_counter() - t0
        for b, n in Counter(bins).items():
            self.stats.counts[f"{HIST_PREFIX}{b}"] += n
        return keep_sentences(self, doc, kept_lines, seen, kept, before, score_s)
