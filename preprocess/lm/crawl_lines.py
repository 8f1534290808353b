"""The learning pass of ``webprune lm train-crawl``: a crawl sample's labelled lines, in two rounds.

**Round 0** (a worker, one unit): read and clean its records with the labelling pipeline
(:mod:`preprocess.lm.labels`), detect each page's language (:mod:`preprocess.lm.lang`), normalise
its kept and removed lines and spool them to ``MODEL/work/<unit key>-...jsonl.gz``, one row
``[host, language, kept, removed]`` per page (atomically; a unit whose file is there is not
cleaned again). It returns per page only its language, its line counts and duplicate
signatures (:mod:`preprocess.lm.dedup`, 136 bytes).

**Reduce 0** (the driver): cluster the signatures into duplicate pages, choose the languages that
get a model pair (:func:`choose_languages`), and send the workers only the row numbers to skip.

**Round 1** (a worker): read its work file again, skip the duplicate rows, and return an 8-byte
digest per distinct (host, line) of each page and the word counts of each chosen language.

**Reduce 1** (the driver): digests seen on ``min_repeat_pages`` distinct pages or more are template
lines; each language's words seen ``min_word_count`` times form its vocabulary.
"""
from __future__ import annotations

import gzip
import hashlib
import json
import time
from collections import Counter

import numpy as np

from preprocess.passes import LearningPass
from preprocess.lm.contrastive import has_word, normalize_many
from preprocess.lm.dedup import DedupOptions, duplicates, signatures
from preprocess.lm.labels import LabelOptions, label_pipeline, labelled
from preprocess.lm.lang import UND, detect_language, page_text
from preprocess.output import OutputDir
from preprocess.stats import Stats

ROW_FORMAT = 2  # [host, language, kept, removed]


def line_digest(host: str, line: str) -> int:
    return int.from_bytes(hashlib.blake2b(f"{host}\x00{line}".encode("utf-8", "surrogatepass"),
                                          digest_size=8).digest(), "little")


def read_rows(out: OutputDir, name: str) -> list:
    with out.fs.open_input_stream(out.path("work", name), compression=None) as fh:
        return [json.loads(r) for r in gzip.decompress(fh.read()).decode("utf-8").splitlines()]


def choose_languages(lines: dict[str, list[int]], min_lines: int) -> tuple[str | None, list[str]]:
    """(main language, languages with a pair): the language with the most lines always (when any), others
    with ``min_lines`` kept and ``min_lines`` removed lines or more; ``und`` never. Sorted, deterministic."""
    known = {k: v for k, v in lines.items() if k != UND and sum(v)}
    if not known:
        return None, []
    main = max(sorted(known), key=lambda k: sum(known[k]))
    return main, sorted(k for k, (kept, removed) in known.items()
                        if k == main or (kept >= min_lines and removed >= min_lines))


class CrawlLines(LearningPass):
    """Pseudo-labelled, normalised lines of a crawl sample (see the module's docstring)."""

    name = "crawl_lines"
    rounds = 2

    def map(self, rnd: int, unit, job, state):
        out = OutputDir(job.output)
        name = f"{unit.key}-{unit.index:05d}-q{state['quota']}-r{ROW_FORMAT}.jsonl.gz"
        if rnd == 1:
            return self._counts(read_rows(out, name), set(state["exclude"].get(name, ())), state)
        meta = out.read_json("work", name + ".json")
        if meta is not None and out.exists("work", name):  # done by an earlier attempt or run: not cleaned again
            rows = read_rows(out, name)
        else:
            rows, meta = self._clean(unit, job, state)
            data = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows).encode("utf-8")
            out.write_bytes(gzip.compress(data, mtime=0), "work", name)
            out.write_json(meta, "work", name + ".json")
        exact, sketches = signatures([(r[2], r[3]) for r in rows], state["dedup"]["shingle"])
        return {"file": name, **meta, "exact": exact, "sketches": sketches, "langs": [r[1] for r in rows],
                "lines": np.array([[len(r[2]), len(r[3])] for r in rows], dtype=np.int64).reshape(-1, 2)}

    def _clean(self, unit, job, state) -> tuple[list, dict]:
        from preprocess.readers import read_source

        c0 = time.process_time()
        pipe, stats, rows, n, batch = label_pipeline(LabelOptions(**state["labels"])), Stats(), [], 0, []
        for doc in read_source(unit.source, stats, job.opts.max_bytes):
            batch.append(doc)
            n += 1
            if len(batch) == job.batch_size or n == state["quota"]:
                rows += self._rows(pipe, batch, stats)
                batch = []
            if n == state["quota"]:
                break
        rows += self._rows(pipe, batch, stats)
        return rows, {"records": stats.counts["records"], "pages": len(rows), "skipped": stats.to_dict()["skipped"],
                      "cpu_s": round(time.process_time() - c0, 3)}

    @staticmethod
    def _rows(pipe, batch: list, stats: Stats) -> list:
        rows = []
        for doc, kept, removed in (labelled(pipe, batch, stats) if batch else []):
            lang = detect_language(page_text(doc.title, kept or removed))
            kept = [k for k in normalize_many([k for k in kept if k.strip()]) if has_word(k)]
            removed = [r for r in normalize_many([r for r in removed if r.strip()]) if has_word(r)]
            rows.append([doc.host, lang, kept, removed])
        return rows

    @staticmethod
    def _counts(rows: list, skip: set, state) -> dict:
        digests, words = [], {lang: Counter() for lang in state["languages"]}
        for i, (host, lang, kept, removed) in enumerate(rows):
            if i in skip:
                continue
            digests += [line_digest(host, line) for line in set(kept) | set(removed)]
            if lang in words:
                for line in kept + removed:
                    words[lang].update(line.split())
        return {"digests": np.asarray(digests, dtype=np.uint64), "words": words}

    def reduce(self, rnd: int, partials: list, state):
        return self._reduce_pages(partials, state) if rnd == 0 else self._reduce_lines(partials, state)

    @staticmethod
    def _reduce_pages(partials: list, state) -> dict:
        exact = np.concatenate([p["exact"] for p in partials]) if partials else np.zeros(0, np.uint64)
        sketches = np.concatenate([p["sketches"] for p in partials]) if partials else np.zeros((0, 128), np.uint8)
        dup, found = duplicates(exact, sketches, DedupOptions(**state["dedup"]))
        exclude, lines, docs, at = {}, {}, Counter(), 0
        for p in partials:
            mask = dup[at:at + len(p["langs"])]
            at += len(p["langs"])
            if mask.any():
                exclude[p["file"]] = np.flatnonzero(mask).tolist()
            for lang, (kept, removed), d in zip(p["langs"], p["lines"].tolist(), mask.tolist()):
                if not d:
                    total = lines.setdefault(lang, [0, 0])
                    total[0] += kept
                    total[1] += removed
                    docs[lang] += 1
        main, languages = choose_languages(lines, state["min_language_lines"])
        skipped = Counter()
        for p in partials:
            skipped.update(p["skipped"])
        return state | {"files": [p["file"] for p in partials], "exclude": exclude, "dedup_found": found,
                        "main_language": main, "languages": languages, "documents_by_language": dict(docs),
                        "lines_by_language": lines, "records": sum(p["records"] for p in partials),
                        "pages": sum(p["pages"] for p in partials), "skipped": dict(skipped),
                        "units_cpu_s": round(sum(p.get("cpu_s", 0.0) for p in partials), 2)}

    @staticmethod
    def _reduce_lines(partials: list, state) -> dict:
        digests = np.concatenate([p["digests"] for p in partials]) if partials else np.zeros(0, np.uint64)
        values, counts = np.unique(digests, return_counts=True)
        rep = state["labels"]["min_repeat_pages"]
        vocab = {}
        for lang in state["languages"]:
            freq = Counter()
            for p in partials:
                freq.update(p["words"].get(lang, {}))
            vocab[lang] = {w for w, c in freq.items() if c >= state["labels"]["min_word_count"]}
        return state | {"templates": set(values[counts >= rep].tolist()) if rep else set(), "vocab": vocab,
                        "hosts_digests": int(len(values))}
