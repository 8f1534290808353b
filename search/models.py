"""Retrieval models of a run: QL-Dirichlet or BM25, optionally with RM3 expansion.

A :class:`RetrievalModel` configures an Anserini ``SimpleSearcher`` exactly as Pyserini's
``LuceneSearcher.set_qld``/``set_bm25``/``set_rm3`` do (same Java calls, same defaults:
BM25 k1=0.9 b=0.4, RM3 10 terms from 10 documents, original query weight 0.5), so a run
equals Pyserini's own. :meth:`RetrievalModel.label` names it in every table.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

MODELS = ("qld", "bm25")


@dataclass(frozen=True)
class RetrievalModel:
    name: str = "qld"                    # qld | bm25
    mu: float = 2000.0                   # QLD's Dirichlet prior
    k1: float = 0.9                      # BM25
    b: float = 0.4
    rm3: bool = False                    # RM3 pseudo-relevance feedback on top of either model
    fb_terms: int = 10
    fb_docs: int = 10
    original_query_weight: float = 0.5

    def check(self, where: str = "[search]", key: str = "model") -> RetrievalModel:
        """Itself, or ValueError saying which value is wrong (the flags and the configs both come here)."""
        from preprocess.options import closest

        if self.name not in MODELS:
            raise ValueError(f"{where} {key} {self.name!r} is not a retrieval model{closest(self.name, MODELS)}; "
                             f"choose from {', '.join(MODELS)}")
        for name in ("mu", "k1", "b", "original_query_weight"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise ValueError(f"{where} {name} must be a finite number, not {value!r}")
        for name in ("fb_terms", "fb_docs"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{where} RM3 needs {name} >= 1 (a whole number), not {value!r}")
        if self.mu <= 0:
            raise ValueError(f"{where} mu must be > 0 (QLD's Dirichlet prior, e.g. 1000), not {self.mu}")
        if self.k1 < 0 or not 0 <= self.b <= 1:
            raise ValueError(f"{where} BM25 needs k1 >= 0 and 0 <= b <= 1, not k1={self.k1} b={self.b}")
        if not 0 <= self.original_query_weight <= 1:
            raise ValueError(f"{where} RM3 needs 0 <= original_query_weight <= 1, not {self.original_query_weight}")
        return self

    def label(self) -> str:
        """``QLD μ=1000``, ``BM25 k1=0.9 b=0.4``, ``... +RM3(10 terms, 10 docs, 0.5)``."""
        text = f"QLD μ={self.mu:g}" if self.name == "qld" else f"BM25 k1={self.k1:g} b={self.b:g}"
        if self.rm3:
            text += f" +RM3({self.fb_terms} terms, {self.fb_docs} docs, {self.original_query_weight:g})"
        return text

    def configure(self, searcher) -> None:
        """Set the model on an ``io.anserini.search.SimpleSearcher``."""
        if self.name == "qld":
            searcher.set_qld(float(self.mu))
        else:
            searcher.set_bm25(float(self.k1), float(self.b))
        if self.rm3:
            if not searcher.reader.getTermVectors(0):
                raise ValueError("RM3 needs an index with document vectors (webprune index stores them)")
            searcher.set_rm3(None, int(self.fb_terms), int(self.fb_docs), float(self.original_query_weight),
                             False, True)

    def to_dict(self) -> dict:
        out = {"model": self.name, "label": self.label()}
        out |= {"mu": self.mu} if self.name == "qld" else {"k1": self.k1, "b": self.b}
        if self.rm3:
            out |= {"rm3": True, "fb_terms": self.fb_terms, "fb_docs": self.fb_docs,
                    "original_query_weight": self.original_query_weight}
        return out
