"""The learning pass of ``webprune lm train-crawl``: a crawl sample's labelled lines, in two rounds, then the models.

**Round 0** (a worker, one unit; ``reads = "labelled"``): the engine hands the unit's first ``quota`` records
cleaned by the labelling pipeline (:mod:`preprocess.learning.labels`) as ``(doc, kept, removed)``; the pass detects
each page's language (:mod:`preprocess.lm.lang`), normalises its kept and removed lines and returns them as
spooled rows ``[host, language, kept, removed]`` (:class:`preprocess.core.passes.Spooled`): the engine writes them
where the unit runs (``OUT/learned/crawl_lines/spool/``; a unit whose spool is there is not cleaned again). Its
partial (``spooled``) is per page only its language, its line counts and duplicate signatures
(:mod:`preprocess.train_crawl.dedup`, 136 bytes).

**Reduce 0** (the driver): cluster the signatures into duplicate pages, choose the languages that
get a model pair (:func:`choose_languages`), and route to each unit only its row numbers to skip.

**Round 1** (a worker; handed its spool): skip the duplicate rows and return an 8-byte digest per distinct
(host, line) of each page and the word counts of each chosen language.

**Reduce 1** (the driver): digests seen on ``min_repeat_pages`` distinct pages or more are template
lines; each language's words seen ``min_word_count`` times form its vocabulary.

**Finish** (the driver): gets the spools' names, streams them once into one pair of corpora per language
and trains the KenLM pairs (:mod:`preprocess.train_crawl.corpora`) under the model folder; returns the card.
"""
from __future__ import annotations

import math
import time
from collections import Counter
from pathlib import Path

import numpy as np

from preprocess.filters.prune.calibrate import sample_units
from preprocess.lm.contrastive import has_word, normalize_many
from preprocess.train_crawl.corpora import line_digest, trainable, train_pairs, write_corpora
from preprocess.train_crawl.card import crawl_card
from preprocess.train_crawl.dedup import DedupOptions, duplicates, signatures
from preprocess.lm.lang import UND, detect_language, page_text
from preprocess.core.passes import LearningPass, Spooled, SpoolFiles


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
    """Pseudo-labelled, normalised lines of a crawl sample, and the model pairs trained on them (see the module).
    ``plan`` (the driver's only): order, labels, dedup, min_language_lines, sample_docs, memory and the card's key;
    the workers get what they need in the rounds' state."""

    name = "crawl_lines"
    rounds = 2
    reads = "labelled"
    spools = True

    def __init__(self, opts, plan: dict | None = None):
        super().__init__(opts)
        self.plan = plan or {}

    def handed(self, rnd: int) -> str:
        return "labelled" if rnd == 0 else "spool"

    def sample(self, units: list) -> list:
        self.units_total, n = len(units), self.plan["sample_docs"]
        return sample_units(units, n) if n else units

    def start(self, chosen: list) -> dict:
        n = self.plan["sample_docs"]
        quota = math.ceil(n / len(chosen)) if n and chosen else 0
        return {"labels": self.plan["labels"], "dedup": self.plan["dedup"],
                "min_language_lines": self.plan["min_language_lines"], "quota": quota or -1}

    def take(self, rnd: int, state) -> int | None:
        return state["quota"] if state["quota"] > 0 else None

    def map_docs(self, rnd: int, docs, state):
        if rnd == 1:  # the unit's spooled rows
            return self._counts(docs, set(state["exclude"]), state) | {"exclude": state["exclude"]}
        c0 = time.process_time()
        rows = [self._row(doc, kept, removed) for doc, kept, removed in docs]
        return Spooled({"records": docs.stats.counts["records"], "pages": len(rows),
                        "skipped": docs.stats.to_dict()["skipped"], "cpu_s": round(time.process_time() - c0, 3)},
                       rows)

    def spooled(self, rnd: int, rows: list, meta: dict, state):
        exact, sketches = signatures([(r[2], r[3]) for r in rows], state["dedup"]["shingle"])
        return {**meta, "exact": exact, "sketches": sketches, "langs": [r[1] for r in rows],
                "lines": np.array([[len(r[2]), len(r[3])] for r in rows], dtype=np.int64).reshape(-1, 2)}

    @staticmethod
    def _row(doc, kept: list[str], removed: list[str]) -> list:
        lang = detect_language(page_text(doc.title, kept or removed))
        kept = [k for k in normalize_many([k for k in kept if k.strip()]) if has_word(k)]
        removed = [r for r in normalize_many([r for r in removed if r.strip()]) if has_word(r)]
        return [doc.host, lang, kept, removed]

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
        if rnd == 1:
            return self._reduce_lines(partials, state) | {"excludes": [p["exclude"] for p in partials]}
        state = self._reduce_pages(partials, state)
        if not state["pages"]:
            raise ValueError("no pages to learn from: the input held no HTML page (or WET text) with text")
        return state

    def route(self, rnd: int, state) -> list | None:
        """Round 1: each unit gets its own duplicate rows and the chosen languages, not the whole state."""
        if rnd != 0:
            return None
        return [{"exclude": e, "languages": state["languages"]} for e in state["excludes"]]

    @staticmethod
    def _reduce_pages(partials: list, state) -> dict:
        exact = np.concatenate([p["exact"] for p in partials]) if partials else np.zeros(0, np.uint64)
        sketches = np.concatenate([p["sketches"] for p in partials]) if partials else np.zeros((0, 128), np.uint8)
        dup, found = duplicates(exact, sketches, DedupOptions(**state["dedup"]))
        excludes, lines, docs, at = [], {}, Counter(), 0
        for p in partials:
            mask = dup[at:at + len(p["langs"])]
            at += len(p["langs"])
            excludes.append(np.flatnonzero(mask).tolist())
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
        return state | {"excludes": excludes, "dedup_found": found, "units": len(partials),
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

    def finish(self, state, files: SpoolFiles) -> dict:
        """The corpora from the spools (by name, streamed), the KenLM pairs under the model folder, the card."""
        target = Path(files.root)
        work = target / "work"
        work.mkdir(exist_ok=True)
        spooled = ((files.rows(name), set(skip)) for name, skip in zip(files.files, state["excludes"]))
        counts, unused = write_corpora(spooled, state, work)
        main = state["main_language"]
        languages, left_out = trainable(counts, main, state["min_language_lines"])
        try:
            if main is None:
                raise ValueError("no page's language could be told (their text holds too few letters): give pages "
                                 "with text to learn from")
            if main not in languages:
                raise ValueError(f"one side has no lines ({counts.get(main, {})} in {main or 'any language'}): the "
                                 "cleaner kept or removed everything; give more pages or other cleaner options")
            t0 = time.perf_counter()
            entries = train_pairs(target, work, languages, state, counts, self.plan["order"], self.plan["memory"])
            t_lm = time.perf_counter() - t0
        finally:  # the corpora it wrote; a folder holding others' files stays
            for lang in counts:
                for side in ("content", "boilerplate"):
                    (work / f"{lang}.{side}.txt").unlink(missing_ok=True)
            if not any(work.iterdir()):
                work.rmdir()
        card = crawl_card(state, self.plan["key"], self.plan["order"], entries, counts, unused, left_out,
                          state["units"], self.units_total, files.failed, self.plan["sample_docs"])
        return card | {"training": {"lmplz_wall_s": round(t_lm, 2), "units_cpu_s": state["units_cpu_s"]}}
