"""Typed, self-checking experiment configs (after Anserini's regressions).

A config is TOML. Each section is a dataclass (:mod:`webprune.config_sections`); every key is checked
against it when the file is loaded: an unknown section or key is refused with the closest
valid name, a value of the wrong type with what was expected, a missing required
key with what to write. Paths are relative to the config file. Cleaning options of
a variant are :class:`preprocess.config.options.CleanOptions` fields, ``[preprocess]``
holds :class:`preprocess.config.options.RunOptions`. A variant may carry expected metric
values (``expect = {AP = 0.3265}``, ``tolerance``) that ``webprune run --check``
compares with what the run measured, a retrieval model (``retrieval``, ``k1``, ``b``, ``rm3``, ...
over ``[search]``'s) and its own ``inputs`` (e.g. a clean ceiling beside the web collection). The report's sections: ``[search] load``/``repeats`` (timed
query load), ``[eval] ttest``/``correction``, ``[co2]``, ``[report]`` and ``[cleaning]``
(see :mod:`eval.report`).
"""
from __future__ import annotations

import dataclasses
import tomllib
import typing
from dataclasses import dataclass, field
from pathlib import Path

from eval.correction import check_method
from eval.metrics import parse_metrics
from preprocess.config import options
from preprocess.config.options import CleanOptions, RunOptions
from preprocess.config.params import check_type, closest
from search.models import RetrievalModel
from webprune.config_sections import (Cleaning, Co2, Collection, Eval, Index, Model, Qrels, Report, Search, Topics,
                                      check_cleaning, check_search, section)

__all__ = ["Cleaning", "Co2", "Collection", "Eval", "Experiment", "Index", "Model", "Qrels", "Report", "Search",
           "Topics", "Variant", "load_config", "parse_config", "section"]


@dataclass(frozen=True)
class Variant:
    name: str
    clean: CleanOptions
    model: str | None = None          # a [models.NAME] to train when missing and prune with
    k: int | None = None
    retrieval: dict = field(default_factory=dict)  # RetrievalModel field -> the variant's value over [search]'s
    inputs: list[str] | None = None   # other inputs than [collection]'s (e.g. a clean ceiling); relative paths
    expect: dict = field(default_factory=dict)   # metric -> expected value (--check)
    tolerance: float | None = None


# a variant's retrieval keys: RetrievalModel's, its model named ``retrieval`` ("model" names a [models.NAME])
_RETRIEVAL_KEYS = {("retrieval" if key == "model" else key): f.name for key, f in RetrievalModel.keys().items()}
_VARIANT_KEYS = {"name": str, "model": str, "k": int, "expect": dict[str, float], "tolerance": float,
                 "inputs": list[str]} | {key: RetrievalModel.__dataclass_fields__[name].type
                                         for key, name in _RETRIEVAL_KEYS.items()}
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

    def retrieval(self, v: Variant):
        """The variant's :class:`search.models.RetrievalModel`: its own keys over ``[search]``'s."""
        return self.search.retrieval(**v.retrieval)

    @property
    def baseline(self) -> str:
        return self.eval.baseline or self.variants[0].name


def plain_name(value, where: str) -> str:
    """A name that becomes a file or folder name (runs/NAME, runs/VARIANT.txt): no path in it."""
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{where} must be a non-empty string")
    if value in (".", "..") or any(c in value for c in "/\\") or any(ord(c) < 32 for c in value):
        raise ValueError(f"{where} {value!r} must be a plain name, not a path (no '/', '\\', control characters, "
                         "and not '.' or '..'); choose e.g. " + repr(_plain(value)))
    return value


def _plain(value: str) -> str:
    out = "".join("-" if c in "/\\" or ord(c) < 32 else c for c in value).strip("-. ")
    return out or "experiment"


def _variant(data, i: int, models: dict) -> Variant:
    where = f"[[variants]] #{i + 1}" + (f" {data.get('name')!r}" if isinstance(data, dict) and "name" in data else "")
    if not isinstance(data, dict):
        raise ValueError(f"{where} must be a table")
    if "name" not in data:
        raise ValueError(f"{where} needs a name")
    plain_name(data["name"], f"{where}: name")
    hints = typing.get_type_hints(RetrievalModel)
    extra = {k: check_type(data[k], hints.get(_RETRIEVAL_KEYS.get(k)) or hint, f"{where}.{k}")
             for k, hint in _VARIANT_KEYS.items() if k in data}
    extra["retrieval"] = {_RETRIEVAL_KEYS[k]: extra.pop(k) for k in list(extra) if k in _RETRIEVAL_KEYS}
    clean = {k: v for k, v in data.items() if k not in _VARIANT_KEYS}
    valid = [f.name for f in dataclasses.fields(CleanOptions)] + list(_VARIANT_KEYS)
    for key in clean:
        if key not in valid:
            raise ValueError(f"{where}: unknown key {key!r}{closest(key, valid)}")
    if "model" in extra and extra["model"] not in models:
        raise ValueError(f"{where}: model {extra['model']!r} is not defined; add a [models.{extra['model']}] "
                         f"section{' (defined: ' + ', '.join(models) + ')' if models else ''}")
    if "model" in extra:  # the path is known once the model is trained; its presence (and kind) is what check() needs
        kind = "contrastive:" if models[extra["model"]].crawl is not None else ""
        clean["prune_model"] = f"<{kind}{extra['model']}>"
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
    variants_data = data.get("variants") or [{"name": "learned", "cleaner": "learned"}]  # the recommended pipeline
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
    name = plain_name(data.get("name", default_name), "config: name")
    search = section(Search, data.get("search", {}), "[search]")
    check_search(search, base)
    for v in variants:
        for p in v.inputs or []:
            if not (Path(p) if Path(p).is_absolute() else base / p).exists():
                raise ValueError(f"[[variants]] {v.name!r}: input {p!r} does not exist ({base / p})")
        search.retrieval(**v.retrieval).check(f"[[variants]] {v.name!r}:",
                                                                                       "retrieval")
    check_method(ev.correction)
    rep = section(Report, data.get("report", {}), "[report]")
    if rep.metric is not None:
        parse_metrics([rep.metric])
    cleaning = section(Cleaning, data["cleaning"], "[cleaning]") if "cleaning" in data else None
    if cleaning is not None:
        check_cleaning(cleaning)
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
