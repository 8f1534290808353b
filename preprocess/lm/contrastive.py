"""A contrastive language-model score learned from a crawl without labels (Moore & Lewis 2010).

Two n-gram models are trained on the crawl's own lines (:mod:`preprocess.driver.train_crawl`):
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

A contrastive model is a directory ``MODEL/`` holding the card ``contrastive.json``
(languages, corpus sizes, duplicates found, labelling options, order, sample, training
time) and one pair per language, ``MODEL/<lang>/{content.bin, boilerplate.bin,
vocab.txt}``: a page is scored with the pair of its language (:mod:`preprocess.lm.lang`),
a page of a language without a pair is not scored. A model of card version 1 holds one
pair at the top and scores every page with it. The card is written last: a directory
with a card is a finished model.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

from preprocess.lm.normalize import fold, nfkc_quotes, normalize, tokens_lines
from preprocess.lm.pair import BOILER, CONTENT, LOG2_10, OOV, VOCAB, Pair, has_word  # noqa: F401 (the model's names)

CARD = "contrastive.json"
ANY = "*"  # the one pair of a version-1 model
# bits per token; chosen on the shared cleaning sets (README, "Contrastive pruning"): at 3 bits a sentence is
# 8x more likely under the boilerplate model than under the content model
DEFAULT_THRESHOLD = 3.0
_LETTER = re.compile(r"[^\W\d_]")
# a page of a language without a pair is scored by a pair whose vocabulary holds this share of its words: on
# WCXB's development pages under the English pair of the shared cleaning sets, English pages cover 0.90-1.0
# (5th percentile 0.90), the French, Bulgarian pages 0.58-0.65 (README, "Contrastive pruning")
VOCAB_COVERAGE = 0.9


def is_contrastive(path) -> bool:
    """A directory holding a card is a contrastive model; anything else is a plain KenLM file."""
    return bool(path) and Path(path).is_dir() and (Path(path) / CARD).is_file()


def default_threshold(path) -> float:
    """The documented default threshold a contrastive model's card records."""
    return float(read_card(path).get("default_threshold", DEFAULT_THRESHOLD))


def read_card(path) -> dict:
    return json.loads((Path(path) / CARD).read_text(encoding="utf-8"))


def pair_dirs(card: dict) -> dict[str, str]:
    """Language -> folder of its pair; a version-1 card: ``{"*": "."}`` (one pair for every page)."""
    langs = card.get("languages")
    return {lang: e["dir"] for lang, e in langs.items()} if isinstance(langs, dict) else {ANY: "."}


def check_model(path) -> str:
    """'contrastive' or 'perplexity' for a model path; ValueError (one line, what to do) for anything else."""
    p = Path(str(path))
    if p.is_dir():
        if not (p / CARD).is_file():
            raise ValueError(f"{p} is a folder without {CARD}: not a contrastive model (train one with "
                             "`webprune lm train-crawl`, or give a KenLM model file)")
        try:
            dirs = pair_dirs(read_card(p))
        except (ValueError, KeyError, TypeError, AttributeError):
            raise ValueError(f"{p / CARD}: not a readable model card; train the model again") from None
        missing = [f"{d}/{n}" if d != "." else n for d in dirs.values() for n in (CONTENT, BOILER, VOCAB)
                   if not (p / d / n).is_file()]
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
    text = fold("\n".join(t if t.isascii() else nfkc_quotes(t) for t in texts))
    parts = tokens_lines(text, not text.isascii())
    if len(parts) != len(texts):  # a text held a newline (or NFKC made one): one at a time
        return [normalize(t) for t in texts]
    return parts


def map_oov(norm: str, vocab) -> str:
    """Normalised text with every word outside ``vocab`` replaced by ``OOV``."""
    return " ".join(t if t in vocab else OOV for t in norm.split())


class ContrastiveScorer:
    """A contrastive model: its card, and each language's :class:`Pair`, loaded when first used."""

    kind = "contrastive"

    def __init__(self, path):
        check_model(path)
        path = Path(path)
        if not is_contrastive(path):
            raise ValueError(f"{path} is a KenLM file, not a contrastive model directory")
        self.path = str(path)
        self.card = read_card(path)
        self.dirs = pair_dirs(self.card)
        self.main = self.card.get("main_language") or next(iter(self.dirs))
        self.default_threshold = default_threshold(path)
        self._pairs: dict[str, Pair] = {}

    @property
    def languages(self) -> list[str]:
        return sorted(self.dirs)

    def pair(self, lang: str) -> Pair | None:
        """The pair that scores pages of ``lang`` (a version-1 model's one pair for any), or None."""
        if ANY in self.dirs:
            lang = ANY
        if lang not in self.dirs:
            return None
        if lang not in self._pairs:
            self._pairs[lang] = Pair(Path(self.path) / self.dirs[lang])
        return self._pairs[lang]

    def page_pair(self, text: str) -> tuple[str, Pair | None, bool]:
        """(the language of a page's text, the pair that scores it or None, whether that pair was chosen by
        its vocabulary). A page whose language has no pair goes to the pair whose vocabulary covers
        ``VOCAB_COVERAGE`` of its words, if one does (detect_fast takes some English pages for other
        languages; README, "Contrastive pruning"); else to none."""
        from preprocess.lm.lang import SAMPLE_CHARS, detect_language

        lang = detect_language(text)
        pair = self.pair(lang)
        if pair is not None:
            return lang, pair, False
        words = [t for t in normalize(text[:SAMPLE_CHARS]).split() if _LETTER.search(t)]
        best, cover = None, VOCAB_COVERAGE
        for other in self.languages if words else ():
            vocab = self.pair(other).vocab
            share = sum(w in vocab for w in words) / len(words)
            if share >= cover:
                best, cover = other, share
        return lang, (self.pair(best) if best else None), best is not None

    @property
    def vocab(self) -> frozenset:
        return self.pair(self.main).vocab

    def score_norm(self, norm: str, lang: str | None = None) -> float:
        """The score under the pair of ``lang`` (default: the main language's)."""
        return self.pair(lang or self.main).score_norm(norm)

    def score(self, text: str) -> float | None:
        """One line's score: a line in Chinese, Japanese or Korean script under that language's pair, any
        other line under the main language's (one line is too short to tell Latin-script languages apart);
        None for a line without tokens or a language without a pair."""
        from preprocess.lm.lang import line_language

        norm = normalize(text)
        pair = self.pair(line_language(text, self.main)) if norm else None
        return pair.score_norm(norm) if pair else None


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
