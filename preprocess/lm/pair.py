"""One language's pair of a contrastive model (:mod:`preprocess.lm.contrastive`): its two KenLM models and
shared vocabulary, and the scores of normalised sentences under them, by the compiled twin (``_pair.pyx``)
where it is built, else by the Python loop it mirrors."""
from __future__ import annotations

import math
import os
import re
import warnings
from importlib import metadata
from itertools import repeat
from pathlib import Path

CONTENT, BOILER, VOCAB = "content.bin", "boilerplate.bin", "vocab.txt"
OOV = "_unk_"  # every word outside the shared vocabulary, in training text and when scoring
LOG2_10 = math.log2(10)
_WORD = re.compile(r"\w")
# a pair whose two files hold at most this many bytes is read into the worker's own memory (KenLM asks for huge
# pages there: its lookups miss the TLB less; scoring took 0.86-0.93 of the mapped time, docs/benchmarks.md
# "Contrastive scoring"), a larger one memory-mapped (the page cache shared by every worker of a machine)
READ_UP_TO = 256 * 2**20


def has_word(norm: str) -> bool:
    return bool(_WORD.search(norm))


class Pair:
    """One language's two models (read, or memory-mapped above ``READ_UP_TO``: ``read``) and vocabulary;
    ``score_norm`` takes :func:`normalize`-d text."""

    def __init__(self, folder: Path):
        import kenlm

        files = (folder / CONTENT, folder / BOILER)
        config = kenlm.Config()
        self.read = sum(f.stat().st_size for f in files) <= READ_UP_TO
        if self.read:
            config.load_method = kenlm.LoadMethod.READ
        self.content, self.boiler = (kenlm.Model(str(f), config) for f in files)
        self.vocab = frozenset((folder / VOCAB).read_text(encoding="utf-8").split())
        self._known = dict(zip(self.vocab, self.vocab))  # word -> itself: OOV mapping as one C-level map
        self._compiled = compiled_pair(self.content, self.boiler, self.vocab)

    def score_norm(self, norm: str) -> float:
        return self.score_many([norm])[0]

    def score_many(self, norms: list[str]) -> list[float]:
        """``score_norm`` of each text: the compiled twin (``_pair.pyx``) where built, else the Python loop."""
        if self._compiled is None:
            return self.score_many_python(norms)
        return self._compiled.score_many(norms, LOG2_10, self._score_one_python)

    def score_worded(self, norms: list[str]) -> list[float | None]:
        """``score_many``, with None for a text without a word character (``has_word``)."""
        if self._compiled is None:
            words = list(map(has_word, norms))
            scores = iter(self.score_many_python([n for n, w in zip(norms, words) if w]))
            return [next(scores) if w else None for w in words]
        return self._compiled.score_many(norms, LOG2_10, self._score_one_python, True)

    def _score_one_python(self, norm: str) -> float:
        return self.score_many_python([norm])[0]

    def score_many_python(self, norms: list[str]) -> list[float]:
        """``score_norm`` of each text: one loop, each text encoded once for both models."""
        known, content, boiler = self._known.get, self.content.score, self.boiler.score
        out = []
        for norm in norms:
            toks = norm.split()
            text = " ".join(map(known, toks, repeat(OOV))).encode()  # each word, or OOV outside the vocabulary
            out.append((boiler(text) - content(text)) * LOG2_10 / (len(toks) + 1))
        return out


def compiled_pair(content, boiler, vocab):
    """The compiled twin of :meth:`Pair.score_many_python` for these models, or None (a warning, once, says
    why) where it was not built, was built against another KenLM version or ``WEBPRUNE_PURE_PYTHON`` is set."""
    global _PAIR_WARNED
    if os.environ.get("WEBPRUNE_PURE_PYTHON"):
        return None
    try:
        from preprocess.lm import _pair
    except ImportError:
        why = "it was not built (scripts/setup.sh builds it with a C++ compiler, after scripts/build_kenlm.sh)"
    else:
        installed = metadata.version("kenlm")
        try:
            if _pair.KENLM_VERSION != installed:
                raise ValueError(f"it was built against KenLM {_pair.KENLM_VERSION}, kenlm {installed} is "
                                 "installed (run scripts/setup.sh again)")
            return _pair.CompiledPair(content, boiler, vocab, OOV)
        except ValueError as exc:
            why = str(exc)
    if not _PAIR_WARNED:
        _PAIR_WARNED = True
        warnings.warn(f"contrastive scoring runs in Python (same scores, slower): the compiled pair is not used: "
                      f"{why}", RuntimeWarning, stacklevel=2)
    return None


_PAIR_WARNED = False
