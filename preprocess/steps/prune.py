"""Perplexity sentence pruning (Fernández-Pichel et al.): drop sentences a language model finds unlikely.

Each block line of the cleaned text is split into sentences (never across
lines); each sentence is scored with a KenLM model (loaded once per worker,
memory-mapped) after :func:`preprocess.lm.normalize.normalize`; sentences whose
perplexity exceeds ``max_perplexity`` are dropped. The title (``doc.title``) is
never pruned. A document left with no text is a counted skip (``empty_after_pruning``).

Stats: ``prune.sentences`` / ``sentences_kept`` / ``sentences_dropped``,
``prune.sentences_without_words`` (dropped: only punctuation or symbols),
``prune.bytes_before`` / ``bytes_after``, ``prune.score_s`` (time in the model),
and a log10-perplexity histogram (``prune.hist.<bin>``, 0.1-wide bins) from which
the run reports deciles.
"""
from __future__ import annotations

import math
import re
import time

from preprocess.document import Document
from preprocess.lm.normalize import normalize
from preprocess.segment import sentences_of
from preprocess.steps.base import Step

HIST_PREFIX = "prune.hist."
_WORD = re.compile(r"\w")
BIN = 0.1


def hist_bin(ppl: float) -> int:
    return min(int(math.log10(max(ppl, 1.0)) / BIN), 99)


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

    def __init__(self, model: str, max_perplexity: float):
        super().__init__()
        from preprocess.lm.score import Scorer

        self.scorer = Scorer(model)
        self.max_perplexity = float(max_perplexity)
        self._loads = 1  # reported once in the stats: a run shows one model load per worker


    def score(self, sentence: str) -> float | None:
        """Perplexity, or None for a sentence without a single word (only punctuation or symbols)."""
        norm = normalize(sentence)
        return self.scorer.model.perplexity(norm) if _WORD.search(norm) else None

    def process(self, doc: Document) -> Document | None:
        if self._loads:
            self.stat_update("model_loads", self._loads)
            self._loads = 0
        before = len(doc.text.encode("utf-8"))
        lines: dict[int, list[str]] = {}
        seen = kept = 0
        score_s = 0.0
        for line_no, sent in sentences_of(doc.text):
            t0 = time.perf_counter()
            ppl = self.score(sent)
            score_s += time.perf_counter() - t0
            seen += 1
            if ppl is None:  # no word at all ("!!! ---", "|"): nothing worth indexing
                self.stat_update("sentences_without_words")
                continue
            self.stats.counts[f"{HIST_PREFIX}{hist_bin(ppl)}"] += 1
            if ppl <= self.max_perplexity:
                lines.setdefault(line_no, []).append(sent)
                kept += 1
        doc.text = "\n".join(" ".join(s) for _, s in sorted(lines.items()))
        after = len(doc.text.encode("utf-8"))
        for key, value in (("sentences", seen), ("sentences_kept", kept), ("sentences_dropped", seen - kept),
                           ("bytes_before", before), ("bytes_after", after), ("score_s", score_s)):
            self.stat_update(key, value)
        if seen == 0:
            self.stat_update("docs_without_sentences")
        if not doc.text and not doc.title:
            return self.drop(doc, "empty_after_pruning", f"all {seen} sentences above perplexity {self.max_perplexity:g}")
        return doc
