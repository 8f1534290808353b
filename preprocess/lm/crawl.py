"""``webprune lm train-crawl``: contrastive models learned from a crawl, distributed like preprocess.

The crawl is planned into work units (one input file each, :mod:`preprocess.units`)
and sampled as percentile calibration samples it: ``--sample-docs N`` reads the
first ``ceil(N / files)`` records of up to N evenly spaced files. The learning pass
:class:`preprocess.lm.crawl_lines.CrawlLines` runs on the executor's workers in two
rounds: the first cleans, labels and spools each unit's pages and returns a few bytes
per page (language, line counts, duplicate signatures); the driver finds the duplicate
pages (:mod:`preprocess.lm.dedup`) and the languages that get a pair; the second round
returns line digests and word counts of the distinct pages only, so the repetition rule
counts distinct pages. Then the driver streams the work files into one pair of corpora
per language and trains them (:mod:`preprocess.lm.corpora`), writes the card, removes
``work/``.

The model folder: ``contrastive.json`` (the card: languages, lines per side, duplicates
found) and ``<lang>/{content,boilerplate}.bin, vocab.txt`` per language. A finished
model whose card holds the same key (inputs, options, code) is not trained again.
"""
from __future__ import annotations

import json
import logging
import math
import time
from pathlib import Path

from preprocess.lm.contrastive import CARD, DEFAULT_THRESHOLD, write_card
from preprocess.lm.corpora import trainable, train_pairs, write_corpora
from preprocess.lm.crawl_lines import CrawlLines
from preprocess.lm.crawl_options import MIN_LANGUAGE_LINES, CrawlOptions
from preprocess.lm.dedup import DedupOptions
from preprocess.lm.labels import LabelOptions
from preprocess.output import OutputDir

log = logging.getLogger("webprune.lm")


def train_crawl(inputs: list[str], output: str, order: int = 3, labels: LabelOptions | None = None,
                sample_docs: int | None = 10_000, workers: int | None = None, address: str | None = None,
                executor: str = "ray", memory: str = "10%", dedup: DedupOptions | None = None,
                min_language_lines: int = MIN_LANGUAGE_LINES, options: CrawlOptions | None = None) -> dict:
    """Learn a contrastive model from ``inputs`` into the directory ``output``; returns its card. ``options``
    (the command line's, :class:`CrawlOptions`) stand for ``order``, ``labels``, ``sample_docs``, ``memory``,
    ``dedup`` and ``min_language_lines`` when given."""
    from preprocess.interrupt import SigtermInterrupts, stop_ray
    from preprocess.lock import OutputLock
    from preprocess.sources import discover
    from preprocess.units import code_id, digest

    if options is not None:
        options = options.check()
        order, labels, sample_docs, memory = options.order, options.labels(), options.sample_docs or None, \
            options.memory
        dedup, min_language_lines = options.dedup_options(), options.min_language_lines
    labels, dedup = labels or LabelOptions(), (dedup or DedupOptions()).check()
    if not 2 <= order <= 6:
        raise ValueError("--order must be between 2 and 6")
    if sample_docs is not None and sample_docs < 0:
        raise ValueError("--sample-docs must be >= 0 (0: every record)")
    if min_language_lines < 1:
        raise ValueError("--min-language-lines must be >= 1")
    opts = labels.clean_options()
    target = Path(output)
    if target.exists() and not target.is_dir():
        raise ValueError(f"{target} is a file: a contrastive model is a directory; choose another --output")
    sources = discover(inputs)
    key = digest("train-crawl", order, labels.__dict__, dedup.__dict__, min_language_lines, sample_docs, code_id(),
                 [s.identity for s in sources])[:16]
    old = previous_card(target)
    if old.get("key") == key:
        log.info("%s already holds this model (same inputs, options and code): not trained again", target)
        return old
    target.mkdir(parents=True, exist_ok=True)
    out = OutputDir(str(target.resolve()))
    with SigtermInterrupts() as sigterm, OutputLock(out.fs, out.root, out.uri):  # one run per model folder
        try:
            return _train(sources, target, out, key, order, {"labels": labels.__dict__, "dedup": dedup.__dict__,
                          "min_language_lines": min_language_lines}, opts, sample_docs, workers, address, executor,
                          memory, sigterm)
        except KeyboardInterrupt:
            stop_ray()
            raise


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


def _run_round(ex, rnd: int, chosen: list, job, state, failed: list) -> dict:
    from preprocess.executor import Failure
    from preprocess.work import learn_unit

    partials = {}
    for (_, _, unit, _), result in ex.map(learn_unit, [("preprocess.lm.crawl_lines:CrawlLines", rnd, u, None)
                                                        for u in chosen],
                                       shared=(job, state)):
        if isinstance(result, Failure):
            failed.append(f"{unit.source.uri}: {result.message}")
            log.error("train-crawl: %s failed (%s); training goes on without it", unit.source.uri, result.message)
        else:
            partials[unit.index] = result
    return partials


def _train(sources, target: Path, out: OutputDir, key: str, order: int, options: dict, opts, sample_docs, workers,
           address, executor: str, memory: str, sigterm) -> dict:
    from preprocess.calibrate import sample_units
    from preprocess.executor import make_executor
    from preprocess.units import Job, plan

    old = previous_card(target)
    if old:  # an earlier model of other inputs or options: it is replaced
        remove_model(target, old)
    t0, c0 = time.perf_counter(), time.process_time()
    job = Job(opts, out.uri, batch_size=64)
    units = plan(sources, job)
    chosen = sample_units(units, sample_docs) if sample_docs else units
    quota = math.ceil(sample_docs / len(chosen)) if sample_docs and chosen else 0
    state = {**options, "quota": quota or -1}
    learner, failed = CrawlLines(opts), []
    with sigterm.starting_ray():
        ex = make_executor(executor, workers, address)
    try:
        partials = _run_round(ex, 0, chosen, job, state, failed)
        state = learner.reduce(0, [partials[i] for i in sorted(partials)], state)
        if not state["pages"]:
            raise ValueError("no pages to learn from: the input held no HTML page (or WET text) with text")
        chosen = [u for u in chosen if u.index in partials]
        again = _run_round(ex, 1, chosen, job, state, failed)
    finally:
        ex.close()
    state["files"] = [partials[i]["file"] for i in sorted(again)]  # a unit failed in round 1 is left out whole
    state = learner.reduce(1, [again[i] for i in sorted(again)], state)
    t_read = time.perf_counter() - t0
    work = target / "work"
    counts, unused = write_corpora(out, state, work)
    main = state["main_language"]
    languages, left_out = trainable(counts, main, state["min_language_lines"])
    if main is None:
        raise ValueError("no page's language could be told (their text holds too few letters): give pages with "
                         "text to learn from")
    if main not in languages:
        raise ValueError(f"one side has no lines ({counts.get(main, {})} in {main or 'any language'}): the cleaner "
                         "kept or removed everything; give more pages or other cleaner options")
    t1 = time.perf_counter()
    entries = train_pairs(target, work, languages, state, counts, order, memory)
    t_lm = time.perf_counter() - t1
    card = _card(state, key, order, entries, counts, unused, left_out, len(chosen), len(units), failed, sample_docs)
    card["training"] = {"wall_s": round(time.perf_counter() - t0, 2), "workers": ex.workers,
                        "read_and_label_wall_s": round(t_read, 2), "units_cpu_s": state["units_cpu_s"],
                        "driver_cpu_s": round(time.process_time() - c0, 2), "lmplz_wall_s": round(t_lm, 2)}
    card["inputs"], card["created"] = [s.uri for s in sources], time.strftime("%Y-%m-%dT%H:%M:%S%z")
    write_card(target, card)
    for name in [*state["files"], *(f + ".json" for f in state["files"]),
                 *(f"{lang}.{side}.txt" for lang in counts for side in ("content", "boilerplate"))]:
        out.delete("work", name)  # the work files it wrote; a folder holding others' files stays
    if not out.listdir("work"):
        out.fs.delete_dir(out.path("work"))
    log.info("contrastive %d-gram pairs for %s from %d pages (%d duplicates left out) in %.1f s -> %s", order,
             ", ".join(languages), state["pages"], state["dedup_found"]["duplicates"], card["training"]["wall_s"],
             target)
    return card


def _card(state: dict, key: str, order: int, entries: dict, counts: dict, unused: dict, left_out: dict,
          units: int, units_total: int, failed: list, sample_docs) -> dict:
    total = {side: {"lines": sum(e[side]["lines"] for e in entries.values()),
                    "tokens": sum(e[side]["tokens"] for e in entries.values())} for side in ("content", "boilerplate")}
    labels = {k: sum(e["label_counts"].get(k, 0) for e in entries.values())
              for k in ("content", "removed", "kept_but_repeated", "boilerplate")}
    docs = state["documents_by_language"]
    return {"kind": "contrastive", "version": 2, "key": key, "order": order,
            "score": "H_content - H_boilerplate in bits per token (normalised tokens + </s>) under the pair of "
                     "the page's language; higher = boilerplate",
            "default_threshold": DEFAULT_THRESHOLD, "labels": state["labels"],
            "main_language": state["main_language"], "languages": entries,
            "min_language_lines": state["min_language_lines"],
            "without_model": {"documents": {k: v for k, v in sorted(docs.items()) if k not in entries},
                              "lines": dict(sorted(unused.items())), "left_out": left_out},
            "duplicates": {**state["dedup"], **state["dedup_found"]},
            "label_counts": labels, **total,
            "sample": {"documents": state["pages"], "distinct_documents": state["pages"] -
                       state["dedup_found"]["duplicates"], "records_read": state["records"],
                       "skipped": state["skipped"], "units": units, "units_total": units_total,
                       "units_failed": failed, "sample_docs_limit": sample_docs or None}}
