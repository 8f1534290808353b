"""``webprune lm train-crawl``: a contrastive model learned from a crawl, distributed like preprocess.

The crawl is planned into work units (one input file each, :mod:`preprocess.units`)
and sampled as percentile calibration samples it: ``--sample-docs N`` reads the
first ``ceil(N / files)`` records of up to N evenly spaced files. :class:`CrawlLines`
is a learning pass (:mod:`preprocess.learning`) run on the executor's workers:

* **map** (a worker, one unit): read and clean its records with the labelling
  pipeline (:mod:`preprocess.lm.labels`), normalise every kept and removed line and
  write them to ``MODEL/work/<unit key>.jsonl.gz`` (atomically; a unit whose file is
  there is not cleaned again). It returns only small facts: an 8-byte digest per
  distinct (host, line) of each page, the unit's word counts and its record counts.
* **reduce** (the driver): digests seen on ``min_repeat_pages`` pages or more are
  template lines; words seen ``min_word_count`` times form the shared vocabulary.
* **finish** (the driver): stream the work files into the two corpora (template
  lines go to the boilerplate side; words outside the vocabulary become ``OOV``), run
  ``lmplz``/``build_binary`` twice, write ``vocab.txt`` and the card, remove ``work/``.

A finished model whose card holds the same key (inputs, options, code) is not
trained again.
"""
from __future__ import annotations

import gzip
import hashlib
import json
import logging
import math
import time
from collections import Counter
from pathlib import Path

import numpy as np

from preprocess.learning import LearningPass
from preprocess.lm.contrastive import (
    BOILER,
    CARD,
    CONTENT,
    DEFAULT_THRESHOLD,
    OOV,
    VOCAB,
    has_word,
    map_oov,
    normalize_many,
    train_side,
    write_card,
)
from preprocess.lm.labels import LabelOptions, label_pipeline, labelled
from preprocess.output import OutputDir
from preprocess.stats import Stats

log = logging.getLogger("webprune.lm")


def line_digest(host: str, line: str) -> int:
    return int.from_bytes(hashlib.blake2b(f"{host}\x00{line}".encode("utf-8", "surrogatepass"),
                                          digest_size=8).digest(), "little")


def summarise(rows: list) -> dict:
    """Digests of each page's distinct (host, line) and the word counts of spooled rows ``[host, kept, removed]``."""
    digests, freq = [], Counter()
    for host, kept, removed in rows:
        digests += [line_digest(host, line) for line in set(kept) | set(removed)]
        for line in kept + removed:
            freq.update(line.split())
    return {"digests": np.asarray(digests, dtype=np.uint64), "words": freq}


def read_rows(out: OutputDir, name: str) -> list:
    with out.fs.open_input_stream(out.path("work", name), compression=None) as fh:
        return [json.loads(r) for r in gzip.decompress(fh.read()).decode("utf-8").splitlines()]


class CrawlLines(LearningPass):
    """Pseudo-labelled, normalised lines of a crawl sample (see the module's docstring)."""

    name = "crawl_lines"

    def map(self, rnd: int, unit, job, state):
        from preprocess.readers import read_source

        out = OutputDir(job.output)
        name = f"{unit.key}-{unit.index:05d}-q{state['quota']}.jsonl.gz"
        meta = out.read_json("work", name + ".json")
        if meta is not None and out.exists("work", name):  # done by an earlier attempt or run: not cleaned again
            rows = read_rows(out, name)
        else:
            c0 = time.process_time()
            labels = LabelOptions(**state["labels"])
            pipe, stats, rows, n = label_pipeline(labels), Stats(), [], 0
            batch = []
            for doc in read_source(unit.source, stats, job.opts.max_bytes):
                batch.append(doc)
                n += 1
                if len(batch) == job.batch_size or n == state["quota"]:
                    rows += self._rows(pipe, batch, stats)
                    batch = []
                if n == state["quota"]:
                    break
            rows += self._rows(pipe, batch, stats)
            data = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows).encode("utf-8")
            out.write_bytes(gzip.compress(data, mtime=0), "work", name)
            meta = {"records": stats.counts["records"], "pages": len(rows), "skipped": stats.to_dict()["skipped"],
                    "cpu_s": round(time.process_time() - c0, 3)}
            out.write_json(meta, "work", name + ".json")
        return {"file": name, **meta, **summarise(rows)}

    @staticmethod
    def _rows(pipe, batch: list, stats: Stats) -> list:
        rows = []
        for doc, kept, removed in (labelled(pipe, batch, stats) if batch else []):
            kept = [k for k in normalize_many([k for k in kept if k.strip()]) if has_word(k)]
            removed = [r for r in normalize_many([r for r in removed if r.strip()]) if has_word(r)]
            rows.append([doc.host, kept, removed])
        return rows

    def reduce(self, rnd: int, partials: list, state):
        digests = np.concatenate([p["digests"] for p in partials]) if partials else np.zeros(0, np.uint64)
        values, counts = np.unique(digests, return_counts=True)
        rep = state["labels"]["min_repeat_pages"]
        freq = Counter()
        for p in partials:
            freq.update(p["words"])
        skipped = Counter()
        for p in partials:
            skipped.update(p["skipped"])
        return state | {"files": [p["file"] for p in partials],
                        "templates": set(values[counts >= rep].tolist()) if rep else set(),
                        "vocab": {w for w, c in freq.items() if c >= state["labels"]["min_word_count"]},
                        "records": sum(p["records"] for p in partials), "pages": sum(p["pages"] for p in partials),
                        "units_cpu_s": round(sum(p.get("cpu_s", 0.0) for p in partials), 2),
                        "hosts_digests": int(len(values)), "skipped": dict(skipped)}


def write_corpora(out: OutputDir, state: dict, content: Path, boiler: Path) -> dict:
    """The two training corpora from the work files; returns the label counts."""
    counts, templates, vocab = Counter(), state["templates"], state["vocab"]
    with open(content, "w", encoding="utf-8") as fc, open(boiler, "w", encoding="utf-8") as fb:
        for name in state["files"]:
            for host, kept, removed in read_rows(out, name):
                for line in kept:
                    if templates and line_digest(host, line) in templates:
                        fb.write(map_oov(line, vocab) + "\n")
                        counts["kept_but_repeated"] += 1
                    else:
                        fc.write(map_oov(line, vocab) + "\n")
                        counts["content"] += 1
                for line in removed:
                    fb.write(map_oov(line, vocab) + "\n")
                    counts["removed"] += 1
    counts["boilerplate"] = counts["removed"] + counts["kept_but_repeated"]
    return dict(counts)


def train_crawl(inputs: list[str], output: str, order: int = 3, labels: LabelOptions | None = None,
                sample_docs: int | None = 10_000, workers: int | None = None, address: str | None = None,
                executor: str = "ray", memory: str = "10%") -> dict:
    """Learn a contrastive model from ``inputs`` into the directory ``output``; returns its card."""
    from preprocess.interrupt import SigtermInterrupts, stop_ray
    from preprocess.lock import OutputLock
    from preprocess.sources import discover
    from preprocess.units import code_id, digest

    labels = labels or LabelOptions()
    if not 2 <= order <= 6:
        raise ValueError("--order must be between 2 and 6")
    if sample_docs is not None and sample_docs < 0:
        raise ValueError("--sample-docs must be >= 0 (0: every record)")
    opts = labels.clean_options()
    target = Path(output)
    if target.exists() and not target.is_dir():
        raise ValueError(f"{target} is a file: a contrastive model is a directory; choose another --output")
    sources = discover(inputs)
    key = digest("train-crawl", order, labels.__dict__, sample_docs, code_id(), [s.identity for s in sources])[:16]
    if (target / CARD).is_file():
        try:
            old = json.loads((target / CARD).read_text(encoding="utf-8"))
        except ValueError:
            old = {}
        if isinstance(old, dict) and old.get("key") == key:
            log.info("%s already holds this model (same inputs, options and code): not trained again", target)
            return old
    target.mkdir(parents=True, exist_ok=True)
    out = OutputDir(str(target.resolve()))
    with SigtermInterrupts() as sigterm, OutputLock(out.fs, out.root, out.uri):  # one run per model folder
        try:
            return _train(sources, target, out, key, order, labels, opts, sample_docs, workers, address, executor,
                          memory, sigterm)
        except KeyboardInterrupt:
            stop_ray()
            raise


def _train(sources, target: Path, out: OutputDir, key: str, order: int, labels, opts, sample_docs, workers, address,
           executor: str, memory: str, sigterm) -> dict:
    from preprocess.calibrate import sample_units
    from preprocess.executor import Failure, make_executor
    from preprocess.units import Job, plan
    from preprocess.work import learn_unit

    if (target / CARD).is_file():  # an earlier model of other inputs or options: it is replaced
        try:
            ours = json.loads((target / CARD).read_text(encoding="utf-8")).get("kind") == "contrastive"
        except (ValueError, AttributeError):
            ours = False
        if not ours:
            raise ValueError(f"{target / CARD} is not a webprune model card; choose another --output")
        (target / CARD).unlink()
    t0, c0 = time.perf_counter(), time.process_time()
    job = Job(opts, out.uri, batch_size=64)
    units = plan(sources, job)
    chosen = sample_units(units, sample_docs) if sample_docs else units
    quota = math.ceil(sample_docs / len(chosen)) if sample_docs and chosen else 0
    state = {"labels": labels.__dict__, "quota": quota or -1}
    with sigterm.starting_ray():
        ex = make_executor(executor, workers, address)
    partials, failed = {}, []
    try:
        for (_, _, unit), result in ex.map(learn_unit, [("preprocess.lm.crawl:CrawlLines", 0, u) for u in chosen],
                                           shared=(job, state)):
            if isinstance(result, Failure):
                failed.append(f"{unit.source.uri}: {result.message}")
                log.error("train-crawl: %s failed (%s); training goes on without it", unit.source.uri, result.message)
            else:
                partials[unit.index] = result
    finally:
        ex.close()
    state = CrawlLines(opts).reduce(0, [partials[i] for i in sorted(partials)], state)
    if not state["pages"]:
        raise ValueError("no pages to learn from: the input held no HTML page (or WET text) with text")
    t_read = time.perf_counter() - t0
    tmp = target / "work"
    counts = write_corpora(out, state, tmp / "content.txt", tmp / "boilerplate.txt")
    if not counts.get("content") or not counts.get("boilerplate"):
        raise ValueError(f"one side has no lines ({counts}): the cleaner kept or removed everything; "
                         "give more pages or other cleaner options")
    t1 = time.perf_counter()
    sides = {"content": train_side(tmp / "content.txt", target / CONTENT, order, memory),
             "boilerplate": train_side(tmp / "boilerplate.txt", target / BOILER, order, memory)}
    t_lm = time.perf_counter() - t1
    (target / VOCAB).write_text("".join(w + "\n" for w in sorted(state["vocab"])), encoding="utf-8")
    card = {"kind": "contrastive", "version": 1, "key": key, "order": order,
            "score": "H_content - H_boilerplate in bits per token (normalised tokens + </s>); higher = boilerplate",
            "default_threshold": DEFAULT_THRESHOLD, "labels": labels.__dict__, "label_counts": counts,
            "sample": {"documents": state["pages"], "records_read": state["records"], "skipped": state["skipped"],
                       "units": len(chosen), "units_total": len(units), "units_failed": failed,
                       "sample_docs_limit": sample_docs or None},
            "vocabulary": {"file": VOCAB, "words": len(state["vocab"]), "oov_token": OOV}, **sides,
            "training": {"wall_s": round(time.perf_counter() - t0, 2), "workers": ex.workers,
                         "read_and_label_wall_s": round(t_read, 2), "units_cpu_s": state["units_cpu_s"],
                         "driver_cpu_s": round(time.process_time() - c0, 2),
                         "lmplz_wall_s": round(t_lm, 2)},
            "inputs": [s.uri for s in sources], "created": time.strftime("%Y-%m-%dT%H:%M:%S%z")}
    write_card(target, card)
    for name in [*state["files"], *(f + ".json" for f in state["files"]), "content.txt", "boilerplate.txt"]:
        out.delete("work", name)  # the work files it wrote; a folder holding others' files stays
    if not out.listdir("work"):
        out.fs.delete_dir(out.path("work"))
    log.info("contrastive %d-gram models from %d pages (%d content / %d boilerplate lines) in %.1f s -> %s",
             order, state["pages"], counts["content"], counts["boilerplate"], card["training"]["wall_s"], target)
    return card
