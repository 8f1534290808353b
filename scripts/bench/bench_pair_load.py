#!/usr/bin/env python
"""Contrastive scoring with the pair's models read into the process's memory (KenLM's ``READ``: huge pages where
the kernel gives them) against memory-mapped (KenLM's default ``POPULATE_OR_READ``), on the same sentences.

Sentences: the 2,871 pages of build/bench/cleaning.warc.gz (scripts/tools/pack_cleaning_warc.py) through the
recommended pipeline's steps before ``prune`` (``--rec-flags``, as scripts/bench/profile_steps.py), split and
normalised as the pruner does. Both loads score every page's sentences once to check the floats are the same,
then ``--repeat`` rounds, the two loads alternating in order, CPU time (``time.process_time``) per page of
``CompiledPair.score_many`` (the pruner's call). Printed: each round's ms/page, each round's ratio read / mapped,
their median, and the process's AnonHugePages.

``--pipeline``: the same comparison inside the pipeline, where the other steps run between the pruner's calls:
two recommended pipelines, one whose pair is read and one whose pair is mapped, each fed its own copy of every
batch of 64 records as ``webprune preprocess`` reads them (the two in turns, the order alternating by batch); the
prune step's CPU time of each, summed over ``--repeat`` passes over the file, and each pass's ratio.

``--one-table-bound``: what one table holding both models' n-grams (one probing lookup for the two) could at best
save. Three pairs score the same sentences in rounds, their order rotating: the pair itself (content and
boilerplate), and each model paired with itself (its second lookups find in the cache the lines its first ones
just read: the work of two models, the memory misses of one). With T the ms/page of each, the lookups' work of the
two models is T(cc) + T(bb) - T(cb) and their misses M = T(cb) less that work. One table for both still misses at
least as often as the model that misses more, at least M / 2: with the lookups' work unchanged, it saves at most
M / 2.

Usage: .venv/bin/python scripts/bench/bench_pair_load.py [--model build/models/crawl] [--repeat 8]
       [--pipeline | --one-table-bound]
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from scripts.bench.profile_steps import REC_FLAGS, options_of, read_all  # noqa: E402
from webprune.benchdata import ROOT  # noqa: E402


def sentences(warc: Path, flags: str) -> list[list[str]]:
    from preprocess.core.segment import sentences_of_lines
    from preprocess.lm.contrastive import normalize_many
    from preprocess.run.pipeline import Pipeline

    steps = Pipeline(options_of(flags)).steps
    if steps[-1].name != "prune":
        sys.exit(f"--rec-flags {flags!r}: the last step is {steps[-1].name}, not prune")
    docs = read_all(warc)
    for step in steps[:-1]:
        docs = list(step.run(docs))
    return [normalize_many([s for _, s in sentences_of_lines(d.lines)]) for d in docs]


def with_load(read: bool, make):
    """``make()`` with every pair it loads read or mapped, whatever its size: ``Pair`` chooses by ``READ_UP_TO``,
    which is set for the call."""
    from preprocess.lm import pair as P

    saved = P.READ_UP_TO
    P.READ_UP_TO = (1 << 62) if read else -1
    try:
        return make()
    finally:
        P.READ_UP_TO = saved


def loaded(folder: Path, read: bool):
    from preprocess.lm.pair import Pair

    pair = with_load(read, lambda: Pair(folder))
    assert pair.read == read
    if pair._compiled is None:
        sys.exit("the compiled pair is not built (scripts/setup.sh): nothing to compare")
    return pair


def one_table_rounds(pages: list[list[str]], folder: Path, repeat: int) -> None:
    from preprocess.lm import _pair
    from preprocess.lm.pair import LOG2_10, OOV

    pair = loaded(folder, True)  # (as the recommended pipeline loads the benchmark's 93 MB pair)
    fallback = pair._score_one_python
    pairs = {"cb": pair._compiled, "cc": _pair.CompiledPair(pair.content, pair.content, pair.vocab, OOV),
             "bb": _pair.CompiledPair(pair.boiler, pair.boiler, pair.vocab, OOV)}
    print(f"{len(pages):,} pages, {sum(map(len, pages)):,} sentences, {repeat} rounds, CPU ms/page of score_many")
    times: dict[str, list[float]] = {k: [] for k in pairs}
    names = list(pairs)
    for rnd in range(repeat):
        for name in names[rnd % 3:] + names[:rnd % 3]:
            score, t = pairs[name].score_many, time.process_time()
            for p in pages:
                score(p, LOG2_10, fallback, True)
            times[name].append(1000 * (time.process_time() - t) / len(pages))
    med = {k: statistics.median(v) for k, v in times.items()}
    for name, label in (("cb", "content + boilerplate (the pair)"), ("cc", "content + content"),
                        ("bb", "boilerplate + boilerplate")):
        print(f"{label:33s} ms/page: {' '.join(f'{x:.3f}' for x in times[name])}; median {med[name]:.3f}")
    work = med["cc"] + med["bb"] - med["cb"]
    misses = med["cb"] - work
    print(f"the pair's scoring {med['cb']:.3f} ms/page (medians): the lookups' work {work:.3f}, their memory misses "
          f"{misses:.3f}; one table for both, the work unchanged, saves at most {misses / 2:.3f} ms/page "
          f"({misses / 2 / med['cb']:.0%} of the pair's scoring)")


def pipeline_rounds(warc: Path, flags: str, repeat: int) -> None:
    from preprocess.core.stats import Stats
    from preprocess.run.pipeline import Pipeline
    from scripts.bench.profile_steps import records, take

    def steps_loaded():  # the pipeline, its pair loaded now (a pair loads on its first page otherwise)
        steps = Pipeline(options_of(flags)).steps
        assert steps[-1].name == "prune"
        return steps, steps[-1].scorer.pair(steps[-1].scorer.main)

    pipes = {}
    for name in ("read", "mapped"):
        pipes[name], pair = with_load(name == "read", steps_loaded)
        assert pair.read == (name == "read")
    ratios = []
    for rnd in range(repeat):
        cpu = {k: 0.0 for k in pipes}
        readers = {k: records(warc, Stats()) for k in pipes}
        k = 0
        while True:
            order = ("read", "mapped") if (k + rnd) % 2 == 0 else ("mapped", "read")
            batches = {name: take(readers[name], 64) for name in order}
            if not batches[order[0]]:
                break
            for name in order:
                batch, steps = batches[name], pipes[name]
                for step in steps[:-1]:
                    step.stats = Stats()
                    batch = list(step.run(batch))
                steps[-1].stats = Stats()
                t = time.process_time()
                batch = list(steps[-1].run(batch))
                cpu[name] += time.process_time() - t
            k += 1
        ratios.append(cpu["read"] / cpu["mapped"])
        print(f"pass {rnd + 1}: prune CPU read {cpu['read']:.2f} s, mapped {cpu['mapped']:.2f} s, "
              f"read / mapped {ratios[-1]:.3f}", flush=True)
    print(f"prune step, read / mapped per pass: {' '.join(f'{x:.2f}' for x in ratios)}; "
          f"median {statistics.median(ratios):.2f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--model", type=Path, default=ROOT / "build" / "models" / "crawl")
    ap.add_argument("--lang", default="en")
    ap.add_argument("--warc", type=Path, default=ROOT / "build" / "bench" / "cleaning.warc.gz")
    ap.add_argument("--rec-flags", default=REC_FLAGS.replace(str(ROOT / "build" / "models" / "crawl"), "{model}"))
    ap.add_argument("--repeat", type=int, default=8)
    ap.add_argument("--pipeline", action="store_true", help="inside the pipeline, batch by batch (see above)")
    ap.add_argument("--one-table-bound", action="store_true", help="what one table for both models could save")
    a = ap.parse_args()
    from preprocess.lm.pair import BOILER, CONTENT, LOG2_10

    if a.repeat < 1:
        ap.error(f"--repeat {a.repeat}: at least 1 round is needed")
    missing = [str(a.model / a.lang / f) for f in (CONTENT, BOILER) if not (a.model / a.lang / f).is_file()]
    if not a.warc.is_file():
        ap.error(f"{a.warc} not found: pack the pages with scripts/tools/pack_cleaning_warc.py")
    if missing:
        ap.error(f"{', '.join(missing)} not found: train the model with `webprune lm train-crawl "
                 "build/bench/cleaning.warc.gz -o build/models/crawl`")

    if a.pipeline:
        return pipeline_rounds(a.warc, a.rec_flags.format(model=a.model), a.repeat)

    pages = sentences(a.warc, a.rec_flags.format(model=a.model))
    folder = a.model / a.lang
    if a.one_table_bound:
        return one_table_rounds(pages, folder, a.repeat)
    pairs = {"mapped": loaded(folder, False), "read": loaded(folder, True)}
    fallback = pairs["mapped"]._score_one_python
    ref = [pairs["mapped"]._compiled.score_many(p, LOG2_10, fallback, True) for p in pages]
    same = all(pairs["read"]._compiled.score_many(p, LOG2_10, fallback, True) == r for p, r in zip(pages, ref))
    print(f"{len(pages):,} pages, {sum(map(len, pages)):,} sentences; the same floats both ways: {same}")
    times: dict[str, list[float]] = {k: [] for k in pairs}
    for rnd in range(a.repeat):
        for name in (("mapped", "read") if rnd % 2 == 0 else ("read", "mapped")):
            score, t = pairs[name]._compiled.score_many, time.process_time()
            for p in pages:
                score(p, LOG2_10, fallback, True)
            times[name].append(1000 * (time.process_time() - t) / len(pages))
    for name, ms in times.items():
        print(f"{name:7s} ms/page: {' '.join(f'{x:.3f}' for x in ms)}")
    ratios = [r / m for m, r in zip(times["mapped"], times["read"])]
    print(f"read / mapped per round: {' '.join(f'{x:.2f}' for x in ratios)}; median {statistics.median(ratios):.2f}")
    huge = [ln.split()[1] for ln in open("/proc/self/smaps_rollup") if ln.startswith("AnonHugePages")]
    print(f"AnonHugePages of this process: {huge[0] if huge else '?'} kB")
    if not same:
        sys.exit(1)


if __name__ == "__main__":
    main()
