"""``webprune lm train-crawl``: contrastive models learned from a crawl, by the learning engine like preprocess.

The crawl is planned into work units (one input file each, :mod:`preprocess.run.units`) and the
learning pass :class:`preprocess.train_crawl.lines.CrawlLines` runs on them through the engine
(:func:`preprocess.learning.engine.run_pass`): it samples as percentile calibration samples
(``--sample-docs N``: the first ``ceil(N / files)`` records of up to N evenly spaced files),
labels and spools each unit's pages on the workers (the engine's spool, under
``MODEL/learned/crawl_lines/spool/``), finds duplicates and template lines on the driver, and in
its ``finish`` streams the spools into one pair of corpora per language and trains them. This
module is only the command's driver: the model folder (its lock, its key, the model it replaces),
the executor, the card's timings; it removes the spools when the model is written.

The model folder: ``contrastive.json`` (the card: languages, lines per side, duplicates
found) and ``<lang>/{content,boilerplate}.bin, vocab.txt`` per language. A finished
model whose card holds the same key (inputs, options, code) is not trained again.
"""
from __future__ import annotations

import json
import logging
import time
from pathlib import Path

from preprocess.lm.contrastive import CARD, write_card
from preprocess.train_crawl.lines import CrawlLines
from preprocess.train_crawl.options import CrawlOptions
from preprocess.folder.output import OutputDir
from preprocess.learning.spool import delete_spools

log = logging.getLogger("webprune.lm")
CRAWL_LINES = "preprocess.train_crawl.lines:CrawlLines"


def train_crawl(inputs: list[str], output: str, options: CrawlOptions | None = None, workers: int | None = None,
                address: str | None = None, executor: str = "ray") -> dict:
    """Learn a contrastive model from ``inputs`` into the directory ``output`` with ``options`` (the command
    line's flags; default: :class:`CrawlOptions`' defaults); returns its card."""
    from preprocess.driver.scaffold import driving
    from preprocess.folder.lock import OutputLock
    from preprocess.readers.sources import discover
    from preprocess.run.units import code_id, digest

    options = (options or CrawlOptions()).check()
    order, labels, sample_docs, memory = options.order, options.labels(), options.sample_docs or None, options.memory
    dedup, min_language_lines = options.dedup_options(), options.min_language_lines
    opts = labels.clean_options()
    target = Path(output)
    if target.exists() and not target.is_dir():
        raise ValueError(f"{target} is a file: a contrastive model is a directory; choose another --output")
    model_folder(target, take=False)  # a folder of someone else's is refused before anything runs
    sources = discover(inputs)
    key = digest("train-crawl", order, labels.__dict__, dedup.__dict__, min_language_lines, sample_docs, code_id(),
                 [s.identity for s in sources])[:16]
    old = previous_card(target)
    if old.get("key") == key:
        log.info("%s already holds this model (same inputs, options and code): not trained again", target)
        return old
    target.mkdir(parents=True, exist_ok=True)
    out = OutputDir(str(target.resolve()))
    t0, c0 = time.perf_counter(), time.process_time()
    with driving(executor, workers, address, lock=OutputLock(out.fs, out.root, out.uri)) as ex:  # one run a folder
        model_folder(target, take=True)
        plan = {"order": order, "labels": labels.__dict__, "dedup": dedup.__dict__, "sample_docs": sample_docs,
                "min_language_lines": min_language_lines, "memory": memory}
        return _train(sources, target, out, key, plan, opts, ex, t0, c0)


def model_folder(target: Path, take: bool) -> None:
    """A model folder is new, empty, or webprune's (its record of files, kind ``model``, or an earlier version's
    card); ``take``: record it as webprune's. NotOurs for any other folder: the model's files would land beside,
    or on, files of someone else's."""
    from preprocess.folder.owned import NotOurs, OwnedFiles
    from preprocess.core.paths import filesystem

    if not target.is_dir():
        return
    fs, root = filesystem(str(target))
    owned = OwnedFiles.load(fs, root, str(target))
    if owned is not None:
        if owned.kind != "model":
            raise NotOurs(f"{target} is the output of webprune {owned.kind}, not a model folder; choose another "
                          "--output")
        return
    others = [p.name for p in sorted(target.iterdir()) if not p.name.startswith(".webprune")]
    if others and not previous_card(target):
        raise NotOurs(f"{target} is not empty ({', '.join(others[:3])}{' ...' if len(others) > 3 else ''}) and is "
                      "not a webprune model folder; choose a new or empty --output")
    if take:
        OwnedFiles.create(fs, root, str(target), "model")


def previous_card(target: Path) -> dict:
    """The card in ``target`` ({} when none); ValueError when it is not a webprune model card."""
    if not (target / CARD).is_file():
        return {}
    try:
        old = json.loads((target / CARD).read_text(encoding="utf-8"))
    except ValueError:
        old = None
    if not isinstance(old, dict) or old.get("kind") != "contrastive":
        raise ValueError(f"{target / CARD} is not a webprune model card; choose another --output")
    return old


def remove_model(target: Path, card: dict) -> None:
    """The files an earlier model's card names (its card first: a folder without one is no model)."""
    from preprocess.lm.contrastive import BOILER, CONTENT, VOCAB

    (target / CARD).unlink()
    dirs = [e.get("dir", ".") for e in card.get("languages", {}).values()] or ["."]
    for d in dirs:
        for name in (CONTENT, BOILER, VOCAB):
            f = target / d / name
            if f.is_file() and f.resolve().parent.is_relative_to(target.resolve()):
                f.unlink()
        if d != "." and (target / d).is_dir() and not any((target / d).iterdir()):
            (target / d).rmdir()


def _train(sources, target: Path, out: OutputDir, key: str, plan: dict, opts, ex, t0: float, c0: float) -> dict:
    from preprocess.learning.engine import run_pass
    from preprocess.run.units import Job, plan as plan_units

    old = previous_card(target)
    if old:  # an earlier model of other inputs or options: it is replaced
        remove_model(target, old)
    job = Job(opts, out.uri, batch_size=64)
    units = plan_units(sources, job)
    learner = CrawlLines(opts, plan | {"key": key})
    card, ran = run_pass(learner, CRAWL_LINES, job, units, ex, out)
    took = card.pop("training")  # the pass's own: lmplz's wall time, the workers' CPU
    card["training"] = {"wall_s": round(time.perf_counter() - t0, 2), "workers": ex.workers,
                        "read_and_label_wall_s": round(ran["seconds"] - ran["finish_seconds"], 2),
                        "units_cpu_s": took["units_cpu_s"], "driver_cpu_s": round(time.process_time() - c0, 2),
                        "lmplz_wall_s": took["lmplz_wall_s"]}
    card["inputs"], card["created"] = [s.uri for s in sources], time.strftime("%Y-%m-%dT%H:%M:%S%z")
    write_card(target, card)
    keys = {u.key for u in units}
    delete_spools(out, learner.name, [n for n in out.listdir("learned", learner.name, "spool")
                                      if n.split("-", 1)[0] in keys and not n.endswith(".json")])
    log.info("contrastive %d-gram pairs for %s from %d pages (%d duplicates left out) in %.1f s -> %s", plan["order"],
             ", ".join(card["languages"]), card["sample"]["documents"], card["duplicates"]["duplicates"],
             card["training"]["wall_s"], target)
    return card
