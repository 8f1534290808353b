#!/usr/bin/env python
"""Cost of the contrastive score: training on 10,000 pages, and sentences scored per second per core.

Training: the input pages of every shared cleaning set, packed 4 times into 4 files
``OUT/warc/all-copy<k>.warc.gz`` (copy k on hosts ``ck.<host>``: each copy is a site of
its own, so the repetition rule sees what it sees on one copy; ``scripts/studies/contrastive_sets.py``;
one file is one work unit), and ``webprune lm train-crawl --sample-docs 10000 --dedup off``
(the copies are exact duplicates of each other's text: deduplicated, the model would learn
from a quarter of the pages; ``--dedup near`` measures that instead) on it in a child process under
``nice`` (``--workers`` Ray workers, or ``--local``). Reported: wall time, CPU time of
the child and the children it waited for (lmplz, build_binary; ``RUSAGE_CHILDREN``, which
misses Ray workers), and the card's split, whose ``units_cpu_s`` is the CPU time the
units took to read, clean and label their records wherever they ran.

Scoring: the sentences of the pages as ``tags --drop-hinted --max-link-density 0.5``
cleans them, scored in this process, CPU time (``time.process_time``), median of 3
interleaved runs: plain perplexity (normalise + KenLM, ``PerplexityPrune.decision_score``)
and contrastive batched per document (``ContrastivePrune.score_sentences``, the
pruner's path).

Usage: python scripts/bench/bench_contrastive.py [--model build/contrastive/models/dragnet] [--local | --workers N]
"""
from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

from webprune.benchdata import ROOT


def bench_training(out: Path, pages: int, extra: list[str]) -> dict:
    subprocess.run([sys.executable, str(ROOT / "scripts" / "studies" / "contrastive_sets.py"), "--out", str(out), "--copies", "4"],
                   check=True, stdout=subprocess.DEVNULL)
    model = out / "models-bench" / f"all-{pages}"
    cmd = ["nice", "-n", "10", sys.executable, "-m", "webprune.cli", "lm", "train-crawl",
           *[str(out / "warc" / f"all-copy{k}.warc.gz") for k in range(4)], "-o", str(model), "--sample-docs",
           str(pages), "--dedup", "off", *extra]
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True)
    wall = time.perf_counter() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    card = json.loads((model / "contrastive.json").read_text())
    main = card["languages"][card["main_language"]] if "languages" in card else card  # one pair per language
    return {"pages": card["sample"]["documents"], "wall_s": round(wall, 1),
            "cpu_s": round((r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime), 1),
            "training": card["training"], "content": {k: main["content"][k] for k in ("lines", "tokens", "bytes")},
            "boilerplate": {k: main["boilerplate"][k] for k in ("lines", "tokens", "bytes")},
            "vocabulary": main["vocabulary"]["words"], "duplicates": card.get("duplicates", {}).get("duplicates")}


def bench_scoring(plain: list[str], model: str, limit: int, repeat: int = 3) -> list[tuple[str, float]]:
    from eval.cleaning.harness import strip_wrapper
    from preprocess.core.document import Document
    from preprocess.filters.prune.contrastive import ContrastivePrune
    from preprocess.filters.prune.perplexity import PerplexityPrune
    from preprocess.config.options import CleanOptions
    from preprocess.run.pipeline import Pipeline
    from preprocess.core.segment import sentences_of_lines
    from webprune.benchdata import cleaning_pages

    pipe = Pipeline(CleanOptions(cleaner="tags", drop_hinted=True, max_link_density=0.5))
    docs = []
    for f in cleaning_pages()[:limit]:
        from preprocess.core.stats import Stats

        for d in pipe.run([Document(id=f.stem, content_type="text/html", raw=strip_wrapper(f.read_bytes()))], Stats()):
            docs.append([s for _, s in sentences_of_lines(d.lines)])
    n = sum(map(len, docs))
    plains = {Path(p).name: PerplexityPrune(p, float("inf")) for p in plain}
    c = ContrastivePrune(model)

    def each(score):
        for sents in docs:
            for s in sents:
                score(s)

    def batched():
        for sents in docs:
            c.score_sentences(sents)

    runs = {**{f"plain perplexity ({name}), one sentence at a time": (lambda p=p: each(p.decision_score))
               for name, p in plains.items()},
            "contrastive (2 trigram models), batched per document (the pruner's path)": batched}
    rates: dict[str, list[float]] = {k: [] for k in runs}
    for _ in range(repeat):  # interleaved, median of the repeats: the machine is shared
        for label, fn in runs.items():
            t0 = time.process_time()
            fn()
            rates[label].append(n / (time.process_time() - t0))
    return [(f"{n:,} sentences of {len(docs):,} pages (median of {repeat} interleaved runs)", 0.0)] + [
        (label, statistics.median(r)) for label, r in rates.items()]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, default=ROOT / "build" / "contrastive")
    ap.add_argument("--plain", nargs="+", default=[str(ROOT / "build" / "models" / "general-2gram.bin"),
                                                   str(ROOT / "build" / "models" / "general-3gram.bin")])
    ap.add_argument("--model", default=str(ROOT / "build" / "contrastive" / "models" / "dragnet"))
    ap.add_argument("--pages", type=int, default=10_000, help="training sample (--sample-docs)")
    ap.add_argument("--score-pages", type=int, default=3000)
    ap.add_argument("--skip-training", action="store_true")
    ap.add_argument("--skip-scoring", action="store_true")
    ap.add_argument("--local", action="store_true", help="train-crawl --local (one process)")
    ap.add_argument("--workers", type=int, default=None, help="train-crawl --workers N")
    a = ap.parse_args()
    if not a.skip_training:
        extra = ["--local"] if a.local else (["--workers", str(a.workers)] if a.workers else [])
        t = bench_training(a.out, a.pages, extra)
        print(f"\ntrain-crawl {' '.join(extra)} on {t['pages']:,} pages: wall {t['wall_s']} s, CPU {t['cpu_s']} s "
              f"(process + lmplz, not Ray workers) "
              f"(card: {t['training']}); content {t['content']}, boilerplate {t['boilerplate']}, "
              f"vocabulary {t['vocabulary']:,} words")
    if a.skip_scoring:
        return
    print("\n| scoring (CPU time, 1 core) | sentences/s |\n|---|---:|")
    for label, rate in bench_scoring(a.plain, a.model, a.score_pages):
        print(f"| {label} | {rate:,.0f} |" if rate else f"| {label} | |")


if __name__ == "__main__":
    main()
