"""Cleaning options, declared once.

Each field of :class:`CleanOptions` carries its type, default, choices and help
(in the spirit of ir_measures' ``SUPPORTED_PARAMS``). From that one declaration come:

* the ``webprune preprocess`` flags (:func:`add_arguments`, :func:`from_args`);
* config validation: :func:`from_mapping` refuses unknown keys with the closest valid one;
* ``eval-cleaning`` tool specs (:mod:`preprocess.spec`).

Options are configuration only: what a run learns from its input (calibrated
thresholds, feed templates, site references) is a separate artefact
(:mod:`preprocess.learned`).
"""
from __future__ import annotations

import argparse
import dataclasses
import difflib
import math
import typing
from dataclasses import dataclass, field

DEFAULT_MAX_BYTES = 16 << 20
DEFAULT_LINK_DENSITY = 0.5
PRUNE_SCORES = ("perplexity", "adjusted", "contrastive")


def option(default, help: str, *, choices=None, metavar: str | None = None):
    """A declared option: ``choices`` may be a callable (the registry's names, read lazily)."""
    return field(default=default, metadata={"help": help, "choices": choices, "metavar": metavar})


def _cleaner_names() -> tuple[str, ...]:
    from preprocess.registry import cleaner_names

    return cleaner_names()


@dataclass(frozen=True)
class CleanOptions:
    """Everything a worker needs to build its steps."""

    cleaner: str = option("tags", "DOM cleaner (tag removal always writes the text); see the README's table",
                          choices=_cleaner_names)
    drop_hinted: bool = option(False, "drop elements whose class or id names comments, sidebars, footers, menus, "
                                      "social bars, related boxes (Readability's 'unlikely candidates'); with "
                                      "--cleaner learned also the comment-thread blocks the model kept")
    max_link_density: float | None = option(None, "drop written blocks with more than this share of their "
                                                   "characters in links (e.g. 0.5)", metavar="X")
    kitten: bool | None = option(None, "Kitten normalisation: tables linearised, link lists removed, lists "
                                       "flattened, block-final punctuation (default: on for the DOM cleaners, "
                                       "off for tags)")
    learned_model: str | None = option(None, "block model for --cleaner learned (default: the one in the package; "
                                              "scripts/train_learned.py writes them)", metavar="FILE")
    prune_model: str | None = option(None, "KenLM model file (webprune lm train): prune sentences by perplexity; "
                                           "or a contrastive model directory (webprune lm train-crawl): prune by "
                                           "H_content - H_boilerplate, 3 bits per token unless a threshold is given",
                                     metavar="MODEL")
    prune_score: str = option("perplexity", "the model's own score (perplexity; contrastive for a contrastive "
                                            "model); adjusted: perplexity + sentence length + the line's link "
                                            "density (use --prune-percentile), or for a contrastive model its score "
                                            "+ sentence length", choices=PRUNE_SCORES)
    max_perplexity: float | None = option(None, "drop sentences above this perplexity", metavar="N")
    prune_threshold: float | None = option(None, "drop sentences scoring above this on the model's scale (bits "
                                                  "per token for a contrastive model, perplexity for a plain one)",
                                           metavar="X")
    prune_percentile: float | None = option(None, "drop the worst P%% of sentences (threshold calibrated on a "
                                                   "sample, recorded in stats.json)", metavar="P")
    prune_sample_docs: int = option(1000, "documents in the calibration sample", metavar="N")
    max_bytes: int = option(DEFAULT_MAX_BYTES, "skip payloads larger than this many bytes (too_large)",
                            metavar="BYTES")
    max_nodes: int = option(1_000_000, "skip pages with more tags (open and close) than this (too_many_nodes): bounds "
                                       "a worker's memory", metavar="N")
    max_depth: int = option(20_000, "skip pages nested deeper than this (too_deep; the 2,871 shared pages reach "
                                    "128)", metavar="N")
    max_parse_seconds: float = option(10.0, "skip pages whose parse is predicted (from parsing prefixes of pages "
                                            "over 128 KiB) to take longer than this many CPU seconds "
                                            "(too_complex: markup the HTML parser handles in superlinear time)",
                                      metavar="S")

    def check(self) -> "CleanOptions":
        """Raise ValueError, saying what to do, for a combination that cannot run."""
        check_values(self)
        for f in dataclasses.fields(self):
            choices = f.metadata.get("choices")
            choices = choices() if callable(choices) else choices
            value = getattr(self, f.name)
            if choices and value not in choices:
                raise ValueError(f"unknown {f.name.replace('_', '-')} {value!r}; choose one of {', '.join(choices)}")
        if self.max_link_density is not None and not 0 <= self.max_link_density <= 1:
            raise ValueError("--max-link-density is a share of a block's characters: give a value in [0, 1], e.g. 0.5")
        if self.learned_model and self.cleaner != "learned":
            raise ValueError("--learned-model is the block model of --cleaner learned: add --cleaner learned, or "
                             "leave the model out")
        if self.max_bytes <= 0 or self.max_nodes <= 0 or self.max_depth <= 0:
            raise ValueError("--max-bytes, --max-nodes and --max-depth must be positive")
        if not 0 < self.max_parse_seconds < float("inf"):
            raise ValueError(f"--max-parse-seconds {self.max_parse_seconds}: give a positive number of seconds, e.g. 10")
        thresholds = sum(x is not None for x in (self.max_perplexity, self.prune_threshold, self.prune_percentile))
        if self.prune_model and self.contrastive:
            if self.max_perplexity is not None:
                raise ValueError("a contrastive model has no perplexity: use --prune-threshold X (bits per token) "
                                 "or --prune-percentile P")
            if thresholds > 1:
                raise ValueError("give at most one of --prune-threshold X or --prune-percentile P")
        elif self.prune_model:
            from pathlib import Path

            if Path(self.prune_model).is_dir():
                raise ValueError(f"{self.prune_model} is a folder without contrastive.json: not a model (train one "
                                 "with `webprune lm train-crawl`, or give a KenLM model file)")
            if self.prune_score == "contrastive":
                raise ValueError("--prune-score contrastive needs a contrastive model (webprune lm train-crawl)")
            if thresholds != 1:
                raise ValueError("with --prune-model give one of --max-perplexity N or --prune-percentile P "
                                 "(--prune-threshold N: the same as --max-perplexity for a plain model)")
        if self.prune_model:
            if self.prune_score == "adjusted" and self.prune_percentile is None and not self.contrastive:
                raise ValueError("--prune-score adjusted has no perplexity scale: use --prune-percentile P")
            if self.prune_percentile is not None and not 0 < self.prune_percentile < 100:
                raise ValueError("--prune-percentile must be between 0 and 100 (the share of sentences to drop)")
            if self.prune_sample_docs < 1:
                raise ValueError("--prune-sample-docs must be at least 1")
        elif thresholds:
            raise ValueError("--max-perplexity/--prune-threshold/--prune-percentile need --prune-model MODEL")
        if self.max_perplexity is not None and self.max_perplexity <= 1:
            raise ValueError(f"--max-perplexity {self.max_perplexity:g} would drop every sentence (a perplexity is at "
                             "least 1): give a value > 1, e.g. 1000")
        return self

    def check_files(self) -> "CleanOptions":
        """:meth:`check`, and the model files named exist and load (on the driver, before any worker starts)."""
        from pathlib import Path

        self.check()
        if self.cleaner == "learned":
            from preprocess.cleaners.learned.cleaner import LearnedCleaner
            from preprocess.cleaners.learned.model import load_model

            LearnedCleaner(load_model(self.learned_model))  # a missing, unreadable or mismatched model says so
        if self.prune_model and "://" in self.prune_model:
            raise ValueError(f"--prune-model {self.prune_model}: give a local path (every node reads it), not a URI")
        if self.prune_model and not Path(self.prune_model).exists():
            raise ValueError(f"no model at {self.prune_model}: train one with `webprune lm train` (or "
                             "`webprune lm train-crawl`), or give its path")
        if self.prune_model:  # one line now rather than a traceback from every worker
            from preprocess.lm.contrastive import BOILER, CONTENT, check_model, pair_dirs, read_card
            from preprocess.lm.score import check_kenlm

            if check_model(self.prune_model) == "contrastive":
                for d in pair_dirs(read_card(self.prune_model)).values():  # every language's pair
                    for side in (CONTENT, BOILER):
                        check_kenlm(Path(self.prune_model) / d / side,
                                    "train the model again with `webprune lm train-crawl`")
            else:
                check_kenlm(self.prune_model)
        return self

    @property
    def contrastive(self) -> bool:
        """Whether ``prune_model`` is a contrastive model (a directory with a card)."""
        from preprocess.lm.contrastive import is_contrastive

        return is_contrastive(self.prune_model)

    @property
    def line_features(self) -> bool:
        """Whether tag removal measures each line's link density (the filters after it need it)."""
        return self.max_link_density is not None or (bool(self.prune_model) and self.prune_score == "adjusted"
                                                      and not self.contrastive)

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)


# -- types of the declared fields ------------------------------------------------------------------------------
def field_types(cls=CleanOptions) -> dict[str, tuple[type, bool]]:
    """{name: (base type, may be None)} from the annotations."""
    out = {}
    for name, hint in typing.get_type_hints(cls).items():
        args = typing.get_args(hint)
        if args:
            base = next(a for a in args if a is not type(None))
            out[name] = (base, type(None) in args)
        else:
            out[name] = (hint, False)
    return out


def _coerce(name: str, value, where: str, cls) -> object:
    base, nullable = field_types(cls)[name]
    if value is None and nullable:
        return None
    ok = (isinstance(value, bool) if base is bool else
          isinstance(value, (int, float)) and not isinstance(value, bool) if base is float else
          isinstance(value, int) and not isinstance(value, bool) if base is int else isinstance(value, base))
    if not ok:
        raise ValueError(f"{where}: {name} must be {'a number' if base is float else base.__name__}, "
                         f"not {type(value).__name__} {value!r}")
    return float(value) if base is float else value


def check_values(opts) -> None:
    """Every float field finite, every string field non-empty (flags and configs alike); ValueError otherwise."""
    for name, (base, _) in field_types(type(opts)).items():
        value = getattr(opts, name)
        if value is None:
            continue
        if base is float and not math.isfinite(value):
            raise ValueError(f"{flag(name)} {value}: give a finite number")
        if base is str and not value.strip():
            raise ValueError(f"{flag(name)} is empty: give a value, or leave the option out")


def closest(name: str, valid) -> str:
    """' (did you mean X?)' for the closest valid name, else ''."""
    m = difflib.get_close_matches(name, list(valid), n=1, cutoff=0.5)
    return f" (did you mean {m[0]!r}?)" if m else ""


def from_mapping(data: dict, where: str = "options", cls=CleanOptions, ignore: frozenset = frozenset()):
    """Options of ``cls`` from a config mapping; unknown keys and wrong types are refused with a clear message."""
    names = {f.name for f in dataclasses.fields(cls)}
    kwargs = {}
    for key, value in data.items():
        if key in ignore:
            continue
        if key not in names:
            raise ValueError(f"{where}: unknown key {key!r}{closest(key, names | set(ignore))}")
        kwargs[key] = _coerce(key, value, where, cls)
    opts = cls(**kwargs)
    return opts.check() if hasattr(opts, "check") else opts


# -- command-line flags ----------------------------------------------------------------------------------------
def flag(name: str) -> str:
    return "--" + name.replace("_", "-")


def add_arguments(parser: argparse.ArgumentParser, cls=CleanOptions) -> None:
    """One flag per declared field, with its type, choices and help; defaults stay in the dataclass."""
    types = field_types(cls)
    for f in dataclasses.fields(cls):
        base, nullable = types[f.name]
        meta = f.metadata
        kw: dict = {"dest": f.name, "default": argparse.SUPPRESS, "help": meta.get("help", "")}
        if base is bool:
            kw["action"] = argparse.BooleanOptionalAction if nullable or f.default else "store_true"
        else:
            kw["type"] = base
            choices = meta.get("choices")
            if choices is not None:
                kw["choices"] = choices() if callable(choices) else choices
            if meta.get("metavar"):
                kw["metavar"] = meta["metavar"]
        default = f.default
        if default is not None and default is not False:
            kw["help"] += f" (default: {default})"
        parser.add_argument(flag(f.name), **kw)


def from_args(args: argparse.Namespace, cls=CleanOptions):
    """The options given on a command line built by :func:`add_arguments` (unset flags keep the defaults)."""
    names = {f.name for f in dataclasses.fields(cls)}
    opts = cls(**{k: v for k, v in vars(args).items() if k in names})
    return opts.check() if hasattr(opts, "check") else opts


@dataclass(frozen=True)
class RunOptions:
    """How a preprocess run executes (the ``[preprocess]`` config section); never changes a shard's content."""

    workers: int | None = option(None, "cleaning workers / CPUs (default: all CPUs of the cluster)", metavar="N")
    address: str | None = option(None, "Ray cluster to attach to (default: $RAY_ADDRESS, else a local one)",
                                 metavar="ADDR")
    executor: str = option("ray", "ray: units on Ray workers; local: in this process (debugging)",
                           choices=("ray", "local"))
    compress: bool = option(True, "write .jsonl.gz shards (--no-compress: plain .jsonl)")
    batch_size: int = option(64, "records cleaned per step call inside a unit", metavar="N")
    outcomes: bool = option(False, "also write OUT/outcomes/NNNNN.tsv.gz: every record's id and its outcome "
                                   "(written, skipped.<reason>, failed.<reason>)")

    def check(self) -> "RunOptions":
        check_values(self)
        if self.workers is not None and self.workers < 1:
            raise ValueError("--workers must be at least 1")
        if self.batch_size < 1:
            raise ValueError("--batch-size must be at least 1")
        return self
