"""Retrieval models of a run: QL-Dirichlet or BM25, optionally with RM3 expansion.

A :class:`RetrievalModel` configures an Anserini ``SimpleSearcher`` exactly as Pyserini's
``LuceneSearcher.set_qld``/``set_bm25``/``set_rm3`` do (same Java calls, same defaults:
BM25 k1=0.9 b=0.4, RM3 10 terms from 10 documents, original query weight 0.5), so a run
equals Pyserini's own. :meth:`RetrievalModel.label` names it in every table.
"""
from __future__ import annotations

import dataclasses
import typing
from dataclasses import dataclass

from preprocess.config.params import option

MODELS = ("qld", "bm25")


@dataclass(frozen=True)
class RetrievalModel:
    """The retrieval parameters, declared once: ``webprune search`` flags, ``[search]`` keys (``name`` is
    ``--model`` and ``model``) and a variant's overrides (``retrieval``) all come from these fields."""

    name: str = option("qld", "retrieval model", choices=MODELS, flag="--model", key="model")
    mu: float = option(2000.0, "QLD's Dirichlet prior")
    k1: float = option(0.9, "BM25 k1")
    b: float = option(0.4, "BM25 b")
    rm3: bool = option(False, "RM3 query expansion on top of the model")
    fb_terms: int = option(10, "RM3 expansion terms")
    fb_docs: int = option(10, "RM3 feedback documents")
    original_query_weight: float = option(0.5, "RM3 weight of the original query")

    def check(self, where: str = "[search]", key: str = "model") -> RetrievalModel:
        """Itself, or ValueError saying which value is wrong (the flags and the configs both come here)."""
        from preprocess.config.params import check_type, closest

        hints = typing.get_type_hints(RetrievalModel)
        for f in dataclasses.fields(self):  # the one type checker: finite numbers, whole numbers, true or false
            check_type(getattr(self, f.name), hints[f.name], f"{where} {f.name}")
        if self.name not in MODELS:
            raise ValueError(f"{where} {key} {self.name!r} is not a retrieval model{closest(self.name, MODELS)}; "
                             f"choose from {', '.join(MODELS)}")
        for name in ("fb_terms", "fb_docs"):
            if getattr(self, name) < 1:
                raise ValueError(f"{where} RM3 needs {name} >= 1 (a whole number), not {getattr(self, name)!r}")
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

    @staticmethod
    def keys() -> dict[str, dataclasses.Field]:
        """{config key: field} of the declared parameters."""
        return {f.metadata.get("key") or f.name: f for f in dataclasses.fields(RetrievalModel)}

    def to_dict(self) -> dict:
        out = {"model": self.name, "label": self.label()}
        out |= {"mu": self.mu} if self.name == "qld" else {"k1": self.k1, "b": self.b}
        if self.rm3:
            out |= {"rm3": True, "fb_terms": self.fb_terms, "fb_docs": self.fb_docs,
                    "original_query_weight": self.original_query_weight}
        return out
