"""Typed, self-checking experiment configs (after Anserini's regressions).

A config is TOML. Each section is a dataclass below; every key is checked against
it when the file is loaded: an unknown section or key is refused with the closest
valid name, a value of the wrong type with what was expected, a missing required
key with what to write. Paths are relative to the config file. Cleaning options of
a variant are :class:`preprocess.options.CleanOptions` fields, ``[preprocess]``
holds :class:`preprocess.options.RunOptions`. A variant may carry expected metric
values (``expect = {AP = 0.3265}``, ``tolerance``) that ``webprune run --check``
compares with what the run measured. The report's sections: ``[search] load``/``repeats`` (timed
query load), ``[eval] ttest``/``correction``, ``[co2]``, ``[report]`` and ``[cleaning]``
(see :mod:`eval.paper`).
"""
from __future__ import annotations

import dataclasses
import tomllib
import typing
from dataclasses import dataclass, field
from pathlib import Path

from eval.correction import check_method
from eval.metrics import DEFAULT_METRICS, parse_metrics
from preprocess import options
from preprocess.options import CleanOptions, RunOptions, closest

REQUIRED = dataclasses.MISSING


def _check_type(value, hint, where: str):
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, getattr(__import__("types"), "UnionType", None)):
        if value is None and type(None) in args:
            return None
        hint = next(a for a in args if a is not type(None))
        origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is list:
        if not isinstance(value, list):
            raise ValueError(f"{where} must be a list (e.g. [\"a\", \"b\"]), not {type(value).__name__} {value!r}")
        return [_check_type(v, args[0], f"{where}[{i}]") for i, v in enumerate(value)]
    if origin is dict:
        if not isinstance(value, dict):
            raise ValueError(f"{where} must be a table ({{key = value}}), not {type(value).__name__} {value!r}")
        return {k: _check_type(v, args[1], f"{where}.{k}") for k, v in value.items()}
    if hint is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ValueError(f"{where} must be a number, not {type(value).__name__} {value!r}")
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
            kwargs[f.name] = _check_type(data[f.name], hints[f.name], f"{where}.{f.name}")
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


@dataclass(frozen=True)
class Search:
    mu: float = 2000.0
    k: int = 1000
    threads: int = 2
    repeats: int = 3                  # timed repeats of each search (median, min-max); at least 3
    load: int = 0                     # N queries of a timed query load (0: none)
    load_file: str | None = None      # the load's queries (one a line, or a topics file); default: sampled
    load_seed: int = 42               # ... from the baseline collection's titles and headlines
    load_k: int | None = None         # hits per load query (default: k)


@dataclass(frozen=True)
class Eval:
    metrics: list[str] = field(default_factory=lambda: list(DEFAULT_METRICS))
    baseline: str | None = None       # default: the first variant
    alpha: float = 0.05
    tolerance: float = 1e-4           # --check: |measured - expected| allowed
    ttest: bool = False               # also a paired t-test
    correction: str = "none"          # holm | bonferroni | none, across the variants, per metric and test


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


@dataclass(frozen=True)
class Variant:
    name: str
    clean: CleanOptions
    model: str | None = None          # a [models.NAME] to train when missing and prune with
    mu: float | None = None
    k: int | None = None
    expect: dict = field(default_factory=dict)   # metric -> expected value (--check)
    tolerance: float | None = None


_VARIANT_KEYS = {"name": str, "model": str, "mu": float, "k": int, "expect": dict[str, float], "tolerance": float}
_SECTIONS = ("name", "collection", "topics", "qrels", "preprocess", "index", "search", "eval", "models", "variants",
             "co2", "report", "cleaning")


@dataclass(frozen=True)
class Experiment:
    name: str
    base: Path                        # the config's folder: paths are relative to it
    collection: Collection
    topics: Topics
    qrels: Qrels
    preprocess: RunOptions
    index: Index
    search: Search
    eval: Eval
    models: dict[str, Model]
    variants: list[Variant]
    co2: Co2 | None = None
    report: Report = Report()
    cleaning: Cleaning | None = None

    def path(self, p: str) -> Path:
        p = Path(p)
        return p if p.is_absolute() else (self.base / p).resolve()

    @property
    def baseline(self) -> str:
        return self.eval.baseline or self.variants[0].name


def _variant(data, i: int, models: dict) -> Variant:
    where = f"[[variants]] #{i + 1}" + (f" {data.get('name')!r}" if isinstance(data, dict) and "name" in data else "")
    if not isinstance(data, dict):
        raise ValueError(f"{where} must be a table")
    if "name" not in data:
        raise ValueError(f"{where} needs a name")
    extra = {k: _check_type(data[k], hint, f"{where}.{k}") for k, hint in _VARIANT_KEYS.items() if k in data}
    clean = {k: v for k, v in data.items() if k not in _VARIANT_KEYS}
    valid = [f.name for f in dataclasses.fields(CleanOptions)] + list(_VARIANT_KEYS)
    for key in clean:
        if key not in valid:
            raise ValueError(f"{where}: unknown key {key!r}{closest(key, valid)}")
    if "model" in extra and extra["model"] not in models:
        raise ValueError(f"{where}: model {extra['model']!r} is not defined; add a [models.{extra['model']}] "
                         f"section{' (defined: ' + ', '.join(models) + ')' if models else ''}")
    if "model" in extra:  # the path is known once the model is trained; its presence is what check() needs
        clean["prune_model"] = "<" + extra["model"] + ">"
    opts = options.from_mapping(clean, where)
    metrics = list(extra.get("expect", {}))
    if metrics:
        parse_metrics(metrics)
    return Variant(clean=opts, **extra)


def parse_config(data: dict, base: Path, default_name: str) -> Experiment:
    for key in data:
        if key not in _SECTIONS:
            raise ValueError(f"config: unknown section or key {key!r}{closest(key, _SECTIONS)}")
    for key in ("collection", "topics", "qrels"):
        if key not in data:
            raise ValueError(f"config: the [{key}] section is missing; see configs/cacm.toml for one")
    models = {n: section(Model, m, f"[models.{n}]") for n, m in section_dict(data.get("models", {}))}
    variants_data = data.get("variants") or [{"name": "tags", "cleaner": "tags"}]
    if not isinstance(variants_data, list):
        raise ValueError("config: variants must be [[variants]] tables")
    variants = [_variant(v, i, models) for i, v in enumerate(variants_data)]
    names = [v.name for v in variants]
    if len(set(names)) != len(names):
        raise ValueError(f"config: every [[variants]] needs a unique name; got {names}")
    ev = section(Eval, data.get("eval", {}), "[eval]")
    parse_metrics(ev.metrics)
    if ev.baseline is not None and ev.baseline not in names:
        raise ValueError(f"[eval] baseline {ev.baseline!r} is not a variant{closest(ev.baseline, names)}")
    name = data.get("name", default_name)
    if not isinstance(name, str) or not name:
        raise ValueError("config: name must be a non-empty string")
    search = section(Search, data.get("search", {}), "[search]")
    _check_search(search, base)
    check_method(ev.correction)
    rep = section(Report, data.get("report", {}), "[report]")
    if rep.metric is not None:
        parse_metrics([rep.metric])
    cleaning = section(Cleaning, data["cleaning"], "[cleaning]") if "cleaning" in data else None
    if cleaning is not None:
        _check_cleaning(cleaning)
    co2 = section(Co2, data["co2"], "[co2]") if "co2" in data else None
    if co2 is not None and (co2.tdp <= 0 or co2.intensity < 0 or co2.queries < 1):
        raise ValueError("[co2]: tdp must be > 0 W, intensity >= 0 kg/kWh and queries >= 1")
    return Experiment(co2=co2, report=rep, cleaning=cleaning, search=search,
                      name=name, base=base, collection=section(Collection, data["collection"], "[collection]"),
                      topics=section(Topics, data["topics"], "[topics]"), qrels=section(Qrels, data["qrels"], "[qrels]"),
                      preprocess=options.from_mapping(_table(data.get("preprocess", {}), "[preprocess]"),
                                                      "[preprocess]", RunOptions),
                      index=section(Index, data.get("index", {}), "[index]"),
                      eval=ev, models=models,
                      variants=variants)


def _check_search(s: Search, base: Path) -> None:
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


def _check_cleaning(c: Cleaning) -> None:
    from eval.cleaning.gold import FORMATS

    for s in c.sets:
        if s not in FORMATS:
            raise ValueError(f"[cleaning] unknown set {s!r}{closest(s, list(FORMATS))}; choose from "
                             f"{', '.join(FORMATS)}")
    if c.limit is not None and c.limit < 1 or c.jobs < 1:
        raise ValueError("[cleaning] limit and jobs must be >= 1")


def _table(value, where: str) -> dict:
    if not isinstance(value, dict):
        raise ValueError(f"{where} must be a table")
    return value


def section_dict(value) -> list[tuple[str, dict]]:
    return list(_table(value, "[models]").items())


def load_config(path: str | Path) -> Experiment:
    """Read and check a config; ValueError (saying what to fix) for anything wrong with it."""
    path = Path(path)
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except FileNotFoundError:
        raise FileNotFoundError(f"{path}: no such config file") from None
    except IsADirectoryError:
        raise ValueError(f"{path} is a folder; give a .toml config file") from None
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"{path}: not valid TOML ({exc})") from None
    try:
        return parse_config(data, path.parent.resolve(), path.stem)
    except ValueError as exc:
        raise ValueError(f"{path}: {exc}") from None
