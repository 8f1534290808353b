"""Run a whole experiment from a config (:mod:`webprune.config`): plan, execute, report.

* **plan**: each variant's cleaning options and the key of its collection; variants
  with the same cleaning share one collection and one index.
* **execute**: preprocess -> index -> search per variant, each stage measured (:mod:`eval.energy`),
  then every variant's searches timed in turns (topics and ``[search] load``). Finished stages are reused
  on a re-run (``fresh`` redoes them); a collection's key hashes the cleaning
  options, the inputs, the model file and the cleaning code.
* **report**: evaluation against the baseline (corrected across variants), ``results.md``,
  ``results.json`` and the paper's tables and plots (:mod:`eval.report`);
  with ``check`` each variant's expected values are compared with what was measured.

Outputs go to OUTPUT/: ``collections/<key>/``, ``indexes/<key>/``, ``runs/<variant>.txt``,
``results.md``, ``results.json``, ``report.md``, ``report.html`` and ``plots/`` (:mod:`eval.report`),
``load-queries.tsv`` (the timed query load), ``cleaning.json`` (``[cleaning]``).

What the experiment owns there, and the only files it replaces or deletes: :mod:`webprune.experiment_output`.
One run at a time holds OUTPUT (:mod:`preprocess.folder.lock`).
"""
from __future__ import annotations

import dataclasses
import hashlib
import importlib
import json
import logging
import shutil
from dataclasses import dataclass
from pathlib import Path

from eval.energy import Meter, Tasks, warm_worker
from eval.report.results import report
from index.build import STATS_FILE, build_index
from preprocess.runtime.executor import make_executor
from preprocess.runtime.interrupt import SigtermInterrupts, stop_ray
from preprocess.folder.lock import OutputLock
from preprocess.config.options import CleanOptions
from preprocess.folder.output import OutputDir
from preprocess.config.params import path_fields
from preprocess.run.claim import OutputInUse
from preprocess.driver.preprocess import run_preprocess
from preprocess.run.units import code_id, model_files
from search.load import load_queries, summarise, timed_searches, write_queries
from search.models import RetrievalModel
from search.qld import run_search
from search.topics import read_topics
from webprune.config import Experiment, Variant, plain_name
from webprune.experiment_output import ENERGY_FILE, check_output, list_new_plots, output_files, take_output

log = logging.getLogger("webprune.experiment")


# -- plan ---------------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Step:
    variant: Variant
    opts: CleanOptions
    key: str
    collection: Path
    index: Path
    run: Path
    model: RetrievalModel
    k: int
    inputs: list[str]                 # [collection]'s, or the variant's own


def ensure_model(exp: Experiment, name: str) -> Path:
    """Train the model ``[models.NAME]``: a KenLM model from its corpus unless its file exists; a contrastive
    model from its crawl inputs (``lm train-crawl``, which keeps a model of the same inputs and options)."""
    spec = exp.models[name]
    out = exp.path(spec.output)
    if spec.crawl is not None:
        from preprocess.driver.train_crawl import train_crawl
        from preprocess.train_crawl.options import CrawlOptions

        log.info("learning the contrastive model %r from %s -> %s", name, ", ".join(spec.crawl), out)
        run = exp.preprocess
        train_crawl([str(exp.path(c)) for c in spec.crawl], str(out), CrawlOptions(order=spec.order or 3),
                    workers=run.workers, address=run.address, executor=run.executor)
    elif not out.exists():
        from preprocess.lm.train import train

        log.info("training model %r -> %s", name, out)
        train([str(exp.path(c)) for c in spec.corpus], out, order=spec.order or 2, prune=spec.prune,
              discount_fallback=spec.discount_fallback)
    return out


def _key(opts: CleanOptions, inputs: list[str]) -> str:
    """Collection/index folder name: the cleaner plus a hash of everything that changes the output."""
    blob = json.dumps([opts.to_dict(), inputs, model_files(opts), code_id()], sort_keys=True, default=str)
    return f"{opts.cleaner}-{hashlib.sha1(blob.encode()).hexdigest()[:8]}"


def inputs_of(exp: Experiment) -> list[str]:
    inputs = [str(exp.path(p)) for p in exp.collection.inputs]
    if exp.collection.prepare and not all(Path(i).exists() for i in inputs):
        module, _, func = exp.collection.prepare.partition(":")
        log.info("building the collection's inputs with %s", exp.collection.prepare)
        getattr(importlib.import_module(module), func or "prepare")([Path(i) for i in inputs])
    return inputs


def plan(exp: Experiment, out: Path, inputs: list[str]) -> list[Step]:
    steps = []
    for v in exp.variants:
        opts = v.clean
        # model paths (the path=True fields) are relative to the config; a [models.NAME] is trained first
        opts = dataclasses.replace(opts, **{k: str(exp.path(getattr(opts, k))) for k in path_fields(type(opts))
                                            if getattr(opts, k)})
        if v.model:
            opts = dataclasses.replace(opts, prune_model=str(ensure_model(exp, v.model)))
        own = [str(exp.path(p)) for p in v.inputs] if v.inputs else inputs
        try:
            opts = opts.check_files()
        except ValueError as e:
            raise ValueError(f"[[variants]] {v.name!r}: {e}") from None
        key = _key(opts, own)
        steps.append(Step(v, opts, key, out / "collections" / key, out / "indexes" / key,
                          out / "runs" / f"{v.name}.txt", exp.retrieval(v),
                          v.k if v.k is not None else exp.search.k, own))
    return steps


# -- execute ------------------------------------------------------------------------------------------------------
def _energy(path: Path, meter: Meter | None = None) -> dict | None:
    """A stage's measured wall/CPU/codecarbon figures, kept beside its output so a reused stage keeps them."""
    if meter is not None:
        path.write_text(json.dumps(meter.result, indent=1) + "\n")
        return meter.result
    return json.loads(path.read_text()) if path.exists() else None


def _cc(exp: Experiment) -> tuple[bool, str]:
    return (exp.co2 is not None and exp.co2.codecarbon, exp.co2.country if exp.co2 else "ESP")


def query_load(exp: Experiment, steps: list[Step], out: Path) -> tuple[dict[str, str], dict]:
    """The timed query load of ``[search] load``, written to OUTPUT/load-queries.tsv; and where it came from."""
    if not exp.search.load:
        return {}, {}
    base = next(s for s in steps if s.variant.name == exp.baseline)
    file = exp.path(exp.search.load_file) if exp.search.load_file else None
    queries = load_queries(exp.search.load, file=file, collection=base.collection, seed=exp.search.load_seed)
    write_queries(queries, out / "load-queries.tsv")
    source = (f"query file {file}" if file else f"{len(queries):,} titles and headlines sampled with seed "
              f"{exp.search.load_seed} from the collection of `{exp.baseline}`")
    return queries, {"queries": len(queries), "source": source, "file": str(out / "load-queries.tsv"),
                     "k": exp.search.load_k or exp.search.k, "repeats": exp.search.repeats}


def execute(exp: Experiment, steps: list[Step], inputs: list[str], progress: bool | None = None,
            out: Path | None = None) -> dict:
    topics = read_topics(exp.path(exp.topics.path), exp.topics.field, exp.topics.format)
    rows: dict = {}
    if exp.preprocess.executor == "ray" and any(not (s.collection / "stats.json").exists() for s in steps):
        # Ray's start-up is the session's, not the first variant's: start it before any stage is measured
        with SigtermInterrupts() as sigterm, sigterm.starting_ray():
            ray = make_executor("ray", exp.preprocess.workers, exp.preprocess.address)
        pids = {p for _, p in ray.map(warm_worker, range(2 * ray.workers)) if isinstance(p, int)}  # + imports
        log.info("Ray started: %d worker process(es) warmed up", len(pids))
        ray.close()
    for s in steps:
        row = rows[s.variant.name] = {"cleaning": s.opts.to_dict(), "collection": str(s.collection),
                                      "index": str(s.index)}
        if (s.collection / "stats.json").exists() and (s.collection / "options.json").exists():
            row["preprocess"] = json.loads((s.collection / "stats.json").read_text())
            row["preprocess_energy"] = _energy(s.collection / ENERGY_FILE)
        else:
            log.info("[%s] preprocess %s", s.variant.name, ", ".join(s.inputs))
            with Meter(*_cc(exp)) as m:  # a collection folder left by an interrupted run is resumed
                try:
                    row["preprocess"] = run_preprocess(s.inputs, str(s.collection), s.opts, exp.preprocess,
                                                       progress=progress)
                except OutputInUse:  # preprocess's own advice names its --overwrite, which run has not
                    raise OutputInUse(f"{s.collection} holds a collection made with other settings or code; run "
                                      "the same command with --fresh to make the experiment's files again") from None
            (s.collection / "options.json").write_text(json.dumps(s.opts.to_dict(), indent=1) + "\n")
            row["preprocess_energy"] = _energy(s.collection / ENERGY_FILE, m)
        if (s.index / STATS_FILE).exists():
            row["index_stats"] = json.loads((s.index / STATS_FILE).read_text())
            row["index_energy"] = _energy(s.index / ENERGY_FILE)
        else:
            log.info("[%s] index -> %s", s.variant.name, s.index)
            shutil.rmtree(s.index, ignore_errors=True)  # a half-built index of webprune's (listed whole)
            with Meter(*_cc(exp)) as m:
                row["index_stats"] = build_index(s.collection, s.index, threads=exp.index.threads)
            row["index_energy"] = _energy(s.index / ENERGY_FILE, m)
    queries, load_info = query_load(exp, steps, out) if out is not None else ({}, {})
    jobs = {}
    for s in steps:
        log.info("[%s] search %s k=%s", s.variant.name, s.model.label(), s.k)
        rows[s.variant.name]["search"] = run_search(s.index, topics, s.run, k=s.k, model=s.model,
                                                    threads=exp.search.threads, tag=s.variant.name)
        jobs[(s.variant.name, "search_timing")] = {"index": s.index, "queries": topics, "model": s.model, "k": s.k}
        if queries:
            jobs[(s.variant.name, "load")] = {"index": s.index, "queries": queries, "model": s.model,
                                              "k": load_info["k"]}
    log.info("timing: %d round(s) of %d search batch(es): the topics%s of every variant", exp.search.repeats,
             len(jobs), f" and {len(queries):,} load queries" if queries else "")
    tasks = Tasks(*_cc(exp))
    timed = timed_searches(jobs, threads=exp.search.threads, repeats=exp.search.repeats, measure=tasks.measure)
    described = None  # the tracker's methods and CPU, read once
    for (name, key), runs in timed.items():
        rows[name][key] = summarise(runs) | {"k": jobs[(name, key)]["k"], "runs": runs,
                                             "source": load_info.get("source") if key == "load" else "topics"}
        if "codecarbon" in rows[name][key]:
            described = described or tasks.describe()
            rows[name][key]["codecarbon"] |= described
    return rows


def run_experiment(exp: Experiment, output: str | Path | None = None, fresh: bool = False,
                   progress: bool | None = None) -> dict:
    for where, name in [("config: name", exp.name), *(("[[variants]] name", v.name) for v in exp.variants)]:
        plain_name(name, where)
    out = Path(output or Path("runs") / exp.name)
    folder = OutputDir(str(out))
    lock = OutputLock(folder.fs, folder.root, folder.uri)
    lock.check()  # a busy or foreign OUTPUT is refused before any model is trained or input built
    check_output(folder, [])
    inputs = inputs_of(exp)
    steps = plan(exp, out, inputs)
    names = output_files(exp, steps, out)
    check_output(folder, names)  # refused before anything is written
    with SigtermInterrupts():
        try:
            out.mkdir(parents=True, exist_ok=True)
            with lock:
                owned = take_output(folder, names, fresh)
                rows = execute(exp, steps, inputs, progress, out)
                before = folder.files()
                try:
                    return report(exp, out, steps, rows)
                finally:
                    list_new_plots(folder, owned, before)
        except KeyboardInterrupt:
            stop_ray()
            raise
