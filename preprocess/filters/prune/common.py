"""What both pruners share: the sentence loop, the threshold, the counters and the run summary.

A scorer (:mod:`.perplexity`, :mod:`.contrastive`) subclasses :class:`SentencePrune` and
says how a page's sentences are scored (:meth:`SentencePrune.page_scorer`: each sentence's
histogram bin and decision score, None for one without words), which threshold a run
without calibration uses and how its histogram reads as deciles. Each block line of the
cleaned text is split into sentences (never across lines); a sentence scoring above the
threshold is dropped; the title is never pruned; a document left with no text is a
counted skip (``empty_after_pruning``).

Stats: ``prune.sentences`` / ``sentences_kept`` / ``sentences_dropped``,
``prune.sentences_without_words`` (dropped: only punctuation or symbols),
``prune.bytes_before`` / ``bytes_after``, ``prune.segment_score_s`` (segmenting and
scoring), ``prune.model_loads`` and the scorer's histogram (``hist_prefix`` + bin).
"""
from __future__ import annotations

import os
import time
from typing import Callable

from preprocess.core.document import Document, Line
from preprocess.core.segment import sentence_columns
from preprocess.steps.base import BuildContext, Step

# (sentences, their lines' link densities) -> per sentence (histogram bin, decision score) or None (no word)
PageScorer = Callable[[list[str], list], list]


def run_threshold(ctx: BuildContext, fixed: Callable) -> float | None:
    """The threshold a pruner compares with: the calibrated one with ``--prune-percentile``, else
    ``fixed(opts)``."""
    if ctx.opts.prune_percentile is None:
        return fixed(ctx.opts)
    calibrated = ctx.learned.get("prune_threshold")
    if calibrated is None:
        raise ValueError("percentile pruning needs its threshold: the prune_threshold learning pass "
                         "(preprocess.filters.prune.calibrate) runs first")
    return calibrated["threshold"]


def histogram_deciles(counts: dict, prefix: str, edge: Callable[[int], float]) -> dict[str, float]:
    """Approximate deciles (``edge`` of the bin each falls in) from a run's histogram counters ``prefix<bin>``."""
    hist = sorted((int(k[len(prefix):]), v) for k, v in counts.items() if k.startswith(prefix))
    total = sum(v for _, v in hist)
    out, seen, i = {}, 0, 0
    for q in range(1, 10) if total else ():
        while seen + hist[i][1] < total * q / 10:
            seen += hist[i][1]
            i += 1
        out[f"p{q * 10}"] = edge(hist[i][0])
    return out


def decide_python(nos: list[int], sents: list[str], scored: list, threshold: float,
                  hist: dict) -> tuple[dict[int, list[str]], int, int]:
    """(the kept sentences of each line by line number, kept, without a word): a sentence is kept where its
    decision score is at most ``threshold``; ``hist`` counts each scored sentence's bin."""
    kept_lines: dict[int, list[str]] = {}
    kept = without = 0
    for line_no, sent, one in zip(nos, sents, scored):
        if one is None:  # no word at all ("!!! ---", "|"): nothing worth indexing
            without += 1
            continue
        hist[one[0]] = hist.get(one[0], 0) + 1
        if one[1] <= threshold:
            kept_lines.setdefault(line_no, []).append(sent)
            kept += 1
    return kept_lines, kept, without


try:  # the compiled twin (_decide.pyx), where built; WEBPRUNE_PURE_PYTHON=1 runs the loop above
    from preprocess.core._decide import decide
except ImportError:
    decide = decide_python
if os.environ.get("WEBPRUNE_PURE_PYTHON"):
    decide = decide_python  # noqa: F811


class SentencePrune(Step):
    name = "prune"
    hist_prefix = "prune.hist."

    def __init__(self):
        super().__init__()
        self.threshold = float("inf")
        self._loads = 1  # reported once in the stats: a run shows one model load per worker

    @staticmethod
    def fixed_threshold(opts) -> float | None:
        """The threshold a run without calibration compares with."""
        raise NotImplementedError

    @classmethod
    def build(cls, ctx: BuildContext) -> "SentencePrune":
        return cls(ctx.opts.prune_model, run_threshold(ctx, cls.fixed_threshold), ctx.opts.prune_score)

    @classmethod
    def summary(cls, opts, counts: dict, learned: dict) -> dict:
        """stats.json's ``pruning``: model, score, threshold (calibrated or fixed) and deciles."""
        calibrated = learned.get("prune_threshold")
        return {"pruning": {"model": opts.prune_model, "score": opts.prune_score,
                            "threshold": calibrated["threshold"] if calibrated else cls.fixed_threshold(opts),
                            "calibration": calibrated or None}}

    def page_scorer(self, doc: Document) -> PageScorer | None:
        """How this page's sentences are scored; None leaves the page as it is (the scorer counts why)."""
        raise NotImplementedError

    def process(self, doc: Document) -> Document | None:
        if self._loads:
            self.stat_update("model_loads", self._loads)
            self._loads = 0
        t0 = time.perf_counter()
        score = self.page_scorer(doc)
        if score is None:
            return doc
        lines = doc.lines
        before = len(doc.text.encode("utf-8"))
        nos, sents = sentence_columns([line.text for line in lines])
        scored = score(sents, [lines[i].link_density for i in nos])
        hist: dict[int, int] = {}
        kept_lines, kept, without = decide(nos, sents, scored, self.threshold, hist)
        score_s = time.perf_counter() - t0
        if without:
            self.stat_update("sentences_without_words", without)
        for b, n in hist.items():
            self.stats.counts[f"{self.hist_prefix}{b}"] += n
        return self.keep(doc, kept_lines, len(sents), kept, before, score_s)

    def keep(self, doc: Document, kept_lines: dict[int, list[str]], seen: int, kept: int, before: int,
             score_s: float) -> Document | None:
        """Each line keeps its surviving sentences, the counters are recorded, and a document left with no text
        (and no title) is a counted skip."""
        lines = doc.lines
        doc.lines = [Line(" ".join(sents), lines[i].link_density) for i, sents in sorted(kept_lines.items())]
        after = len(doc.text.encode("utf-8"))
        for key, value in (("sentences", seen), ("sentences_kept", kept), ("sentences_dropped", seen - kept),
                           ("bytes_before", before), ("bytes_after", after), ("segment_score_s", score_s)):
            self.stat_update(key, value)
        if seen == 0:
            self.stat_update("docs_without_sentences")
        if not doc.lines and not doc.title:
            return self.drop(doc, "empty_after_pruning", f"all {seen} sentences scored above {self.threshold:g}")
        return doc
