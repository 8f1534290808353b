"""Sentence perplexity under a KenLM model (memory-mapped binary or ARPA)."""
from __future__ import annotations

from pathlib import Path

from preprocess.lm.normalize import normalize


class Scorer:
    """Loads the model once; ``perplexity(sentence)`` normalises exactly as training did."""

    def __init__(self, model: str | Path):
        import kenlm

        path = Path(model)
        if not path.is_file():
            raise FileNotFoundError(f"{path}: no such language model; train one with `webprune lm train`")
        self.path = str(path)
        self.model = kenlm.Model(self.path)  # binary models are mmap'ed: actors on one node share the pages

    def perplexity(self, sentence: str) -> float | None:
        """Per-token perplexity including the end-of-sentence token; None when no token remains."""
        norm = normalize(sentence)
        return self.normalized_perplexity(norm) if norm else None

    def normalized_perplexity(self, norm: str) -> float:
        """KenLM's ``perplexity`` without its re-split: ``norm`` is single-space separated, so tokens + </s>
        is ``count(" ") + 2`` (the same floats, ~15% less time)."""
        return 10.0 ** (-self.model.score(norm) / (norm.count(" ") + 2))
