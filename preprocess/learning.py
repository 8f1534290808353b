"""Learning passes: what a run learns from its whole input before it cleans, as distributed passes.

A pass (a class named in the registry, e.g. ``preprocess.calibrate:PruneThreshold``)
maps over units on the workers -- each task reads its own file and returns a small
partial result -- and reduces the partials on the driver, in unit order, so the
artefact is the same for any worker count. It may take several rounds (feeds:
items first, then the pages they link to). The artefact goes to
``OUT/learned/<name>.json`` keyed by the options, the code, the inputs and the
artefacts it was built on; a resumed run reuses it.
"""
from __future__ import annotations

import dataclasses
import logging
import time

from preprocess.executor import Failure
from preprocess.learned import Learned
from preprocess.output import OutputDir
from preprocess.registry import learning_passes, step_class
from preprocess.units import Job, WorkUnit, code_id, digest, model_files
from preprocess.work import learn_unit

log = logging.getLogger("webprune.preprocess")


class LearningPass:
    """Subclasses set ``name`` (the artefact's name) and implement ``map``/``reduce``/``finish``."""

    name = "pass"
    rounds = 1

    def __init__(self, opts):
        self.opts = opts

    def sample(self, units: list[WorkUnit]) -> list[WorkUnit]:
        """The units this pass reads (all by default; a pass that needs a sample reads fewer)."""
        return units

    def start(self, chosen: list[WorkUnit]):
        """The state the first round's tasks get (e.g. a per-unit quota)."""
        return None

    def map(self, rnd: int, unit: WorkUnit, job: Job, state):
        """On a worker: the partial result of one unit (small: never the unit's pages)."""
        from preprocess.readers import read_source
        from preprocess.stats import Stats
        from preprocess.work import load_learned

        return self.map_docs(rnd, read_source(unit.source, Stats()), load_learned(job), state)

    def map_docs(self, rnd: int, docs, learned: Learned, state):
        """The partial result of a stream of raw documents (a unit's, or a benchmark's pages), cleaned
        with the artefacts of the passes before this one (``learned``)."""
        raise NotImplementedError

    def reduce(self, rnd: int, partials: list, state):
        """On the driver: the partials of a round, in unit order, into the state of the next round."""
        raise NotImplementedError

    def route(self, rnd: int, state) -> list | None:
        """The next round's state split per unit: one entry per partial ``reduce`` just got, in the same
        order, each sent to that unit's task only (a unit without a partial gets None). None (the
        default): every task gets the whole ``state``."""
        return None

    def finish(self, state, out: OutputDir | None) -> dict:
        """The artefact (JSON); large parts may go under OUT/learned/<name>/ (inline when ``out`` is None)."""
        return state


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
            t0 = time.perf_counter()
            chosen = learner.sample(units)
            state, failed, routes = learner.start(chosen), 0, None
            for rnd in range(learner.rounds):
                partials: dict[int, object] = {}
                tasks = [(ref, rnd, u, routes.get(u.index) if routes is not None else None) for u in chosen]
                shared = state if routes is None else None
                for (_, _, unit, _), result in executor.map(learn_unit, tasks, shared=(job, shared)):
                    if isinstance(result, Failure):
                        failed += 1
                        log.error("learning pass %s: unit %s failed (%s); learning goes on without it",
                                  learner.name, unit.source.uri, result.message)
                    else:
                        partials[unit.index] = result
                state = learner.reduce(rnd, [partials[i] for i in sorted(partials)], state)
                split = learner.route(rnd, state)
                routes = None if split is None else dict(zip(sorted(partials), split))
            artefact = learner.finish(state, out)
            info = {"seconds": round(time.perf_counter() - t0, 3), "units_failed": failed,
                    **(artefact.get("info", {}) if isinstance(artefact, dict) else {})}
            out.write_json({"key": key, "pass": ref, "report": info, "artefact": artefact},
                           "learned", f"{learner.name}.json")
            report[learner.name] = info
            stats.add_time(f"learn.{learner.name}", info["seconds"], 0.0)
        job = dataclasses.replace(job, learned={**job.learned, learner.name: key})
    return job, report


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
        state = given = learner.start([None])
        for rnd in range(learner.rounds):  # on copies: cleaning consumes a document (Parse drops its bytes)
            fresh = [dataclasses.replace(d, lines=list(d.lines), fields=dict(d.fields), meta=dict(d.meta))
                     for d in docs]
            state = learner.reduce(rnd, [learner.map_docs(rnd, iter(fresh), learned, given)], state)
            split = learner.route(rnd, state)
            given = state if split is None else split[0]
        learned = learned.with_(learner.name, learner.finish(state, None))
    return learned
