"""Cleaning options, assembled from the registry's declarations.

:class:`CleanOptions` has the run-wide fields declared here (the cleaner; the page
limits) and every parameter a registry entry declares (``params``: the learned
cleaner's ``learned_model``, the pruning filter's ``prune_*`` ...), each with its type,
default, choices and help (:func:`preprocess.config.params.option`). From those declarations come:

* the ``webprune preprocess`` flags (:func:`add_arguments`, :func:`from_args`);
* config validation: :func:`from_mapping` refuses unknown keys with the closest valid one;
* ``eval-cleaning`` tool specs (:mod:`preprocess.config.spec`);
* unit keys and driver checks: ``path=True`` fields are model files (:func:`model_paths`).

The checks a component needs live in its ``checks`` module (registry); nothing here knows
a component's parameters. Options are configuration only: what a run learns from its
input (calibrated thresholds, feed templates, site references) is a separate artefact
(:mod:`preprocess.core.artefacts`).
"""
from __future__ import annotations

import argparse
import dataclasses
import importlib
from dataclasses import dataclass

from preprocess.config import params
from preprocess.config import registry
from preprocess.config.params import check_values, closest, field_types, flag, option, path_fields  # noqa: F401 (API)

DEFAULT_MAX_BYTES = 16 << 20
DEFAULT_LINK_DENSITY = registry.DEFAULT_LINK_DENSITY
PRUNE_SCORES = registry.PRUNE_SCORES


def _cleaner_names() -> tuple[str, ...]:
    return registry.cleaner_names()


_FIRST = {"cleaner": option("learned", "DOM cleaner, by crawl -- learned: mixed crawls (ClueWeb, Common Crawl), the "
                                       "recommended one; learned --drop-hinted --max-link-density 0.5: news and "
                                       "article crawls; tags: the paper's baseline, tag removal alone, the fastest; "
                                       "density, blog, sitediff, feeds: the seed methods (docs/cleaning.md)",
                            type=str, choices=_cleaner_names)}
_LAST = {
    "max_bytes": option(DEFAULT_MAX_BYTES, "skip payloads larger than this many bytes (too_large)", type=int,
                        metavar="BYTES"),
    "max_nodes": option(1_000_000, "skip pages with more tags (open and close) than this (too_many_nodes): bounds "
                                   "a worker's memory", type=int, metavar="N"),
    "max_depth": option(20_000, "skip pages nested deeper than this (too_deep; the 2,871 shared pages reach 128)",
                        type=int, metavar="N"),
    "max_parse_seconds": option(10.0, "skip pages whose parse is predicted (from parsing prefixes of pages over "
                                      "128 KiB) to take longer than this many CPU seconds (too_complex: markup the "
                                      "HTML parser handles in superlinear time)", type=float, metavar="S"),
}


def _hooks(component, name: str):
    """The component's ``name`` hook from its ``checks`` module, or None."""
    return getattr(importlib.import_module(component.checks), name, None) if component.checks else None


class _Behaviour:
    """The methods of :class:`CleanOptions` (its fields come from the registry)."""

    def check(self):
        """Raise ValueError, saying what to do, for a combination that cannot run."""
        check_values(self)
        for name, owner in OWNER.items():  # a cleaner's own parameter given while another cleaner runs
            if isinstance(owner, registry.Cleaner) and owner.name != self.cleaner and \
                    getattr(self, name) != _DEFAULTS[name]:
                raise ValueError(f"{flag(name)} is a parameter of --cleaner {owner.name}: add --cleaner "
                                 f"{owner.name}, or leave the option out")
        if self.max_bytes <= 0 or self.max_nodes <= 0 or self.max_depth <= 0:
            raise ValueError("--max-bytes, --max-nodes and --max-depth must be positive")
        if not 0 < self.max_parse_seconds < float("inf"):
            raise ValueError(f"--max-parse-seconds {self.max_parse_seconds}: give a positive number of seconds, e.g. 10")
        for c in registry.components():
            if (hook := _hooks(c, "check")) is not None:
                hook(self)
        return self

    def check_files(self):
        """:meth:`check`, and the model files of the components this run uses exist and load (on the driver,
        before any worker starts)."""
        self.check()
        for c in self._active():
            if (hook := _hooks(c, "check_files")) is not None:
                hook(self)
        return self

    def _active(self) -> list:
        entry = registry.cleaner(self.cleaner)
        return [f for f in registry.FILTERS if f.enabled(self, entry)] + [entry]

    @property
    def line_features(self) -> bool:
        """Whether tag removal measures each line's link density (a step after it reads it)."""
        return any(hook(self) for c in self._active() if (hook := _hooks(c, "line_features")) is not None)

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)


def _assemble():
    owner, fields = {}, []
    for name, f in _FIRST.items():
        fields.append((name, f.metadata["type"], f))
    for c in registry.components():
        for name, f in c.params.items():
            if name in owner or name in _FIRST or name in _LAST:
                raise ValueError(f"{c.name!r} declares parameter {name!r}, which "
                                 f"{owner[name].name if name in owner else 'the run'} already has: rename it")
            owner[name] = c
            fields.append((name, f.metadata["type"], f))
    for name, f in _LAST.items():
        fields.append((name, f.metadata["type"], f))
    cls = dataclasses.make_dataclass("CleanOptions", fields, bases=(_Behaviour,), frozen=True)
    cls.__module__ = __name__  # pickled by name: workers assemble the same class
    cls.__doc__ = "Everything a worker needs to build its steps: the run-wide fields and the registry's parameters."
    return cls, owner


CleanOptions, OWNER = _assemble()  # OWNER: parameter name -> the registry entry that declares it
_DEFAULTS = {f.name: f.default for f in dataclasses.fields(CleanOptions)}


def model_paths(opts) -> list[str | None]:
    """The values of the ``path=True`` fields (model files and folders), in declaration order."""
    return [getattr(opts, name) for name in path_fields(type(opts))]


# -- the shared declarations' consumers, with CleanOptions as the default class ---------------------------------
def from_mapping(data: dict, where: str = "options", cls=CleanOptions, ignore: frozenset = frozenset()):
    """Options of ``cls`` from a config mapping; unknown keys and wrong types are refused with a clear message."""
    return params.from_mapping(data, where, cls, ignore)


def add_arguments(parser: argparse.ArgumentParser, cls=CleanOptions, only=None) -> None:
    params.add_arguments(parser, cls, only)


def from_args(args: argparse.Namespace, cls=CleanOptions):
    return params.from_args(args, cls)


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
