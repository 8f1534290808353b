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

Usage: .venv/bin/python scripts/bench/bench_pair_load.py [--model build/models/crawl] [--repeat 8] [--pipeline]
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
