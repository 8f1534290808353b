"""A contrastive language-model score learned from a crawl without labels (Moore & Lewis 2010).

Two n-gram models are trained on the crawl's own lines (:mod:`preprocess.lm.crawl`):
**content** (lines a DOM cleaner kept, minus template lines) and **boilerplate**
(lines it removed, plus lines repeated on many pages of one host). Both share one
vocabulary: words seen ``min_word_count`` times or more in the sample; every other
word becomes ``OOV`` in training text and when scoring, so an unseen word costs the
same under both models.

A line's score is the per-token cross-entropy difference in bits per token (tokens
of :func:`normalize` plus ``</s>``)::

    score(s) = H_content(s) - H_boilerplate(s) = (log2 P_b(s) - log2 P_c(s)) / (tokens + 1)

Higher is more boilerplate-like; 0 means "equally likely under both". A plain KenLM
model scores by perplexity under the same convention (higher = less likely), so
``webprune lm score`` and ``--prune-model`` take either kind: :func:`open_model`.

A contrastive model is a directory ``MODEL/`` holding ``content.bin``,
``boilerplate.bin``, ``vocab.txt`` and the card ``contrastive.json`` (corpus sizes,
labelling options, order, sample, training time). The card is written last: a
directory with a card is a finished model.
"""
from __future__ import annotations

import json
import math
import re
import unicodedata
from pathlib import Path

from preprocess.lm.normalize import _DIGITS, _QUOTES, _TOKEN, normalize

CARD = "contrastive.json"
CONTENT, BOILER, VOCAB = "content.bin", "boilerplate.bin", "vocab.txt"
OOV = "_unk_"  # every word outside the shared vocabulary, in training text and when scoring
LOG2_10 = math.log2(10)
# bits per token; chosen on the shared cleaning sets (README, "Contrastive pruning"): at 3 bits a sentence is
# 8x more likely under the boilerplate model than under the content model
DEFAULT_THRESHOLD = 3.0
_WORD = re.compile(r"\w")


def is_contrastive(path) -> bool:
    """A directory holding a card is a contrastive model; anything else is a plain KenLM file."""
    return bool(path) and Path(path).is_dir() and (Path(path) / CARD).is_file()


def default_threshold(path) -> float:
    """The documented default threshold a contrastive model's card records."""
    card = json.loads((Path(path) / CARD).read_text(encoding="utf-8"))
    return float(card.get("default_threshold", DEFAULT_THRESHOLD))


def check_model(path) -> str:
    """'contrastive' or 'perplexity' for a model path; ValueError (one line, what to do) for anything else."""
    p = Path(str(path))
    if p.is_dir():
        if not (p / CARD).is_file():
            raise ValueError(f"{p} is a folder without {CARD}: not a contrastive model (train one with "
                             "`webprune lm train-crawl`, or give a KenLM model file)")
        missing = [n for n in (CONTENT, BOILER, VOCAB) if not (p / n).is_file()]
        if missing:
            raise ValueError(f"{p}: contrastive model incomplete, {', '.join(missing)} missing; train it again")
        return "contrastive"
    if not p.is_file():
        raise ValueError(f"{p}: no such language model (a KenLM file from `webprune lm train`, or a directory "
                         "from `webprune lm train-crawl`)")
    return "perplexity"


def normalize_many(texts: list[str]) -> list[str]:
    """``[normalize(t) for t in texts]``, with one casefold, digit and split pass over the joined text."""
    if not texts:
        return []
    text = "\n".join(t if t.isascii() else unicodedata.normalize("NFKC", t).translate(_QUOTES) for t in texts)
    text = text.casefold()
    if "`" in text or "''" in text:
        text = text.replace("``", '"').replace("''", '"')
    parts = _DIGITS.sub("0", text).split("\n")
    if len(parts) != len(texts):  # a text held a newline (or NFKC made one): one at a time
        return [normalize(t) for t in texts]
    return [" ".join(_TOKEN.findall(p)) for p in parts]


def map_oov(norm: str, vocab) -> str:
    """Normalised text with every word outside ``vocab`` replaced by ``OOV``."""
    return " ".join(t if t in vocab else OOV for t in norm.split())


class ContrastiveScorer:
    """Both models loaded once (memory-mapped); ``score_norm`` takes text already :func:`normalize`-d."""

    kind = "contrastive"

    def __init__(self, path):
        import kenlm

        check_model(path)
        path = Path(path)
        if not is_contrastive(path):
            raise ValueError(f"{path} is a KenLM file, not a contrastive model directory")
        self.path = str(path)
        self.card = json.loads((path / CARD).read_text(encoding="utf-8"))
        self.content = kenlm.Model(str(path / CONTENT))
        self.boiler = kenlm.Model(str(path / BOILER))
        self.vocab = frozenset((path / VOCAB).read_text(encoding="utf-8").split())
        self.default_threshold = default_threshold(path)

    def score_norm(self, norm: str) -> float:
        vocab = self.vocab
        toks = norm.split()
        text = " ".join(t if t in vocab else OOV for t in toks)
        return (self.boiler.score(text) - self.content.score(text)) * LOG2_10 / (len(toks) + 1)

    def score(self, text: str) -> float | None:
        norm = normalize(text)
        return self.score_norm(norm) if norm else None


class PerplexityScorer:
    """A plain KenLM model under the same interface: the score is the perplexity (higher = less likely)."""

    kind = "perplexity"

    def __init__(self, path):
        from preprocess.lm.score import Scorer

        check_model(path)
        self.path = str(path)
        self.model = Scorer(path).model

    def score_norm(self, norm: str) -> float:
        return self.model.perplexity(norm)

    def score(self, text: str) -> float | None:
        norm = normalize(text)
        return self.score_norm(norm) if norm else None


def open_model(path) -> ContrastiveScorer | PerplexityScorer:
    """A directory with a card: contrastive; a file: plain KenLM perplexity."""
    return ContrastiveScorer(path) if check_model(path) == "contrastive" else PerplexityScorer(path)


def train_side(corpus: Path, out: Path, order: int, memory: str) -> dict:
    """One side's KenLM binary from a normalised corpus (lmplz's fallback discounts for tiny corpora)."""
    from preprocess.lm.train import train

    try:
        info = train([corpus], out, order=order, memory=memory)
    except RuntimeError as exc:  # tiny corpora: no singletons/doubletons for the closed-form discounts
        if "discount" not in str(exc).lower():
            raise
        info = train([corpus], out, order=order, memory=memory, discount_fallback=True)
    return {"file": out.name, "lines": info["lines"], "tokens": info["tokens"], "bytes": info["bytes"],
            "discount_fallback": info["discount_fallback"], "seconds": info["seconds"]}


def write_card(output: Path, card: dict) -> None:
    tmp = output / (CARD + ".tmp")
    tmp.write_text(json.dumps(card, indent=1, ensure_ascii=False), encoding="utf-8")
    tmp.replace(output / CARD)  # last: a directory with a card is a finished model


def has_word(norm: str) -> bool:
    return bool(_WORD.search(norm))
