#!/usr/bin/env python
"""How often would a cache of sentence scores hit? The lines the contrastive pruner sees, repeated exactly.

    scripts/studies/prune_line_repeats.py [--rec-flags "..."]

Pages: the 2,871 real pages of ../shared/data/cleaning/*/input, once each (the benchmark's x6 copies would
flatter a cache), packed into one WARC (``webprune.benchdata.pack_cleaning_pages``) and read by the product's
reader. They go through the recommended pipeline up to its prune step (``Pipeline(..., stop_before="prune")``),
in input order; a line counts as repeated when an earlier page, or an earlier line of its own page, held exactly
its text. Prints the pages, lines, the repeated lines' share and their characters' share.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "scripts" / "bench")]

from profile_steps import REC_FLAGS, options_of, records, take  # noqa: E402
from preprocess.core.stats import Stats  # noqa: E402
from preprocess.run.pipeline import Pipeline  # noqa: E402
from webprune.benchdata import pack_cleaning_pages  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rec-flags", default=REC_FLAGS, help="webprune preprocess flags of the recommended pipeline")
    a = ap.parse_args()
    warc = pack_cleaning_pages(ROOT / "build" / "bench", files=1, copies=1)[0]  # (profile_steps.py's WARC)
    pipe = Pipeline(options_of(a.rec_flags), stop_before="prune")
    stats, seen = Stats(), set()
    reader = records(warc, stats)
    pages = lines = repeated = chars = repeated_chars = 0
    while batch := take(reader, 64):
        for doc in pipe.run(batch, stats):
            pages += 1
            for line in doc.lines:
                lines += 1
                chars += len(line.text)
                if line.text in seen:
                    repeated += 1
                    repeated_chars += len(line.text)
                seen.add(line.text)
    print(f"pages reaching prune: {pages:,}; lines: {lines:,} ({len(seen):,} distinct); repeated: "
          f"{repeated / max(lines, 1):.3f} of the lines, {repeated_chars / max(chars, 1):.3f} of their characters")


if __name__ == "__main__":
    main()
