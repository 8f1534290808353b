"""The sections of an experiment config (:mod:`webprune.config`), one dataclass each, and their checks.

:func:`section` builds a section from a TOML table: every key is checked against the
dataclass, an unknown key refused with the closest valid name, a value of the wrong type
with what was expected, a missing required key with what to write.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path

from eval.metrics import DEFAULT_METRICS
from preprocess.config.params import check_type, closest, from_mapping  # noqa: F401 (check_type: webprune.config)
from search.models import RetrievalModel


def section(cls, data, where: str):
    """An instance of ``cls`` from a TOML table, every key and type checked (:func:`preprocess.config.params.from_mapping`)."""
    return from_mapping(data, where, cls)


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


def _retrieval(self, **override) -> RetrievalModel:
    """The config-wide retrieval model, with a variant's values (None: not set) over it."""
    values = {f.name: getattr(self, key) for key, f in RetrievalModel.keys().items()}
    return RetrievalModel(**(values | {k: v for k, v in override.items() if v is not None}))


# [search]: the retrieval parameters as RetrievalModel declares them (a variant may set its own), then these
Search = dataclasses.make_dataclass("Search", [
    *((key, f.type, field(default=f.default, metadata=f.metadata)) for key, f in RetrievalModel.keys().items()),
    ("k", int, field(default=1000)),
    ("threads", int, field(default=2)),
    ("repeats", int, field(default=3)),               # timed repeats of each search (median, min-max); at least 3
    ("load", int, field(default=0)),                  # N queries of a timed query load (0: none)
    ("load_file", "str | None", field(default=None)),  # the load's queries (one a line, or a topics file); default:
    ("load_seed", int, field(default=42)),            # ... sampled from the baseline collection's titles, headlines
    ("load_k", "int | None", field(default=None)),    # hits per load query (default: k)
], namespace={"retrieval": _retrieval}, frozen=True)
Search.__module__ = __name__


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
    """A model an experiment trains when it is missing: a KenLM perplexity model from text (``corpus``, as
    ``webprune lm train``) or a contrastive model learned from crawl inputs (``crawl``, as ``webprune lm
    train-crawl``)."""

    output: str = field(metadata={"help": "the model to write (a file from a corpus, a folder from a crawl)"})
    corpus: list[str] | None = None   # training text files
    crawl: list[str] | None = None    # crawl inputs (WARC/ARC/WET/tar/HTML) to learn a contrastive model from
    order: int | None = None          # n-gram order (default: 2 from a corpus, 3 from a crawl)
    prune: list[int] | None = None
    discount_fallback: bool = False

    def __post_init__(self):
        if (self.corpus is None) == (self.crawl is None):
            raise ValueError("a [models.NAME] needs one of corpus = [text files] (a KenLM model) or crawl = "
                             "[inputs] (a contrastive model learned from them)")


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
