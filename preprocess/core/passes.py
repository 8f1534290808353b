"""The learning pass contract: what a component that learns from a run's whole input implements.

A pass is map/reduce over the documents the engine (:mod:`preprocess.learning.engine`) hands it,
and nothing else: it never reads input or builds a pipeline, and writes no file but what its ``finish`` makes
from spools (a model, under ``SpoolFiles.root``). It declares
what it wants handed -- ``take`` (the first N records of each unit), ``select`` (a first
read of a unit's raw records choosing the ids it wants), ``cleaned_until`` (the records
cleaned by the run's own pipeline up to that step) -- and returns its artefact from
``finish``: the JSON kept in ``OUT/learned/<name>.json`` and ``parts`` the engine writes
as ``OUT/learned/<name>/<part>.json`` (steps read them lazily with ``Learned.part``).
Only small partials travel: scores, paths, hashes, never a page. A pass that needs a unit's page names and
not its records (the ids' census) declares ``reads = "names"`` and is handed a :class:`UnitListing`.

**Spool.** A pass that must keep rows for later (train-crawl: each page's labelled lines) returns
:class:`Spooled` from ``map_docs``: the engine writes the rows where the unit runs, to
``OUT/learned/<name>/spool/<unit key>-<index>-r<round>-t<take>.jsonl.gz`` (atomically, the same bytes on a
retry; a unit whose spool is there is not read again), and gives the pass ``spooled(rnd, rows, meta, state)``
to make the partial from them. A later round that declares ``handed(rnd) == "spool"`` is handed the unit's
spooled rows; ``finish(state, files)`` gets a :class:`SpoolFiles` (the spools' names, never their rows, and a
reader). ``reads = "labelled"``: each record cleaned by the pass's options with the lines it had before
cleaning, as ``(doc, kept, removed)`` (:mod:`preprocess.learning.labels`); the iterable's ``stats`` count them.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator


@dataclass(frozen=True)
class UnitListing:
    """What a ``reads = "names"`` pass is handed for a unit: its index, source name, shard name (without
    ``.jsonl``) and the names of its pages in reading order (tar members, a folder's files); no page is read."""

    index: int
    source: str
    shard: str
    names: list[str]


@dataclass(frozen=True)
class Spooled:
    """What ``map_docs`` returns to have the engine spool ``rows`` (JSON lists) for the unit; ``meta`` (small
    JSON) is kept beside them and handed back to ``spooled`` with the rows."""

    meta: dict
    rows: list


class SpoolFiles:
    """What ``finish`` of a pass that spools gets (the engine's :class:`preprocess.learning.spool.Spools` implements it)."""

    files: list[str]    # the spool of each unit that finished every round, in unit order (names, not rows)
    failed: list[str]   # "<input>: <why>" of every unit that failed a round
    root: str           # the local folder of OUT: a pass whose artefact is files (a model) writes them under it

    def rows(self, name: str) -> Iterator[list]:
        """The rows of one spool file, streamed."""
        raise NotImplementedError


class LearningPass:
    """Subclasses set ``name`` (the artefact's name) and implement ``map_docs``/``reduce``/``finish``."""

    name = "pass"
    rounds = 1
    cleaned_until: str | None = None  # hand documents cleaned up to (not including) this step; None: raw records
    reads = "records"  # what a unit hands: "records" (as take/select/cleaned_until say), "names", "labelled"
    spools = False     # map_docs returns Spooled, and finish takes (state, files: SpoolFiles)

    def __init__(self, opts):
        self.opts = opts

    def sample(self, units: list) -> list:
        """The units this pass reads (all by default; a pass that needs a sample reads fewer)."""
        return units

    def start(self, chosen: list):
        """The state the first round's tasks get (e.g. a per-unit quota)."""
        return None

    def take(self, rnd: int, state) -> int | None:
        """How many of a unit's records to hand in round ``rnd`` (the first ones); None: all."""
        return None

    select = None  # or a method (docs: raw records of a unit) -> the ids of the records to hand

    def handed(self, rnd: int) -> str:
        """What round ``rnd`` is handed: ``reads``, or "spool" (the rows this pass spooled in an earlier round)."""
        return self.reads

    def spooled(self, rnd: int, rows: list, meta: dict, state):
        """A spooling pass's partial from the rows (and meta) its ``map_docs`` spooled for the unit."""
        raise NotImplementedError

    def map_docs(self, rnd: int, docs: Iterator, state):
        """On a worker: the partial result of the documents handed (one unit's; small: never the pages); with
        ``reads = "names"``, ``docs`` is the unit's :class:`UnitListing`."""
        raise NotImplementedError

    def reduce(self, rnd: int, partials: list, state):
        """On the driver: the partials of a round, in unit order, into the state of the next round."""
        raise NotImplementedError

    def route(self, rnd: int, state) -> list | None:
        """The next round's state split per unit: one entry per partial ``reduce`` just got, in the same
        order, each sent to that unit's task only; a unit routed None (or without a partial: it failed)
        gets no task in the next round. None (the default): every task gets the whole ``state``."""
        return None

    def finish(self, state) -> dict:
        """The artefact (JSON); a key ``parts`` ({part name: JSON}) is taken out and written by the engine."""
        return state
