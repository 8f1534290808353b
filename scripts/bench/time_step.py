#!/usr/bin/env python
"""CPU milliseconds per page of one step of the recommended pipeline, alone, on the pages that reach it; with
``--checkout`` the same on older code, rounds alternating, so the machine's drift falls on both alike.

    scripts/bench/time_step.py [--step prune] [--rounds 3] [--passes 5] [--checkout ../wt-old]

Pages: the 2,871 pages of ../shared/data/cleaning/*/input packed into one WARC
(``webprune.benchdata.pack_cleaning_pages``), read by the product's reader and run through the steps before
``--step`` of ``--rec-flags`` (``profile_steps.py``'s recommended pipeline, its contrastive model from
``webprune lm train-crawl``: build/models/crawl) in batches of 64. Then the step runs over fresh shallow copies
of those documents ``--passes`` times (its model loaded before the timers); a round prints the median and the
fastest pass and a digest of the step's last output (each document's title and lines, or its handed lines, and
the step's counters without timings): equal digests, equal output. Each round is a child process of the code in
its checkout (``PYTHONPATH``; a worktree with its extensions built: ``setup.py build_ext --inplace``).

Steps that prune a parsed tree in place (the DOM cleaners on pages they parse) see the pruned tree from the second
pass on: time those with ``profile_steps.py``. The learned cleaner reads most pages raw; its digest covers the
lines it hands on.
"""
from __future__ import annotations

import argparse
import copy
import hashlib
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.append(str(ROOT))  # (appended: a child's PYTHONPATH, its checkout, comes first)
sys.path.append(str(Path(__file__).resolve().parent))


def child(step_name: str, passes: int, rec_flags: str) -> None:
    """One round in this process: prints one JSON line."""
    import profile_steps as ps
    from preprocess.core.stats import Stats
    from preprocess.run.pipeline import Pipeline
    from webprune.benchdata import pack_cleaning_pages

    warc = pack_cleaning_pages(ROOT / "build" / "bench", prefix="cleaning")[0]
    pipe = Pipeline(ps.options_of(rec_flags))
    names = [s.name for s in pipe.steps]
    if step_name not in names:
        print(f"--step {step_name}: not a step of the pipeline ({', '.join(names)})", file=sys.stderr)
        sys.exit(2)
    at = names.index(step_name)
    stats, docs = Stats(), []
    for s in pipe.steps:
        s.stats = stats
    reader = ps.records(warc, stats)
    while batch := ps.take(reader, 64):
        for s in pipe.steps[:at]:
            batch = list(s.run(batch))
        for d in batch:
            d.lines  # (made now: lines a step set from a text are made when read)
        docs.extend(batch)
    step = pipe.steps[at]
    scorer = getattr(step, "scorer", None)
    if hasattr(scorer, "pair"):
        scorer.pair(scorer.main)  # (the contrastive pair's load: before the timers)
    snap = [(d, list(d.lines)) for d in docs]
    times = []
    for _ in range(passes):
        st = Stats()
        step.stats = st
        if getattr(step, "hints", None) is not None:
            step.hints.stats = st
        fresh = []
        for d, lines in snap:
            c = copy.copy(d)
            c.lines = list(lines)
            fresh.append(c)
        t0 = time.process_time()
        out = [step.process(c) for c in fresh]
        times.append(time.process_time() - t0)
    h = hashlib.sha256()
    for d in out:
        lines = None if d is None else (d.handed if d.handed is not None else d.lines)
        h.update(json.dumps(None if d is None else [d.title, [(ln.text, ln.link_density) for ln in lines]]).encode())
    h.update(json.dumps(sorted((k, v) for k, v in st.counts.items() if not k.endswith("_s"))).encode())
    n = len(snap)
    print(json.dumps({"pages": n, "median_ms": statistics.median(times) / n * 1e3, "min_ms": min(times) / n * 1e3,
                      "digest": h.hexdigest()[:16]}))


def main() -> None:
    import profile_steps as ps

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--step", default="prune", help="a step name of the pipeline (default: prune)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--passes", type=int, default=5)
    ap.add_argument("--checkout", type=Path, default=None, help="older code to time beside this checkout")
    ap.add_argument("--rec-flags", default=ps.REC_FLAGS, help="webprune preprocess flags of the pipeline")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.child:
        return child(a.step, a.passes, a.rec_flags)
    if a.rounds < 1 or a.passes < 1:
        ap.error("--rounds and --passes take a whole number of at least 1")
    if a.checkout is not None and not (a.checkout / "preprocess").is_dir():
        ap.error(f"--checkout {a.checkout}: not a webprune checkout (no preprocess/ in it)")
    trees = [("this checkout", ROOT)] + ([(f"--checkout {a.checkout}", a.checkout.resolve())] if a.checkout else [])
    print(f"## `{a.step}` alone, CPU ms a page, {a.passes} passes a round, rounds alternating\n")
    print("| round | code | pages | median | fastest | output digest |\n|---|---|---:|---:|---:|---|")
    medians: dict[str, list[float]] = {label: [] for label, _ in trees}
    for r in range(1, a.rounds + 1):
        for label, tree in trees:
            cmd = [sys.executable, str(Path(__file__).resolve()), "--child", "--step", a.step, "--passes",
                   str(a.passes), "--rec-flags", a.rec_flags]
            proc = subprocess.run(cmd, cwd=tree, env=os.environ | {"PYTHONPATH": str(tree)}, capture_output=True,
                                  text=True)
            if proc.returncode == 2:  # (a bad argument the child found: its one line)
                ap.error(proc.stderr.strip().splitlines()[-1])
            if proc.returncode:
                sys.exit(f"round {r} on {tree} failed:\n{proc.stderr[-2000:]}")
            row = json.loads(proc.stdout.strip().splitlines()[-1])
            medians[label].append(row["median_ms"])
            print(f"| {r} | {label} | {row['pages']} | {row['median_ms']:.4f} | {row['min_ms']:.4f} | {row['digest']} |",
                  flush=True)
    if a.checkout:
        now, old = (statistics.median(medians[label]) for label, _ in trees)
        print(f"\nmedian of the rounds' medians: this checkout {now:.4f}, {trees[1][0]} {old:.4f} ms a page: "
              f"{now / old:.3f} of it")


if __name__ == "__main__":
    main()
