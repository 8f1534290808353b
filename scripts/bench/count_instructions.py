#!/usr/bin/env python
"""Instructions per page of one compiled reader, counted by valgrind's callgrind: a speed figure that the load of a
shared machine does not move (CPU times here drift by 15-30% between consecutive runs, more than most changes).

    scripts/bench/count_instructions.py [--parts scan raw] [--every 8] [--checkout ../wt-old]

Pages: every ``--every``-th page of ../shared/data/cleaning/*/input, packed into a WARC
(``webprune.benchdata.pack_cleaning_pages``), read and decoded by the product's reader and decode step. Parts:

  scan  the streaming tag remover's compiled scan (``preprocess.steps.stream._scan.scan``: what ``tags`` runs)
  raw   the learned cleaner's compiled raw reader (``preprocess.cleaners.learned.raw.read_raw``, no hint rule)
  tags  the whole ``--cleaner tags`` pipeline after the reader: decode, the scan, the title and the JSON lines
        (``Pipeline.process``), every page a record
  rec   the whole recommended pipeline after the reader (``--rec-flags``; its contrastive model from
        ``webprune lm train-crawl``, build/models/crawl), against a baseline that reads the records and builds
        the pipeline (its models loaded) but runs none: callgrind counts instructions, not the cache misses of
        KenLM's lookups, so this measures the code around them

Each part is one callgrind run of a child process that reads and decodes the pages and then runs the part; a
baseline child does the same without the part, and the part's figure is the difference over the pages (hash
seed 0: string hashing moves dict probes, and with them the count, by a few per cent). The ``tags`` part's
baseline reads the records and decodes none (decode is part of what it counts). With
``--checkout DIR`` (a worktree of older code with its extensions built: ``setup.py build_ext --inplace``) every
child runs again on that code, so the two are side by side in one table. Needs valgrind (about a minute a
callgrind run).
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.append(str(ROOT))  # (appended: under --checkout the child's PYTHONPATH, the older code, comes first)
PARTS = ("scan", "raw", "tags", "rec")
BASELINE = {"scan": "none", "raw": "none", "tags": "read", "rec": "rec-built"}


def child(part: str, every: int, rec_flags: str) -> None:
    """(run under callgrind) read and decode the sampled pages, then run ``part`` on each (``none``: nothing)."""
    from preprocess.config.options import CleanOptions
    from preprocess.core.stats import Stats
    from preprocess.readers import read_source
    from preprocess.readers.sources import discover
    from preprocess.run.pipeline import Pipeline
    from webprune.benchdata import pack_cleaning_pages

    from preprocess.cleaners.learned import raw
    from preprocess.steps.stream import _scan

    warc = pack_cleaning_pages(ROOT / "build" / "bench", 1, 1)[0]
    stats = Stats()
    docs = [d for src in discover([str(warc)]) for d in read_source(src, stats)][::every]
    if part in ("tags", "read", "rec", "rec-built"):
        if part == "tags":
            docs = Pipeline(CleanOptions(cleaner="tags")).process(docs)[0]
        elif part.startswith("rec"):
            from scripts.bench.profile_steps import options_of

            pipe = Pipeline(options_of(rec_flags))
            pipe.process(docs[:8])  # (models a step loads when first used: loaded in both, counted in neither)
            docs = docs[8:]
            if part == "rec":
                pipe.process(docs)
        print(len(docs))
        return
    decode = next(s for s in Pipeline(CleanOptions(cleaner="tags")).steps if s.name == "decode")
    decode.stats = stats
    pages = [d.html for d in decode.run(docs) if d.html]
    run = {"scan": _scan.scan, "raw": lambda h: raw.read_raw(h, hints=None), "none": None}[part]
    if run is not None:
        for html in pages:
            run(html)
    print(len(pages))


def count(part: str, every: int, checkout: Path, rec_flags: str) -> tuple[int, int]:
    """(instructions, pages) of one child run under callgrind on the code in ``checkout``."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        shared = os.environ.get("WEBPRUNE_SHARED", str(ROOT.parent / "shared" / "data"))
        env = os.environ | {"PYTHONPATH": str(checkout), "PYTHONHASHSEED": "0", "WEBPRUNE_SHARED": shared}
        cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable, __file__, "--child", part,
               "--every", str(every), "--rec-flags", rec_flags]
        proc = subprocess.run(cmd, cwd=checkout, env=env, capture_output=True, text=True)
        if proc.returncode != 0:
            sys.exit(f"callgrind run of {part} in {checkout} failed:\n{proc.stderr[-2000:]}")
        found = re.search(r"Collected : (\d+)", proc.stderr)
        return int(found.group(1)), int(proc.stdout.split()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--parts", nargs="+", choices=PARTS, default=list(PARTS))
    ap.add_argument("--every", type=int, default=8, help="every N-th page of the 2,871 (default 8: 359 pages)")
    ap.add_argument("--checkout", type=Path, default=None, help="older code to count beside this checkout")
    ap.add_argument("--rec-flags", default=None, help="webprune preprocess flags of the rec part (default: "
                    "profile_steps.py's recommended pipeline)")
    ap.add_argument("--child", choices=(*PARTS, "none", "read", "rec-built"), help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.every < 1:
        ap.error(f"--every {a.every}: give 1 or more")
    if a.checkout is not None and not (a.checkout / "preprocess").is_dir():
        ap.error(f"--checkout {a.checkout}: not a webprune checkout (no preprocess/ in it)")
    if a.rec_flags is None:
        from scripts.bench.profile_steps import REC_FLAGS

        a.rec_flags = REC_FLAGS
    if a.child:
        return child(a.child, a.every, a.rec_flags)
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed (apt-get install valgrind)")
    trees = [("this checkout", ROOT)] + ([(f"--checkout {a.checkout}", a.checkout.resolve())] if a.checkout else [])
    per, pages = {}, {}
    for label, tree in trees:
        bases = {}
        for part in a.parts:
            kind = BASELINE[part]
            if kind not in bases:
                bases[kind] = count(kind, a.every, tree, a.rec_flags)
            base, pages[part] = bases[kind]
            per[part, label] = (count(part, a.every, tree, a.rec_flags)[0] - base) / pages[part]
    print("| part | code | pages | instructions a page |\n|---|---|---:|---:|")
    for part in a.parts:
        for label, _ in trees:
            print(f"| {part} | {label} | {pages[part]:,} | {per[part, label]:,.0f} |")
    if a.checkout:
        print()
        for part in a.parts:
            print(f"{part}: {per[part, trees[0][0]] / per[part, trees[1][0]]:.3f} of the older code's instructions")


if __name__ == "__main__":
    main()
