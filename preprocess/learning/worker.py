"""The learning engine's half that runs where a unit is: one pass's partial result for one unit (small: scores,
paths, hashes), from the records the pass asks to be handed (:mod:`preprocess.core.passes`)."""
from __future__ import annotations

import itertools
from typing import Iterator

from preprocess.config.registry import step_class
from preprocess.core.artefacts import Learned
from preprocess.core.document import Document
from preprocess.core.passes import UnitListing
from preprocess.core.stats import Stats
from preprocess.folder.output import OutputDir
from preprocess.learning import spool
from preprocess.readers import read_source
from preprocess.run.pipeline import Pipeline
from preprocess.run.units import Job, WorkUnit
from preprocess.run.worker import load_learned


def learn_unit(shared: tuple, task: tuple, progress=None):
    """One learning pass's partial result for one unit: ``shared`` is (job, state), ``task`` (pass ref, round,
    unit, the unit's own state when the pass routes its state per unit, else None, the unit's spool of an earlier
    round or None). A round that spools returns ``(partial, spool name)``."""
    job, state = shared
    ref, rnd, unit, own, spooled = task
    learner, state = step_class(ref)(job.opts), state if own is None else own
    kind, out = learner.handed(rnd), OutputDir(job.output)
    if kind == "spool":  # the rows this pass spooled for the unit in an earlier round
        return learner.map_docs(rnd, spool.read_spool(out, learner.name, spooled), state)
    if learner.spools:
        take = learner.take(rnd, state)
        name = spool.spool_name(unit, rnd, take)
        meta = spool.saved_spool(out, learner.name, name)
        if meta is not None:  # an earlier attempt or run spooled this unit: it is not read again
            rows = spool.read_spool(out, learner.name, name)
        else:
            done = learner.map_docs(rnd, _handed(learner, kind, rnd, unit, job, state), state)
            rows, meta = done.rows, done.meta
            spool.write_spool(out, learner.name, name, rows, meta)
        return learner.spooled(rnd, rows, meta, state), name
    return learner.map_docs(rnd, _handed(learner, kind, rnd, unit, job, state), state)


def _handed(learner, kind: str, rnd: int, unit: WorkUnit, job: Job, state):
    """What a unit hands the pass in round ``rnd`` (``learner.handed``): its page names, its records cleaned with
    their lines before cleaning, or the records as :func:`pass_docs` chooses them."""
    if kind == "names":  # no page read (the ids' census)
        from preprocess.readers.files import unit_page_names

        return UnitListing(unit.index, unit.source.name, unit.shard.split(".jsonl", 1)[0],
                           unit_page_names(unit.source))
    if kind == "labelled":
        from preprocess.learning.labels import Labelled

        return Labelled(learner.opts, lambda stats: read_source(unit.source, stats, job.opts.max_bytes),
                        learner.take(rnd, state), job.batch_size)
    return pass_docs(learner, rnd, state, lambda: read_source(unit.source, Stats()), load_learned(job))


def pass_docs(learner, rnd: int, state, read, learned: Learned) -> Iterator[Document]:
    """The documents a learning pass is handed in round ``rnd``: of ``read()``'s records (a fresh iterator
    per call), the first ``learner.take`` ones, those ``learner.select`` chose (on a first read), cleaned
    one at a time by the run's pipeline up to ``learner.cleaned_until``."""
    chosen = learner.select(read()) if learner.select is not None else None
    docs = read()
    n = learner.take(rnd, state)
    if n is not None:
        docs = itertools.islice(docs, n)
    if chosen is not None:
        docs = (d for d in docs if d.id in chosen)
    if learner.cleaned_until is None:
        return docs
    pipe = Pipeline(learner.opts, learned, stop_before=learner.cleaned_until)
    return (d for doc in docs for d in pipe.run([doc], Stats()))
