"""The cleaners and filters webprune can run, one line each.

A **cleaner** is chosen with ``--cleaner NAME`` (one per run). A **filter** composes
with any cleaner and is switched on by its option. Folder rule:

* ``preprocess/steps/``    the fixed core every run has: decode, parse, tag removal;
* ``preprocess/cleaners/`` choose-one DOM cleaners;
* ``preprocess/filters/``  composable steps (hints, Kitten, link density, pruning).

Steps are named by ``"module:Class"`` and imported only when a pipeline is built,
so the CLI starts without loading any cleaner. Each step class builds itself from a
:class:`BuildContext` (``Step.build``): the options, the learned artefacts and, where
the cleaner has one, its fallback. Adding a cleaner is one module plus one line in
``CLEANERS`` (README, "Adding a cleaner").
"""
from __future__ import annotations

import importlib
import os
from dataclasses import dataclass, field
from typing import Callable

TREE, LINES = "tree", "lines"  # a step prunes the parsed tree before tag removal, or the written lines after it


@dataclass(frozen=True)
class Cleaner:
    name: str
    step: str | None            # "module:Class" of its Step; None for tag removal alone
    help: str
    stage: str = TREE
    kitten: bool = True         # Kitten normalisation on unless --no-kitten
    host_grouped: bool = False  # needs every page of a host on one worker (with its learned reference)
    fallback: str | None = None  # cleaner that takes the pages this one has no evidence for
    learns: tuple[str, ...] = ()  # "module:Class" of the learning passes whose artefacts it reads


@dataclass(frozen=True)
class Filter:
    name: str
    step: str
    stage: str                  # TREE filters run around the cleaner, LINES filters after tag removal
    enabled: Callable = field(compare=False)  # (CleanOptions, Cleaner) -> bool
    before_cleaner: bool = False
    learns: Callable = field(default=lambda opts: (), compare=False)  # (CleanOptions) -> "module:Class" of passes


CLEANERS: dict[str, Cleaner] = {c.name: c for c in (
    Cleaner("tags", None, "tag removal only: the paper's baseline", kitten=False),
    Cleaner("density", "preprocess.cleaners.density:DensityCleaner",
            "Baisa's WC Cleaner: keep the densest subtree"),
    Cleaner("blog", "preprocess.cleaners.blog:BlogCleaner", "BlogBuster's post, title and date rules",
            fallback="density"),
    Cleaner("sitediff", "preprocess.cleaners.sitediff:SiteDiffCleaner",
            "Baisa's multiple-file mode: drop blocks a host's pages share in the same place",
            stage=LINES, host_grouped=True, fallback="density",
            learns=("preprocess.cleaners.sitediff:SiteReferences",)),
    Cleaner("feeds", "preprocess.cleaners.feeds:FeedsCleaner",
            "Adaptive Post Recognition: post templates learned from the input's RSS/Atom feeds",
            fallback="density", learns=("preprocess.cleaners.feeds.learn:FeedTemplates",)),
    Cleaner("learned", "preprocess.cleaners.learned.cleaner:LearnedCleaner",
            "block classifier trained on the gold standards (scripts/train_learned.py)", kitten=False),
)}


def _kitten(opts, cleaner: Cleaner) -> bool:
    return opts.kitten if opts.kitten is not None else cleaner.kitten


FILTERS: tuple[Filter, ...] = (
    Filter("hints", "preprocess.filters.hints:HintFilter", TREE, lambda o, c: o.drop_hinted, before_cleaner=True),
    Filter("kitten", "preprocess.filters.kitten:KittenNormalise", TREE, _kitten),
    Filter("links", "preprocess.filters.links:LinkDensityFilter", LINES, lambda o, c: o.max_link_density is not None),
    Filter("kitten_punct", "preprocess.filters.kitten:KittenPunctuate", LINES, _kitten),
    Filter("prune", "preprocess.filters.prune:PerplexityPrune", LINES, lambda o, c: bool(o.prune_model),
           learns=lambda o: ("preprocess.calibrate:PruneThreshold",) if o.prune_percentile is not None else ()),
)


def cleaner_names() -> tuple[str, ...]:
    return tuple(CLEANERS)


def cleaner(name: str) -> Cleaner:
    try:
        return CLEANERS[name]
    except KeyError:
        raise ValueError(f"unknown cleaner {name!r}; choose one of {', '.join(CLEANERS)}") from None


def step_class(ref: str):
    """The class named by ``"module:Class"`` (steps and learning passes)."""
    module, _, cls = ref.partition(":")
    return getattr(importlib.import_module(module), cls)


def _plugins() -> list[str]:
    return [m for m in (m.strip() for m in os.environ.get("WEBPRUNE_PLUGINS", "").split(",")) if m]


def component_modules() -> set[str]:
    """The modules the registry loads: every step and learning pass named in it, and the plugins."""
    refs = [r for c in CLEANERS.values() for r in (c.step, *c.learns) if r] + [f.step for f in FILTERS]
    return {r.partition(":")[0] for r in refs} | set(_plugins())


def register(entry: Cleaner) -> None:
    """Add a cleaner (plugins: modules named in $WEBPRUNE_PLUGINS call this when imported)."""
    CLEANERS[entry.name] = entry


def _load_plugins() -> None:
    for module in _plugins():
        importlib.import_module(module)


def learning_passes(opts) -> tuple[str, ...]:
    """The learning passes a run with ``opts`` needs ("module:Class"), in the order they run."""
    c = cleaner(opts.cleaner)
    names = list(c.learns)
    for f in FILTERS:
        if f.enabled(opts, c):
            names += [n for n in f.learns(opts) if n not in names]
    return tuple(names)


_load_plugins()
