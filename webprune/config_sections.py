"""The sections of an experiment config (:mod:`webprune.config`), one dataclass each, and their checks.

:func:`section` builds a section from a TOML table: every key is checked against the
dataclass, an unknown key refused with the closest valid name, a value of the wrong type
with what was expected, a missing required key with what to write.
"""
from __future__ import annotations

import dataclasses
import math
import typing
from dataclasses import dataclass, field
from pathlib import Path

from eval.metrics import DEFAULT_METRICS
from preprocess.options import closest
from search.models import RetrievalModel

REQUIRED = dataclasses.MISSING


def check_type(value, hint, where: str):
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, getattr(__import__("types"), "UnionType", None)):
        if value is None and type(None) in args:
            return None
        hint = next(a for a in args if a is not type(None))
        origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is list:
        if not isinstance(value, list):
            raise ValueError(f"{where} must be a list (e.g. [\"a\", \"b\"]), not {type(value).__name__} {value!r}")
        return [check_type(v, args[0], f"{where}[{i}]") for i, v in enumerate(value)]
    if origin is dict:
        if not isinstance(value, dict):
            raise ValueError(f"{where} must be a table ({{key = value}}), not {type(value).__name__} {value!r}")
        return {k: check_type(v, args[1], f"{where}.{k}") for k, v in value.items()}
    if hint is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ValueError(f"{where} must be a number, not {type(value).__name__} {value!r}")
        if not math.isfinite(value):  # TOML has nan and inf; no setting here means either
            raise ValueError(f"{where} must be a finite number, not {value!r}")
        return float(value)
    if hint is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise ValueError(f"{where} must be a whole number, not {type(value).__name__} {value!r}")
    if hint in (str, bool) and not isinstance(value, hint):
        raise ValueError(f"{where} must be {'a string' if hint is str else 'true or false'}, "
                         f"not {type(value).__name__} {value!r}")
    return value


def section(cls, data, where: str):
    """An instance of ``cls`` from a TOML table, every key and type checked."""
    if not isinstance(data, dict):
        raise ValueError(f"{where} must be a table, not {type(data).__name__}")
    hints = typing.get_type_hints(cls)
    names = [f.name for f in dataclasses.fields(cls)]
    for key in data:
        if key not in names:
            raise ValueError(f"{where}: unknown key {key!r}{closest(key, names)}")
    kwargs = {}
    for f in dataclasses.fields(cls):
        if f.name in data:
            kwargs[f.name] = check_type(data[f.name], hints[f.name], f"{where}.{f.name}")
        elif f.default is REQUIRED and f.default_factory is REQUIRED:
            raise ValueError(f"{where} needs {f.name!r} ({f.metadata.get('help', hints[f.name])})")
    return cls(**kwargs)


@dataclass(frozen=True)
class Collection:
    inputs: list[str] = field(metadata={"help": "a list of input files or folders"})
    prepare: str | None = None        # a script that builds missing inputs


@dataclass(frozen=True)
class Topics:
    path: str = field(metadata={"help": "the topics file"})
    field: str = "query"              # query | description
    format: str | None = None         # trec | cacm | webxml | dtxml (default: detected)


@dataclass(frozen=True)
class Qrels:
    path: str = field(metadata={"help": "the qrels file"})


@dataclass(frozen=True)
class Index:
    threads: int = 2

    def __post_init__(self):
        if self.threads < 1:
            raise ValueError(f"[index] threads must be >= 1, not {self.threads}")


@dataclass(frozen=True)
class Search:
    model: str = "qld"                # the retrieval model: qld | bm25 (a variant may set its own)
    mu: float = 2000.0                # QLD
    k1: float = 0.9                   # BM25 (Pyserini's defaults)
    b: float = 0.4
    rm3: bool = False                 # RM3 expansion on top of the model
    fb_terms: int = 10
    fb_docs: int = 10
    original_query_weight: float = 0.5
    k: int = 1000
    threads: int = 2
    repeats: int = 3                  # timed repeats of each search (median, min-max); at least 3
    load: int = 0                     # N queries of a timed query load (0: none)
    load_file: str | None = None      # the load's queries (one a line, or a topics file); default: sampled
    load_seed: int = 42               # ... from the baseline collection's titles and headlines
    load_k: int | None = None         # hits per load query (default: k)

    def retrieval(self, **override) -> RetrievalModel:
        """The config-wide retrieval model, with a variant's values (None: not set) over it."""
        values = {"name": self.model, "mu": self.mu, "k1": self.k1, "b": self.b, "rm3": self.rm3,
                  "fb_terms": self.fb_terms, "fb_docs": self.fb_docs,
                  "original_query_weight": self.original_query_weight}
        return RetrievalModel(**(values | {k: v for k, v in override.items() if v is not None}))


@dataclass(frozen=True)
class Eval:
    metrics: list[str] = field(default_factory=lambda: list(DEFAULT_METRICS))
    baseline: str | None = None       # default: the first variant
    alpha: float = 0.05
    tolerance: float = 1e-4           # --check: |measured - expected| allowed
    ttest: bool = False               # also a paired t-test
    correction: str = "none"          # holm | bonferroni | none, across the variants, per metric and test

    def __post_init__(self):
        if not 0 < self.alpha < 1:
            raise ValueError(f"[eval] alpha is a significance level: give a value in (0, 1), e.g. 0.05, "
                             f"not {self.alpha}")
        if self.tolerance < 0:
            raise ValueError(f"[eval] tolerance must be >= 0, not {self.tolerance}")


@dataclass(frozen=True)
class Co2:
    tdp: float = field(metadata={"help": "the CPU's TDP in watts, W_cpu of the paper's estimate"})
    intensity: float = 0.341          # C_e, kg CO2eq per kWh (the paper's)
    codecarbon: bool = True           # also codecarbon's OfflineEmissionsTracker figure
    country: str = "ESP"              # ISO 3166 alpha-3, for codecarbon's carbon intensity
    queries: int = 1_000_000          # extrapolate search to this many queries


@dataclass(frozen=True)
class Report:
    metric: str | None = None         # plotted against threshold and per topic (default: the first metric)


@dataclass(frozen=True)
class Cleaning:
    sets: list[str] = field(default_factory=lambda: ["cleaneval-dev"])
    tools: list[str] | None = None    # eval-cleaning tool ids (default: the variants' cleaning specs)
    limit: int | None = None          # first N pages per set
    jobs: int = 1
    shared: str | None = None         # the shared data folder (default: ../shared/data beside the project)


@dataclass(frozen=True)
class Model:
    corpus: list[str] = field(metadata={"help": "a list of training text files"})
    output: str = field(metadata={"help": "the model file to write"})
    order: int = 2
    prune: list[int] | None = None
    discount_fallback: bool = False


def check_search(s: Search, base: Path) -> None:
    s.retrieval().check("[search]")
    for name in ("k", "threads"):
        if getattr(s, name) < 1:
            raise ValueError(f"[search] {name} must be >= 1, not {getattr(s, name)}")
    if s.load < 0:
        raise ValueError(f"[search] load must be a number of queries >= 0 (0: no query load), not {s.load}")
    if s.repeats < 3:
        raise ValueError(f"[search] repeats must be at least 3 (the report gives the median with min-max), "
                         f"not {s.repeats}")
    if s.load_k is not None and s.load_k < 1:
        raise ValueError(f"[search] load_k must be >= 1, not {s.load_k}")
    if s.load_file is not None:
        p = Path(s.load_file) if Path(s.load_file).is_absolute() else base / s.load_file
        if not p.is_file():
            raise ValueError(f"[search] load_file {s.load_file!r}: no such query file ({p})")
        if not s.load:
            raise ValueError("[search] load_file needs load = N, the number of queries to run from it")


def check_cleaning(c: Cleaning) -> None:
    from eval.cleaning.gold import FORMATS

    for s in c.sets:
        if s not in FORMATS:
            raise ValueError(f"[cleaning] unknown set {s!r}{closest(s, list(FORMATS))}; choose from "
                             f"{', '.join(FORMATS)}")
    if c.limit is not None and c.limit < 1 or c.jobs < 1:
        raise ValueError("[cleaning] limit and jobs must be >= 1")
