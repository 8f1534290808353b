"""The learning engine: runs the passes a run needs (:mod:`preprocess.core.passes`) before it cleans.

A pass (a class named in the registry, e.g. ``preprocess.filters.prune.calibrate:PruneThreshold``)
is mapped over units on the workers -- each task reads its own file and hands the
pass the documents it declared (:func:`preprocess.run.worker.pass_docs`) -- and its
partials are reduced on the driver, in unit order, so the artefact is the same for
any worker count. It may take several rounds (feeds: items first, then the pages
they link to) and route a round's state per unit. The engine writes the artefact to
``OUT/learned/<name>.json`` (its ``parts`` to ``OUT/learned/<name>/``) keyed by the
options, the code, the inputs and the artefacts it was built on; a resumed run reuses it.
"""
from __future__ import annotations

import dataclasses
import logging
import time

from preprocess.runtime.executor import Failure
from preprocess.core.artefacts import Learned
from preprocess.folder.output import OutputDir
from preprocess.config.registry import learning_passes, step_class
from preprocess.learning.spool import Spools
from preprocess.run.units import Job, WorkUnit, code_id, digest, model_files
from preprocess.learning.worker import learn_unit, pass_docs

log = logging.getLogger("webprune.preprocess")


def learn(job: Job, units: list[WorkUnit], executor, out: OutputDir, stats,
          extra: tuple[str, ...] = ()) -> tuple[Job, dict]:
    """Run ``extra`` and the passes ``job.opts`` needs; returns the job with their artefact digests, and a report."""
    report: dict = {}
    inputs = [u.source.identity for u in units]
    for ref in (*extra, *learning_passes(job.opts)):
        learner = step_class(ref)(job.opts)
        key = digest(ref, job.opts.to_dict(), model_files(job.opts), code_id(), inputs, job.learned)[:16]
        saved = out.read_json("learned", f"{learner.name}.json")
        if saved and saved.get("key") == key:
            log.info("learning pass %s: reusing %s/learned/%s.json", learner.name, out.uri, learner.name)
            report[learner.name] = saved.get("report", {}) | {"reused": True}
        else:
            artefact, ran = run_pass(learner, ref, job, units, executor, out)
            info = {"seconds": ran["seconds"], "units_failed": len(ran["failed"]),
                    **(artefact.get("info", {}) if isinstance(artefact, dict) else {})}
            out.write_json({"key": key, "pass": ref, "report": info, "artefact": artefact},
                           "learned", f"{learner.name}.json")
            report[learner.name] = info
            stats.add_time(f"learn.{learner.name}", info["seconds"], 0.0)
        job = dataclasses.replace(job, learned={**job.learned, learner.name: key})
    return job, report


def run_pass(learner, ref: str, job: Job, units: list[WorkUnit], executor, out: OutputDir) -> tuple[object, dict]:
    """One pass over ``units``: its rounds on the executor's workers (map) and on the driver (reduce, route), then
    ``finish``; the artefact's ``parts`` are written to ``OUT/learned/<name>/``. Returns the artefact and what the
    run took: ``seconds``, ``finish_seconds``, ``failed`` ("<input>: <why>" per unit a round lost)."""
    t0 = time.perf_counter()
    chosen = learner.sample(units)
    state, failed, routes, spools = learner.start(chosen), [], None, {}
    for rnd in range(learner.rounds):
        partials: dict[int, object] = {}
        reading_spool = learner.handed(rnd) == "spool"
        # a unit without its spool, or routed nothing (None: no partial, or nothing for it to do), gets no task
        tasks = [(ref, rnd, u, routes.get(u.index) if routes is not None else None, spools.get(u.index))
                 for u in chosen if (not reading_spool or u.index in spools)
                 and (routes is None or routes.get(u.index) is not None)]
        shared = state if routes is None else None
        for (_, _, unit, _, _), result in executor.map(learn_unit, tasks, shared=(job, shared)):
            if isinstance(result, Failure):
                failed.append(f"{unit.source.uri}: {result.message}")
                log.error("learning pass %s: unit %s failed (%s); learning goes on without it",
                          learner.name, unit.source.uri, result.message)
            elif learner.spools and not reading_spool:
                partials[unit.index], spools[unit.index] = result
            else:
                partials[unit.index] = result
        state = learner.reduce(rnd, [partials[i] for i in sorted(partials)], state)
        split = learner.route(rnd, state)
        routes = None if split is None else dict(zip(sorted(partials), split))
        if learner.spools and routes is not None and None in routes.values():
            raise ValueError(f"learning pass {learner.name} spools and routed None to a unit: its spool would leave "
                             "the pass unseen; a spooling pass routes every unit (an empty state if need be)")
        last = sorted(partials)
    t1 = time.perf_counter()
    if learner.spools:  # the spools of the units that finished every round, by name
        artefact = learner.finish(state, Spools(out, learner.name, [spools[i] for i in last], failed))
    else:
        artefact = learner.finish(state)
    parts = _take_parts(artefact)
    if parts is not None:
        out.mkdirs("learned", learner.name)
        for part, data in sorted(parts.items()):
            out.write_json(data, "learned", learner.name, f"{part}.json")
    now = time.perf_counter()
    return artefact, {"seconds": round(now - t0, 3), "finish_seconds": round(now - t1, 3), "failed": failed}


def learn_in_process(opts, docs: list, known: Learned | None = None) -> Learned:
    """Every pass ``opts`` needs over ``docs`` (raw Documents) in this process, artefacts kept inline;
    passes whose artefact is in ``known`` are not run again.

    For benchmarks and tests that clean a handful of pages (eval-cleaning: a host's pages of a set).
    """
    learned = known or Learned()
    for ref in learning_passes(opts):
        learner = step_class(ref)(opts)
        if learned.get(learner.name) is not None:
            continue
        if learner.spools or learner.reads != "records":
            raise ValueError(f"learning pass {ref} reads units (reads={learner.reads!r}, spools={learner.spools}): "
                             "run it through webprune preprocess, not on documents in this process")
        state = given = learner.start([None])

        def fresh():  # copies: cleaning consumes a document (Parse drops its bytes)
            return iter([dataclasses.replace(d, lines=list(d.lines), fields=dict(d.fields), meta=dict(d.meta))
                         for d in docs])

        for rnd in range(learner.rounds):
            handed = pass_docs(learner, rnd, given, fresh, learned)
            state = learner.reduce(rnd, [learner.map_docs(rnd, handed, given)], state)
            split = learner.route(rnd, state)
            given = state if split is None else split[0]
        artefact = learner.finish(state)
        parts = _take_parts(artefact)
        learned = learned.with_(learner.name, artefact, parts)
    return learned


def _take_parts(artefact) -> dict | None:
    """The artefact's ``parts`` (taken out of it: the engine keeps them apart), or None."""
    return artefact.pop("parts", None) if isinstance(artefact, dict) else None
