"""The cleaners and filters webprune can run, one line each.

A **cleaner** is chosen with ``--cleaner NAME`` (one per run). A **filter** composes
with any cleaner and is switched on by its option. Folder rule:

* ``preprocess/steps/``    the fixed core every run has: decode, parse, tag removal;
* ``preprocess/cleaners/`` choose-one DOM cleaners;
* ``preprocess/filters/``  composable steps (hints, Kitten, link density, pruning).

Steps are named by ``"module:Class"`` and imported only when a pipeline is built,
so the CLI starts without loading any cleaner. Each step class builds itself from a
:class:`BuildContext` (``Step.build``): the options, the learned artefacts and, where
the cleaner has one, its fallback, and the earlier steps it declares in ``Step.uses``.
Adding a cleaner is one module plus one line in ``CLEANERS`` (README, "Adding a cleaner").

Each entry declares its own parameters (``params``: :func:`preprocess.config.params.option`, with
their type); :class:`preprocess.config.options.CleanOptions` is assembled from them and the run-wide
fields, and the flags, config keys, cleaning specs, unit keys (``path=True``: a model file,
hashed) and driver checks follow. ``checks`` names a cheap module whose optional
``check(opts)`` (values), ``check_files(opts)`` (models load, on the driver, for the components
a run uses) and ``line_features(opts)`` (the step reads each line's link density) the options call.
"""
from __future__ import annotations

import importlib
import os
from dataclasses import dataclass, field
from typing import Callable

from preprocess.config.params import option

PRUNE_SCORES = ("perplexity", "adjusted", "contrastive")  # the pruner's scores (filters/prune)

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
    params: dict = field(default_factory=dict, compare=False)  # its options: name -> option(...)
    checks: str | None = None   # module with check / check_files / line_features (see above)


@dataclass(frozen=True)
class Filter:
    name: str
    step: str
    stage: str                  # TREE filters run around the cleaner, LINES filters after tag removal
    enabled: Callable = field(compare=False)  # (CleanOptions, Cleaner) -> bool
    before_cleaner: bool = False
    learns: tuple[str, ...] = ()  # "module:Class" of the learning passes it may read ...
    learns_if: Callable = field(default=lambda opts: True, compare=False)  # ... run when (CleanOptions) -> True
    params: dict = field(default_factory=dict, compare=False)
    checks: str | None = None


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
            "block classifier trained on the gold standards (scripts/tools/train_learned.py)", kitten=False,
            params={"learned_model": option(None, "block model for --cleaner learned (default: the one in the "
                                                  "package; scripts/tools/train_learned.py writes them)", type=str | None,
                                            metavar="FILE", path=True)},
            checks="preprocess.cleaners.learned.checks"),
)}


def _kitten(opts, cleaner: Cleaner) -> bool:
    return opts.kitten if opts.kitten is not None else cleaner.kitten


DEFAULT_LINK_DENSITY = 0.5  # a bare +links in a cleaning spec

FILTERS: tuple[Filter, ...] = (
    Filter("hints", "preprocess.filters.hints:HintFilter", TREE, lambda o, c: o.drop_hinted, before_cleaner=True,
           params={"drop_hinted": option(False, "drop elements whose class or id names comments, sidebars, footers, "
                                                "menus, social bars, related boxes (Readability's 'unlikely "
                                                "candidates'); with --cleaner learned also the comment-thread blocks "
                                                "the model kept", type=bool)}),
    Filter("kitten", "preprocess.filters.kitten:KittenNormalise", TREE, _kitten,
           params={"kitten": option(None, "Kitten normalisation: tables linearised, link lists removed, lists "
                                          "flattened, block-final punctuation (default: on for the DOM cleaners, "
                                          "off for tags)", type=bool | None)}),
    Filter("links", "preprocess.filters.links:LinkDensityFilter", LINES, lambda o, c: o.max_link_density is not None,
           params={"max_link_density": option(None, "drop written blocks with more than this share of their "
                                                    "characters in links (e.g. 0.5)", type=float | None,
                                              metavar="X",
                                              bare=DEFAULT_LINK_DENSITY)},
           checks="preprocess.filters.links"),
    Filter("kitten_punct", "preprocess.filters.kitten:KittenPunctuate", LINES, _kitten),
    Filter("prune", "preprocess.filters.prune:Prune", LINES, lambda o, c: bool(o.prune_model),
           learns=("preprocess.filters.prune.calibrate:PruneThreshold",), learns_if=lambda o: o.prune_percentile is not None,
           params={"prune_model": option(None, "KenLM model file (webprune lm train): prune sentences by "
                                               "perplexity; or a contrastive model directory (webprune lm "
                                               "train-crawl): prune by H_content - H_boilerplate, 3 bits per token "
                                               "unless a threshold is given", type=str | None, metavar="MODEL",
                                         path=True, short="model"),
                   "prune_score": option("perplexity", "the model's own score (perplexity; contrastive for a "
                                                       "contrastive model); adjusted: perplexity + sentence length + "
                                                       "the line's link density (use --prune-percentile), or for a "
                                                       "contrastive model its score + sentence length", type=str,
                                         choices=PRUNE_SCORES),
                   "prune_percentile": option(None, "drop the worst P%% of sentences (threshold calibrated on a "
                                                    "sample, recorded in stats.json)", type=float | None,
                                              metavar="P", short="p", group="threshold"),
                   "max_perplexity": option(None, "drop sentences above this perplexity", type=float | None,
                                            metavar="N", short="t", group="threshold"),
                   "prune_threshold": option(None, "drop sentences scoring above this on the model's scale (bits per "
                                                   "token for a contrastive model, perplexity for a plain one)",
                                             type=float | None, metavar="X", short="x", group="threshold"),
                   "prune_sample_docs": option(1000, "documents in the calibration sample", type=int, metavar="N",
                                               short="n")},
           checks="preprocess.filters.prune.options"),
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


def pass_refs() -> list[str]:
    """Every learning pass the registry names ("module:Class"), the cleaners' and the filters'."""
    refs = [r for c in CLEANERS.values() for r in c.learns] + [r for f in FILTERS for r in f.learns]
    return list(dict.fromkeys(refs))


def component_modules() -> set[str]:
    """The modules the registry loads: every step and learning pass named in it, and the plugins."""
    refs = [r for c in CLEANERS.values() for r in (c.step,) if r] + [f.step for f in FILTERS] + pass_refs()
    return {r.partition(":")[0] for r in refs} | set(_plugins())


def components() -> list[Cleaner | Filter]:
    """Every cleaner and filter, in the order their parameters are assembled (filters first: the order of the
    options before the registry declared them)."""
    return [*FILTERS, *CLEANERS.values()]


def register(entry: Cleaner) -> None:
    """Add a cleaner (plugins: modules named in $WEBPRUNE_PLUGINS call this when imported)."""
    import sys

    assembled = hasattr(sys.modules.get("preprocess.config.options"), "CleanOptions")
    if entry.params and assembled and entry.name not in CLEANERS:
        raise ValueError(f"cleaner {entry.name!r} declares parameters but registers after the options were "
                         "assembled: name its module in $WEBPRUNE_PLUGINS")
    CLEANERS[entry.name] = entry


PLUGIN_ERRORS: list[str] = []  # plugins that failed to import: the CLI says so in one line (exit 2)


def _load_plugins() -> None:
    for module in _plugins():
        try:
            importlib.import_module(module)
        except Exception as exc:  # noqa: BLE001 -- a plugin's own bug or a wrong name: reported, not a traceback
            PLUGIN_ERRORS.append(f"$WEBPRUNE_PLUGINS names {module!r}, which fails to import ({type(exc).__name__}: "
                                 f"{exc}); fix the module name or PYTHONPATH, or unset WEBPRUNE_PLUGINS")


def learning_passes(opts) -> tuple[str, ...]:
    """The learning passes a run with ``opts`` needs ("module:Class"), in the order they run."""
    c = cleaner(opts.cleaner)
    names = list(c.learns)
    for f in FILTERS:
        if f.enabled(opts, c) and f.learns_if(opts):
            names += [n for n in f.learns if n not in names]
    return tuple(names)


_load_plugins()
